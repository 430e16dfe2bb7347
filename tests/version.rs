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
fn the_npm_package_has_the_workspace_version() {
    let package: serde_json::Value =
        serde_json::from_str(&read("bindings/node/package.json")).unwrap();
    assert_eq!(
        package["version"], VERSION,
        "bindings/node/package.json must carry the workspace version {VERSION} (Cargo.toml [workspace.package]); set it there"
    );
}

#[test]
fn every_crate_and_the_wheel_inherit_the_version() {
    for manifest in [
        "crates/core/Cargo.toml",
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
