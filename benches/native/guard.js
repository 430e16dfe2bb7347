// The dangerous-bash guard as a plain `node guard.js` run through a shell hook: the baseline
// the JavaScript components are measured against (scripts/bench-report). Same logic as
// guest-examples/javascript/guard.js.
const DANGEROUS = ["rm -rf /", "rm -rf ~", "mkfs", "git push --force"];
let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (c) => (input += c));
process.stdin.on("end", () => {
  let p;
  try {
    p = JSON.parse(input);
  } catch (e) {
    process.stderr.write(`javascript guard: cannot read the payload (${e}); blocking to fail closed`);
    process.exit(2);
  }
  if (p?.event !== "PreToolUse" || p.toolName !== "bash") return;
  const command = String(p.toolArgs?.command ?? "").split(/\s+/).join(" ");
  const hit = DANGEROUS.find((d) => command.includes(d));
  if (hit) {
    process.stderr.write(`javascript guard: \`${hit}\` is destructive`);
    process.exit(2);
  }
});
