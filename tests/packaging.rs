//! The published crates are complete (docs/install.md, "cargo install"): `cargo package` ships a
//! crate's own directory only, so nothing a crate embeds may live above it, and every crate
//! crates.io would get carries the metadata it shows. `scripts/release --publish-dry-run`
//! compiles the packaged crates; these checks catch the usual mistakes in a second.

use std::path::{Component, Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The crates `cargo publish --workspace` uploads (the Python binding is `publish = false`).
const PUBLISHED: &[&str] = &["core", "engine", "package", "serve", "warm", "cli"];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `dir` joined with `rel`, `..` resolved lexically (symlinks are what cargo copies in).
fn lexical(dir: &Path, rel: &str) -> PathBuf {
    let mut p = dir.to_path_buf();
    for c in Path::new(rel).components() {
        match c {
            Component::ParentDir => {
                p.pop();
            }
            Component::Normal(n) => p.push(n),
            _ => {}
        }
    }
    p
}

#[test]
fn nothing_a_crate_embeds_lies_above_its_root() {
    let mut bad = Vec::new();
    for krate in PUBLISHED {
        let crate_dir = lexical(&root(), &format!("crates/{krate}"));
        let mut files = Vec::new();
        rust_files(&crate_dir.join("src"), &mut files);
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            for (macro_, base) in [
                ("include_str!(\"", file.parent().unwrap().to_path_buf()),
                ("include_bytes!(\"", file.parent().unwrap().to_path_buf()),
                // wasmtime's bindgen! resolves `path` against the crate root.
                ("path: \"", crate_dir.clone()),
            ] {
                for (at, _) in text.match_indices(macro_) {
                    let rest = &text[at + macro_.len()..];
                    let rel = &rest[..rest.find('"').unwrap_or(0)];
                    if !rel.ends_with(".wit") && macro_.starts_with("path") {
                        continue;
                    }
                    let target = lexical(&base, rel);
                    if !target.starts_with(&crate_dir) {
                        bad.push(format!("{}: {macro_}{rel}", file.display()));
                    } else if !target.exists() {
                        bad.push(format!("{}: {rel} does not exist", file.display()));
                    }
                }
            }
        }
    }
    assert!(
        bad.is_empty(),
        "embedded files above the crate root would be missing from the published crate; link them \
         into the crate (crates/cli/assets/, crates/engine/wit/) and embed the link:\n{}",
        bad.join("\n")
    );
}

#[test]
fn every_published_crate_has_its_crates_io_metadata() {
    let workspace: toml::Table = std::fs::read_to_string(root().join("Cargo.toml"))
        .unwrap()
        .parse()
        .unwrap();
    let shared = &workspace["workspace"]["package"];
    for krate in PUBLISHED {
        let dir = root().join("crates").join(krate);
        let manifest: toml::Table = std::fs::read_to_string(dir.join("Cargo.toml"))
            .unwrap()
            .parse()
            .unwrap();
        let package = manifest["package"].as_table().unwrap();
        for field in [
            "description",
            "license",
            "repository",
            "readme",
            "keywords",
            "categories",
            "include",
        ] {
            let value = package.get(field);
            let inherited = value
                .and_then(|v| v.get("workspace"))
                .is_some_and(|w| w.as_bool() == Some(true));
            assert!(
                value.is_some() && (!inherited || shared.get(field).is_some()),
                "crates/{krate}/Cargo.toml has no `{field}` (crates.io shows it): add it, or `{field}.workspace = true`"
            );
        }
        assert_ne!(
            package.get("publish").and_then(toml::Value::as_bool),
            Some(false),
            "crates/{krate} is published"
        );
        for file in ["README.md", "LICENSE"] {
            assert!(
                dir.join(file).is_file(),
                "crates/{krate}/{file} is missing: cargo package would ship the crate without it"
            );
        }
    }
    let binding: toml::Table = std::fs::read_to_string(root().join("bindings/python/Cargo.toml"))
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(
        binding["package"]
            .get("publish")
            .and_then(toml::Value::as_bool),
        Some(false),
        "the Python binding is built by maturin, never a crates.io crate: keep `publish = false`"
    );
}
