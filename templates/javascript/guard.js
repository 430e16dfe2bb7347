// {{name}}: a PreToolUse guard for the `bash` tool, a component of the typed `hook` world
// (wit/hook.wit) built with componentize-js. hookhost calls `handle` with the event name and
// the payload JSON; the returned decision is the answer. Destructive commands are blocked; a
// payload that cannot be parsed is blocked too (fail closed); everything else passes.

// Patterns that destroy data, with the reason the model is shown.
const DANGEROUS = [
  ["rm -rf /", "deletes the whole filesystem"],
  ["rm -fr /", "deletes the whole filesystem"],
  ["rm -rf ~", "deletes the home directory"],
  ["mkfs", "formats a disk"],
];

const pass = () => ({ decision: { tag: "pass" } });
const block = (reason) => ({ decision: { tag: "block", val: reason } });

export function handle(payload) {
  let p;
  try {
    p = JSON.parse(payload.json);
  } catch {
    return block("{{name}}: cannot parse the payload; blocking to be safe");
  }
  if (p === null || typeof p !== "object" || Array.isArray(p)) {
    return block("{{name}}: the payload is not a JSON object; blocking to be safe");
  }
  if (payload.event !== "PreToolUse" || p.toolName !== "bash") return pass();
  // Collapse runs of whitespace so `rm  -rf   /` is caught too.
  const command = String(p.toolArgs?.command ?? "").trim().split(/\s+/).join(" ");
  for (const [pattern, why] of DANGEROUS) {
    if (command.includes(pattern)) {
      return block(`{{name}}: \`${pattern}\` ${why}; use a safer command`);
    }
  }
  return pass();
}
