// {{name}}: a PreToolUse guard for the `bash` tool in TypeScript, written with hookhost's
// JavaScript SDK (hookhost.js, typed by hookhost.d.ts, next to this file): one function gets
// the payload as an object and returns block("why"), force("msg"), updateInput({...}),
// context("text") or nothing (pass). Destructive commands are blocked; a payload that cannot
// be parsed, or an exception in the function, blocks too (fail closed).
// Build: `npm run build` (or `hookhost build`): type-check, strip the types, componentize.
import { hook, block } from "./hookhost.js";

// Patterns that destroy data, with the reason the model is shown.
const DANGEROUS: ReadonlyArray<readonly [string, string]> = [
  ["rm -rf /", "deletes the whole filesystem"],
  ["rm -fr /", "deletes the whole filesystem"],
  ["rm -rf ~", "deletes the home directory"],
  ["mkfs", "formats a disk"],
];

export const handle = hook(function guard(payload) {
  if (payload.event !== "PreToolUse" || payload.toolName !== "bash") return;
  // Collapse runs of whitespace so `rm  -rf   /` is caught too.
  const command = String(payload.toolArgs?.command ?? "").trim().split(/\s+/).join(" ");
  for (const [pattern, why] of DANGEROUS) {
    if (command.includes(pattern)) {
      return block(`{{name}}: \`${pattern}\` ${why}; use a safer command`);
    }
  }
});
