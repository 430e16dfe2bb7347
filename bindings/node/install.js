// npm's postinstall: makes `hookhost-warm` (this package's second command, the one the plugins
// and `hookhost install` wire first) the platform package's static thin client itself, so an
// agent's hook event starts a 1.7 MB static binary instead of node (tens of milliseconds) then
// the binary. bin/hookhost-warm.js is replaced by a relative symlink to
// @hookhost/<platform>/bin/hookhost-warm, which runs the `hookhost` beside it (the way esbuild
// links its native binary).
//
// It changes nothing, and `hookhost-warm` stays the node launcher (the same answers, slower),
// when: the platform package is not installed (--omit=optional, another platform), its
// hookhost-warm does not run here, the user named another binary in
// ~/.coding-agent/hookhost-binary (the launcher honours that file; the native client would
// not), or npm ran with --ignore-scripts. It never fails the install: each case is one line on
// stderr. No variable is read: a project's agent settings set variables for hooks, not for npm,
// but the rule (docs/install.md) is the same everywhere.

import { execFileSync } from "node:child_process";
import { existsSync, lstatSync, renameSync, rmSync, symlinkSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { PLATFORM_PACKAGES, platformKey, userBinary } from "./platform.js";

const here = dirname(fileURLToPath(import.meta.url));
const shim = join(here, "bin", "hookhost-warm.js");

/** Why the native client is not linked, or null when it was. */
function link() {
  if (process.platform === "win32") return "Windows: the node launcher stays";
  try {
    if (userBinary()) return "~/.coding-agent/hookhost-binary names the binary: the node launcher honours it";
  } catch (e) {
    return e.message;
  }
  const pkg = PLATFORM_PACKAGES[platformKey()];
  if (!pkg) return `no prebuilt binary for ${platformKey()}`;
  let dir;
  try {
    dir = dirname(createRequire(join(here, "index.js")).resolve(`${pkg}/package.json`));
  } catch {
    return `${pkg} is not installed`;
  }
  const native = join(dir, "bin", "hookhost-warm");
  if (!existsSync(native)) return `${pkg} has no bin/hookhost-warm`;
  let version;
  try {
    version = execFileSync(native, ["--version"], { encoding: "utf8", timeout: 20_000, stdio: ["ignore", "pipe", "pipe"] });
  } catch (e) {
    return `${native} does not run here (${e.message.split("\n")[0]})`;
  }
  if (!version.startsWith("hookhost ")) return `${native} --version said ${JSON.stringify(version.trim())}`;
  // Already linked (a second postinstall): nothing to do.
  if (lstatSync(shim, { throwIfNoEntry: false })?.isSymbolicLink()) return null;
  const tmp = `${shim}.${process.pid}.tmp`;
  rmSync(tmp, { force: true });
  symlinkSync(relative(dirname(shim), native), tmp);
  renameSync(tmp, shim);
  return null;
}

try {
  const why = link();
  if (why) process.stderr.write(`hookhost: hookhost-warm stays the node launcher: ${why}\n`);
} catch (e) {
  process.stderr.write(`hookhost: hookhost-warm stays the node launcher: ${e.message}\n`);
}
