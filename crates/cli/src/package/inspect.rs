//! `hookhost inspect FILE|REF`: a package's manifest and digest, from a local file, the
//! store (`sha256:...`), an OCI registry or an HTTPS URL (the last two download it, within
//! the package size limit, and check its digest; nothing is written).

use super::{describe, obtain};
use anyhow::Context;
use clap::Args;
use hookhost_package::{Digest, Store};

#[derive(Args, Debug)]
#[command(
    after_help = "Reads: FILE, the hook store (for sha256:...), or the registry/URL REF names \
    (credentials for that registry only: HOOKHOST_REGISTRY_USERNAME/PASSWORD with \
    HOOKHOST_REGISTRY_HOST naming it, or its entry in docker's config.json). Writes nothing."
)]
pub struct InspectArgs {
    /// A .wasm file, sha256:DIGEST (from the store), oci://registry/repo:tag, oci://...@sha256:..., or https://.../x.wasm#sha256=...
    target: String,
    /// Allow plain HTTP to a registry or URL that is not on this machine.
    #[arg(long)]
    insecure: bool,
    /// Print JSON: {"digest", "manifest", "ref", "manifestDigest"}.
    #[arg(long)]
    json: bool,
}

pub async fn inspect(a: InspectArgs, home: &crate::env::UserHome) -> anyhow::Result<u8> {
    let (bytes, digest, reference, manifest_digest) = if a.target.starts_with("sha256:") {
        let digest = Digest::parse(&a.target)?;
        // The store `run` here reads (its root settled for this directory and home).
        home.setup(&std::env::current_dir()?);
        let bytes = Store::open_default()?.get(&digest)?;
        (bytes, digest, None, None)
    } else {
        let f = obtain(&a.target, a.insecure).await?;
        (f.bytes, f.digest, Some(f.recorded_ref), f.manifest_digest)
    };
    let manifest = hookhost_package::manifest_of(&bytes).with_context(|| a.target.clone())?;
    if a.json {
        let v = serde_json::json!({
            "digest": digest.to_string(),
            "manifest": manifest,
            "ref": reference,
            "manifestDigest": manifest_digest,
        });
        println!("{}", serde_json::to_string_pretty(&v)?);
        return Ok(0);
    }
    match manifest {
        Some(m) => {
            for line in describe(&m, &digest) {
                println!("{line}");
            }
        }
        None => println!(
            "{}: no hook manifest (not packed)\n  digest:  {digest}",
            a.target
        ),
    }
    if let Some(m) = manifest_digest {
        println!("  oci manifest: {m}");
    }
    Ok(0)
}
