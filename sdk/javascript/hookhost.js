// hookhost's JavaScript guest SDK: one function is a hook.
//
//   import { hook, block } from "./hookhost.js";
//
//   export const handle = hook((payload) => {
//     if (payload.toolArgs?.command?.includes("rm -rf /")) return block("deletes everything");
//   });
//
// The function gets the payload (DESIGN §2) as an object, with its `event` field, and returns
// block(reason), force(message), updateInput({...}), context(text) or nothing (pass). Build
// with componentize-js (`node build.mjs`, which passes `sourcePath` so this file is imported)
// or `jco componentize guard.js --wit wit --world-name hook -o guard.wasm`.
//
// It fails closed: a payload that cannot be parsed, or an exception escaping the function,
// answers `block` (which blocks a PreToolUse and is only a warning elsewhere) instead of
// trapping: a trap would only warn, letting the tool call through.

const answer = (decision, extra = {}) => ({ decision, ...extra });

/** PreToolUse: do not run the tool; `reason` goes to the model. */
export const block = (reason) => answer({ tag: "block", val: String(reason) });
/** Stop/SubagentStop: keep the agent working; `message` becomes a user message. */
export const force = (message) => answer({ tag: "force", val: String(message) });
/** PreToolUse: run the tool with `args` instead of its arguments. */
export const updateInput = (args) =>
  answer({ tag: "pass" }, { updatedInput: JSON.stringify(args) });
/** Text added to the model's context (UserPromptSubmit, SessionStart, PostToolUse). */
export const context = (text) => answer({ tag: "pass" }, { additionalContext: String(text) });

const isAnswer = (a) =>
  a !== null && typeof a === "object" && typeof a.decision?.tag === "string";

/** Makes `fn(payload)` the hook: returns the `handle` export of the `hook` world. */
export function hook(fn) {
  return function handle(payload) {
    let p;
    try {
      p = JSON.parse(payload.json);
    } catch (e) {
      return block(`${fn.name || "hook"}: cannot read the payload (${e}); blocking to fail closed`);
    }
    if (p === null || typeof p !== "object" || Array.isArray(p)) {
      return block(`${fn.name || "hook"}: the payload is not a JSON object; blocking to fail closed`);
    }
    p.event ??= payload.event;
    let a;
    try {
      a = fn(p);
    } catch (e) {
      return block(`${fn.name || "hook"}: ${e}; blocking to fail closed`);
    }
    if (a === undefined || a === null) return answer({ tag: "pass" });
    if (!isAnswer(a)) {
      return block(`${fn.name || "hook"} returned ${typeof a}; return block(), force(), updateInput(), context() or nothing`);
    }
    return a;
  };
}
