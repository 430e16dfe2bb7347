//! `hookhost update [REF]`, `hookhost remove REF|NAME`, `hookhost fetch`: the pinned entries
//! after `add`. `update` moves each tag (or file) reference to the digest it names now and
//! shows what changed, capabilities first; `remove` deletes entries; `fetch` downloads the
//! pinned digests the store lacks (or holds damaged), exactly those digests.

use super::add::{all_trusted, approve};
use super::{
    Fetched, HooksFileArgs, confirm, credentials_for, hooks_file, obtain, require_manifest, shown,
};
use anyhow::bail;
use clap::Args;
use hookhost::config::FsAccess;
use hookhost_package::{Capabilities, Digest, Manifest, PackageRef, Store, pins, registry};
use std::path::PathBuf;

#[derive(Args, Debug)]
#[command(
    after_help = "Reads and writes: <project>/.coding-agent/hooks.json (or the user's with \
    --global), the hook store, ~/.coding-agent/trusted.json. Downloads from the references' registries."
)]
pub struct UpdateArgs {
    /// Only the entries pinned from this reference (as in hooks.json) or package name.
    reference: Option<String>,
    #[command(flatten)]
    file: HooksFileArgs,
    /// Do not ask.
    #[arg(short, long)]
    yes: bool,
    /// Allow plain HTTP to a registry that is not on this machine.
    #[arg(long)]
    insecure: bool,
}

#[derive(Args, Debug)]
#[command(
    after_help = "Reads and writes: <project>/.coding-agent/hooks.json (or the user's with --global)."
)]
pub struct RemoveArgs {
    /// The reference (as in hooks.json) or the package's name (the last part of its repository).
    reference: String,
    #[command(flatten)]
    file: HooksFileArgs,
}

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

/// Whether `which` (a reference or a name) names `reference`.
fn names(which: &str, reference: &str) -> bool {
    if which == reference {
        return true;
    }
    let path = reference.split(['#', '@']).next().unwrap_or(reference);
    let last = path.rsplit('/').next().unwrap_or(path);
    let name = last
        .split(':')
        .next()
        .unwrap_or(last)
        .trim_end_matches(".wasm");
    name == which
}

pub async fn update(a: UpdateArgs) -> anyhow::Result<u8> {
    let target = hooks_file(a.file.project, a.file.global)?;
    let mut doc = target.read()?;
    let (project, file) = (target.project.clone(), target.file.clone());
    let store = Store::open_default()?;
    let refs = wanted_pins(&doc, a.reference.as_deref());
    if refs.is_empty() {
        bail!(
            "{}: no pinned hook{}; add one with `hookhost add REF`",
            shown(&file),
            a.reference
                .map(|r| format!(" from {r}"))
                .unwrap_or_default()
        );
    }
    let was_trusted = !a.file.global && all_trusted(&project);
    let mut changed = Vec::new();
    for (reference, old) in refs {
        if !movable(&reference) {
            println!("{reference}: pinned by digest, nothing to move");
            continue;
        }
        let fetched = obtain(&reference, a.insecure).await?;
        if fetched.digest == old {
            println!("{reference}: up to date ({old})");
            continue;
        }
        let manifest = require_manifest(&fetched.bytes, &reference)?;
        let old_manifest = store
            .get(&old)
            .ok()
            .and_then(|b| hookhost_package::manifest_of(&b).ok().flatten());
        println!("{reference}: {old} -> {}", fetched.digest);
        show_changes(&manifest, old_manifest.as_ref());
        if !confirm("  move it?", a.yes)? {
            println!("  kept {old}");
            continue;
        }
        store.put(&fetched.bytes, Some(&fetched.digest))?;
        pins::update(&mut doc, &reference, &manifest, &fetched.digest);
        changed.push((manifest, fetched));
    }
    if changed.is_empty() {
        return Ok(0);
    }
    target.write(&doc)?;
    for (manifest, fetched) in &changed {
        approve(manifest, fetched, was_trusted, &project)?;
    }
    println!(
        "updated {} package{} in {}",
        changed.len(),
        if changed.len() == 1 { "" } else { "s" },
        shown(&file)
    );
    Ok(0)
}

/// The pinned references (each once, with its digest) that `which` names (all without it).
fn wanted_pins(doc: &serde_json::Value, which: Option<&str>) -> Vec<(String, Digest)> {
    let mut refs: Vec<(String, Digest)> = Vec::new();
    for p in pins::pinned(doc) {
        if which.is_none_or(|w| names(w, &p.reference))
            && !refs.iter().any(|(r, _)| *r == p.reference)
        {
            refs.push((p.reference, p.digest));
        }
    }
    refs
}

/// Whether `reference` can name other bytes later: a tag or a file, not a digest or a URL
/// pinned by its `#sha256=`.
fn movable(reference: &str) -> bool {
    match reference.parse::<PackageRef>() {
        Ok(PackageRef::Oci(o)) => o.digest.is_none(),
        Ok(PackageRef::File(_)) => true,
        Ok(PackageRef::Url { .. }) | Err(_) => false,
    }
}

/// What changed from `old` (unknown when the old package is not in the store) to
/// `manifest`: capabilities first, a new write access loudly, then version and events.
fn show_changes(manifest: &Manifest, old: Option<&Manifest>) {
    let old_caps = old.map(|m| m.capabilities.clone());
    let diff = manifest
        .capabilities
        .diff(&old_caps.clone().unwrap_or_else(|| Capabilities {
            fs: FsAccess::None,
            ..Capabilities::default()
        }));
    if old_caps.is_none() {
        println!("  (the old package is not in the store: its capabilities are unknown)");
    }
    if diff.is_empty() {
        println!("  capabilities: unchanged");
    } else {
        println!("  capabilities:");
        for line in &diff {
            println!("    {line}");
        }
    }
    if manifest.capabilities.fs == FsAccess::Write
        && old_caps.as_ref().is_none_or(|c| c.fs != FsAccess::Write)
    {
        println!(
            "  !!! {} NOW ASKS TO WRITE TO YOUR PROJECT (fs: write) !!!",
            manifest.name
        );
    }
    if let Some(om) = old
        && om.version != manifest.version
    {
        println!("  version: {} -> {}", om.version, manifest.version);
    }
    if let Some(om) = old
        && om.events != manifest.events
    {
        println!(
            "  events: {} -> {}",
            om.events.join(", "),
            manifest.events.join(", ")
        );
    }
}

pub fn remove(a: RemoveArgs) -> anyhow::Result<u8> {
    let target = hooks_file(a.file.project, a.file.global)?;
    let file = target.file.clone();
    let mut doc = target.read()?;
    let n = pins::remove(&mut doc, |r| names(&a.reference, r));
    if n == 0 {
        bail!(
            "{}: no pinned hook from {}; `hookhost list` shows the hooks",
            shown(&file),
            a.reference
        );
    }
    target.write(&doc)?;
    println!(
        "removed {n} entr{} from {} (the store keeps the bytes)",
        if n == 1 { "y" } else { "ies" },
        shown(&file)
    );
    Ok(0)
}

pub async fn fetch(a: FetchArgs) -> anyhow::Result<u8> {
    let target = hooks_file(a.project.clone(), false)?;
    // (file, whether it is the project's: its references are the project's say, and get
    // credentials only for a registry the user's own settings name.)
    let mut files = vec![(target.file.clone(), true)];
    if let Some(home) = dirs::home_dir() {
        let global = home.join(".coding-agent/hooks.json");
        if files[0].0 != global {
            files.push((global, false));
        }
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
