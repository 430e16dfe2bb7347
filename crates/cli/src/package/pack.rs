//! `hookhost pack FILE.wasm`: embed the hook's manifest (`hook.json` in the current
//! directory, or `--manifest`) in the module's `hookhost:manifest` section, replacing any
//! earlier one, and print the packed file's path and digest.

use anyhow::Context;
use clap::Args;
use hookhost::files::{MODULE_LIMIT, read_bounded};
use hookhost_package::{Digest, Manifest};
use std::path::PathBuf;

#[derive(Args, Debug)]
#[command(
    after_help = "Reads: FILE.wasm and hook.json (else hook.toml, or --manifest). Writes: the packed module \
    (FILE.wasm itself, replaced atomically, or --output). Prints the packed file's path."
)]
pub struct PackArgs {
    /// The built module or component.
    file: PathBuf,
    /// The manifest (default: hook.json in the current directory, else hook.toml).
    #[arg(long)]
    manifest: Option<PathBuf>,
    /// Write the packed module here instead of replacing FILE.
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// Print JSON: {"path", "digest", "manifest"}.
    #[arg(long)]
    json: bool,
}

pub fn pack(a: PackArgs) -> anyhow::Result<u8> {
    let manifest_path = a.manifest.unwrap_or_else(|| {
        let json = PathBuf::from("hook.json");
        let toml = PathBuf::from("hook.toml");
        if !json.exists() && toml.exists() {
            toml
        } else {
            json
        }
    });
    let mut text = read_bounded(&manifest_path, hookhost_package::manifest::MANIFEST_LIMIT as u64).with_context(|| {
        format!(
            "reading the manifest {} (run `hookhost pack` in the hook project, next to its hook.json or hook.toml, or pass --manifest)",
            manifest_path.display()
        )
    })?;
    if manifest_path.extension().is_some_and(|e| e == "toml") {
        let value: serde_json::Value = toml::from_str(&String::from_utf8_lossy(&text))
            .with_context(|| format!("{}: invalid TOML", manifest_path.display()))?;
        text = serde_json::to_vec(&value)?;
    }
    let manifest =
        Manifest::from_json(&text).with_context(|| format!("{}", manifest_path.display()))?;
    for key in manifest.unknown.keys() {
        eprintln!(
            "warning: {}: unknown key `{key}` is not packed",
            manifest_path.display()
        );
    }
    let bytes = read_bounded(&a.file, MODULE_LIMIT)
        .with_context(|| format!("reading {}", a.file.display()))?;
    let packed = hookhost_package::pack(&bytes, &manifest)
        .with_context(|| format!("{}", a.file.display()))?;
    let out = a.output.unwrap_or_else(|| a.file.clone());
    let dir = out
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(std::path::Path::new("."));
    let mut tmp = tempfile::Builder::new()
        .prefix(".pack-")
        .suffix(".tmp")
        .tempfile_in(dir)?;
    std::io::Write::write_all(&mut tmp, &packed)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(tmp.path(), std::fs::Permissions::from_mode(0o644))?;
    }
    tmp.persist(&out)
        .map_err(|e| e.error)
        .with_context(|| format!("writing {}", out.display()))?;
    let digest = Digest::of(&packed);
    if a.json {
        let v =
            serde_json::json!({"path": out, "digest": digest.to_string(), "manifest": manifest});
        println!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        eprintln!("packed {} {} ({digest})", manifest.name, manifest.version);
        println!("{}", out.display());
    }
    Ok(0)
}
