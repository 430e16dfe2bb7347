//! Builds `guest-examples/` for wasm32-wasip1 once per test binary and hands out the
//! modules. The guests' target dir is `$CARGO_TARGET_DIR/guests` (or
//! `guest-examples/target`), never the host's own, so the outer cargo's lock is not needed.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

pub fn guest_target_dir() -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) if Path::new(&dir).is_absolute() => PathBuf::from(dir).join("guests"),
        _ => Path::new(env!("CARGO_MANIFEST_DIR")).join("guest-examples/target"),
    }
}

/// The path of a built guest `name` (a binary of the guest-examples workspace).
pub fn guest(name: &str) -> PathBuf {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    let dir = BUILT.get_or_init(|| {
        let target = guest_target_dir();
        let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("guest-examples/Cargo.toml");
        let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
            .args([
                "build",
                "--release",
                "--locked",
                "--target",
                "wasm32-wasip1",
                "--manifest-path",
            ])
            .arg(&manifest)
            .env("CARGO_TARGET_DIR", &target)
            .status()
            .expect("running cargo to build the guests");
        assert!(status.success(), "building guest-examples failed");
        target.join("wasm32-wasip1/release")
    });
    let path = dir.join(format!("{name}.wasm"));
    assert!(path.is_file(), "guest {} was not built", path.display());
    path
}
