// The Node package against a real `hookhost serve`: shell and wasm hooks, JavaScript hooks
// through the decision table, concurrency, a shared socket, reload events, errors.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, mkdirSync, writeFileSync, copyFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { spawn } from "node:child_process";
import { Runner, ServeError, block, pass, force, binary } from "hookhost";

function guests() {
  if (process.env.HOOKHOST_TEST_GUESTS) return process.env.HOOKHOST_TEST_GUESTS;
  const target = process.env.CARGO_TARGET_DIR ?? resolve(import.meta.dirname, "../../../target");
  return join(target, "guests", "wasm32-wasip1", "release");
}

function project(hooks) {
  const root = mkdtempSync(join(tmpdir(), "hookhost-node-"));
  const dir = join(root, "project");
  const home = join(root, "home");
  mkdirSync(join(dir, ".coding-agent"), { recursive: true });
  mkdirSync(home);
  writeFileSync(join(dir, ".coding-agent", "hooks.json"), JSON.stringify({ hooks }));
  // These tests exercise hooks, not trust: the project's hooks run as written (the default
  // policy would skip its untrusted shell hooks).
  const env = { ...process.env, HOME: home, HOOKHOST_CACHE_DIR: join(root, "cache"), HOOKHOST_TRUST: "all" };
  return { root, dir, env };
}

function withGuard() {
  const p = project({
    PreToolUse: [
      { command: "grep -q sudo && { echo 'no sudo' >&2; exit 2; }; exit 0", match: "bash" },
      { command: ".coding-agent/guard.wasm", match: "bash" },
    ],
  });
  const src = join(guests(), "bash-guard.wasm");
  assert.ok(existsSync(src), `${src} is missing: run cargo test first (it builds the guests)`);
  copyFileSync(src, join(p.dir, ".coding-agent", "guard.wasm"));
  return p;
}

test("shell and wasm hooks decide", async () => {
  const p = withGuard();
  const r = await Runner.start(p.dir, { env: p.env });
  const ok = await r.preToolUse("bash", { command: "ls" });
  assert.equal(ok.decision, "pass");
  assert.deepEqual(ok.hooks.map((h) => h.kind), ["shell", "wasm"]);
  const sudo = await r.preToolUse("bash", { command: "sudo ls" });
  assert.ok(sudo.blocked);
  assert.equal(sudo.reason, "no sudo");
  const rm = await r.preToolUse("bash", { command: "rm -rf /" });
  assert.ok(rm.blocked && rm.reason.includes("bash-guard"));
  assert.equal((await r.list()).length, 2);
  await r.shutdown();
});

test("JavaScript hooks go through the decision table", async () => {
  const p = project({ Stop: [{ command: "echo 'not done' && exit 2" }] });
  const r = await Runner.start(p.dir, { env: p.env });
  const seen = [];
  const id = await r.register("PreToolUse", "write_file", async (payload) => {
    seen.push(payload.toolArgs.path);
    if (payload.toolArgs.path.endsWith(".env")) return block("secrets");
    return pass({ updatedInput: { path: "safe/" + payload.toolArgs.path }, additionalContext: "rewrote" });
  }, { name: "noEnv" });
  const b = await r.preToolUse("write_file", { path: ".env" });
  assert.ok(b.blocked);
  assert.equal(b.reason, "secrets");
  assert.equal(b.hooks[0].kind, "fn");
  assert.equal(b.hooks[0].command, id);
  const ok = await r.preToolUse("write_file", { path: "a.txt" });
  assert.deepEqual(ok.updatedArgs, { path: "safe/a.txt" });
  assert.deepEqual(ok.additionalContext, ["rewrote"]);
  assert.deepEqual((await r.preToolUse("bash", {})).hooks, []);
  assert.deepEqual(seen, [".env", "a.txt"]);
  // A throwing hook is a crash: a warning, or a block with onError "block".
  await r.register("PostToolUse", null, () => { throw new Error("boom"); });
  const post = await r.postToolUse("bash", {}, "out");
  assert.equal(post.hooks[0].outcome, "warn");
  assert.match(post.hooks[0].message, /boom/);
  await r.register("PreToolUse", "bash", () => { throw new Error("boom"); }, { onError: "block" });
  assert.ok((await r.preToolUse("bash", {})).blocked);
  // Every event has its method; Stop is forced by the shell hook.
  const stop = await r.stop();
  assert.ok(stop.forced);
  assert.equal(stop.reason, "not done");
  await r.register("SubagentStop", null, (pl) => (pl.stopHookActive ? null : force("more")));
  assert.ok((await r.subagentStop()).forced);
  assert.equal((await r.subagentStop(true)).decision, "pass");
  for (const rep of [await r.sessionStart(), await r.userPromptSubmit("hi"), await r.preCompact("auto"), await r.sessionEnd()]) {
    assert.equal(rep.decision, "pass");
  }
  assert.equal(await r.unregister(id), true);
  assert.equal((await r.preToolUse("write_file", { path: ".env" })).decision, "pass");
  await r.shutdown();
});

test("concurrent requests and errors that keep the connection up", async () => {
  const p = withGuard();
  const r = await Runner.start(p.dir, { env: p.env });
  await r.register("PreToolUse", "bash", (pl) => (pl.toolArgs.n % 2 ? block("odd") : null));
  const reports = await Promise.all(
    Array.from({ length: 100 }, (_, n) => r.preToolUse("bash", { command: "ls", n })),
  );
  reports.forEach((rep, n) => assert.equal(rep.decision, n % 2 ? "block" : "pass"));
  await assert.rejects(r.fire("Nope"), (e) => e instanceof ServeError && e.code === -32602);
  await assert.rejects(r.call("nope"), (e) => e.code === -32601);
  assert.equal((await r.stop()).decision, "pass");
  await r.shutdown();
});

test("clients share a socket server and hear about reloads", async () => {
  const p = project({});
  const sock = join(p.root, "h.sock");
  const server = spawn(binary(), ["serve", "--project", p.dir, "--socket", sock, "--poll-ms", "50"], {
    env: p.env,
    stdio: "inherit",
  });
  const exited = new Promise((resolve) => server.once("exit", resolve));
  let a;
  for (let i = 0; i < 500 && !a; i++) {
    a = await Runner.connect(sock).catch(() => new Promise((res) => setTimeout(() => res(undefined), 10)));
  }
  const b = await Runner.connect(sock);
  assert.deepEqual((await a.stop()).hooks, []);
  const reloaded = new Promise((resolve) => b.once("reloaded", resolve));
  writeFileSync(join(p.dir, ".coding-agent", "hooks.json"), JSON.stringify({ hooks: { Stop: [{ command: "echo again; exit 2" }] } }));
  const note = await reloaded;
  assert.equal(note.hooks, 1);
  assert.ok((await b.stop()).forced);
  await b.close();
  await a.shutdown();
  assert.equal(await exited, 0);
});

test("x3: connect refuses a socket another user bound first", { skip: process.getuid?.() !== 0 && "needs root to run a server as another user" }, async () => {
  const { chmodSync, existsSync: exists } = await import("node:fs");
  // A shared directory (like /tmp itself) where the other user (nobody) bound the path first.
  const shared = mkdtempSync(join("/tmp", "x3-node-"));
  chmodSync(shared, 0o1777);
  const sock = join(shared, "hookhost.sock");
  const got = sock + ".got";
  const script = `
    const net = require("node:net"), fs = require("node:fs");
    net.createServer((c) => {
      c.on("data", (d) => { fs.appendFileSync(${JSON.stringify(got)}, d); c.write('{"jsonrpc":"2.0","id":1,"result":{"decision":"pass","hooks":[]}}\\n'); });
    }).listen(${JSON.stringify(sock)}, () => process.stdout.write("up\\n"));`;
  const fake = spawn("setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", process.execPath, "-e", script], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  try {
    await new Promise((resolve, reject) => {
      fake.stdout.once("data", resolve);
      fake.once("exit", (code) => reject(new Error(`the fake server exited (${code})`)));
    });
    await assert.rejects(
      (async () => {
        const r = await Runner.connect(sock);
        await r.preToolUse("bash", { command: "cat ~/.ssh/id_rsa" });
      })(),
      (e) => /another user/.test(e.message),
    );
    assert.ok(!exists(got), "the client sent a request to another user's server");
  } finally {
    fake.kill("SIGKILL");
    (await import("node:fs")).rmSync(shared, { recursive: true, force: true });
  }
});

test("x3: connect refuses a socket in a directory others can write", async () => {
  // Our own server, but its directory lets anyone swap the socket: refused.
  const p = project({});
  const { chmodSync } = await import("node:fs");
  const open = join(p.root, "open");
  mkdirSync(open);
  chmodSync(open, 0o777);
  const sock = join(open, "h.sock");
  const server = spawn(binary(), ["serve", "--project", p.dir, "--socket", sock], { env: p.env, stdio: "inherit" });
  const exited = new Promise((resolve) => server.once("exit", resolve));
  for (let i = 0; i < 500 && !existsSync(sock); i++) await new Promise((res) => setTimeout(res, 10));
  await assert.rejects(Runner.connect(sock), (e) => /others can write|another user/.test(e.message));
  server.kill("SIGTERM");
  assert.equal(await exited, 0);
});
