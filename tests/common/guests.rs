//! Builds `guest-examples/` for wasm32-wasip1 and wasm32-wasip2 once per test binary and
//! hands out the guests. The guests' target dir is `$CARGO_TARGET_DIR/guests` (or
//! `guest-examples/target`), never the host's own, so the outer cargo's lock is not needed.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

pub fn guest_target_dir() -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) if Path::new(&dir).is_absolute() => PathBuf::from(dir).join("guests"),
        _ => Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join("guest-examples/target"),
    }
}

#[allow(dead_code)]
/// A built guest `name` (a binary of the guest-examples workspace) as a WASI preview 1
/// module.
pub fn guest(name: &str) -> PathBuf {
    built(name, "wasm32-wasip1")
}

#[allow(dead_code)]
/// The same guest as a WASI preview 2 command component.
pub fn guest_p2(name: &str) -> PathBuf {
    built(name, "wasm32-wasip2")
}

fn built(name: &str, triple: &str) -> PathBuf {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    let target = BUILT.get_or_init(|| {
        let target = guest_target_dir();
        let manifest = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join("guest-examples/Cargo.toml");
        let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
            .args(["build", "--release", "--locked"])
            .args(["--target", "wasm32-wasip1", "--target", "wasm32-wasip2"])
            .arg("--manifest-path")
            .arg(&manifest)
            .env("CARGO_TARGET_DIR", &target)
            .status()
            .expect("running cargo to build the guests");
        assert!(
            status.success(),
            "building guest-examples failed (cargo's error is above); a missing wasm target is fixed by `scripts/setup` (or `rustup target add wasm32-wasip1 wasm32-wasip2`)"
        );
        target
    });
    let path = target
        .join(triple)
        .join("release")
        .join(format!("{name}.wasm"));
    assert!(path.is_file(), "guest {} was not built", path.display());
    path
}
