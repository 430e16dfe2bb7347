// Types of hookhost's JavaScript guest SDK (hookhost.js), for hooks written in TypeScript:
//
//   import { hook, block } from "./hookhost.js";
//
//   export const handle = hook((payload) => {
//     if (payload.toolName === "bash" && String(payload.toolArgs?.command).includes("rm -rf /"))
//       return block("deletes everything");
//   });

/** The event payload (DESIGN §2), parsed: `event` is always set; the rest depends on it. */
export interface Payload {
  event: string;
  sessionId?: string;
  projectDir?: string;
  cwd?: string;
  /** PreToolUse, PostToolUse. */
  toolName?: string;
  toolArgs?: Record<string, unknown>;
  /** PostToolUse. */
  toolResult?: unknown;
  /** UserPromptSubmit. */
  prompt?: string;
  [field: string]: unknown;
}

/** What a hook answers; made by block(), force(), updateInput() and context(). */
export interface Answer {
  decision: { tag: "pass" } | { tag: "block"; val: string } | { tag: "force"; val: string };
  updatedInput?: string;
  additionalContext?: string;
}

/** The `payload` record of the `hook` world (wit/hook.wit): the event and its JSON. */
export interface HookPayload {
  event: string;
  json: string;
}

/** PreToolUse: do not run the tool; `reason` goes to the model. */
export function block(reason: string): Answer;
/** Stop/SubagentStop: keep the agent working; `message` becomes a user message. */
export function force(message: string): Answer;
/** PreToolUse: run the tool with `args` instead of its arguments. */
export function updateInput(args: Record<string, unknown>): Answer;
/** Text added to the model's context (UserPromptSubmit, SessionStart, PostToolUse). */
export function context(text: string): Answer;
/**
 * Makes `fn(payload)` the hook: returns the `handle` export of the `hook` world. An
 * unreadable payload, or an exception escaping `fn`, answers block (fail closed).
 */
export function hook(fn: (payload: Payload) => Answer | undefined | void): (payload: HookPayload) => Answer;
