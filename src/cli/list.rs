//! `hookhost list`: the effective hooks in run order, with the file each came from.

use clap::Args;
use hookhost::hooks::config::{self, ConfigPaths};
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct ListArgs {
    /// Project directory (default: the current directory).
    #[arg(long)]
    project: Option<PathBuf>,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

pub fn list(a: ListArgs) -> anyhow::Result<u8> {
    let project = super::project_dir(a.project)?;
    let set = config::load(&ConfigPaths::for_project(&project))?;
    if a.json {
        // The same object `serve` answers `list` with.
        println!(
            "{}",
            serde_json::to_string_pretty(&hookhost::serve::list_json(&set))?
        );
        return Ok(0);
    }
    if set.is_empty() {
        println!("no hooks configured (looked in:");
        for f in &set.files {
            println!("  {}", f.display());
        }
        println!(")");
        return Ok(0);
    }
    let mut current = None;
    for h in set.all() {
        if current != Some(h.event) {
            println!("{}", h.event);
            current = Some(h.event);
        }
        let mut extras = Vec::new();
        if let Some(m) = &h.match_source {
            extras.push(format!("match {m:?}"));
        }
        if h.is_async {
            extras.push("async".into());
        }
        extras.push(format!("timeout {} ms", h.timeout.as_millis()));
        println!(
            "  {:<16} {:<5} {}  [{}]",
            h.label(),
            h.handler.kind().as_str(),
            h.handler.display(),
            extras.join(", ")
        );
        if let Some(d) = &h.description {
            println!("      {d}");
        }
        println!(
            "      from {} ({})",
            h.file.display(),
            if h.scope == config::Scope::Project {
                "project"
            } else {
                "global"
            }
        );
    }
    Ok(0)
}
