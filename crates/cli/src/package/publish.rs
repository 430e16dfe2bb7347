//! `hookhost publish FILE REF`: push a packed hook to an OCI registry as a wasm artifact.

use super::{credentials_for, require_manifest};
use anyhow::{Context, bail};
use clap::Args;
use hookhost::files::read_bounded;
use hookhost_package::{PACKAGE_LIMIT, PackageRef, registry};
use std::path::PathBuf;

#[derive(Args, Debug)]
#[command(
    after_help = "Reads: FILE (packed with `hookhost pack`) and the registry's credentials \
    (HOOKHOST_REGISTRY_USERNAME and HOOKHOST_REGISTRY_PASSWORD when HOOKHOST_REGISTRY_HOST names \
    this registry, else its entry in $DOCKER_CONFIG/config.json or ~/.docker/config.json); they \
    go to that registry only (a token service elsewhere only if HOOKHOST_REGISTRY_REALM names it). \
    Plain HTTP only for registries on this machine, unless --insecure. Prints the pinned \
    reference (REF@sha256:...)."
)]
pub struct PublishArgs {
    /// The packed .wasm.
    file: PathBuf,
    /// Where: oci://registry/repository:tag
    reference: String,
    /// Allow plain HTTP to a registry that is not on this machine.
    #[arg(long)]
    insecure: bool,
    /// Print JSON: {"ref", "digest", "manifestUrl"}.
    #[arg(long)]
    json: bool,
}

pub async fn publish(a: PublishArgs) -> anyhow::Result<u8> {
    let PackageRef::Oci(r) = a.reference.parse()? else {
        bail!(
            "{}: publish to an OCI registry: oci://registry/repository:tag",
            a.reference
        );
    };
    if r.tag.is_none() || r.digest.is_some() {
        bail!(
            "{}: publish to a tag (oci://registry/repository:tag); the digest is the registry's to compute",
            a.reference
        );
    }
    let bytes = read_bounded(&a.file, PACKAGE_LIMIT)
        .with_context(|| format!("reading {}", a.file.display()))?;
    let manifest = require_manifest(&bytes, &a.file.display().to_string())?;
    let creds = credentials_for(&r)?;
    let (digest, url) = registry::push(&r, &bytes, &manifest, &creds, a.insecure).await?;
    if a.json {
        let v = serde_json::json!({"ref": r.tagged(), "digest": digest.to_string(), "manifestUrl": url});
        println!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        eprintln!(
            "published {} {} ({digest})",
            manifest.name, manifest.version
        );
        println!("{}", r.tagged());
    }
    Ok(0)
}
