//! `hookhost list`: the effective hooks in run order, with the file each came from.

use clap::Args;
use hookhost::config;
use hookhost::{terminal_safe, terminal_safe_lines};
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

pub fn list(a: ListArgs, home: &super::env::UserHome) -> anyhow::Result<u8> {
    let project = super::project_dir(a.project, home)?;
    // A broken file does not hide the others' hooks (they still run): list what loads, and
    // report the problems on stderr with exit 1.
    let (set, errors) = config::load_lenient(&home.paths(&project));
    for e in &errors {
        eprintln!("hookhost: error: {}", terminal_safe_lines(&e.to_string()));
    }
    if let Some(managed) = &set.managed_only {
        eprintln!(
            "hookhost: note: {}: {}",
            terminal_safe(&managed.display().to_string()),
            hookhost::inspect::managed_only_note()
        );
    }
    let status = u8::from(!errors.is_empty());
    if a.json {
        // The report's shape is the protocol's: a missing module is said on stderr.
        for h in set.all() {
            if let Some(why) = missing_module(h) {
                eprintln!(
                    "hookhost: warning: {}: {}",
                    terminal_safe(&h.label()),
                    terminal_safe(&why)
                );
            }
        }
        // The same object `serve` answers `list` with, and this run's problems; through a
        // `Value`, so its keys print in alphabetical order.
        let listed = hookhost::inspect::ListReport {
            errors: Some(errors),
            ..hookhost::inspect::list_report(&set)
        };
        println!(
            "{}",
            serde_json::to_string_pretty(&serde_json::to_value(&listed)?)?
        );
        return Ok(status);
    }
    if set.is_empty() && set.disabled.is_empty() {
        println!("no hooks configured (looked in:");
        for f in &set.files {
            println!("  {}", terminal_safe(&f.display().to_string()));
        }
        println!(")");
        return Ok(status);
    }
    // Human output: everything a config says is shown with its control characters escaped
    // (an ESC or CR in a command could show a reviewer another command).
    let mut current = None;
    for h in set.all() {
        if current != Some(h.event) {
            println!("{}", h.event);
            current = Some(h.event);
        }
        print_hook(h);
        if let Some(why) = missing_module(h) {
            println!("      {}", terminal_safe(&why));
        }
        if let Some(first) = set.duplicate_of(h) {
            println!(
                "      duplicate of {} in {}: runs once, as that one, when both match",
                terminal_safe(&first.label()),
                terminal_safe(&first.file.display().to_string())
            );
        }
    }
    if !set.disabled.is_empty() {
        println!("disabled (not run):");
        for d in &set.disabled {
            print_hook(&d.hook);
            println!(
                "      disabled by {} in {}",
                terminal_safe(&d.why),
                terminal_safe(&d.by.display().to_string())
            );
        }
    }
    Ok(status)
}

/// What running `h` would fail with when it is a wasm hook whose module file is not there.
fn missing_module(h: &config::Hook) -> Option<String> {
    match &h.handler {
        config::Handler::Wasm {
            module: config::ModuleSource::File(module),
            ..
        } if matches!(module.try_exists(), Ok(false)) => {
            Some(hookhost::spawner::wasm::missing_module(module))
        }
        _ => None,
    }
}

/// One hook: its label, kind, command, options, description and file.
fn print_hook(h: &config::Hook) {
    let mut extras = Vec::new();
    if let Some(m) = &h.match_source {
        extras.push(format!("match \"{}\"", terminal_safe(m)));
    }
    if let Some(rule) = &h.condition {
        extras.push(format!("if \"{}\"", terminal_safe(rule.as_str())));
    }
    if h.async_rewake {
        extras.push("asyncRewake: exit 2 wakes the session's next event".into());
    } else if h.is_async {
        extras.push("async".into());
    }
    if let Some(shell) = h.handler.shell().filter(|s| *s != config::ShellKind::Sh) {
        extras.push(format!("shell {}", shell.as_str()));
    }
    if matches!(h.handler, config::Handler::Exec { .. }) {
        extras.push("no shell".into());
    }
    if h.once {
        extras.push("once per session".into());
    }
    extras.extend(h.sandbox.describe());
    // A background (`asyncRewake`) hook runs without a timeout.
    if !h.async_rewake {
        extras.push(format!("timeout {} ms", h.timeout.as_millis()));
    }
    println!(
        "  {:<16} {:<5} {}  [{}]",
        terminal_safe(&h.label()),
        h.handler.kind().as_str(),
        terminal_safe(h.handler.display()),
        extras.join(", ")
    );
    if let Some(d) = &h.description {
        println!("      {}", terminal_safe(d));
    }
    if let Some(status) = &h.status_message {
        println!("      status: {}", terminal_safe(status));
    }
    let scope = scope_name(h.scope);
    let file = terminal_safe(&h.file.display().to_string()).into_owned();
    match h.dialect {
        hookhost::Dialect::Native => {
            println!("      from {file} ({scope})");
        }
        d => println!("      from {file} ({scope}, {d} dialect)"),
    }
}

fn scope_name(scope: config::Scope) -> &'static str {
    match scope {
        config::Scope::Managed => "managed, runs first",
        config::Scope::Project => "project",
        config::Scope::Global => "global",
        _ => "in-process",
    }
}
