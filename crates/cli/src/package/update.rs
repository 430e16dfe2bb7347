//! `hookhost update [REF]`: moves each pinned tag (or file) reference to the digest it names
//! now and shows what changed, capabilities first.

use super::add::{all_trusted, approve};
use super::remove::names;
use super::{HooksFileArgs, confirm, hooks_file, obtain, require_manifest, shown};
use anyhow::bail;
use clap::Args;
use hookhost::config::FsAccess;
use hookhost_package::{Capabilities, Digest, Manifest, PackageRef, Store, pins};

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

pub async fn update(a: UpdateArgs, home: &crate::env::UserHome) -> anyhow::Result<u8> {
    let target = hooks_file(a.file.project, a.file.global, home)?;
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
