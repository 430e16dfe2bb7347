//! `hookhost install --for AGENT [--uninstall] [--dry-run] [--json]`: wires this hookhost's
//! outbound adapter (`<absolute path> hook --for AGENT`, [`table::wired_command`]) into the
//! agent's user settings file on every event it fires that hookhost handles ([`table`]),
//! keeping everything else of the file ([`edit`]), written atomically with a backup the
//! first time ([`file`]). The home directory is `--home`, else the account's (never
//! `$HOME`: `env.rs`).

pub mod edit;
pub mod file;
pub mod ordered;
pub mod plugin_file;
pub mod script_dir;
pub mod table;

use anyhow::{Context, bail};
use clap::Args;
use edit::{Action, Change};
use hookhost::dialect::Dialect;
use hookhost::terminal_safe;
use serde::Serialize;
use std::path::{Path, PathBuf};
use table::AgentRow;

#[derive(Args, Debug)]
#[command(
    after_help = "Writes the agent's user settings file (~/.claude/settings.json, ~/.codex/hooks.json, \
    ~/.gemini/settings.json, ~/.cursor/hooks.json, ~/.copilot/hooks/hookhost.json, \
    ~/.qwen/settings.json, ~/.qoder/settings.json, ~/.grok/hooks/hookhost.json, ~/.factory/settings.json, \
    ~/.augment/settings.json, ~/.codeium/windsurf/hooks.json, \
    a script per event in ~/Documents/Cline/Hooks/ for Cline, \
    ~/.agents/plugins/hookhost/hooks/hooks.json for goose), atomically, \
    with a copy of the original as FILE.hookhost-backup the first time; for opencode, hookhost's \
    plugin as ~/.config/opencode/plugins/hookhost.js (never a file there that is not hookhost's). Reads ~/.codex/config.toml \
    (whether Codex's hooks are switched off). Exit 1 when the file cannot be read as the agent reads it."
)]
pub struct InstallArgs {
    /// The agent whose user settings get the adapter.
    #[arg(
        long = "for",
        value_name = "claude|codex|gemini|cursor|copilot|qwen|qoder|grok|droid|auggie|cline|windsurf|goose|opencode",
        value_parser = crate::shell::Hinted::new(table::AGENTS.iter().map(|r| r.dialect.as_str())),
        hide_possible_values = true
    )]
    agent: String,
    /// Remove hookhost's entries (every entry running `hookhost hook`) instead.
    #[arg(long)]
    uninstall: bool,
    /// Print what would change; write nothing.
    #[arg(long)]
    dry_run: bool,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

/// What install did (or would do): `--json` prints it.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Outcome {
    agent: &'static str,
    file: PathBuf,
    /// `install` or `uninstall`.
    operation: &'static str,
    dry_run: bool,
    /// Whether the file changed (or would).
    changed: bool,
    /// The command wired (install only).
    #[serde(skip_serializing_if = "Option::is_none")]
    command: Option<String>,
    /// The backup this run made.
    #[serde(skip_serializing_if = "Option::is_none")]
    backup: Option<PathBuf>,
    /// Whether uninstall removed the file (one install had made and nothing else is in).
    removed_file: bool,
    events: Vec<Change>,
    /// What the user should know (the agent's own switches and reviews).
    notes: Vec<String>,
    /// With `--dry-run`: the file's new text (`null`: it would be removed).
    #[serde(skip_serializing_if = "Option::is_none")]
    content: Option<String>,
}

impl Outcome {
    /// What install did for `row`'s `file`, before anything is known of the change.
    fn new(a: &InstallArgs, row: &AgentRow, file: &Path, notes: Vec<String>) -> Outcome {
        Outcome {
            agent: row.dialect.as_str(),
            file: file.to_path_buf(),
            operation: if a.uninstall { "uninstall" } else { "install" },
            dry_run: a.dry_run,
            changed: false,
            command: None,
            backup: None,
            removed_file: false,
            events: Vec::new(),
            notes,
            content: None,
        }
    }
}

pub fn install(a: InstallArgs, home: &crate::env::UserHome) -> anyhow::Result<u8> {
    let d: Dialect = a.agent.parse().map_err(|_| unknown(&a.agent))?;
    let row = table::row(d).ok_or_else(|| unknown(&a.agent))?;
    let Some(home_dir) = home.dir() else {
        bail!("no home directory for this account: pass --home DIR");
    };
    let path = row.file(&home_dir);
    if let table::Shape::PluginFile { text } = row.shape {
        return install_plugin_file(&a, row, &path, text, &home_dir);
    }
    if row.shape == table::Shape::ScriptDir {
        return install_script_dir(&a, row, &path, home, &home_dir);
    }
    let mut doc = file::read(&path, row.comments, a.dry_run)?;
    let original = doc.clone();
    let shape = |e: edit::ShapeError| file::FileError::Shape {
        file: path.clone(),
        why: e.to_string(),
    };
    let command = (!a.uninstall).then(|| this_command(d, home)).transpose()?;
    let events = match &command {
        Some(cmd) => edit::install(&mut doc, row, cmd).map_err(shape)?,
        None => edit::uninstall(&mut doc, row).map_err(shape)?,
    };
    let changed = doc != original;
    let remove_file = a.uninstall && changed && edit::is_empty_skeleton(&doc, row);
    let text = doc.to_pretty();
    let mut out = Outcome {
        changed,
        command,
        removed_file: remove_file,
        events,
        content: (a.dry_run && !remove_file).then(|| text.clone()),
        ..Outcome::new(&a, row, &path, notes(row, &home_dir))
    };
    if changed && !a.dry_run {
        if remove_file {
            file::remove(&path)?;
        } else {
            out.backup = file::write(&path, &text)?;
        }
    }
    print_outcome(&out, a.json)?;
    Ok(0)
}

fn print_outcome(out: &Outcome, json: bool) -> anyhow::Result<()> {
    if json {
        println!("{}", serde_json::to_string_pretty(out)?);
    } else {
        print!("{}", render(out));
    }
    Ok(())
}

/// Install for an agent that runs one executable per event (Cline): a script per event in
/// its hooks directory, each running this hookhost's adapter.
fn install_script_dir(
    a: &InstallArgs,
    row: &AgentRow,
    dir: &Path,
    home: &crate::env::UserHome,
    home_dir: &Path,
) -> anyhow::Result<u8> {
    let command = (!a.uninstall)
        .then(|| this_command(row.dialect, home))
        .transpose()?;
    let (steps, own) = script_dir::plan(row, dir, command.as_deref())?;
    let mut notes = notes(row, home_dir);
    notes.extend(own);
    let changed = steps.iter().any(|(_, w)| w.is_some());
    let out = Outcome {
        changed,
        command,
        events: steps.iter().map(|(c, _)| c.clone()).collect(),
        ..Outcome::new(a, row, dir, notes)
    };
    if changed && !a.dry_run {
        script_dir::apply(&steps)?;
    }
    print_outcome(&out, a.json)?;
    Ok(0)
}

/// Install for an agent wired by hookhost's plugin file (opencode): the file is the plugin
/// this hookhost ships, which runs `hookhost-warm` or `hookhost` from the agent's PATH.
fn install_plugin_file(
    a: &InstallArgs,
    row: &AgentRow,
    path: &Path,
    text: &str,
    home_dir: &Path,
) -> anyhow::Result<u8> {
    let (events, change) = plugin_file::plan(row, path, text, a.uninstall)?;
    let mut notes = notes(row, home_dir);
    if !a.uninstall {
        notes.push(format!(
            "the plugin runs `hookhost-warm` or `hookhost` from {}'s PATH (not this binary by its path){}",
            row.dialect.agent(),
            if hookhost::preflight::find_on_path("hookhost").is_none() {
                ": `hookhost` is not on this PATH, and until it is every tool call is blocked"
            } else {
                ""
            }
        ));
    }
    let out = Outcome {
        changed: change.is_some(),
        command: (!a.uninstall).then(|| format!("hookhost's plugin: hook --for {}", row.dialect)),
        removed_file: matches!(change, Some(None)),
        events,
        content: match (&change, a.dry_run) {
            (Some(Some(t)), true) => Some(t.clone()),
            _ => None,
        },
        ..Outcome::new(a, row, path, notes)
    };
    if let (Some(c), false) = (&change, a.dry_run) {
        plugin_file::apply(path, c.as_deref())?;
    }
    print_outcome(&out, a.json)?;
    Ok(0)
}

fn unknown(agent: &str) -> anyhow::Error {
    anyhow::anyhow!("--for takes {}, got {agent:?}", table::names())
}

/// The command to wire: this binary by absolute path (symlinks resolved, so a package
/// manager's shim that moves is not what the agent runs), `--home` when one was given.
fn this_command(d: Dialect, home: &crate::env::UserHome) -> anyhow::Result<String> {
    let exe = std::env::current_exe().context("cannot tell where this hookhost is")?;
    let exe = exe.canonicalize().unwrap_or(exe);
    let home_flag = home.flag().and(home.dir());
    Ok(table::wired_command(&exe, d, home_flag.as_deref()))
}

/// The agent's own switches that decide whether the wiring runs.
fn notes(row: &AgentRow, home: &Path) -> Vec<String> {
    let mut out = Vec::new();
    if hookhost::preflight::find_on_path(row.binary).is_none() {
        out.push(format!(
            "`{}` is not on PATH: {} does not seem to be installed here (the wiring waits for it)",
            row.binary,
            row.dialect.agent()
        ));
    }
    if row.dialect == Dialect::Codex {
        out.extend(codex_hooks_off(home));
        out.push(
            "Codex runs a new or changed user hook only after you review it: open `codex`, type `/hooks`, and trust hookhost's entries (`codex exec` skips unreviewed hooks)".into(),
        );
    }
    out
}

/// `[features] hooks = false` (or `codex_hooks`) in ~/.codex/config.toml, said.
fn codex_hooks_off(home: &Path) -> Option<String> {
    let file = home.join(".codex/config.toml");
    let text = std::fs::read_to_string(&file).ok()?;
    let root: toml::Table = toml::from_str(&text).ok()?;
    let features = root.get("features")?.as_table()?;
    let key = ["hooks", "codex_hooks"]
        .into_iter()
        .find(|k| features.get(*k).and_then(toml::Value::as_bool) == Some(false))?;
    Some(format!(
        "{} has `[features] {key} = false`: Codex runs no hook, hookhost's included, until you remove that line",
        file.display()
    ))
}

/// The human report.
fn render(o: &Outcome) -> String {
    let file = terminal_safe(&o.file.display().to_string()).into_owned();
    let mut s = format!(
        "hookhost {} --for {}: {file}{}\n",
        o.operation,
        o.agent,
        if o.dry_run {
            " (dry run: nothing written)"
        } else {
            ""
        }
    );
    if let Some(cmd) = &o.command {
        s.push_str(&format!("  command: {}\n", terminal_safe(cmd)));
    }
    for c in &o.events {
        let line = match &c.action {
            Action::Added => format!("  added    {}", c.event),
            Action::Kept => format!("  kept     {}", c.event),
            Action::Updated { was } => {
                format!("  updated  {} (was: {})", c.event, terminal_safe(was))
            }
            Action::Removed { entries } => format!("  removed  {} ({entries} entries)", c.event),
        };
        s.push_str(&line);
        s.push('\n');
    }
    let verb = if o.dry_run { "would change" } else { "changed" };
    s.push_str(&match (o.changed, o.removed_file) {
        (false, _) => "  nothing to change\n".to_string(),
        (true, true) => format!("  {verb}: the file held only hookhost's entries and is removed\n"),
        (true, false) => format!(
            "  {verb}: {} events\n",
            o.events.iter().filter(|c| c.action != Action::Kept).count()
        ),
    });
    if let Some(b) = &o.backup {
        s.push_str(&format!(
            "  backup of the original: {}\n",
            terminal_safe(&b.display().to_string())
        ));
    }
    for n in &o.notes {
        s.push_str(&format!("  note: {}\n", terminal_safe(n)));
    }
    s
}
