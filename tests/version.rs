//! One version for the whole project: the workspace's `[workspace.package] version` is the
//! source; the crates inherit it, maturin reads it for the wheel, and the files that cannot
//! inherit it (the npm package) must say the same, as must the changelog's latest release.

use std::path::Path;

const VERSION: &str = env!("CARGO_PKG_VERSION");

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("reading {rel}: {e}"))
}

#[test]
fn the_npm_packages_have_the_workspace_version() {
    let package: serde_json::Value =
        serde_json::from_str(&read("bindings/node/package.json")).unwrap();
    assert_eq!(
        package["version"], VERSION,
        "bindings/node/package.json must carry the workspace version {VERSION} (Cargo.toml [workspace.package]); set it there"
    );
    // The launcher's binary packages: each at the same version, and required at exactly it.
    let optional = package["optionalDependencies"].as_object().unwrap();
    assert!(
        !optional.is_empty(),
        "bindings/node/package.json names no binary package"
    );
    for (name, wanted) in optional {
        let dir = name.strip_prefix("@hookhost/").unwrap();
        let rel = format!("packaging/npm/{dir}/package.json");
        let platform: serde_json::Value = serde_json::from_str(&read(&rel)).unwrap();
        assert_eq!(platform["name"], name.as_str(), "{rel}");
        assert_eq!(
            platform["version"], VERSION,
            "{rel} must carry the workspace version {VERSION}"
        );
        assert_eq!(
            wanted, VERSION,
            "bindings/node/package.json must require {name} at {VERSION}"
        );
        for field in ["os", "cpu"] {
            assert!(
                platform[field].is_array(),
                "{rel} needs `{field}` so npm installs it only where it runs"
            );
        }
    }
}

/// `hookhost --version` (and `-V`): `hookhost VERSION (commit C, wasmtime W)` on one line;
/// the first two tokens stay the name and the version for scripts that parse them.
#[test]
fn the_version_line_names_the_commit_and_wasmtime() {
    for flag in ["--version", "-V"] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_hookhost"))
            .arg(flag)
            .output()
            .unwrap();
        assert!(out.status.success());
        let line = String::from_utf8(out.stdout).unwrap();
        let line = line.trim_end();
        assert_eq!(line.lines().count(), 1, "{flag}: {line}");
        let tokens: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(tokens[..2], ["hookhost", VERSION], "{flag}: {line}");
        let rest = line
            .strip_prefix(&format!("hookhost {VERSION} (commit "))
            .unwrap_or_else(|| panic!("{flag}: {line}"));
        let (commit, wasmtime) = rest
            .strip_suffix(')')
            .and_then(|r| r.split_once(", wasmtime "))
            .unwrap_or_else(|| panic!("{flag}: {line}"));
        assert!(
            commit == "unknown"
                || (commit.len() == 12 && commit.chars().all(|c| c.is_ascii_hexdigit())),
            "{flag}: commit {commit:?} is neither a short hash nor `unknown`"
        );
        let locked = read("Cargo.lock");
        assert!(
            locked.contains(&format!("name = \"wasmtime\"\nversion = \"{wasmtime}\"")),
            "{flag}: wasmtime {wasmtime:?} is not the version Cargo.lock resolves"
        );
    }
}

/// In this checkout the commit is known, and it is HEAD's.
#[test]
fn the_version_names_this_checkouts_commit() {
    let head = std::process::Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .current_dir(root())
        .output();
    let Ok(head) = head.map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string()) else {
        eprintln!("git is not installed: not checked");
        return;
    };
    if head.is_empty() {
        eprintln!("not a git checkout: not checked");
        return;
    }
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hookhost"))
        .arg("--version")
        .output()
        .unwrap();
    let line = String::from_utf8_lossy(&out.stdout);
    // The binary may have been built at an earlier commit of this checkout (build.rs reruns
    // when HEAD moves): it must name some commit, never "unknown", here.
    assert!(!line.contains("(commit unknown"), "{line}");
}

#[test]
fn every_crate_and_the_wheel_inherit_the_version() {
    for manifest in [
        "crates/core/Cargo.toml",
        "crates/sys/Cargo.toml",
        "crates/protocol/Cargo.toml",
        "crates/engine/Cargo.toml",
        "crates/package/Cargo.toml",
        "crates/serve/Cargo.toml",
        "crates/cli/Cargo.toml",
        "bindings/python/Cargo.toml",
    ] {
        let text = read(manifest);
        assert!(
            text.contains("version.workspace = true"),
            "{manifest} must say `version.workspace = true`, not a version of its own"
        );
    }
    let pyproject = read("bindings/python/pyproject.toml");
    assert!(
        pyproject.contains("dynamic = [\"version\"]") && !pyproject.contains("\nversion ="),
        "bindings/python/pyproject.toml must take its version from Cargo (`dynamic = [\"version\"]`)"
    );
}

#[test]
fn the_changelog_names_this_version() {
    let changelog = read("CHANGELOG.md");
    assert!(
        changelog.contains("## [Unreleased]"),
        "CHANGELOG.md must keep an `## [Unreleased]` section for the changes since the last release"
    );
    assert!(
        changelog.contains(&format!("## [{VERSION}]")),
        "CHANGELOG.md has no `## [{VERSION}]` section for the workspace version"
    );
}

/// On Linux the `hookhost` executable is linked at a fixed address (crates/cli/build.rs): an
/// agent starts it once per event, and relocating a PIE of its size was a third of an event
/// that matches no hook (docs/performance.md). ELF `e_type` at offset 16: 2 = EXEC, 3 = DYN.
#[test]
#[cfg(target_os = "linux")]
fn the_executable_is_not_position_independent() {
    let exe = std::fs::read(env!("CARGO_BIN_EXE_hookhost")).expect("reading the hookhost binary");
    assert_eq!(&exe[..4], b"\x7fELF", "not an ELF file");
    let e_type = u16::from_le_bytes([exe[16], exe[17]]);
    let keep_pie = option_env!("HOOKHOST_PIE") == Some("1");
    assert_eq!(
        e_type,
        if keep_pie { 3 } else { 2 },
        "hookhost's ELF type is {e_type} (2 = fixed-address, 3 = position-independent); crates/cli/build.rs links it with -no-pie unless HOOKHOST_PIE=1"
    );
}
