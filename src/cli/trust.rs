//! `hookhost trust`: show which project hooks (the config and each wasm module it names)
//! are new or changed since they were last trusted, then record them as trusted.

use clap::Args;
use hookhost::hooks::TrustStore;
use hookhost::hooks::config;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct TrustArgs {
    /// Project directory (default: the current directory).
    #[arg(long)]
    project: Option<PathBuf>,
    /// Only show what is new or changed; record nothing.
    #[arg(long)]
    dry_run: bool,
    /// Print JSON: {"changes": [...], "recorded": bool}.
    #[arg(long)]
    json: bool,
}

pub fn trust(a: TrustArgs) -> anyhow::Result<u8> {
    let project = super::project_dir(a.project)?;
    let paths = super::env::user_paths(&project);
    let set = config::load(&paths)?;
    let mut store = TrustStore::load(paths.home.as_deref())?;
    let assessment = store.assess(&paths, &set);
    let record = !a.dry_run && !assessment.changes.is_empty();
    if record {
        store.trust(&assessment)?;
    }
    if a.json {
        let v = serde_json::json!({ "changes": assessment.changes, "recorded": record });
        println!("{}", serde_json::to_string_pretty(&v)?);
        return Ok(0);
    }
    if assessment.changes.is_empty() {
        println!("all project hooks of {} are trusted", project.display());
        return Ok(0);
    }
    for c in &assessment.changes {
        println!(
            "{:<8} {}  ({})",
            c.change,
            c.file.display(),
            hookhost::hooks::trust::join_ids(&c.hooks)
        );
    }
    if record {
        println!("recorded as trusted in ~/.coding-agent/trusted.json");
    } else {
        println!("(dry run: nothing recorded)");
    }
    Ok(0)
}
