// @ts-check
// A minimal TypeScript-style agent loop on Node, wired to hookhost at every trigger point
// through `hookhost serve` (the `hookhost` npm package). Types come from the package's
// index.d.ts (checked with `// @ts-check`). The model is scripted (no network).
//
//     node examples/agents/ts_agent.mjs PROJECT_DIR   # exits 1 if hooks did not act
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { Runner, block, pass } from "hookhost";

const PROJECT = resolve(process.argv[2] ?? ".");

/** @typedef {{tool: string, args: Record<string, any>} | {final: string}} Turn */

/** @param {string} name @param {Record<string, any>} args @returns {[string, boolean]} */
function runTool(name, args) {
  try {
    if (name === "bash") return [execFileSync("sh", ["-c", args.command], { cwd: PROJECT, encoding: "utf8" }), false];
    if (name === "write_file") {
      mkdirSync(dirname(join(PROJECT, args.path)), { recursive: true });
      writeFileSync(join(PROJECT, args.path), args.content);
      return [`wrote ${args.path}`, false];
    }
    if (name === "read_file") return [readFileSync(join(PROJECT, args.path), "utf8"), false];
    return [`unknown tool ${name}`, true];
  } catch (e) {
    return [String(e), true];
  }
}

/** @param {Runner} hooks @param {Turn[]} script @param {string} prompt */
async function agent(hooks, script, prompt) {
  /** @type {any[]} */ const log = [];
  /** @type {{role: string, content: string}[]} */ let messages = [];
  const start = await hooks.sessionStart("startup");
  for (const c of start.additionalContext) messages.push({ role: "system", content: c });
  const sub = await hooks.userPromptSubmit(prompt);
  for (const c of sub.additionalContext) messages.push({ role: "system", content: c });
  messages.push({ role: "user", content: prompt });
  let stopActive = false;
  for (;;) {
    if (messages.length > 6) {
      await hooks.preCompact("auto");
      messages = messages.slice(-4);
      log.push(["compacted"]);
    }
    const turn = script.shift() ?? { final: "done" };
    if ("final" in turn) {
      const stop = await hooks.stop(stopActive);
      if (stop.forced) {
        log.push(["forced", stop.reason]);
        messages.push({ role: "user", content: stop.reason ?? "" });
        stopActive = true;
        continue;
      }
      log.push(["final", turn.final]);
      break;
    }
    const pre = await hooks.preToolUse(turn.tool, turn.args);
    if (pre.blocked) {
      log.push(["blocked", turn.tool, pre.reason]);
      messages.push({ role: "tool", content: `blocked: ${pre.reason}` });
      continue;
    }
    const args = pre.updatedArgs ?? turn.args;
    const [output, error] = runTool(turn.tool, args);
    log.push(["ran", turn.tool, JSON.stringify(args)]);
    const post = await hooks.postToolUse(turn.tool, args, output, error);
    messages.push({ role: "tool", content: output });
    for (const c of [...post.additionalContext, ...post.feedback]) messages.push({ role: "system", content: c });
  }
  await hooks.sessionEnd("exit");
  return log;
}

const hooks = await Runner.start(PROJECT);
// In-process JavaScript hooks, next to the project's configured shell and wasm hooks.
await hooks.register("PreToolUse", "write_file", (p) => (p.toolArgs?.path?.endsWith(".env") ? block("no writing secrets") : null));
await hooks.register("SessionStart", null, (p) => pass({ additionalContext: `You are in ${p.cwd}` }));
const log = await agent(hooks, [
  { tool: "bash", args: { command: "echo hello" } },
  { tool: "bash", args: { command: "rm -rf /" } },
  { tool: "write_file", args: { path: ".env", content: "KEY=1" } },
  { tool: "write_file", args: { path: "notes.txt", content: "todo" } },
  { final: "all done" },
  { tool: "read_file", args: { path: "notes.txt" } },
  { final: "really done" },
], "tidy up the project");
await hooks.shutdown();
for (const entry of log) console.log(...entry);
const ok =
  log.some((e) => e[0] === "blocked" && e[1] === "bash") &&
  log.some((e) => e[0] === "blocked" && e[1] === "write_file") &&
  log.some((e) => e[0] === "forced") &&
  log.at(-1)[0] === "final" &&
  !existsSync(join(PROJECT, ".env"));
console.log("ts agent:", ok ? "hooks acted at every trigger point" : "FAILED");
process.exit(ok ? 0 : 1);
