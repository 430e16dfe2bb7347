// Builds guard.js into a component of the hook world with componentize-js.
import { componentize } from "@bytecodealliance/componentize-js";
import { readFile, writeFile, mkdir } from "node:fs/promises";

const source = await readFile(new URL("./guard.js", import.meta.url), "utf8");
const { component } = await componentize(source, {
  witPath: new URL("../../wit/hook.wit", import.meta.url).pathname,
  worldName: "hook",
  disableFeatures: ["random", "stdio", "clocks", "http", "fetch-event"],
});
await mkdir(new URL("../out/", import.meta.url), { recursive: true });
await writeFile(new URL("../out/bash-guard-js.wasm", import.meta.url), component);
console.log(`bash-guard-js.wasm: ${component.length} bytes`);
