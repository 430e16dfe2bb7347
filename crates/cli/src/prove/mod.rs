//! `hookhost prove [--for AGENT] [--json] [--keep]`: for each agent installed here (its
//! executable on PATH) and wired to hookhost in the user's settings, runs the real agent
//! headless against a scripted model on 127.0.0.1 ([`server`]) in a throwaway copy of that
//! wiring ([`setup`]), makes the model attempt a canary call down each path a guard must
//! cover, and reports per path ([`judge`]): the shell tool, a file write and a subagent's
//! shell tool (a canary guard in the throwaway `~/.coding-agent/hooks.json` blocks them), an
//! MCP tool (not tested yet), and what the agent does when the hook crashes or times out.
//! No real model, no network, nothing of the user's written. Exit 1 when a path is bypassed.

pub mod agents;
pub mod judge;
pub mod run;
pub mod server;
pub mod setup;

use crate::install::table::{self, AgentRow};
use clap::Args;
use hookhost::dialect::Dialect;
use hookhost::terminal_safe;
use judge::{PathResult, Status};
use run::Subject;
use serde::Serialize;
use server::script::Probe;
use setup::Variant;
use std::path::{Path, PathBuf};

#[derive(Args, Debug)]
#[command(
    after_help = "Reads the agents' user settings files (~/.claude/settings.json, ~/.codex/hooks.json, \
    ~/.gemini/settings.json, ~/.qwen/settings.json). Writes only a temporary directory (removed unless --keep). Runs each \
    agent (found on PATH) up to three times, each killed after 150 s. Exit 1 when a path is bypassed, \
    or when the agent --for names cannot be proven."
)]
pub struct ProveArgs {
    /// Prove this agent only (default: every agent installed and wired).
    #[arg(
        long = "for",
        value_name = "claude|codex|gemini|qwen",
        value_parser = crate::shell::Hinted::new(agents::HEADLESS.iter().map(|h| h.dialect.as_str())),
        hide_possible_values = true
    )]
    agent: Option<String>,
    /// Print JSON.
    #[arg(long)]
    json: bool,
    /// Keep the throwaway directory (each run's home, project, stdout and stderr).
    #[arg(long)]
    keep: bool,
}

/// One agent's proof.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct AgentReport {
    agent: &'static str,
    name: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    binary: Option<PathBuf>,
    /// The user's settings file the wiring was copied from.
    file: PathBuf,
    /// Why it was not proven (not installed, not wired, no headless run known).
    #[serde(skip_serializing_if = "Option::is_none")]
    skipped: Option<String>,
    paths: Vec<PathResult>,
    /// One line per agent run.
    runs: Vec<String>,
    notes: Vec<String>,
}

#[derive(Debug, Serialize)]
struct Report {
    version: u32,
    agents: Vec<AgentReport>,
    bypassed: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    kept: Option<PathBuf>,
}

pub fn prove(a: ProveArgs, home: &crate::env::UserHome) -> anyhow::Result<u8> {
    let only: Option<Dialect> = match &a.agent {
        None => None,
        Some(s) => Some(
            s.parse()
                .map_err(|_| anyhow::anyhow!("--for takes {}, got {s:?}", agents::names()))?,
        ),
    };
    let Some(home_dir) = home.dir() else {
        anyhow::bail!("no home directory for this account: pass --home DIR");
    };
    let root = tempfile::Builder::new()
        .prefix("hookhost-prove-")
        .tempdir()?;
    let rows: Vec<&'static AgentRow> = table::AGENTS
        .iter()
        .filter(|r| only.is_none_or(|d| d == r.dialect))
        .collect();
    let agents: Vec<AgentReport> = std::thread::scope(|scope| {
        let handles: Vec<_> = rows
            .iter()
            .map(|row| {
                let (home_dir, root) = (&home_dir, root.path());
                scope.spawn(move || prove_agent(row, home_dir, root))
            })
            .collect();
        handles.into_iter().filter_map(|h| h.join().ok()).collect()
    });
    let bypassed = agents
        .iter()
        .flat_map(|a| &a.paths)
        .filter(|p| p.status == Status::Bypassed)
        .count();
    let failed_for = only.is_some() && agents.iter().any(|a| a.skipped.is_some());
    let kept = a.keep.then(|| root.keep());
    let report = Report {
        version: 1,
        agents,
        bypassed,
        kept,
    };
    if a.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print!("{}", render(&report));
    }
    Ok(u8::from(bypassed > 0 || failed_for))
}

/// One agent: skipped (said why), or its three runs judged.
fn prove_agent(row: &'static AgentRow, home: &Path, root: &Path) -> AgentReport {
    let d = row.dialect;
    let file = row.file(home);
    let mut report = AgentReport {
        agent: d.as_str(),
        name: d.agent(),
        binary: None,
        file: file.clone(),
        skipped: None,
        paths: Vec::new(),
        runs: Vec::new(),
        notes: Vec::new(),
    };
    let Some(binary) = hookhost::preflight::find_on_path(row.binary) else {
        report.skipped = Some(format!(
            "not installed here (`{}` is not on PATH)",
            row.binary
        ));
        return report;
    };
    let Some(headless) = agents::headless(d) else {
        report.skipped = Some(format!(
            "prove does not know how to run {} headless yet",
            d.agent()
        ));
        return report;
    };
    report.binary = Some(binary.clone());
    let wiring = match setup::user_wiring(row, &file) {
        Err(e) => {
            report.skipped = Some(e);
            return report;
        }
        Ok(w) if w.is_empty() => {
            report.skipped = Some(format!(
                "hookhost is not wired in {} (`hookhost install --for {d}`)",
                file.display()
            ));
            return report;
        }
        Ok(w) => w,
    };
    let subject = Subject {
        row,
        headless,
        binary,
        wiring: &wiring,
    };
    prove_paths(&subject, root, &mut report);
    if d == Dialect::Codex {
        report.notes.push("run with --dangerously-bypass-hook-trust (Codex's trust is keyed by the hooks file's path, and the copy is new): whether you reviewed hookhost's entries in Codex's /hooks is not proven".into());
    }
    report
}

/// The three runs (the user's wiring with every guarded probe; a crashing hook; a hook past
/// its timeout) and their paths.
fn prove_paths(s: &Subject, root: &Path, report: &mut AgentReport) {
    let agent = s.row.dialect.agent();
    let runs = [
        (
            Variant::Real,
            vec![Probe::Shell, Probe::Write, Probe::Subagent],
        ),
        (Variant::Crash, vec![Probe::Shell]),
        (Variant::Timeout, vec![Probe::Shell]),
    ];
    for (variant, probes) in runs {
        let observed = match run::run(s, variant, &probes, root) {
            Ok(o) => o,
            Err(e) => {
                report.runs.push(format!("{variant:?}: could not run: {e}"));
                continue;
            }
        };
        report
            .runs
            .push(format!("{variant:?}: {}", observed.summary));
        let spawns = observed.tools.iter().any(|t| t == "spawn_agent");
        for (probe, seen) in observed.seen {
            report.paths.push(match (variant, probe) {
                _ if observed.main == 0 => PathResult {
                    path: path_name(variant, probe),
                    status: Status::NotTested,
                    detail: format!("{agent} never sent its model a request (run: {})", observed.summary),
                },
                (Variant::Real, Probe::Shell) => judge::guarded_path("shell", seen, agent, "the model's shell call never came"),
                (Variant::Real, Probe::Write) => judge::guarded_path("write", seen, agent, "offers the model no file-writing tool prove knows (Write, write_file, apply_patch)"),
                (Variant::Real, Probe::Subagent) if spawns && !seen.asked => PathResult {
                    path: "subagent",
                    status: Status::NotTested,
                    detail: "the agent offers `spawn_agent` (a multi-agent namespace); prove does not drive it yet".into(),
                },
                (Variant::Real, Probe::Subagent) => judge::guarded_path("subagent", seen, agent, "offers the model no subagent tool in a headless run"),
                (Variant::Crash, _) => judge::failing_hook("hook crash", seen, agent, "crashes"),
                (Variant::Timeout, _) => judge::failing_hook("hook timeout", seen, agent, "times out"),
            });
        }
        if variant == Variant::Real {
            report.paths.push(PathResult {
                path: "mcp",
                status: Status::NotTested,
                detail: "prove does not start an MCP server yet".into(),
            });
        }
    }
}

/// A path's name in the report.
fn path_name(variant: Variant, probe: Probe) -> &'static str {
    match variant {
        Variant::Real => probe.as_str(),
        Variant::Crash => "hook crash",
        Variant::Timeout => "hook timeout",
    }
}

/// The human report.
fn render(r: &Report) -> String {
    let mut s = String::new();
    for a in &r.agents {
        s.push_str(&format!("{} ({})\n", a.name, a.agent));
        if let Some(why) = &a.skipped {
            s.push_str(&format!("  skipped: {}\n", terminal_safe(why)));
            continue;
        }
        s.push_str(&format!(
            "  wiring from {}\n",
            terminal_safe(&a.file.display().to_string())
        ));
        for p in &a.paths {
            s.push_str(&format!(
                "  {:<14} {:<15} {}\n",
                p.path,
                p.status.as_str(),
                terminal_safe(&p.detail)
            ));
        }
        for run in &a.runs {
            s.push_str(&format!("  run {}\n", terminal_safe(run)));
        }
        for n in &a.notes {
            s.push_str(&format!("  note: {}\n", terminal_safe(n)));
        }
    }
    if let Some(k) = &r.kept {
        s.push_str(&format!("kept: {}\n", k.display()));
    }
    s.push_str(&format!(
        "{} path{} bypassed\n",
        r.bypassed,
        if r.bypassed == 1 { "" } else { "s" }
    ));
    s
}
