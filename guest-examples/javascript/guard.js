// The dangerous-bash guard in JavaScript: a component of the `hook` world (wit/hook.wit).
// `handle` gets the event name and the payload JSON, and answers with a typed decision.
// It fails closed: an exception escaping `handle` traps, and a trap only warns (the call
// would go through), so a payload it cannot read is blocked instead.
const DANGEROUS = ["rm -rf /", "rm -rf ~", "mkfs", "git push --force"];

const block = (reason) => ({ decision: { tag: "block", val: `javascript guard: ${reason}` } });

export function handle(payload) {
  const pass = { decision: { tag: "pass" } };
  if (payload.event !== "PreToolUse") return pass;
  let p;
  try {
    p = JSON.parse(payload.json);
  } catch (e) {
    return block(`cannot read the payload (${e}); blocking to fail closed`);
  }
  if (p === null || typeof p !== "object") return block("the payload is not an object; blocking");
  if (p.toolName !== "bash") return pass;
  const command = String(p.toolArgs?.command ?? "").split(/\s+/).join(" ");
  const hit = DANGEROUS.find((d) => command.includes(d));
  if (hit) return block(`\`${hit}\` is destructive`);
  return pass;
}
