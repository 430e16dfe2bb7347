//! `hookhost fetch`: downloads the pinned digests the store lacks (or holds damaged), exactly
//! those digests, for the project's and the user's `hooks.json`.

use super::{Fetched, credentials_for, hooks_file, obtain, shown};
use anyhow::bail;
use clap::Args;
use hookhost_package::{Digest, PackageRef, Store, pins, registry};
use std::path::PathBuf;

#[derive(Args, Debug)]
#[command(
    after_help = "Reads: both hooks.json files. Writes: the hook store. Downloads only the pinned digests."
)]
pub struct FetchArgs {
    #[arg(long)]
    project: Option<PathBuf>,
    /// Allow plain HTTP to a registry that is not on this machine.
    #[arg(long)]
    insecure: bool,
}

pub async fn fetch(a: FetchArgs, home: &crate::env::UserHome) -> anyhow::Result<u8> {
    let target = hooks_file(a.project.clone(), false, home)?;
    // (file, whether it is the project's: its references are the project's say, and get
    // credentials only for a registry the user's own settings name.)
    let mut files = vec![(target.file.clone(), true)];
    if let Some(global) = home.paths(&target.project).global_file
        && files[0].0 != global
    {
        files.push((global, false));
    }
    let store = Store::open_default()?;
    let (mut fetched, mut failed) = (0, 0);
    for (file, from_project) in files {
        let doc = match pins::read_doc(&file) {
            Ok(d) => d,
            Err(e) => {
                eprintln!("error: {e}");
                failed += 1;
                continue;
            }
        };
        let mut done: Vec<Digest> = Vec::new();
        for p in pins::pinned(&doc) {
            if done.contains(&p.digest) || store.verify(&p.digest).is_ok() {
                continue;
            }
            done.push(p.digest.clone());
            let note = from_project.then(|| shown(&file));
            match fetch_one(&p.reference, &p.digest, a.insecure, note.as_deref()).await {
                Ok(f) => {
                    store.put(&f.bytes, Some(&p.digest))?;
                    println!("fetched {} ({})", p.digest, p.reference);
                    fetched += 1;
                }
                Err(e) => {
                    eprintln!("error: {}: {e:#}", p.reference);
                    failed += 1;
                }
            }
        }
    }
    println!("{fetched} fetched, {failed} failed");
    Ok(if failed == 0 { 0 } else { 1 })
}

/// Downloads exactly `digest` from where `reference` points: a registry blob by digest (the
/// tag may have moved since), a URL or a file, checked. `project_file` names the project
/// file the reference comes from: credentials go with it only when the user's own settings
/// name its registry (`credentials.rs`), and the user is told when they do.
async fn fetch_one(
    reference: &str,
    digest: &Digest,
    insecure: bool,
    project_file: Option<&str>,
) -> anyhow::Result<Fetched> {
    if let Ok(PackageRef::Oci(o)) = reference.parse::<PackageRef>() {
        let creds = credentials_for(&o)?;
        if let (Some(file), false) = (project_file, creds.is_anonymous()) {
            eprintln!(
                "note: {reference} (named by {file}) is fetched with your credentials for {} (from {})",
                o.registry,
                creds.source()
            );
        }
        let bytes = registry::pull_blob(&o, digest, &creds, insecure).await?;
        return Ok(Fetched {
            bytes,
            digest: digest.clone(),
            recorded_ref: reference.to_string(),
            manifest_digest: None,
        });
    }
    let f = obtain(reference, insecure).await?;
    if f.digest != *digest {
        bail!(
            "it now holds {}, not the pinned {digest}; run `hookhost update` to move the pin, or restore the file",
            f.digest
        );
    }
    Ok(f)
}
