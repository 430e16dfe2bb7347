//! `hookhost trust`: show which project hooks (the config and each wasm module it names)
//! are new or changed since they were last trusted, then record them as trusted.

use clap::Args;
use hookhost::config::{self, Handler, Scope};
use hookhost::{TrustStore, terminal_safe};
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct TrustArgs {
    /// Project directory (default: the current directory).
    #[arg(long)]
    project: Option<PathBuf>,
    /// Only show what is new or changed; record nothing.
    #[arg(long)]
    dry_run: bool,
    /// Print JSON: {"changes": [...], "missing": [{"file", "change": "missing", "hooks"}], "recorded": bool, "unpinned": [{"hook", "program"}]}.
    #[arg(long)]
    json: bool,
}

pub fn trust(a: TrustArgs, home: &super::env::UserHome) -> anyhow::Result<u8> {
    let project = super::project_dir(a.project, home)?;
    let paths = home.paths(&project);
    let set = config::load(&paths)?;
    let mut store = TrustStore::load(paths.home.as_deref())?;
    let assessment = store.assess(&paths, &set);
    let record = !a.dry_run && !assessment.changes.is_empty();
    if record {
        store.trust(&assessment)?;
    }
    // What trust cannot pin: programs that run code from the whole tree (`cargo run`,
    // `pytest`). Named, so the reviewer knows a change there goes unnoticed.
    let unpinned: Vec<(String, String)> = set
        .all()
        .filter(|h| h.scope == Scope::Project)
        .filter_map(|h| match &h.handler {
            Handler::Shell { command, .. } | Handler::Exec { command, .. } => Some((h, command)),
            _ => None,
        })
        .flat_map(|(h, command)| {
            hookhost::trust::unpinned_programs(command)
                .into_iter()
                .map(move |p| (h.id().to_string(), p))
        })
        .collect();
    if a.json {
        let unpinned: Vec<_> = unpinned
            .iter()
            .map(|(hook, program)| serde_json::json!({"hook": hook, "program": program}))
            .collect();
        let v = serde_json::json!({
            "changes": assessment.changes,
            "missing": assessment.missing,
            "recorded": record,
            "unpinned": unpinned,
        });
        println!("{}", serde_json::to_string_pretty(&v)?);
        return Ok(0);
    }
    for (hook, program) in &unpinned {
        println!(
            "note: {hook} runs `{}`, which runs code from the project's tree that trust does not pin: review what it runs, a later change there is not noticed",
            terminal_safe(program)
        );
    }
    if assessment.changes.is_empty() {
        if !assessment.missing.is_empty() {
            print_missing(&assessment, &paths.project_file);
            println!(
                "nothing else to trust in {}",
                terminal_safe(&project.display().to_string())
            );
            return Ok(0);
        }
        println!("{}", nothing_to_trust(&set, &project));
        return Ok(0);
    }
    // A file's name comes from the project (a script a command names): escaped for the
    // terminal, so a reviewer sees the real name.
    for c in &assessment.changes {
        println!(
            "{:<8} {}  ({})",
            c.change,
            terminal_safe(&c.file.display().to_string()),
            hookhost::trust::join_ids(&c.hooks)
        );
    }
    print_missing(&assessment, &paths.project_file);
    if record {
        if let Some(file) = store.path() {
            println!(
                "recorded as trusted in {}",
                terminal_safe(&file.display().to_string())
            );
        }
    } else {
        println!("(dry run: nothing recorded)");
    }
    Ok(0)
}

/// A module that is not there is named, and not recorded: there is nothing to review yet,
/// and pinning "no file" would make the hook "changed" at every later run.
fn print_missing(assessment: &hookhost::trust::TrustAssessment, config: &std::path::Path) {
    for m in &assessment.missing {
        println!(
            "missing {}  ({}): no such file, not recorded; create the module (or fix the path in {}), then run `hookhost trust` again",
            terminal_safe(&m.file.display().to_string()),
            hookhost::trust::join_ids(&m.hooks),
            terminal_safe(&config.display().to_string()),
        );
    }
}

/// What `trust` says when nothing is new or changed: there are no project hooks at all, or
/// all of them are trusted.
fn nothing_to_trust(set: &hookhost::HookSet, project: &std::path::Path) -> String {
    let project = terminal_safe(&project.display().to_string()).into_owned();
    if set.all().any(|h| h.scope == Scope::Project) {
        format!("all project hooks of {project} are trusted")
    } else {
        format!(
            "no project hooks in {project} (no {} there, and no agent settings file of it names a hook): nothing to trust; `hookhost list` shows which files are read",
            hookhost::config::PROJECT_CONFIG
        )
    }
}
