#!/usr/bin/env node
// The `hookhost` command line: the binary shipped in this package (bin/hookhost), else
// $HOOKHOST_BIN.
import { spawnSync } from "node:child_process";
import { binary } from "../index.js";

const r = spawnSync(binary(), process.argv.slice(2), { stdio: "inherit" });
process.exit(r.status ?? 1);
