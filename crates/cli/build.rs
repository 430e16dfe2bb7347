//! Build facts for `hookhost --version`: the git commit and the wasmtime version. Neither may
//! fail the build: outside a git checkout (a packaged crate, a source tarball) the commit is
//! "unknown", and so is wasmtime's version when no Cargo.lock names it.
//!
//! And how the `hookhost` executable is linked: on Linux, not position-independent (see
//! [`link_non_pie`]).

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    println!("cargo:rustc-env=HOOKHOST_GIT_COMMIT={}", commit(&manifest));
    println!(
        "cargo:rustc-env=HOOKHOST_WASMTIME_VERSION={}",
        wasmtime_version(&manifest)
    );
    println!("cargo:rerun-if-env-changed=HOOKHOST_GIT_COMMIT");
    link_non_pie();
}

/// Links the `hookhost` executable (not the libraries, not the Python binding's cdylib) as a
/// fixed-address executable on Linux. An agent starts it once per hook event, and a PIE of
/// this size spends a third of a process that matches no hook relocating itself: ~60,000
/// relative relocations, each dirtying a page of `.data.rel.ro` (402 -> 161 page faults and
/// ~40% less CPU for `hookhost --version`, docs/performance.md). The cost is ASLR of the
/// executable image alone (the heap, stacks, libraries, compiled guest code and guest memory
/// stay randomised): SECURITY.md says so. `HOOKHOST_PIE=1` at build time keeps a PIE.
fn link_non_pie() {
    println!("cargo:rerun-if-env-changed=HOOKHOST_PIE");
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let env = std::env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    let keep_pie = std::env::var("HOOKHOST_PIE").is_ok_and(|v| v == "1");
    if os == "linux" && matches!(env.as_str(), "gnu" | "musl") && !keep_pie {
        // `hookhost` only: the thin client `hookhost-warm` is small, and a release links it
        // statically (scripts/release), which a `-no-pie` beside it would break.
        println!("cargo:rustc-link-arg-bin=hookhost=-no-pie");
    }
}

/// `git rev-parse --short=12 HEAD` in the crate's checkout, else $HOOKHOST_GIT_COMMIT (a
/// release build from a tarball may set it), else "unknown".
fn commit(manifest: &Path) -> String {
    if let Ok(given) = std::env::var("HOOKHOST_GIT_COMMIT")
        && !given.trim().is_empty()
    {
        return given.trim().to_string();
    }
    let git = |args: &[&str]| -> Option<String> {
        let out = Command::new("git")
            .args(args)
            .current_dir(manifest)
            .output()
            .ok()?;
        let text = String::from_utf8(out.stdout).ok()?;
        (out.status.success() && !text.trim().is_empty()).then(|| text.trim().to_string())
    };
    // A packaged crate unpacked inside some other repository must not report that one's
    // commit: only a checkout that holds this crate's own Cargo.toml as a tracked file counts.
    if git(&["ls-files", "--error-unmatch", "Cargo.toml"]).is_none() {
        return "unknown".into();
    }
    // Rebuild when HEAD moves (a commit, a checkout); in a worktree the git dir is elsewhere.
    if let Some(dir) = git(&["rev-parse", "--absolute-git-dir"]) {
        let dir = PathBuf::from(dir);
        println!("cargo:rerun-if-changed={}", dir.join("HEAD").display());
        if let Some(head) = git(&["symbolic-ref", "-q", "HEAD"]) {
            let common = git(&["rev-parse", "--path-format=absolute", "--git-common-dir"])
                .map_or_else(|| dir.clone(), PathBuf::from);
            for base in [&dir, &common] {
                let reference = base.join(&head);
                if reference.exists() {
                    println!("cargo:rerun-if-changed={}", reference.display());
                }
            }
            println!(
                "cargo:rerun-if-changed={}",
                common.join("packed-refs").display()
            );
        }
    }
    git(&["rev-parse", "--short=12", "HEAD"]).unwrap_or_else(|| "unknown".into())
}

/// The `wasmtime` version the nearest Cargo.lock (the workspace's, or the packaged crate's
/// own) resolves, else "unknown".
fn wasmtime_version(manifest: &Path) -> String {
    for lock in manifest.ancestors().map(|d| d.join("Cargo.lock")) {
        if let Ok(text) = std::fs::read_to_string(&lock) {
            println!("cargo:rerun-if-changed={}", lock.display());
            let mut lines = text.lines();
            while let Some(line) = lines.next() {
                if line.trim() == "name = \"wasmtime\""
                    && let Some(v) = lines
                        .next()
                        .and_then(|l| l.trim().strip_prefix("version = "))
                {
                    return v.trim_matches('"').to_string();
                }
            }
            return "unknown".into();
        }
    }
    "unknown".into()
}
