// hookhost's opencode plugin: hands opencode's tool and session events to
// `hookhost hook --for opencode`, which runs your .coding-agent/hooks.json (the project's and
// ~/.coding-agent/hooks.json) and answers. A blocked tool call throws an Error with the
// guard's reason (opencode shows it to the model as the tool's failure); a rewrite of the
// call's arguments is applied; what a hook adds after a tool is added to the tool's result.
//
// Install: copy this file to ~/.config/opencode/plugins/ (every project) or to a project's
// .opencode/plugins/ (docs/plugins.md). Plain JavaScript, no dependencies.
//
// It runs `hookhost-warm` (the small client of the warm engine) when it is on PATH, else
// `hookhost` (issue 43's order, as `adapter_command` wires the other agents). When neither
// can run, or its answer cannot be read, a tool call is blocked (fail closed) and the error
// says why; after a tool and on session events the failure is only logged.

import { spawn } from "node:child_process";
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, join } from "node:path";

const AGENT = "opencode";
const PROGRAMS = ["hookhost-warm", "hookhost"];
const SESSION_EVENTS = ["session.created", "session.idle"];

// The first of PROGRAMS found on PATH, as an absolute path (null: none).
function adapterProgram() {
  const dirs = (process.env.PATH || "").split(delimiter).filter((d) => d !== "");
  const suffix = process.platform === "win32" ? ".exe" : "";
  for (const name of PROGRAMS) {
    for (const dir of dirs) {
      const candidate = join(dir, name + suffix);
      try {
        if (!statSync(candidate).isFile()) continue;
        accessSync(candidate, constants.X_OK);
        return candidate;
      } catch {
        // Not there, or not executable: the next one.
      }
    }
  }
  return null;
}

// Runs the adapter with `payload` on stdin: {code, stdout, stderr}; rejects when it cannot
// be started.
function runAdapter(payload, cwd) {
  const program = adapterProgram();
  if (program === null) {
    return Promise.reject(
      new Error(`neither ${PROGRAMS.join(" nor ")} is on PATH (install hookhost, or put it on opencode's PATH)`),
    );
  }
  return new Promise((resolve, reject) => {
    const child = spawn(program, ["hook", "--for", AGENT], { cwd, stdio: ["pipe", "pipe", "pipe"] });
    const out = [];
    const err = [];
    child.stdout.on("data", (b) => out.push(b));
    child.stderr.on("data", (b) => err.push(b));
    child.on("error", (e) => reject(new Error(`${program} could not be started: ${e.message}`)));
    child.on("close", (code, signal) =>
      resolve({
        code: code === null ? `signal ${signal}` : code,
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: Buffer.concat(err).toString("utf8"),
        program,
      }),
    );
    // The adapter may answer without reading everything (it then closes its stdin).
    child.stdin.on("error", () => {});
    child.stdin.end(JSON.stringify(payload) + "\n");
  });
}

// The adapter's answer to `payload`, as an object. Throws, saying why, when there is none:
// it could not run, it failed (exit 2 is its own fail-closed block, its reason on stderr), or
// its answer is not JSON.
async function ask(payload, cwd) {
  const r = await runAdapter(payload, cwd);
  const said = r.stderr.trim().split("\n").filter((l) => l !== "").join("; ");
  if (r.code === 2) {
    throw new Error(said || `${r.program} exited 2 (a block) without saying why`);
  }
  if (r.code !== 0) {
    throw new Error(`${r.program} failed (exit ${r.code})${said ? ": " + said : ""}`);
  }
  const text = r.stdout.trim();
  if (text === "") return {};
  try {
    const answer = JSON.parse(text);
    if (answer === null || typeof answer !== "object" || Array.isArray(answer)) throw new Error("not an object");
    return answer;
  } catch (e) {
    throw new Error(`${r.program} answered something that is not a JSON object (${e.message}): ${text.slice(0, 200)}`);
  }
}

// Replaces the contents of `target` (opencode's own `output.args` object) by `args`.
function replaceArgs(target, args) {
  for (const key of Object.keys(target)) delete target[key];
  Object.assign(target, args);
}

export const HookhostPlugin = async ({ directory, client }) => {
  const cwd = directory || process.cwd();
  // Each call's arguments, from before the tool to after it (opencode's after-hook does
  // not pass them).
  const argsOf = new Map();
  const log = async (level, message) => {
    try {
      if (client && client.app && typeof client.app.log === "function") {
        await client.app.log({ body: { service: "hookhost", level, message } });
        return;
      }
    } catch {
      // Fall through to stderr.
    }
    console.error(`hookhost: ${message}`);
  };
  const said = async (answer) => {
    if (typeof answer.message === "string" && answer.message !== "") await log("warn", answer.message);
  };
  return {
    "tool.execute.before": async (input, output) => {
      const payload = {
        event: "tool.execute.before",
        tool: input.tool,
        args: output.args ?? {},
        sessionID: input.sessionID,
        callID: input.callID,
        cwd,
      };
      let answer;
      try {
        answer = await ask(payload, cwd);
      } catch (e) {
        throw new Error(`hookhost could not decide on this ${input.tool} call, so it is blocked (fail closed): ${e.message}`);
      }
      await said(answer);
      if (answer.block) {
        throw new Error(typeof answer.reason === "string" && answer.reason !== "" ? answer.reason : "blocked by a hookhost hook");
      }
      if (answer.args && typeof answer.args === "object" && !Array.isArray(answer.args)) {
        if (output.args && typeof output.args === "object") replaceArgs(output.args, answer.args);
        else output.args = answer.args;
      }
      if (input.callID !== undefined) argsOf.set(input.callID, output.args);
    },
    "tool.execute.after": async (input, output) => {
      const args = input.args ?? argsOf.get(input.callID) ?? {};
      argsOf.delete(input.callID);
      const payload = {
        event: "tool.execute.after",
        tool: input.tool,
        args,
        sessionID: input.sessionID,
        callID: input.callID,
        cwd,
        output: typeof output.output === "string" ? output.output : JSON.stringify(output.output ?? null),
        title: output.title,
      };
      let answer;
      try {
        answer = await ask(payload, cwd);
      } catch (e) {
        await log("error", `after ${input.tool}: ${e.message}`);
        return;
      }
      await said(answer);
      if (typeof answer.output === "string") output.output = answer.output;
      if (typeof answer.context === "string" && answer.context !== "") {
        output.output = `${output.output ?? ""}\n\n${answer.context}`;
      }
    },
    event: async ({ event }) => {
      if (!event || !SESSION_EVENTS.includes(event.type)) return;
      const props = event.properties || {};
      const sessionID = props.sessionID ?? (props.info && props.info.id);
      try {
        await said(await ask({ event: event.type, sessionID, cwd }, cwd));
      } catch (e) {
        await log("error", `${event.type}: ${e.message}`);
      }
    },
  };
};
