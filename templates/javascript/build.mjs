// Builds guard.js (and hookhost.js, the SDK it imports) into {{name}}.wasm, a component of
// the `hook` world (wit/hook.wit). The disabled features keep WASI interfaces the guard does
// not use (notably wasi:http, which hookhost does not provide) out of the component, so it
// links in hookhost.
import { componentize } from "@bytecodealliance/componentize-js";
import { writeFile } from "node:fs/promises";

const here = (p) => new URL(p, import.meta.url).pathname;
const { component } = await componentize({
  sourcePath: here("./guard.js"),
  witPath: here("./wit/hook.wit"),
  worldName: "hook",
  disableFeatures: ["random", "stdio", "clocks", "http", "fetch-event"],
});
await writeFile(here("./{{name}}.wasm"), component);
