//! `hookhost replay SESSION`: reads a recorded agent session (a Claude Code, Codex or Gemini
//! CLI transcript; `crate::transcript` reads it), re-fires every prompt (UserPromptSubmit), tool
//! call (PreToolUse) and stop (Stop) through the project's current hooks, set up as `run` sets
//! them up (config files, trust), and prints what would now be decided differently from what
//! happened, in both directions: first what a hook blocked in the session and would now let
//! through (`unblocked`: the regression a policy change must show first), then what would
//! now be blocked, then every other change. No tool runs and nothing goes to the network
//! from here; shell hooks run as they would for the agent, wasm hooks sandboxed, untrusted
//! hooks as under `run`. A `prompt` or `agent` hook's judgement recorded in the decision log
//! (the log replayed, else hookhost's own) is reused for the same model, prompt and payload
//! instead of asking the model again.
//! Exit 0: nothing would differ; 3: something would; 1: error.

use crate::transcript::{Format, Happened, Session, Step, StepKind};
use anyhow::Context;
use clap::Args;
use hookhost::files::read_bounded;
use hookhost::setup::WasmOptions;
use hookhost::{Decision, Event, EventReport, Payload, terminal_safe_lines};
use serde_json::{Value, json};
use std::path::PathBuf;

/// The exit status when something would be decided differently.
pub const DIFFERS: u8 = 3;

/// The largest transcript read (a long session's file with its API records).
const TRANSCRIPT_LIMIT: u64 = 256 * 1024 * 1024;

#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// The transcript: ~/.claude/projects/<slug>/<session>.jsonl, ~/.codex/sessions/.../rollout-*.jsonl
    /// or ~/.gemini/tmp/<project>/chats/session-*.jsonl.
    session: PathBuf,
    /// The transcript's format (default: told from its content).
    #[arg(long, value_name = "claude|codex|gemini|hookhost")]
    format: Option<String>,
    /// The session to replay from hookhost's decision log (default: its last line's).
    #[arg(long = "session", value_name = "ID")]
    session_id: Option<String>,
    /// Project whose hooks judge the session (default: the current directory).
    #[arg(long)]
    project: Option<PathBuf>,
    /// Print one JSON object: {"format", "sessionId", "steps", "differences": [...]}.
    #[arg(long)]
    json: bool,
    /// What to do with untrusted project hooks, as for `run` (default: $HOOKHOST_TRUST, else skip).
    #[arg(long, value_name = "all|skip|block")]
    trust: Option<String>,
}

/// One step that would now go differently.
struct Difference<'a> {
    step: &'a Step,
    event: Event,
    /// `unblocked`, `blocked`, `rewritten`, `context added`, `asked`, `stopped`,
    /// `kept going`; a change of direction first.
    what: Vec<&'static str>,
    report: EventReport,
}

pub async fn replay(a: ReplayArgs, home: &super::env::UserHome) -> anyhow::Result<u8> {
    let format = a.format.as_deref().map(str::parse::<Format>).transpose()?;
    let shown = a.session.display().to_string();
    let bytes = read_bounded(&a.session, TRANSCRIPT_LIMIT)
        .with_context(|| format!("reading the session transcript {shown}"))?;
    let text = String::from_utf8(bytes).map_err(|e| {
        anyhow::anyhow!(
            "{shown}: not UTF-8 text (byte {}); pass a .jsonl transcript",
            e.utf8_error().valid_up_to()
        )
    })?;
    let session = crate::transcript::read(&text, format, a.session_id.as_deref())
        .map_err(|e| anyhow::anyhow!("{shown}: {e}"))?;
    let project = super::project_dir(a.project, home)?;
    let setup = home.setup(&project);
    let policy = super::trust_policy(a.trust.as_deref())?;
    let ready = setup
        .policy(policy)
        .wasm(WasmOptions::one_event())
        .runner()?;
    super::env::warn_trust(ready.trust_warning.as_ref());
    ready
        .spawner
        .model()
        .reuse(recorded_judgements(&text, session.format, home));
    let runner = ready.runner;
    let id = session
        .session_id
        .clone()
        .unwrap_or_else(|| "replay".into());
    let mut differences = Vec::new();
    for step in &session.steps {
        let payload = payload_of(step, &project, &id);
        let event = payload.event();
        let mut report = runner.fire(payload).await;
        report.hooks.extend(runner.wait_async().await);
        for e in &report.config_errors {
            eprintln!("hookhost: error: {}", terminal_safe_lines(&e.to_string()));
        }
        let what = differs(step, &report);
        if !what.is_empty() {
            differences.push(Difference {
                step,
                event,
                what,
                report,
            });
        }
    }
    // Block -> pass first, then pass -> block, then the rest; in session order within each.
    differences.sort_by_key(|d| (direction(&d.what), d.step.line));
    if a.json {
        println!("{}", to_json(&session, &shown, &differences));
    } else {
        print_human(&session, &shown, &differences);
    }
    Ok(if differences.is_empty() { 0 } else { DIFFERS })
}

/// The model judgements recorded in the decision log: the one replayed (`--format
/// hookhost`), else this user's own; lines that do not parse are skipped.
fn recorded_judgements(
    text: &str,
    format: Format,
    home: &super::env::UserHome,
) -> Vec<hookhost::spawner::ModelJudgement> {
    let own;
    let log = if format == Format::Hookhost {
        text
    } else {
        own = crate::log::log_path(None, home)
            .ok()
            .and_then(|p| read_bounded(&p, TRANSCRIPT_LIMIT).ok())
            .map(|b| String::from_utf8_lossy(&b).into_owned())
            .unwrap_or_default();
        &own
    };
    log.lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .flat_map(|v| match v.get("hooks") {
            Some(Value::Array(hooks)) => hooks.clone(),
            _ => Vec::new(),
        })
        .filter_map(|h| serde_json::from_value(h.get("model")?.clone()).ok())
        .collect()
}

/// The event a step fires, with the transcript's values.
fn payload_of(step: &Step, project: &std::path::Path, session: &str) -> Payload {
    match &step.kind {
        StepKind::Prompt { prompt } => Payload::user_prompt_submit(project, session, prompt),
        StepKind::Tool { tool, args, .. } => {
            Payload::pre_tool_use(project, session, tool, args.clone())
        }
        StepKind::Stop { .. } => Payload::stop(Event::Stop, project, session, false),
    }
}

/// What the hooks' answer changes against the session (where nothing was decided by a hook
/// for a call that ran; a call the session refused is not "blocked" again; a step a hook
/// blocked in the session that the hooks now let through is `unblocked`, first).
fn differs(step: &Step, r: &EventReport) -> Vec<&'static str> {
    let mut out = Vec::new();
    let refused = step.blocked.is_some()
        || matches!(
            &step.kind,
            StepKind::Tool {
                happened: Happened::Refused(_),
                ..
            }
        );
    if step.blocked.is_some() && r.decision != Decision::Block {
        out.push("unblocked");
    }
    match r.decision {
        Decision::Block if !refused => out.push("blocked"),
        Decision::Force => out.push("kept going"),
        _ => {}
    }
    if r.updated_args.is_some() {
        out.push("rewritten");
    }
    if !r.additional_context.is_empty() {
        out.push("context added");
    }
    if r.ask {
        out.push("asked");
    }
    if r.stop.is_some() {
        out.push("stopped");
    }
    out
}

/// The order of a difference's kind: block -> pass (0), pass -> block (1), anything else (2).
fn direction(what: &[&str]) -> u8 {
    match what.first() {
        Some(&"unblocked") => 0,
        Some(&"blocked") => 1,
        _ => 2,
    }
}

/// The step, in a few words: `prompt "..."`, `Bash {"command":"rm -rf build"}`, `stop`.
fn describe(step: &Step) -> String {
    let short = |s: &str| {
        let s: String = s.chars().take(80).collect();
        terminal_safe_lines(&s).into_owned()
    };
    match &step.kind {
        StepKind::Prompt { prompt } => format!("prompt {:?}", short(prompt)),
        StepKind::Tool {
            agent_tool, args, ..
        } => format!("{} {}", short(agent_tool), short(&args.to_string())),
        StepKind::Stop { .. } => "stop (the final answer)".to_string(),
    }
}

fn print_human(s: &Session, shown: &str, diffs: &[Difference]) {
    println!(
        "replaying {} ({} transcript, {} steps) through the current hooks: shell hooks run as they would for the agent, wasm hooks sandboxed, model hooks answered by the judgements the decision log recorded where it has them; no tool runs",
        terminal_safe_lines(shown),
        s.format.as_str(),
        s.steps.len()
    );
    let unblocked = diffs.iter().filter(|d| direction(&d.what) == 0).count();
    if unblocked > 0 {
        println!(
            "{unblocked} step(s) a hook blocked in the session would now pass (listed first: review them first)"
        );
    }
    for d in diffs {
        let short =
            |t: &str| terminal_safe_lines(&t.chars().take(80).collect::<String>()).into_owned();
        let happened = match (&d.step.blocked, &d.step.kind) {
            (Some(why), _) => format!("blocked in the session: {}", short(why)),
            (
                None,
                StepKind::Tool {
                    happened: Happened::Refused(t),
                    ..
                },
            ) => format!("refused in the session: {}", short(t)),
            (None, StepKind::Tool { .. }) => "ran in the session".to_string(),
            _ => "went on in the session".to_string(),
        };
        println!(
            "line {}: {} {}: now {} ({happened})",
            d.step.line,
            d.event,
            describe(d.step),
            d.what.join(", ")
        );
        if let Some(reason) = &d.report.reason {
            println!("    reason: {}", terminal_safe_lines(reason));
        }
        if let Some(args) = &d.report.updated_args {
            println!(
                "    rewritten to: {}",
                terminal_safe_lines(&args.to_string())
            );
        }
        for c in &d.report.additional_context {
            println!("    context: {}", terminal_safe_lines(c));
        }
        for h in d
            .report
            .hooks
            .iter()
            .filter(|h| h.outcome != hookhost::Outcome::Pass)
        {
            println!(
                "    hook {} ({}): {}",
                h.hook,
                h.outcome.as_str(),
                terminal_safe_lines(&h.command)
            );
        }
    }
    if diffs.is_empty() {
        println!("nothing would be decided differently");
    } else {
        println!(
            "{} of {} steps would be decided differently",
            diffs.len(),
            s.steps.len()
        );
    }
}

fn to_json(s: &Session, shown: &str, diffs: &[Difference]) -> Value {
    json!({
        "session": shown,
        "format": s.format,
        "sessionId": s.session_id,
        "steps": s.steps.len(),
        "differences": diffs.iter().map(|d| json!({
            "line": d.step.line,
            "event": d.event.as_str(),
            "step": d.step,
            "now": d.what,
            "report": hookhost::setup::report_json(&d.report),
        })).collect::<Vec<_>>(),
    })
}
