#!/usr/bin/env node
// The `hookhost` command line: runs this platform's binary (platform.js says which) with the
// arguments, stdin, stdout and stderr as given, and exits with its status.
import { spawnSync } from "node:child_process";
import { findBinary, NoBinaryError } from "../platform.js";

let bin;
try {
  bin = findBinary();
} catch (e) {
  if (!(e instanceof NoBinaryError)) throw e;
  process.stderr.write(`${e.message}\n`);
  process.exit(1);
}
const r = spawnSync(bin, process.argv.slice(2), { stdio: "inherit" });
if (r.error) {
  process.stderr.write(`hookhost: cannot run ${bin}: ${r.error.message}; name a working hookhost binary in ~/.coding-agent/hookhost-binary\n`);
  process.exit(1);
}
// A signal death is reported the way a shell does (128 + signal number).
if (r.signal) process.kill(process.pid, r.signal);
process.exit(r.status ?? 1);
