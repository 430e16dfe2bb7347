//! `hookhost add REF`: fetch a hook package, check it, put it in the store, show what it asks
//! for and the entries it will write, and (once the user agrees, or `--yes`) write entries
//! that pin its digest into the project's (or `--global`, the user's) `hooks.json`.

use super::{
    Fetched, HooksFile, HooksFileArgs, confirm, describe, hooks_file, obtain, require_manifest,
    shown,
};
use clap::Args;
use hookhost::TrustStore;
use hookhost::config::{self, ConfigPaths};
use hookhost::trust::PackageGrant;
use hookhost_package::{Manifest, Store, pins};
use std::path::Path;

#[derive(Args, Debug)]
#[command(
    after_help = "Reads: REF (a registry, URL or file), registry credentials (as publish). \
    Writes: the hook store ($HOOKHOST_STORE_DIR, default ~/.cache/hookhost/store), \
    <project>/.coding-agent/hooks.json (or ~/.coding-agent/hooks.json with --global), and the \
    approval of the package's digest in ~/.coding-agent/trusted.json."
)]
pub struct AddArgs {
    /// oci://registry/repo:tag, oci://registry/repo@sha256:..., https://.../x.wasm#sha256=..., or a packed .wasm file.
    reference: String,
    #[command(flatten)]
    file: HooksFileArgs,
    /// Do not ask: accept the capabilities and entries shown.
    #[arg(short, long)]
    yes: bool,
    /// Allow plain HTTP to a registry or URL that is not on this machine.
    #[arg(long)]
    insecure: bool,
}

pub async fn add(a: AddArgs, home: &crate::env::UserHome) -> anyhow::Result<u8> {
    let target = hooks_file(a.file.project, a.file.global, home)?;
    // Refuses a symlinked `.coding-agent` before anything is fetched or asked.
    target.read()?;
    let file = target.file.clone();
    let fetched = obtain(&a.reference, a.insecure).await?;
    let manifest = require_manifest(&fetched.bytes, &a.reference)?;
    let store = Store::open_default()?;
    store.put(&fetched.bytes, Some(&fetched.digest))?;
    let entries = pins::entries_for(&manifest, &fetched.recorded_ref, &fetched.digest);
    for line in describe(&manifest, &fetched.digest) {
        println!("{line}");
    }
    println!("\nentries for {}:", shown(&file));
    for (event, entry) in &entries {
        println!("  {event}: {}", serde_json::to_string(entry)?);
    }
    if !confirm("add them?", a.yes)? {
        println!("nothing written");
        return Ok(1);
    }
    write_entries(&target, &fetched, &manifest, entries)?;
    println!(
        "added {} {} to {} (pinned to {}; runs from the store, never from the network)",
        manifest.name,
        manifest.version,
        shown(&file),
        fetched.digest
    );
    Ok(0)
}

/// Writes `entries` and records the approval; a project whose hooks were all trusted before
/// stays trusted (the only change is the entries the user just approved).
fn write_entries(
    target: &HooksFile,
    fetched: &Fetched,
    manifest: &Manifest,
    entries: Vec<(String, serde_json::Value)>,
) -> anyhow::Result<()> {
    let mut doc = target.read()?;
    let project = &target.project;
    let was_trusted = !target.global && all_trusted(project);
    let replaced = pins::add(&mut doc, &fetched.recorded_ref, entries);
    if replaced > 0 {
        println!(
            "(replaced {replaced} earlier entr{} from the same reference)",
            if replaced == 1 { "y" } else { "ies" }
        );
    }
    target.write(&doc)?;
    approve(manifest, fetched, was_trusted, project)
}

/// Whether every project hook is trusted now (and the config loads).
pub fn all_trusted(project: &Path) -> bool {
    let paths = ConfigPaths::for_project(project);
    let (Ok(set), Ok(store)) = (
        config::load(&paths),
        TrustStore::load(paths.home.as_deref()),
    ) else {
        return false;
    };
    store.assess(&paths, &set).changes.is_empty()
}

/// Records the package's digest as approved with its capabilities; re-trusts the project if
/// it was trusted before the edit.
pub fn approve(
    manifest: &Manifest,
    fetched: &Fetched,
    was_trusted: bool,
    project: &Path,
) -> anyhow::Result<()> {
    let paths = ConfigPaths::for_project(project);
    let mut store = TrustStore::load(paths.home.as_deref())?;
    // The package as `add` writes it: without arguments (`PackageGrant::args`).
    let grant = PackageGrant {
        fs: manifest.capabilities.fs,
        env: manifest.capabilities.env.clone(),
        args: vec![Vec::new()],
    };
    store.approve_package(fetched.digest.hex(), &grant)?;
    if was_trusted && let Ok(set) = config::load(&paths) {
        let assessment = store.assess(&paths, &set);
        if !assessment.changes.is_empty() {
            store.trust(&assessment)?;
        }
    }
    Ok(())
}
