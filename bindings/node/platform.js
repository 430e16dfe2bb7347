// Finds the `hookhost` binary for this machine. The `hookhost` npm package carries no binary
// of its own: each platform's binary is in its own package (`@hookhost/linux-x64-gnu`, ...),
// an optional dependency with `os`/`cpu`/`libc` fields, so npm installs only the one that fits
// (the way esbuild and biome ship theirs). Order: the binary the user named in
// ~/.coding-agent/hookhost-binary (the account's home from the password database, a file of
// theirs no one else can write), a binary copied into this package's bin/ (scripts/test-bindings
// does), the platform package.
//
// Never a variable: the launcher is an agent's hook, and a project's agent settings (`env`)
// set variables for every hook process: a `HOOKHOST_BINARY` (or `HOOKHOST_BIN`) there would
// make the clone's script the guard, or `/bin/true` would switch every guard off. A set one is
// ignored, said on stderr with how to configure another binary.

import { existsSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { userInfo } from "node:os";
import { dirname, isAbsolute, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The platform packages this release ships, by `platformKey()`. */
export const PLATFORM_PACKAGES = {
  "linux-x64-gnu": "@hookhost/linux-x64-gnu",
};

/** `linux-x64-gnu`, `linux-arm64-musl`, `darwin-arm64`, `win32-x64`: this machine's key. */
export function platformKey() {
  const { platform, arch } = process;
  if (platform !== "linux") return `${platform}-${arch}`;
  // glibc reports its version in the process report; musl does not.
  const glibc = process.report?.getReport?.()?.header?.glibcVersionRuntime;
  return `${platform}-${arch}-${glibc ? "gnu" : "musl"}`;
}

/** An error saying which binary is missing and what to do. */
export class NoBinaryError extends Error {
  constructor(message) {
    super(message);
    this.name = "NoBinaryError";
  }
}

/** Where a user names another `hookhost` binary, under their home directory. */
export const USER_BINARY_FILE = join(".coding-agent", "hookhost-binary");

/** How to choose another binary, for messages. */
const HOW = `write its absolute path into ~/${USER_BINARY_FILE} (a file of yours only you can write)`;

/** Why `path` (with stat `st`) is not the user's alone, or null. */
function notPrivate(path, st) {
  if (typeof process.getuid !== "function") return null;
  if (st.uid !== process.getuid()) return `${path} belongs to uid ${st.uid}, not to you`;
  if (st.mode & 0o022) return `${path} is writable by group or others (mode ${(st.mode & 0o777).toString(8)})`;
  return null;
}

/**
 * The binary the user named in `<home>/.coding-agent/hookhost-binary`, or null when there is
 * no such file; throws `NoBinaryError` when the file is there but not the user's alone, or
 * does not name an absolute path.
 */
export function userBinary(home = userInfo().homedir) {
  if (!home) return null;
  const file = join(home, USER_BINARY_FILE);
  let st;
  try {
    st = statSync(file);
  } catch {
    return null;
  }
  const why = notPrivate(file, st) ?? notPrivate(dirname(file), statSync(dirname(file)));
  if (why) throw new NoBinaryError(`hookhost: not using ${file}: ${why}; \`chmod go-w\` it if it is yours`);
  const bin = readFileSync(file, "utf8").trim();
  if (!isAbsolute(bin)) {
    throw new NoBinaryError(`hookhost: ${file} must hold the absolute path of a hookhost binary, got ${JSON.stringify(bin)}`);
  }
  return bin;
}

/**
 * The path of the `hookhost` binary for this machine, or throws `NoBinaryError` with one
 * message that says what was looked for and how to fix it. `env` is only looked at to say
 * that `HOOKHOST_BINARY`/`HOOKHOST_BIN` are ignored (through `warn`).
 */
export function findBinary({
  env = process.env,
  home = userInfo().homedir,
  warn = (m) => process.stderr.write(`${m}\n`),
} = {}) {
  const chosen = userBinary(home);
  for (const name of ["HOOKHOST_BINARY", "HOOKHOST_BIN"]) {
    if (env[name] && env[name] !== chosen) {
      warn(
        `hookhost: note: ignoring $${name}=${env[name]} (a project's agent settings can set it); ` +
          `to run another hookhost binary, ${HOW}`,
      );
    }
  }
  if (chosen) return chosen;
  const exe = process.platform === "win32" ? "hookhost.exe" : "hookhost";
  const here = dirname(fileURLToPath(import.meta.url));
  const bundled = join(here, "bin", exe);
  if (existsSync(bundled)) return bundled;
  const key = platformKey();
  const pkg = PLATFORM_PACKAGES[key];
  if (!pkg) {
    throw new NoBinaryError(
      `hookhost: no prebuilt binary for ${key} (this release has: ${Object.keys(PLATFORM_PACKAGES).join(", ")}); ` +
        `build one with \`cargo install hookhost-cli\` and ${HOW} (docs/install.md)`,
    );
  }
  let dir;
  try {
    dir = dirname(createRequire(join(here, "index.js")).resolve(`${pkg}/package.json`));
  } catch {
    throw new NoBinaryError(
      `hookhost: the binary package ${pkg} for ${key} is not installed (npm skips optional dependencies with --omit=optional or --no-optional); ` +
        `reinstall without that flag, or \`npm install ${pkg}\`, or build hookhost and ${HOW}`,
    );
  }
  const bin = join(dir, "bin", exe);
  if (!existsSync(bin)) {
    throw new NoBinaryError(`hookhost: ${pkg} is installed but has no bin/${exe}; reinstall it, or ${HOW}`);
  }
  return bin;
}
