// Builds guard.ts into {{name}}.wasm, a component of the `hook` world (wit/hook.wit):
// type-check with the TypeScript compiler (tsconfig.json; hookhost.d.ts types the SDK), strip
// the types into guard.js next to the SDK it imports (hookhost.js), componentize that.
// The disabled features keep WASI interfaces the guard does not use (notably wasi:http,
// which hookhost does not provide) out of the component, so it links in hookhost.
import { componentize } from "@bytecodealliance/componentize-js";
import ts from "typescript";
import { readFile, writeFile } from "node:fs/promises";

const here = (p) => new URL(p, import.meta.url).pathname;
const config = ts.getParsedCommandLineOfConfigFile(here("./tsconfig.json"), {}, {
  ...ts.sys,
  onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n")); },
});
const program = ts.createProgram(config.fileNames, config.options);
const diagnostics = ts.getPreEmitDiagnostics(program);
if (diagnostics.length > 0) {
  const host = {
    getCanonicalFileName: (f) => f, getCurrentDirectory: ts.sys.getCurrentDirectory, getNewLine: () => "\n",
  };
  const format = process.stderr.isTTY ? ts.formatDiagnosticsWithColorAndContext : ts.formatDiagnostics;
  console.error(format(diagnostics, host));
  process.exit(1);
}
const source = ts.transpileModule(await readFile(here("./guard.ts"), "utf8"), {
  compilerOptions: { ...config.options, noEmit: false },
}).outputText;
await writeFile(here("./guard.js"), source);
const { component } = await componentize({
  sourcePath: here("./guard.js"),
  witPath: here("./wit/hook.wit"),
  worldName: "hook",
  disableFeatures: ["random", "stdio", "clocks", "http", "fetch-event"],
});
await writeFile(here("./{{name}}.wasm"), component);
