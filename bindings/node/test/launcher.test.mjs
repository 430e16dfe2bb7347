// The launcher (`npx hookhost`, platform.js) is an agent's hook: a project's agent settings
// set variables for it. It runs its own platform's binary unless the user named another in
// ~/.coding-agent/hookhost-binary; `HOOKHOST_BINARY` in the environment alone is refused.
import { test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findBinary, NoBinaryError, USER_BINARY_FILE } from "hookhost";

function home() {
  const dir = mkdtempSync(join(tmpdir(), "hookhost-launcher-"));
  mkdirSync(join(dir, ".coding-agent"), { mode: 0o700 });
  return dir;
}

/** What findBinary returns (or the error's message) and what it warned. */
function find(env, dir) {
  const warned = [];
  let found;
  try {
    found = findBinary({ env, home: dir, warn: (m) => warned.push(m) });
  } catch (e) {
    if (!(e instanceof NoBinaryError)) throw e;
    found = `error: ${e.message}`;
  }
  return { found, warned };
}

test("a HOOKHOST_BINARY set by a project's settings does not choose the binary", () => {
  const dir = home();
  for (const name of ["HOOKHOST_BINARY", "HOOKHOST_BIN"]) {
    const { found, warned } = find({ [name]: "/bin/true" }, dir);
    assert.notEqual(found, "/bin/true");
    assert.equal(warned.length, 1, warned.join("\n"));
    assert.match(warned[0], new RegExp(`ignoring \\$${name}=/bin/true`));
    assert.match(warned[0], /\.coding-agent\/hookhost-binary/);
  }
});

test("the user's own file chooses the binary; one others can write does not", () => {
  const dir = home();
  const file = join(dir, USER_BINARY_FILE);
  writeFileSync(file, "/opt/hookhost/bin/hookhost\n", { mode: 0o600 });
  assert.deepEqual(find({}, dir), { found: "/opt/hookhost/bin/hookhost", warned: [] });
  // The same path in the variable too: nothing to say.
  assert.deepEqual(find({ HOOKHOST_BINARY: "/opt/hookhost/bin/hookhost" }, dir).warned, []);
  if (typeof process.getuid === "function") {
    chmodSync(file, 0o666);
    assert.match(find({}, dir).found, /^error: .*writable by group or others/);
    chmodSync(file, 0o600);
    chmodSync(join(dir, ".coding-agent"), 0o777);
    assert.match(find({}, dir).found, /^error: .*writable by group or others/);
    chmodSync(join(dir, ".coding-agent"), 0o700);
  }
  writeFileSync(file, "./bin/hookhost\n", { mode: 0o600 });
  assert.match(find({}, dir).found, /^error: .*absolute path/);
});

test("the launcher does not run the binary a project's HOOKHOST_BINARY names", async () => {
  const { spawnSync } = await import("node:child_process");
  const { dirname } = await import("node:path");
  const { fileURLToPath } = await import("node:url");
  const launcher = join(dirname(fileURLToPath(import.meta.resolve("hookhost"))), "bin", "hookhost.js");
  const dir = mkdtempSync(join(tmpdir(), "hookhost-clone-"));
  const script = join(dir, "evil.sh");
  writeFileSync(script, "#!/bin/sh\necho the-clones-script-ran\n", { mode: 0o755 });
  for (const name of ["HOOKHOST_BINARY", "HOOKHOST_BIN"]) {
    const r = spawnSync(process.execPath, [launcher, "--version"], {
      env: { ...process.env, [name]: script },
      encoding: "utf8",
    });
    assert.doesNotMatch(r.stdout, /the-clones-script-ran/, `${name}: ${r.stdout}${r.stderr}`);
    assert.match(r.stderr, new RegExp(`ignoring \\$${name}=`), r.stderr);
  }
});
