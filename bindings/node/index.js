// hookhost for Node: a typed client of `hookhost serve` (JSON-RPC 2.0 over newline-delimited
// JSON, docs/serve-protocol.md). The engine (config, trust, shell/wasm/http hooks, the
// decision table) runs in the server; JavaScript functions registered with `register` are
// called back over the connection and go through the same decision table.

import { spawn } from "node:child_process";
import { lstatSync, realpathSync, statSync } from "node:fs";
import { connect } from "node:net";
import { basename, dirname, join, resolve as resolvePath } from "node:path";
import { createInterface } from "node:readline";
import { EventEmitter } from "node:events";
import { findBinary, NoBinaryError } from "./platform.js";

export { findBinary, userBinary, NoBinaryError, USER_BINARY_FILE } from "./platform.js";

/**
 * The `hookhost` binary: the one named in ~/.coding-agent/hookhost-binary (never a variable,
 * which a project's agent settings can set), one copied into this package's
 * bin/, this platform's binary package (`@hookhost/linux-x64-gnu`, ...; platform.js), else
 * `hookhost` on PATH.
 */
export function binary() {
  try {
    return findBinary();
  } catch (e) {
    if (e instanceof NoBinaryError) return "hookhost";
    throw e;
  }
}

/** An error answer of the server. */
export class ServeError extends Error {
  constructor(code, message) {
    super(`${message} (code ${code})`);
    this.name = "ServeError";
    this.code = code;
  }
}

/**
 * Makes sure the socket at `path` is this user's server before anything is sent to it: a
 * server of another user that bound the path first would see every payload and answer every
 * hook. Node cannot ask the kernel for the peer's uid (SO_PEERCRED), so the socket file must
 * be this user's, and no other user may be able to replace it: every directory from its own
 * up to / is this user's or root's and writable by no one else unless sticky (like /tmp,
 * where only a file's owner may remove or rename it). Returns the path to connect to (its
 * directories resolved, so the checked file is the one connected to).
 */
export function checkSocketOwner(path) {
  const me = process.getuid?.();
  if (me === undefined) return path; // Windows: no Unix sockets of other users to fear
  const real = join(realpathSync(dirname(resolvePath(path))), basename(path));
  const st = lstatSync(real);
  if (!st.isSocket() || st.uid !== me) {
    throw new ServeError(
      -32000,
      `${path} is not a socket of this user (it belongs to uid ${st.uid}): another user may have bound it first; refusing to connect`,
    );
  }
  for (let d = dirname(real); ; d = dirname(d)) {
    const ds = statSync(d);
    const othersWrite = (ds.mode & 0o022) !== 0 && (ds.mode & 0o1000) === 0;
    if ((ds.uid !== me && ds.uid !== 0) || othersWrite) {
      throw new ServeError(
        -32000,
        `${d} is owned by another user or others can write it: the socket ${path} in it could be replaced; refusing to connect`,
      );
    }
    if (dirname(d) === d) return real;
  }
}

/** PreToolUse: do not run the tool, for this reason. */
export const block = (reason) => ({ decision: "block", reason });
/** Stop/SubagentStop: keep working; the message becomes the next user turn. */
export const force = (reason) => ({ decision: "force", reason });
/** Go on, optionally with new tool arguments or text for the model or the user. */
export const pass = (opts = {}) => ({ decision: "pass", ...opts });

function toReport(r) {
  return {
    event: r.event,
    decision: r.decision,
    blocked: r.decision === "block",
    forced: r.decision === "force",
    reason: r.reason ?? null,
    updatedArgs: r.updatedArgs ?? null,
    ask: !!r.ask,
    allow: !!r.allow,
    additionalContext: r.additionalContext ?? [],
    systemMessages: r.systemMessages ?? [],
    feedback: r.feedback ?? [],
    hooks: r.hooks ?? [],
    raw: r,
  };
}

/**
 * One connection to a hookhost engine. `Runner.start(project)` starts `hookhost serve` on
 * stdio for this runner (it ends with `close()`/`shutdown()`); `Runner.connect(socket)`
 * joins a shared `hookhost serve --socket`. Emits "reloaded" when the config changed.
 */
export class Runner extends EventEmitter {
  #write;
  #pending = new Map();
  #hooks = new Map();
  #next = 0;
  #closed = false;
  #child = null;
  #socket = null;
  #done;

  constructor(input, write, { child = null, socket = null, session } = {}) {
    super();
    this.#write = write;
    this.#child = child;
    this.#socket = socket;
    this.session = session;
    const lines = createInterface({ input, crlfDelay: Infinity });
    lines.on("line", (line) => this.#onLine(line));
    this.#done = new Promise((resolve) => lines.on("close", resolve)).then(() => {
      this.#closed = true;
      for (const { reject } of this.#pending.values()) {
        reject(new ServeError(-32000, "the server closed the connection"));
      }
      this.#pending.clear();
    });
  }

  /** Starts `hookhost serve` for `project` on stdio. */
  static async start(project = ".", opts = {}) {
    const args = ["serve", "--project", project];
    if (opts.trust) args.push("--trust", opts.trust);
    const child = spawn(opts.binary ?? binary(), args, {
      stdio: ["pipe", "pipe", "inherit"],
      env: opts.env ?? process.env,
    });
    await new Promise((resolve, reject) => {
      child.once("spawn", resolve);
      child.once("error", reject);
    });
    return new Runner(child.stdout, (s) => child.stdin.write(s), { child, session: opts.session });
  }

  /**
   * Connects to `hookhost serve --socket PATH` of this user (see `checkSocketOwner`: a socket
   * another user bound, or one in a directory others can write, is refused before anything
   * is sent).
   */
  static async connect(path, opts = {}) {
    const socket = connect(checkSocketOwner(path));
    await new Promise((resolve, reject) => {
      socket.once("connect", resolve);
      socket.once("error", reject);
    });
    return new Runner(socket, (s) => socket.write(s), { socket, session: opts.session });
  }

  #send(msg) {
    this.#write(JSON.stringify(msg) + "\n");
  }

  #onLine(line) {
    if (!line.trim()) return;
    let m;
    try {
      m = JSON.parse(line);
    } catch {
      return;
    }
    if (m.method === "hook") {
      this.#callHook(m);
    } else if (m.method) {
      this.emit(m.method, m.params);
    } else if (this.#pending.has(m.id)) {
      const { resolve, reject } = this.#pending.get(m.id);
      this.#pending.delete(m.id);
      if (m.error) reject(new ServeError(m.error.code, m.error.message));
      else resolve(m.result);
    }
  }

  async #callHook(m) {
    const fn = this.#hooks.get(m.params.id);
    try {
      if (!fn) throw new Error(`no hook ${m.params.id} in this client`);
      const answer = await fn(m.params.payload);
      this.#send({ jsonrpc: "2.0", id: m.id, result: answer ?? null });
    } catch (e) {
      // The server counts a failing hook as a crash (onError decides).
      this.#send({ jsonrpc: "2.0", id: m.id, error: { code: -32002, message: String(e?.stack ?? e) } });
    }
  }

  /** One request of the protocol. */
  call(method, params = {}) {
    if (this.#closed) return Promise.reject(new ServeError(-32000, "the connection is closed"));
    const id = ++this.#next;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#send({ jsonrpc: "2.0", id, method, params });
    });
  }

  /** Runs `fn(payload)` at `event` (for tools matching `match`), after the configured hooks. */
  async register(event, match, fn, opts = {}) {
    const params = { event, name: opts.name ?? (fn.name || "js") };
    if (match != null) params.match = match;
    if (opts.timeoutMs != null) params.timeoutMs = opts.timeoutMs;
    if (opts.onError) params.onError = opts.onError;
    const { id } = await this.call("register", params);
    this.#hooks.set(id, fn);
    return id;
  }

  async unregister(id) {
    this.#hooks.delete(id);
    return (await this.call("unregister", { id })).removed;
  }

  /** Fires `event`; fields: payload, tool, args, result, prompt, session. */
  async fire(event, fields = {}) {
    const params = { event, ...fields };
    if (this.session && params.session == null) params.session = this.session;
    for (const k of Object.keys(params)) if (params[k] === undefined) delete params[k];
    return toReport(await this.call("fire", params));
  }

  sessionStart(source = "startup") {
    return this.fire("SessionStart", { payload: { source } });
  }
  userPromptSubmit(prompt) {
    return this.fire("UserPromptSubmit", { prompt });
  }
  preToolUse(name, args = {}) {
    return this.fire("PreToolUse", { tool: name, args });
  }
  postToolUse(name, args = {}, result = null, error = false) {
    return this.fire("PostToolUse", { tool: name, args, result, payload: { toolError: !!error } });
  }
  preCompact(trigger = "manual") {
    return this.fire("PreCompact", { payload: { trigger } });
  }
  stop(stopHookActive = false) {
    return this.fire("Stop", { payload: { stopHookActive } });
  }
  subagentStop(stopHookActive = false) {
    return this.fire("SubagentStop", { payload: { stopHookActive } });
  }
  sessionEnd(reason = "other") {
    return this.fire("SessionEnd", { payload: { reason } });
  }

  async list() {
    return (await this.call("list")).hooks;
  }
  check() {
    return this.call("check");
  }
  reload() {
    return this.call("reload");
  }

  /** Asks the server to stop once every running hook has ended, then closes. */
  async shutdown() {
    await this.call("shutdown");
    await this.close();
  }

  /** Closes the connection (a stdio server then ends after its running hooks). */
  async close() {
    if (this.#child) {
      this.#child.stdin.end();
      if (this.#child.exitCode === null) {
        await new Promise((resolve) => this.#child.once("exit", resolve));
      }
    }
    if (this.#socket) this.#socket.end();
    await this.#done;
  }
}
