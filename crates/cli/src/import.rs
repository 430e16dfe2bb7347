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
use std::path::PathBuf;

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

pub fn import(a: ImportArgs) -> anyhow::Result<u8> {
    let project = super::project_dir(a.project)?;
    let wanted: Vec<Dialect> = match &a.from {
        None => vec![Dialect::Claude, Dialect::Gemini, Dialect::Codex],
        Some(f) => match f.parse::<Dialect>() {
            Ok(d @ (Dialect::Claude | Dialect::Gemini | Dialect::Codex)) => vec![d],
            _ => bail!("--from takes claude, gemini or codex, got {f}"),
        },
    };
    let files: &[(Dialect, &str)] = &[
        (Dialect::Claude, ".claude/settings.json"),
        (Dialect::Claude, ".claude/settings.local.json"),
        (Dialect::Gemini, ".gemini/settings.json"),
        (Dialect::Codex, ".codex/hooks.json"),
    ];
    let mut events: Map<String, Value> = Map::new();
    let mut read_any = Vec::new();
    let mut problems = 0;
    for (d, rel) in files.iter().filter(|(d, _)| wanted.contains(d)) {
        let path = project.join(rel);
        let bytes = match read_bounded(&path, CONFIG_LIMIT) {
            Ok(b) => b,
            Err(e) if e.is_not_found() => continue,
            Err(e) => bail!("{}: cannot read: {e}", path.display()),
        };
        let text =
            String::from_utf8(bytes).with_context(|| format!("{} is not UTF-8", path.display()))?;
        read_any.push(path.clone());
        let f = dialect::read_settings(*d, &text);
        for (at, msg) in &f.problems {
            problems += 1;
            eprintln!(
                "error: {}: {}{msg}",
                path.display(),
                at.as_ref().map(|a| format!("{a}: ")).unwrap_or_default()
            );
        }
        for (at, msg) in &f.warnings {
            eprintln!(
                "warning: {}: {}{msg}",
                path.display(),
                at.as_ref().map(|a| format!("{a}: ")).unwrap_or_default()
            );
        }
        for h in f.hooks {
            if let Value::Array(list) = events.entry(h.event.as_str()).or_insert_with(|| json!([]))
            {
                list.push(h.hook);
            }
        }
    }
    if read_any.is_empty() {
        bail!(
            "no hooks to import: none of {} exists in {}",
            files
                .iter()
                .filter(|(d, _)| wanted.contains(d))
                .map(|(_, r)| *r)
                .collect::<Vec<_>>()
                .join(", "),
            project.display()
        );
    }
    if problems > 0 {
        bail!("{problems} problem(s) in the source files; fix them first (nothing was converted)");
    }
    let target = project.join(PROJECT_CONFIG);
    if !a.write {
        println!(
            "{}",
            serde_json::to_string_pretty(&json!({"hooks": events}))?
        );
        eprintln!(
            "dry run: this is what {} would hold; run with --write to append it (then remove the hooks from the source files, or both copies run)",
            target.display()
        );
        return Ok(0);
    }
    let mut root = match read_bounded(&target, CONFIG_LIMIT) {
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
    // A cloned repository may ship `.coding-agent` (or the file) as a symlink leading out of
    // the project, e.g. to the user's own `~/.coding-agent`: writing through it would turn the
    // project's untrusted hooks into the user's global, trusted ones.
    for p in [target.parent(), Some(target.as_path())]
        .into_iter()
        .flatten()
    {
        if p.symlink_metadata()
            .is_ok_and(|m| m.file_type().is_symlink())
        {
            bail!(
                "{} is a symlink; refusing to write through it (it may lead out of the project). Replace it with a real directory or file",
                p.display()
            );
        }
    }
    if let Some(dir) = target.parent() {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(&target, serde_json::to_string_pretty(&root)? + "\n")
        .with_context(|| format!("writing {}", target.display()))?;
    println!(
        "added {added} hook{} to {}; remove them from {} or they run twice",
        if added == 1 { "" } else { "s" },
        target.display(),
        read_any
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    );
    Ok(0)
}
