// Builds guard.js (and the SDK it imports) into a component of the hook world with
// componentize-js.
import { componentize } from "@bytecodealliance/componentize-js";
import { copyFile, writeFile, mkdir } from "node:fs/promises";

// The SDK must sit next to guard.js (imports may not leave the source's folder).
await copyFile(
  new URL("../../sdk/javascript/hookhost.js", import.meta.url),
  new URL("./hookhost.js", import.meta.url),
);

const { component } = await componentize({
  sourcePath: new URL("./guard.js", import.meta.url).pathname,
  witPath: new URL("../../wit/hook.wit", import.meta.url).pathname,
  worldName: "hook",
  disableFeatures: ["random", "stdio", "clocks", "http", "fetch-event"],
});
await mkdir(new URL("../out/", import.meta.url), { recursive: true });
await writeFile(new URL("../out/bash-guard-js.wasm", import.meta.url), component);
console.log(`bash-guard-js.wasm: ${component.length} bytes`);
