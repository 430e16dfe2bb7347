//! `hookhost explain [ID]`: one logged event in words: which hooks ran and the decision-table
//! row of each outcome, which did not and why, what trust changed, and how the event's
//! decision was folded (docs/observability.md). Every field is printed terminal-safe: a log
//! is a file (`--file` reads any), and a field holds what a project put in it (a hook file's
//! path in a cloned repository, a hook's reason), so an escape in it is shown, not obeyed.

use crate::log::{log_path, read_all};
use anyhow::bail;
use clap::Args;
use hookhost::decision_log::{EventRecord, NotRunWhy};
use hookhost::terminal_safe as safe;
use std::io::Write;
use std::path::PathBuf;

/// `hookhost explain` arguments.
#[derive(Args, Debug)]
pub struct ExplainArgs {
    /// The event: its id (as `hookhost log` shows it, or a prefix), or `-N` for the N-th
    /// latest (default: the latest).
    #[arg(allow_hyphen_values = true)]
    pub event: Option<String>,
    /// The log file (default: the decision log of this user).
    #[arg(long)]
    pub file: Option<PathBuf>,
    /// Print the record as JSON.
    #[arg(long)]
    pub json: bool,
}

pub fn explain(a: ExplainArgs, home: &crate::env::UserHome) -> anyhow::Result<u8> {
    let path = log_path(a.file, home)?;
    let all = read_all(&path);
    let wanted = a.event.as_deref().unwrap_or("-1");
    let found = match wanted
        .strip_prefix('-')
        .and_then(|n| n.parse::<usize>().ok())
    {
        Some(n) if n >= 1 => all.len().checked_sub(n).and_then(|i| all.get(i)),
        _ => all.iter().rev().find(|r| r.id.starts_with(wanted)),
    };
    let Some(r) = found else {
        bail!(
            "no event {wanted:?} in the decision log {} ({} events); `hookhost log` lists them",
            safe(&path.display().to_string()),
            all.len()
        );
    };
    let mut out = std::io::stdout().lock();
    if a.json {
        writeln!(out, "{}", serde_json::to_string_pretty(r)?)?;
    } else {
        write!(out, "{}", render(r))?;
    }
    Ok(0)
}

/// The explanation of one record, as text.
pub fn render(r: &EventRecord) -> String {
    let mut s = format!(
        "{} at {} (id {}, session {})\n",
        safe(&r.event),
        safe(&r.time),
        safe(&r.id),
        r.session.as_deref().map_or("-".into(), safe)
    );
    s += &format!("  project: {}\n", safe(&r.project.display().to_string()));
    if let Some(tool) = &r.tool {
        s += &format!(
            "  tool: {} (arguments sha256 {})\n",
            safe(tool),
            safe(&r.payload_sha256)
        );
    }
    s += &format!("  decision: {}", safe(&r.decision));
    if let Some(reason) = &r.reason {
        s += &format!(" ({})", safe(reason));
    }
    s += "\n  hooks that ran, in order:\n";
    if r.hooks.is_empty() {
        s += "    none\n";
    }
    for h in &r.hooks {
        s += &format!(
            "    {} {} {} [{}, {}]: {} ({:.1} ms) <- row \"{}\"{}\n",
            safe(&h.hook),
            safe(&h.kind),
            h.file.as_deref().map_or("in-process".into(), shown),
            safe(&h.scope),
            safe(&h.trust),
            safe(&h.outcome),
            h.duration_ms,
            safe(&h.row),
            if h.rejudged {
                ", second pass on the rewritten call"
            } else {
                ""
            }
        );
        if let Some(m) = &h.message {
            s += &format!("      {}\n", safe(m));
        }
        if let Some(sandbox) = &h.sandbox {
            s += &format!("      {}\n", safe(sandbox));
        }
        if let Some(j) = &h.model {
            s += &format!(
                "      the model {} answered {{\"ok\": {}}}{}{}\n",
                safe(&j.model),
                j.ok,
                j.reason
                    .as_deref()
                    .map(|r| format!(": {}", safe(r)))
                    .unwrap_or_default(),
                if j.replayed {
                    " (recorded, reused by replay)"
                } else {
                    ""
                }
            );
        }
    }
    s += &not_run_text(r);
    s += &trust_text(r);
    s += &format!("  fold: {}\n", fold_text(r));
    s
}

/// What trust did to the event's untrusted hooks, from each one's kind and outcome: not run
/// (`skip`/`block` stop untrusted HTTP hooks, and shell hooks where no sandbox can be set
/// up), run with full effect (an HTTP hook, or an unsandboxed shell hook, that ran
/// untrusted: only `all` runs it), or a sandboxed shell or wasm hook that ran (contained
/// under `skip`: it can only pass or block; full effect under `all`).
fn trust_text(r: &EventRecord) -> String {
    let mut s = String::new();
    for h in r.hooks.iter().filter(|h| h.trust == "untrusted") {
        let what = match (h.outcome.as_str(), h.kind.as_str()) {
            ("skipped", _) => "not run (`hookhost trust` reviews and trusts it)",
            (_, "shell") if h.sandbox.is_some() => {
                "ran in the kernel sandbox (under skip and block it can only pass or block; under all, with full effect)"
            }
            (_, "wasm") => {
                "ran sandboxed (under skip it can only pass or block; under all, with full effect)"
            }
            (_, "prompt" | "agent") => {
                "asked your model (under skip it can only pass or block; under all, with full effect)"
            }
            _ => {
                "ran with full effect (only the `all` policy runs an untrusted shell or HTTP hook)"
            }
        };
        s += &format!("  trust: {} is untrusted: {what}\n", safe(&h.hook));
    }
    s
}

/// The configured hooks that did not run, and why.
fn not_run_text(r: &EventRecord) -> String {
    let mut s = String::new();
    if !r.not_run.is_empty() {
        s += "  configured hooks that did not run:\n";
    }
    for n in &r.not_run {
        let why = match n.why {
            NotRunWhy::Matcher => "its `match` does not match",
            NotRunWhy::If => "its `if` rule did not hold",
            NotRunWhy::ShortCircuit => "an earlier hook decided the event",
            NotRunWhy::Duplicate => "the same handler ran earlier",
            NotRunWhy::Async => "async: runs in the background, no part in the decision",
            NotRunWhy::Disabled => "turned off",
        };
        s += &format!(
            "    {} ({}): {why}{}\n",
            safe(&n.hook),
            n.file.as_deref().map_or(String::new(), shown),
            n.detail
                .as_deref()
                .map(|d| format!(" ({})", safe(d)))
                .unwrap_or_default()
        );
    }
    s
}

/// A path from the log, terminal-safe.
fn shown(path: &std::path::Path) -> String {
    safe(&path.display().to_string()).into_owned()
}

fn fold_text(r: &EventRecord) -> String {
    let decider = r
        .hooks
        .iter()
        .find(|h| h.outcome == r.decision || (r.decision == "block" && h.outcome != "pass"));
    match (r.decision.as_str(), decider) {
        ("pass", _) => "no hook blocked or forced: the event passes (a block, force or `continue: false` stops at the first)".into(),
        (d, Some(h)) => format!(
            "{} decided `{}`; hooks after it did not run",
            safe(&h.hook),
            safe(d)
        ),
        (d, None) => format!(
            "`{}`: no hook decided it (a broken config file fails closed)",
            safe(d)
        ),
    }
}
