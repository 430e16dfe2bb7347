// The dangerous-bash guard in JavaScript, with hookhost's JavaScript SDK
// (sdk/javascript/hookhost.js): one function gets the payload as an object and returns
// block(...) or nothing. Built into a component of the `hook` world (wit/hook.wit) by
// build.mjs (componentize-js) and by `jco componentize --backend quickjs`.
import { hook, block } from "./hookhost.js"; // copied from sdk/javascript by build.mjs

const DANGEROUS = ["rm -rf /", "rm -rf ~", "mkfs", "git push --force"];

export const handle = hook(function guard(p) {
  if (p.event !== "PreToolUse" || p.toolName !== "bash") return;
  const command = String(p.toolArgs?.command ?? "").split(/\s+/).join(" ");
  const hit = DANGEROUS.find((d) => command.includes(d));
  if (hit) return block(`javascript guard: \`${hit}\` is destructive`);
});
