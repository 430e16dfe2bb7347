// Finds the `hookhost` binary for this machine. The `hookhost` npm package carries no binary
// of its own: each platform's binary is in its own package (`@hookhost/linux-x64-gnu`, ...),
// an optional dependency with `os`/`cpu`/`libc` fields, so npm installs only the one that fits
// (the way esbuild and biome ship theirs). Order: $HOOKHOST_BINARY (or the older
// $HOOKHOST_BIN), a binary copied into this package's bin/ (scripts/test-bindings does), the
// platform package.

import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
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

/**
 * The path of the `hookhost` binary for this machine, or throws `NoBinaryError` with one
 * message that says what was looked for and how to fix it.
 */
export function findBinary() {
  const override = process.env.HOOKHOST_BINARY || process.env.HOOKHOST_BIN;
  if (override) return override;
  const exe = process.platform === "win32" ? "hookhost.exe" : "hookhost";
  const here = dirname(fileURLToPath(import.meta.url));
  const bundled = join(here, "bin", exe);
  if (existsSync(bundled)) return bundled;
  const key = platformKey();
  const pkg = PLATFORM_PACKAGES[key];
  if (!pkg) {
    throw new NoBinaryError(
      `hookhost: no prebuilt binary for ${key} (this release has: ${Object.keys(PLATFORM_PACKAGES).join(", ")}); ` +
        "build one with `cargo install hookhost-cli` and set HOOKHOST_BINARY to its path (docs/install.md)",
    );
  }
  let dir;
  try {
    dir = dirname(createRequire(join(here, "index.js")).resolve(`${pkg}/package.json`));
  } catch {
    throw new NoBinaryError(
      `hookhost: the binary package ${pkg} for ${key} is not installed (npm skips optional dependencies with --omit=optional or --no-optional); ` +
        `reinstall without that flag, or \`npm install ${pkg}\`, or set HOOKHOST_BINARY to a hookhost binary`,
    );
  }
  const bin = join(dir, "bin", exe);
  if (!existsSync(bin)) {
    throw new NoBinaryError(`hookhost: ${pkg} is installed but has no bin/${exe}; reinstall it, or set HOOKHOST_BINARY`);
  }
  return bin;
}
