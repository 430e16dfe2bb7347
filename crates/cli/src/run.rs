//! `hookhost run EVENT`: build a payload from flags (or take one whole), fire the event, print
//! the decision (human text, or the `--json` contract of DESIGN §8), exit 0 / 2 / 1.

use anyhow::{Context, bail};
use clap::Args;
use hookhost::decision_log::DecisionLog;
use hookhost::dialect::events;
use hookhost::files::{PAYLOAD_LIMIT, read_bounded, read_stream_bounded};
use hookhost::setup::WasmOptions;
use hookhost::{
    Decision, Event, EventReport, HookKind, HookRecord, Payload, TrustPolicy, terminal_safe,
    terminal_safe_lines,
};
use serde_json::Value;
use std::path::PathBuf;

#[derive(Args, Debug, Clone)]
pub struct RunArgs {
    /// The event: any of Claude Code's 34 (SessionStart, UserPromptSubmit, PreToolUse,
    /// PermissionRequest, PostToolUse, ..., ConfigChange, FileChanged, WorktreeCreate;
    /// docs/events.md lists them), or another agent's name for one (BeforeTool, AfterAgent,
    /// ...); case-insensitive.
    #[arg(value_parser = crate::shell::events(), hide_possible_values = true)]
    event: String,
    /// Project directory (default: the current directory).
    #[arg(long)]
    project: Option<PathBuf>,
    /// Tool name (PreToolUse, PostToolUse).
    #[arg(long)]
    tool: Option<String>,
    /// Tool arguments, a JSON object (PreToolUse, PostToolUse).
    #[arg(long)]
    args: Option<String>,
    /// Tool result, JSON (text that is not JSON is taken as a string) (PostToolUse).
    #[arg(long)]
    result: Option<String>,
    /// The user's prompt (UserPromptSubmit, UserPromptExpansion).
    #[arg(long)]
    prompt: Option<String>,
    /// A payload field as KEY=VALUE, in hookhost's camelCase names (VALUE is JSON, else
    /// text); repeatable. For the fields no other flag sets: `--field filePath=/abs/.envrc
    /// --field changeType=change` (FileChanged), `--field source=project_settings`
    /// (ConfigChange); docs/events.md lists every event's fields.
    #[arg(long = "field", value_name = "KEY=VALUE")]
    fields: Vec<String>,
    /// A whole payload object from FILE, or `-` for stdin; flags above override its fields.
    #[arg(long)]
    payload: Option<String>,
    /// Session id for the payload (default: a fresh one).
    #[arg(long)]
    session: Option<String>,
    /// Print one JSON object (the stable contract for other programs; with another agent's
    /// event name, `eventName` says whose).
    #[arg(long)]
    json: bool,
    /// What to do with untrusted project hooks: all (run them, warn), skip, or block (fail
    /// closed on PreToolUse). Default: $HOOKHOST_TRUST, else skip (untrusted shell and HTTP hooks do not run; untrusted wasm hooks can only pass or block).
    #[arg(long, value_name = "all|skip|block")]
    trust: Option<String>,
    /// Explain the event instead of printing its report: which hooks matched and which did
    /// not and why, the decision-table row of each outcome, how the decision was folded,
    /// what trust removed (as `hookhost explain` does for a logged event; with --json, the
    /// event's decision-log record). The event is logged as usual.
    #[arg(long)]
    explain: bool,
}

/// The payload (and the warnings about it: a whole payload for another event).
fn build_payload(
    a: &RunArgs,
    event: Event,
    cwd: &std::path::Path,
    warnings: &mut Vec<String>,
) -> anyhow::Result<Payload> {
    let session = a.session.clone().unwrap_or_else(|| {
        let ms = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_millis())
            .unwrap_or_default();
        format!("cli-{ms}-{}", std::process::id())
    });
    let mut request = hookhost::FireRequest::new(event, session);
    let mut source = String::new();
    if let Some(from) = &a.payload {
        let bytes = if from == "-" {
            read_stream_bounded(
                std::io::stdin().lock(),
                PAYLOAD_LIMIT,
                "the payload on stdin",
            )
            .map_err(anyhow::Error::msg)?
        } else {
            read_bounded(std::path::Path::new(from), PAYLOAD_LIMIT)
                .with_context(|| format!("reading the payload file {from}"))?
        };
        let value: Value = serde_json::from_slice(&bytes)
            .with_context(|| format!("the payload in {from} is not valid JSON"))?;
        warnings.extend(payload_for_another_event(&value, event, from));
        // Any agent's payload, told by its shape (`hook_event_name`, `toolCall`); the
        // hooks of that agent's dialect get it back verbatim.
        request.payload = Some(value);
        source.clone_from(from);
    }
    request.tool.clone_from(&a.tool);
    if let Some(args) = &a.args {
        // Off a tool event, the request says so (after --tool) whatever the text is.
        if !event.takes_tool_matcher() {
            request.args = Some(Value::Null);
        } else {
            let v: Value = serde_json::from_str(args)
                .with_context(|| format!("--args must be a JSON object, got {args:?}"))?;
            if !v.is_object() {
                bail!("--args must be a JSON object like '{{\"command\":\"ls\"}}', got {args}");
            }
            request.args = Some(v);
        }
    }
    request.result = a
        .result
        .as_ref()
        .map(|r| serde_json::from_str(r).unwrap_or_else(|_| Value::String(r.clone())));
    request.prompt.clone_from(&a.prompt);
    // One function makes the payload for `run`, serve's `fire` and the Python binding.
    let mut payload = request.payload(cwd).map_err(|e| match e {
        hookhost::RequestError::Payload(e) => anyhow::anyhow!("--payload {source}: {e}"),
        e => anyhow::anyhow!(e.message(|f| format!("--{}", f.name()))),
    })?;
    for field in &a.fields {
        let (key, value) = field_flag(field)?;
        payload.set(key, value);
    }
    Ok(payload)
}

/// One `--field KEY=VALUE`: VALUE as JSON when it is JSON, else as text. `event`, `cwd` and
/// `sessionId` are not fields to set this way.
fn field_flag(field: &str) -> anyhow::Result<(&str, Value)> {
    let Some((key, value)) = field.split_once('=').filter(|(k, _)| !k.trim().is_empty()) else {
        bail!("--field takes KEY=VALUE, like --field filePath=/abs/path, got {field:?}");
    };
    if matches!(key, "event" | "cwd" | "sessionId") {
        bail!(
            "--field {key}=... is not settable: the event is the command's argument, the project is --project, the session is --session"
        );
    }
    let value = serde_json::from_str(value).unwrap_or_else(|_| Value::String(value.to_string()));
    Ok((key, value))
}

/// A warning when a whole payload names another event than the one to fire (its `event` or
/// `hook_event_name`, in any agent's names): EVENT still fires.
fn payload_for_another_event(value: &Value, event: Event, source: &str) -> Option<String> {
    let (key, name) = ["hook_event_name", "event"]
        .into_iter()
        .find_map(|k| Some((k, value.get(k)?.as_str()?)))?;
    let theirs = events::resolve(name).ok().map(|n| n.event);
    if theirs == Some(event) {
        return None;
    }
    let what = match theirs {
        Some(e) if e.as_str() == name => format!("a {e} payload"),
        Some(e) => format!("a {e} payload (`{key}`: {name:?})"),
        None => format!("a payload for {name:?} (`{key}`), no event hookhost fires"),
    };
    Some(format!(
        "--payload {source} is {what}, but {event} was named: firing {event} with it"
    ))
}

/// What another agent's event name stood for: a line on stderr under `-v`.
fn say_alias(name: &events::EventName) -> Option<String> {
    let agents: Vec<&str> = name.agents.iter().map(|d| d.agent()).collect();
    (!agents.is_empty()).then(|| {
        format!(
            "`{}` is {}'s name for {}",
            name.given,
            agents.join(" and "),
            name.event
        )
    })
}

/// Fires the event; `verbose` (`-v`) also says which native event another agent's name
/// stands for.
pub async fn run(a: RunArgs, verbose: bool, home: &super::env::UserHome) -> anyhow::Result<u8> {
    let name = events::resolve(&a.event)?;
    let event = name.event;
    if verbose && let Some(line) = say_alias(&name) {
        eprintln!("hookhost: {line}");
    }
    let project = super::project_dir(a.project.clone(), home)?;
    let mut warnings = Vec::new();
    let payload = build_payload(&a, event, &project, &mut warnings)?;
    for w in &warnings {
        eprintln!("hookhost: warning: {}", terminal_safe_lines(w));
    }
    // First: it settles the cache root the spawner's defaults read.
    let setup = home.setup(&project);
    // A broken file does not stop the others (the user's global guards still run); its
    // problems are printed, and on PreToolUse it blocks (fail closed).
    let policy = super::trust_policy(a.trust.as_deref())?;
    // One event per process: no pooling allocator, no instances made ahead; a big module's
    // optimised build is left to a background `hookhost compile`. A broken trust file does
    // not stop every hook under the permissive `all`; under `skip`/`block` it is an error
    // (failing open there would defeat the policy).
    let kept = a
        .explain
        .then(|| std::sync::Arc::new(explaining_log(&project, home.dir().as_deref())));
    let setup = match &kept {
        Some(log) => setup.decision_log(log.clone()),
        None => setup,
    };
    let ready = setup
        .policy(policy)
        .wasm(WasmOptions {
            tiering: Some(super::tier_up::tiering_from_env()),
            ..WasmOptions::one_event()
        })
        .runner()?;
    super::env::warn_trust(ready.trust_warning.as_ref());
    let (runner, spawner) = (ready.runner, ready.spawner);
    let tool_given = payload.tool_name().is_some_and(|t| !t.is_empty());
    let mut report = runner.fire(payload).await;
    report.hooks.extend(runner.wait_async().await);
    for e in &report.config_errors {
        eprintln!("hookhost: error: {}", terminal_safe_lines(&e.to_string()));
    }
    warn_untrusted(&report, policy);
    // Checked after the event (a writer that started with us has had time to write).
    if a.payload.is_none() && stdin_has_data() {
        eprintln!(
            "hookhost: note: stdin holds data, which `run` ignores: the payload was built from the flags; to fire with the JSON on stdin as the payload, add `--payload -`"
        );
    }
    if let Some(log) = &kept {
        explain(log, a.json)?;
    } else if a.json {
        let mut json = hookhost::setup::report_json(&report);
        if let Some(obj) = json.as_object_mut() {
            if !name.agents.is_empty() {
                obj.insert(
                    "eventName".into(),
                    serde_json::json!({"given": name.given, "agents": name.agents}),
                );
            }
            if !warnings.is_empty() {
                obj.insert("warnings".into(), serde_json::json!(warnings));
            }
        }
        println!("{json}");
    } else {
        print_human(&report, tool_given);
    }
    super::tier_up::hand_off(&spawner);
    Ok(match report.decision {
        Decision::Pass => 0,
        Decision::Block | Decision::Force => 2,
    })
}

/// The decision log of `run --explain`: the user's (as `HOOKHOST_LOG` says) keeping its
/// records in memory too, or only in memory under `HOOKHOST_LOG=off`.
fn explaining_log(project: &std::path::Path, home: Option<&std::path::Path>) -> DecisionLog {
    DecisionLog::from_env(project, home).map_or_else(DecisionLog::in_memory, DecisionLog::keeping)
}

/// Prints the explanation of the event `log` kept (its record under `json`).
fn explain(log: &DecisionLog, json: bool) -> anyhow::Result<()> {
    let record = log
        .take_kept()
        .pop()
        .context("the event left no record to explain")?;
    if json {
        println!("{}", serde_json::to_string_pretty(&record)?);
    } else {
        print!("{}", super::explain::render(&record));
    }
    Ok(())
}

/// One line per untrusted project hook this event met (named from its report, so only
/// hooks that matched are listed): under the default `skip` (and `block`) the ones that did
/// not run or ran reduced, under the explicit `all` the ones that ran as they are; each with
/// the command that reviews it.
fn warn_untrusted(report: &EventReport, policy: TrustPolicy) {
    use hookhost::Outcome;
    use hookhost::terminal_safe;
    if report.untrusted.is_empty() {
        return;
    }
    let untrusted: std::collections::HashSet<_> = report.untrusted.iter().collect();
    for h in report
        .hooks
        .iter()
        .filter(|h| untrusted.contains(&h.hook) && !h.rejudged)
    {
        let sandboxed = h.sandbox.is_some();
        let what = match (policy, h.kind, h.outcome) {
            (TrustPolicy::All, HookKind::Shell, _) if sandboxed => {
                "ran untrusted: sandboxed with its own grants, and its answer is used in full"
            }
            (TrustPolicy::All, HookKind::Wasm, _) => {
                "ran untrusted: sandboxed, but its answer (rewrites, context) is used in full"
            }
            (TrustPolicy::All, HookKind::Http, _) => "ran untrusted: it receives the payload",
            (TrustPolicy::All, HookKind::Prompt | HookKind::Agent, _) => {
                "ran untrusted: it asks your model its own question, and the answer is used in full"
            }
            (TrustPolicy::All, _, _) => "ran untrusted: it runs as you, unsandboxed",
            (_, _, Outcome::Skipped) => "did not run: it is not trusted",
            (_, HookKind::Shell, _) if sandboxed => {
                "ran sandboxed (read the project, no writes, no network, no secrets) and reduced (it can only pass or block): it is not trusted"
            }
            (_, HookKind::Wasm, _) => {
                "ran sandboxed and reduced (it can only pass or block): it is not trusted"
            }
            (_, HookKind::Prompt | HookKind::Agent, _) => {
                "asked your model, reduced (it can only pass or block): it is not trusted"
            }
            (_, _, _) => "did not run and blocks this call: it is not trusted (--trust block)",
        };
        let file = h
            .file
            .as_deref()
            .map(|f| format!(" in {}", terminal_safe(&f.display().to_string())))
            .unwrap_or_default();
        eprintln!(
            "hookhost: warning: untrusted project {} hook {} ({}){file} {what}; review it and run `hookhost trust`",
            h.kind.as_str(),
            h.hook,
            terminal_safe(&h.command),
        );
    }
}

/// Whether stdin is a pipe or file with bytes waiting (`echo '{...}' | hookhost run X`
/// without `--payload -`); never blocks, and a terminal, `/dev/null` or an empty or idle pipe
/// is no.
fn stdin_has_data() -> bool {
    use std::io::IsTerminal;
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        return false;
    }
    #[cfg(unix)]
    {
        use std::os::fd::{AsFd, AsRawFd};
        let fd = stdin.as_raw_fd();
        let Ok(copy) = stdin.as_fd().try_clone_to_owned() else {
            return false;
        };
        let Ok(meta) = std::fs::File::from(copy).metadata() else {
            return false;
        };
        if meta.is_file() {
            return meta.len() > 0;
        }
        let mut waiting: libc::c_int = 0;
        // SAFETY: FIONREAD writes one c_int, the number of bytes waiting on the pipe or
        // socket `fd` (stdin, open for this process's life), into `waiting`.
        #[allow(unsafe_code)]
        let r = unsafe { libc::ioctl(fd, libc::FIONREAD, &raw mut waiting) };
        r == 0 && waiting > 0
    }
    #[cfg(not(unix))]
    false
}

fn print_human(r: &EventReport, tool_given: bool) {
    if r.hooks.is_empty() {
        if r.event.takes_tool_matcher() {
            println!(
                "{}: no hooks matched{}",
                r.event,
                if !tool_given {
                    " (no tool was given: pass --tool NAME, hooks with `match` only fire for a matching tool)"
                } else {
                    ""
                }
            );
        } else {
            println!("{}: no hooks matched", r.event);
        }
    }
    for h in &r.hooks {
        print_hook(h);
    }
    // What hooks answered and what configs say reach the terminal escaped.
    for c in &r.additional_context {
        println!("context: {}", terminal_safe_lines(c));
    }
    for m in &r.system_messages {
        println!("message: {}", terminal_safe_lines(m));
    }
    for f in &r.feedback {
        println!("feedback: {}", terminal_safe_lines(f));
    }
    if let Some(args) = &r.updated_args {
        println!("updated args: {args}");
    }
    if let Some(prompt) = &r.updated_prompt {
        println!("updated prompt: {}", terminal_safe_lines(prompt));
    }
    if r.ask {
        println!("a hook asked for the permission prompt");
    }
    if r.allow {
        println!("a hook allowed the call without the permission prompt");
    }
    if let Some(stop) = &r.stop {
        println!(
            "a hook stopped the agent: {}",
            terminal_safe_lines(&stop.reason)
        );
    }
    match (&r.decision, &r.reason) {
        (Decision::Pass, _) if r.allow => println!("decision: allow"),
        (Decision::Pass, _) => println!("decision: pass"),
        (d, reason) => println!(
            "decision: {} — {}",
            serde_json::to_value(d)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_default(),
            terminal_safe_lines(reason.as_deref().unwrap_or(""))
        ),
    }
}

fn print_hook(h: &HookRecord) {
    let code = h.exit_code.map(|c| format!("exit {c}")).unwrap_or_default();
    println!(
        "  {:<18} {:<5} {:<7} {:>9.3} ms  {:<7} {}{}",
        h.hook,
        h.kind.as_str(),
        h.outcome.as_str(),
        h.duration_ms,
        code,
        terminal_safe(&h.command),
        if h.is_async { "  (async)" } else { "" }
    );
    if let Some(status) = &h.status_message {
        println!("      {}", terminal_safe(status));
    }
    if let Some(sandbox) = &h.sandbox {
        println!("      {}", terminal_safe(sandbox));
    }
    if let Some(m) = &h.message {
        println!("      {}", terminal_safe_lines(m));
    }
    let stderr = h.stderr.trim();
    if !stderr.is_empty() && h.outcome != hookhost::Outcome::Pass {
        for line in stderr.lines().take(5) {
            println!("      stderr: {}", terminal_safe(line));
        }
    }
    if h.truncated {
        println!("      (output truncated at 1 MiB)");
    }
}
