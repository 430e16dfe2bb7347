//! The hostile suite: one test per attack a security review made on hookhost, named after
//! the attack, each failing on the code the review broke and passing after the fix. A
//! change that weakens a guarantee makes one of these fail. SECURITY.md maps every
//! guarantee to its test here.

// The attacks make FIFOs and ask for uids through libc.
#![allow(unsafe_code)]

#[path = "../common/mod.rs"]
mod common;

mod answers;
mod cache;
mod environment_overrides;
mod guarded_state;
mod guarded_surfaces;
mod host;
mod interop;
mod managed;
mod packages;
mod project_environment;
mod protocol;
mod rank_and_trust;
mod sandbox;
mod script_pins;
mod sdk;
mod spelled_commands;
mod surfaces;
mod switches;
mod trust;

use common::Project;
use hookhost::{Runner, TrustPolicy, TrustStore};
use serde_json::Value;
use std::process::Output;

/// Runs the real binary against `p` with its own HOME and cache, under the default trust
/// policy unless `env` sets `HOOKHOST_TRUST`.
pub fn hookhost(p: &Project, args: &[&str], env: &[(&str, &str)]) -> Output {
    let env: Vec<_> = [("HOOKHOST_TRUST", "")]
        .into_iter()
        .chain(env.iter().copied())
        .collect();
    p.cli(args, &env)
}

/// `hookhost hook --for AGENT` on `p` (its own home, cache and managed file, the default
/// trust policy) with `stdin` bytes, `env` added.
pub fn adapter(p: &Project, agent: &str, stdin: &[u8], env: &[(&str, &str)]) -> Output {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut c = Command::new(env!("CARGO_BIN_EXE_hookhost"));
    c.args(["hook", "--for", agent, "--project"])
        .arg(p.path())
        .arg("--home")
        .arg(p.home.path())
        .env("HOME", p.home.path())
        .env("HOOKHOST_CACHE_DIR", p.cache.path())
        .env("HOOKHOST_MANAGED_CONFIG", p.managed_file())
        .env_remove("HOOKHOST_TRUST")
        .env_remove("HOOKHOST_ADAPTER")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        c.env(k, v);
    }
    let mut child = c.spawn().unwrap();
    let mut input = child.stdin.take().unwrap();
    // The adapter may refuse before reading everything: a broken pipe is fine.
    let _ = input.write_all(stdin);
    drop(input);
    child.wait_with_output().unwrap()
}

/// The `run --json` object of an output.
pub fn json_of(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): stdout {:?} stderr {:?}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

/// A runner for `p` under `policy` with the project's own trust store.
pub fn runner_under(p: &Project, policy: TrustPolicy) -> Runner {
    p.builder()
        .trust(policy, TrustStore::load(Some(p.home.path())).unwrap())
        .build()
        .unwrap()
}

/// Records the project's current hooks as trusted.
pub fn trust_all(p: &Project) {
    let set = hookhost::config::load(&p.paths()).unwrap();
    let mut store = TrustStore::load(Some(p.home.path())).unwrap();
    let a = store.assess(&p.paths(), &set);
    store.trust(&a).unwrap();
}
