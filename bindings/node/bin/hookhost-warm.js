#!/usr/bin/env node
// `hookhost-warm` where npm's postinstall (install.js) could not make it the platform's static
// thin client: the same launcher as `hookhost` (bin/hookhost.js), whose binary forwards to the
// warm engine itself, so the answer is the same, only slower (node starts first).
import "./hookhost.js";
