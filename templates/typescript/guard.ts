// {{name}}: a PreToolUse guard for the `bash` tool in TypeScript, a component of the typed
// `hook` world (wit/hook.wit): build.mjs type-checks this file, strips the types and
// componentizes the result with componentize-js. hookhost calls `handle` with the event name
// and the payload JSON; the returned decision is the answer. Destructive commands are
// blocked; a payload that cannot be parsed is blocked too (fail closed); everything else passes.

/** The `payload` record of wit/hook.wit. */
interface Payload {
  event: string;
  json: string;
}

/** The `decision` variant and `response` record of wit/hook.wit. */
type Decision = { tag: "pass" } | { tag: "block"; val: string } | { tag: "force"; val: string };
interface Response {
  decision: Decision;
  updatedInput?: string;
  additionalContext?: string;
}

// Patterns that destroy data, with the reason the model is shown.
const DANGEROUS: ReadonlyArray<readonly [string, string]> = [
  ["rm -rf /", "deletes the whole filesystem"],
  ["rm -fr /", "deletes the whole filesystem"],
  ["rm -rf ~", "deletes the home directory"],
  ["mkfs", "formats a disk"],
];

const pass = (): Response => ({ decision: { tag: "pass" } });
const block = (reason: string): Response => ({ decision: { tag: "block", val: reason } });

export function handle(payload: Payload): Response {
  let p: unknown;
  try {
    p = JSON.parse(payload.json);
  } catch {
    return block("{{name}}: cannot parse the payload; blocking to be safe");
  }
  if (p === null || typeof p !== "object" || Array.isArray(p)) {
    return block("{{name}}: the payload is not a JSON object; blocking to be safe");
  }
  const fields = p as { toolName?: unknown; toolArgs?: { command?: unknown } };
  if (payload.event !== "PreToolUse" || fields.toolName !== "bash") return pass();
  // Collapse runs of whitespace so `rm  -rf   /` is caught too.
  const command = String(fields.toolArgs?.command ?? "").trim().split(/\s+/).join(" ");
  for (const [pattern, why] of DANGEROUS) {
    if (command.includes(pattern)) {
      return block(`{{name}}: \`${pattern}\` ${why}; use a safer command`);
    }
  }
  return pass();
}
