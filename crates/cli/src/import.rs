//! `hookhost import [--from claude|gemini|codex] [--write]`: another agent's hooks as native
//! `.coding-agent/hooks.json` entries. Dry run by default: prints the resulting file. Each
//! converted hook keeps its semantics through `"dialect"` (its payload, environment and
//! rules), timeouts in milliseconds, `matcher` as `match`. With `--write` the hooks are
//! appended to the project's file (created if absent; a broken one is left alone).
//!
//! Reads the project's files of that agent (`.claude/settings.json` and
//! `.claude/settings.local.json`, `.gemini/settings.json`, `.codex/hooks.json`).

use anyhow::{Context, bail};
use clap::Args;
use hookhost::config::PROJECT_CONFIG;
use hookhost::dialect::{self, Dialect};
use hookhost::files::{CONFIG_LIMIT, read_bounded};
use serde_json::{Map, Value, json};
use std::path::{Path, PathBuf};

#[derive(Args, Debug)]
pub struct ImportArgs {
    /// Whose hooks to convert (default: every agent whose file the project has).
    #[arg(long, value_name = "claude|gemini|codex")]
    from: Option<String>,
    /// Project directory (default: the current directory).
    #[arg(long)]
    project: Option<PathBuf>,
    /// Append the converted hooks to <project>/.coding-agent/hooks.json instead of printing.
    #[arg(long)]
    write: bool,
}

/// Each agent's project files, in the order they are read.
const SOURCES: &[(Dialect, &str)] = &[
    (Dialect::Claude, ".claude/settings.json"),
    (Dialect::Claude, ".claude/settings.local.json"),
    (Dialect::Gemini, ".gemini/settings.json"),
    (Dialect::Codex, ".codex/hooks.json"),
];

/// The converted hooks by event, and the files they came from.
struct Converted {
    events: Map<String, Value>,
    read: Vec<PathBuf>,
}

pub fn import(a: ImportArgs, home: &super::env::UserHome) -> anyhow::Result<u8> {
    let project = super::project_dir(a.project, home)?;
    let wanted = wanted(a.from.as_deref())?;
    let converted = convert(&project, &wanted)?;
    let target = project.join(PROJECT_CONFIG);
    if !a.write {
        println!(
            "{}",
            serde_json::to_string_pretty(&json!({"hooks": converted.events}))?
        );
        eprintln!(
            "dry run: this is what {} would hold; run with --write to append it (then remove the hooks from the source files, or both copies run)",
            target.display()
        );
        return Ok(0);
    }
    let added = append(&target, converted.events)?;
    println!(
        "added {added} hook{} to {}; remove them from {} or they run twice",
        if added == 1 { "" } else { "s" },
        target.display(),
        converted
            .read
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    );
    Ok(0)
}

/// The agents `--from` names (every one by default).
fn wanted(from: Option<&str>) -> anyhow::Result<Vec<Dialect>> {
    Ok(match from {
        None => vec![Dialect::Claude, Dialect::Gemini, Dialect::Codex],
        Some(f) => match f.parse::<Dialect>() {
            Ok(d @ (Dialect::Claude | Dialect::Gemini | Dialect::Codex)) => vec![d],
            _ => bail!("--from takes claude, gemini or codex, got {f}"),
        },
    })
}

/// Every hook of the `wanted` agents' files in `project`, converted; their problems and
/// warnings printed. An error when no file exists or any has a problem.
fn convert(project: &Path, wanted: &[Dialect]) -> anyhow::Result<Converted> {
    let sources = || SOURCES.iter().filter(|(d, _)| wanted.contains(d));
    let mut converted = Converted {
        events: Map::new(),
        read: Vec::new(),
    };
    let mut problems = 0;
    for (d, rel) in sources() {
        let path = project.join(rel);
        let bytes = match read_bounded(&path, CONFIG_LIMIT) {
            Ok(b) => b,
            Err(e) if e.is_not_found() => continue,
            Err(e) => bail!("{}: cannot read: {e}", path.display()),
        };
        let text =
            String::from_utf8(bytes).with_context(|| format!("{} is not UTF-8", path.display()))?;
        converted.read.push(path.clone());
        let f = dialect::read_settings(*d, &text);
        problems += f.problems.len();
        for (kind, list) in [("error", &f.problems), ("warning", &f.warnings)] {
            for (at, msg) in list {
                eprintln!(
                    "{kind}: {}: {}{msg}",
                    path.display(),
                    at.as_ref().map(|a| format!("{a}: ")).unwrap_or_default()
                );
            }
        }
        for h in f.hooks {
            if let Value::Array(list) = converted
                .events
                .entry(h.event.as_str())
                .or_insert_with(|| json!([]))
            {
                list.push(h.hook);
            }
        }
    }
    if converted.read.is_empty() {
        bail!(
            "no hooks to import: none of {} exists in {}",
            sources().map(|(_, r)| *r).collect::<Vec<_>>().join(", "),
            project.display()
        );
    }
    if problems > 0 {
        bail!("{problems} problem(s) in the source files; fix them first (nothing was converted)");
    }
    Ok(converted)
}

/// Appends `events` to the hooks of `target` (created if absent; a broken one is left
/// alone); how many hooks were added.
fn append(target: &Path, events: Map<String, Value>) -> anyhow::Result<usize> {
    let mut root = match read_bounded(target, CONFIG_LIMIT) {
        Ok(bytes) => serde_json::from_slice::<Value>(&bytes).with_context(|| {
            format!(
                "{} is not valid JSON; fix it before importing into it",
                target.display()
            )
        })?,
        Err(e) if e.is_not_found() => json!({"hooks": {}}),
        Err(e) => bail!("{}: cannot read: {e}", target.display()),
    };
    let Some(existing) = root
        .as_object_mut()
        .map(|o| o.entry("hooks").or_insert_with(|| json!({})))
        .and_then(Value::as_object_mut)
    else {
        bail!(
            "{} has no \"hooks\" object to add to; fix it first",
            target.display()
        );
    };
    let mut added = 0;
    for (event, list) in events {
        let Value::Array(list) = list else { continue };
        added += list.len();
        match existing.entry(event).or_insert_with(|| json!([])) {
            Value::Array(have) => have.extend(list),
            _ => bail!(
                "{}: an event's hooks are not a list; fix it first",
                target.display()
            ),
        }
    }
    refuse_symlinks(target)?;
    if let Some(dir) = target.parent() {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(target, serde_json::to_string_pretty(&root)? + "\n")
        .with_context(|| format!("writing {}", target.display()))?;
    Ok(added)
}

/// A cloned repository may ship `.coding-agent` (or the file) as a symlink leading out of
/// the project, e.g. to the user's own `~/.coding-agent`: writing through it would turn the
/// project's untrusted hooks into the user's global, trusted ones.
fn refuse_symlinks(target: &Path) -> anyhow::Result<()> {
    for p in [target.parent(), Some(target)].into_iter().flatten() {
        if p.symlink_metadata()
            .is_ok_and(|m| m.file_type().is_symlink())
        {
            bail!(
                "{} is a symlink; refusing to write through it (it may lead out of the project). Replace it with a real directory or file",
                p.display()
            );
        }
    }
    Ok(())
}
