// The dangerous-bash guard in JavaScript: a component of the `hook` world (wit/hook.wit).
// `handle` gets the event name and the payload JSON, and answers with a typed decision.
const DANGEROUS = ["rm -rf /", "rm -rf ~", "mkfs", "git push --force"];

export function handle(payload) {
  const pass = { decision: { tag: "pass" } };
  if (payload.event !== "PreToolUse") return pass;
  const p = JSON.parse(payload.json);
  if (p.toolName !== "bash") return pass;
  const command = String(p.toolArgs?.command ?? "").split(/\s+/).join(" ");
  const hit = DANGEROUS.find((d) => command.includes(d));
  if (hit) return { decision: { tag: "block", val: `javascript guard: \`${hit}\` is destructive` } };
  return pass;
}
