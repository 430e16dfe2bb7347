import { EventEmitter } from "node:events";

export type EventName =
  | "SessionStart"
  | "UserPromptSubmit"
  | "PreToolUse"
  | "PermissionRequest"
  | "PostToolUse"
  | "PostToolUseFailure"
  | "Notification"
  | "SubagentStart"
  | "PreCompact"
  | "PostCompact"
  | "Stop"
  | "StopFailure"
  | "SubagentStop"
  | "SessionEnd"
  | "Setup"
  | "InstructionsLoaded"
  | "UserPromptExpansion"
  | "MessageDisplay"
  | "PostToolBatch"
  | "PermissionDenied"
  | "TaskCreated"
  | "TaskCompleted"
  | "TeammateIdle"
  | "ConfigChange"
  | "CwdChanged"
  | "DirectoryAdded"
  | "FileChanged"
  | "WorktreeCreate"
  | "WorktreeRemove"
  | "Elicitation"
  | "ElicitationResult"
  | "PreModelSwitch"
  | "PostModelSwitch"
  | "PreSkillShellCommand";

export type Decision = "pass" | "block" | "force";

/** One hook's run, as `hookhost run --json` reports it. */
export interface HookRecord {
  hook: string;
  source: string;
  command: string;
  kind: "shell" | "wasm" | "http" | "fn" | "prompt" | "agent";
  outcome: "pass" | "block" | "force" | "allow" | "warn" | "timeout" | "error" | "skipped";
  exitCode: number | null;
  durationMs: number;
  stdout: string;
  stderr: string;
  truncated: boolean;
  async: boolean;
  message: string | null;
  /** A prompt or agent hook: what the model answered. */
  model?: { model: string; asked_sha256: string; ok: boolean; reason?: string; replayed?: boolean };
}

/** What firing one event decided. `raw` is the whole `run --json` object. */
export interface Report {
  event: EventName;
  decision: Decision;
  blocked: boolean;
  forced: boolean;
  reason: string | null;
  updatedArgs: Record<string, unknown> | null;
  ask: boolean;
  /** PermissionRequest: a hook allowed the call without the permission prompt. */
  allow: boolean;
  additionalContext: string[];
  systemMessages: string[];
  feedback: string[];
  hooks: HookRecord[];
  raw: Record<string, unknown>;
}

/** What a JavaScript hook answers (null/undefined: pass); `allow` on PermissionRequest runs
 * the call without the permission prompt (elsewhere a pass). */
export interface Answer {
  decision?: Decision | "allow";
  reason?: string;
  updatedInput?: Record<string, unknown>;
  additionalContext?: string;
  systemMessage?: string;
}

/** The payload a hook receives (camelCase, DESIGN §2). */
export interface Payload {
  event: EventName;
  cwd: string;
  sessionId: string;
  toolName?: string;
  toolArgs?: Record<string, any>;
  toolResult?: unknown;
  /** PostToolUse: whether the tool failed; PostToolUseFailure: the failure, as text. */
  toolError?: boolean | string;
  prompt?: string;
  stopHookActive?: boolean;
  [key: string]: unknown;
}

export type Hook = (payload: Payload) => Answer | null | undefined | void | Promise<Answer | null | undefined | void>;

export interface FireFields {
  payload?: Record<string, unknown>;
  tool?: string;
  args?: Record<string, unknown>;
  result?: unknown;
  prompt?: string;
  session?: string;
}

export interface StartOptions {
  binary?: string;
  trust?: "all" | "skip" | "block";
  env?: NodeJS.ProcessEnv;
  session?: string;
}

export interface RegisterOptions {
  name?: string;
  timeoutMs?: number;
  onError?: "warn" | "block";
}

export declare function binary(): string;

/** Where a user names another `hookhost` binary, under their home directory. */
export declare const USER_BINARY_FILE: string;

/** A missing or unusable binary, with a message that says how to fix it. */
export declare class NoBinaryError extends Error {}

/** The binary named in `<home>/.coding-agent/hookhost-binary` (a file only the user can write), or null. */
export declare function userBinary(home?: string): string | null;

/**
 * The launcher's binary: the user's file, the bundled one, the platform package's; never
 * `$HOOKHOST_BINARY` (a set one is ignored, said through `warn`).
 */
export declare function findBinary(options?: {
  env?: Record<string, string | undefined>;
  home?: string;
  warn?: (message: string) => void;
}): string;
export declare function block(reason: string): Answer;
export declare function force(reason: string): Answer;
export declare function pass(opts?: Omit<Answer, "decision" | "reason">): Answer;

/** Throws unless the socket at `path` is this user's and no other user can replace it; returns the path to connect to. */
export declare function checkSocketOwner(path: string): string;

export declare class ServeError extends Error {
  code: number;
}

export declare class Runner extends EventEmitter {
  session?: string;
  static start(project?: string, opts?: StartOptions): Promise<Runner>;
  /** Connects to a `hookhost serve --socket` of this user; rejects (ServeError) a socket another user owns or could replace. */
  static connect(socketPath: string, opts?: { session?: string }): Promise<Runner>;
  call(method: string, params?: Record<string, unknown>): Promise<any>;
  register(event: EventName, match: string | null, fn: Hook, opts?: RegisterOptions): Promise<string>;
  unregister(id: string): Promise<boolean>;
  fire(event: EventName | string, fields?: FireFields): Promise<Report>;
  sessionStart(source?: string): Promise<Report>;
  userPromptSubmit(prompt: string): Promise<Report>;
  preToolUse(name: string, args?: Record<string, unknown>): Promise<Report>;
  postToolUse(name: string, args?: Record<string, unknown>, result?: unknown, error?: boolean): Promise<Report>;
  preCompact(trigger?: "auto" | "manual"): Promise<Report>;
  stop(stopHookActive?: boolean): Promise<Report>;
  subagentStop(stopHookActive?: boolean): Promise<Report>;
  sessionEnd(reason?: string): Promise<Report>;
  list(): Promise<Record<string, unknown>[]>;
  check(): Promise<{ errors: unknown[]; warnings: unknown[]; hooks: number; files: string[] }>;
  reload(): Promise<{ generation: number }>;
  shutdown(): Promise<void>;
  close(): Promise<void>;
}
