//! `hookhost hook --for claude|gemini|codex|cursor|copilot|qwen|qoder|grok|droid|auggie|vscode|goose|opencode|cline|windsurf`:
//! the outbound adapter. Reads that agent's hook
//! payload on stdin, fires the event through the native engine with the project's and the
//! user's `.coding-agent/hooks.json` only (never the agent's own settings file), and answers
//! on stdout and exit code in that agent's protocol (`hooks::dialect::respond`).
//!
//! It refuses to run inside itself: it sets `HOOKHOST_ADAPTER` for the hooks it runs, and a
//! nested `hookhost hook` that sees it fires nothing, so a hook that calls the agent, or the
//! adapter, cannot recurse.
//!
//! It fails closed: whenever it cannot reach a decision on a PreToolUse (a payload it cannot
//! read, nested past the parser's limit or larger than the cap, a trust file it must not
//! ignore, the recursion guard, whose variable a project's settings `env` can set), it exits
//! 2 with the reason on stderr, which blocks the call in every agent's rules. Elsewhere such
//! an error exits 1, a non-blocking error (an exit 2 on Stop would keep the agent going).
//!
//! A prompt a hook replaced (`updatedPrompt`) reaches Gemini CLI's model through its
//! BeforeModel hook: at BeforeAgent, when the user's own `~/.gemini/settings.json` runs the
//! adapter on BeforeModel and pins a model, the pair is kept in the session's state and the prompt passes; at
//! BeforeModel (no hook runs, and the recursion guard does not stop it) each request is
//! rewritten (`hookhost::dialect::before_model_answer`). Otherwise, and for the other
//! agents, the original is blocked and the reason gives the replacement.
//!
//! Nothing a project's settings `env` sets moves what it reads: the home directory is the
//! account's (password database) or `--home`, never `$HOME`, as for every command (`env.rs`); the cache and store variables
//! are vetted against the project (`hookhost::locations`); `$HOOKHOST_COMPILE_TIMEOUT_MS`
//! and `$HOOKHOST_TIERING` are ignored here (a first compile cut short would skip a wasm hook
//! on a non-blocking event); and every other variable that changes what hookhost does for the
//! user (proxies, OpenTelemetry, the decision log, `$HOOKHOST_TRUST`) is obeyed only when no
//! project file sets it (`hookhost::host_env`, guarded here before the set-up).

use anyhow::{Context, bail};
use clap::Args;
use hookhost::Event;
use hookhost::Payload;
use hookhost::dialect::{self, Dialect};
use hookhost::files::{PAYLOAD_LIMIT, read_stream_bounded};
use hookhost::setup::WasmOptions;
use hookhost::spawner::wasm::{COMPILE_TIMEOUT, COMPILE_TIMEOUT_ENV};
use hookhost::spawner::{TIERING_ENV, Tiering};
use serde_json::{Map, Value};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The agents `--for` takes (the completion scripts offer them; scripts/check-docs checks
/// that docs/cli.md names each).
pub const AGENTS: &[&str] = &[
    "claude", "gemini", "codex", "cursor", "copilot", "qwen", "qoder", "grok", "droid", "auggie",
    "vscode", "goose", "opencode", "cline", "windsurf",
];

/// Set in the environment of the hooks the adapter runs.
pub const ADAPTER_ENV: &str = "HOOKHOST_ADAPTER";

#[derive(Args, Debug, Clone)]
pub struct HookArgs {
    /// Whose payload comes on stdin and whose protocol the answer speaks.
    #[arg(
        long = "for",
        value_name = "claude|gemini|codex|cursor|copilot|qwen|qoder|grok|droid|auggie|vscode|goose|opencode|cline|windsurf",
        value_parser = crate::shell::Hinted::new(AGENTS.iter().copied()),
        hide_possible_values = true
    )]
    agent: String,
    /// Project directory (default: the agent's `$CLAUDE_PROJECT_DIR` / `$GEMINI_PROJECT_DIR` /
    /// `$CURSOR_PROJECT_DIR` / `$COPILOT_PROJECT_DIR` / `$QWEN_PROJECT_DIR` /
    /// `$FACTORY_PROJECT_DIR`, else the nearest directory at or above
    /// the payload's `cwd` (then the current directory) holding .coding-agent/, .git,
    /// .claude/, .codex/, .gemini/ or .cursor/, below the home directory; else the payload's
    /// `cwd`, else the current directory).
    #[arg(long)]
    project: Option<PathBuf>,
    /// What to do with untrusted project hooks: all, skip or block. Default:
    /// $HOOKHOST_TRUST, else skip (untrusted shell and HTTP hooks do not run; untrusted wasm hooks can only pass or block).
    #[arg(long, value_name = "all|skip|block")]
    trust: Option<String>,
}

pub async fn hook(a: HookArgs, user_home: &crate::env::UserHome) -> anyhow::Result<u8> {
    let d: Dialect = a.agent.parse().map_err(anyhow::Error::msg)?;
    if matches!(d, Dialect::Native | Dialect::Ling) {
        bail!("--for takes {}, got {}", AGENTS.join(", "), a.agent);
    }
    // Until the payload is read and says otherwise, an error may be hiding a PreToolUse.
    let mut blocking = true;
    match adapt(d, a, user_home, &mut blocking).await {
        Err(e) if blocking => {
            eprintln!("hookhost: error: {e:#}; blocking the tool call to fail closed");
            if d == Dialect::Cline {
                // Cline blocks on `cancel: true` only: any exit code is a failure it ignores.
                let why = format!("hookhost could not answer ({e:#}); cancelled to fail closed");
                print_answer(
                    &serde_json::json!({"cancel": true, "errorMessage": why}).to_string(),
                )?;
                return Ok(0);
            }
            Ok(2)
        }
        other => other,
    }
}

/// What came on stdin: the payload's event (`None`: one hookhost does not fire), its fields
/// in native terms, and the agent's own object.
type Read = (Option<Event>, Map<String, Value>, Map<String, Value>);

/// The payload on stdin.
fn read_payload(d: Dialect, agent: &str) -> anyhow::Result<Read> {
    let bytes = read_stream_bounded(
        std::io::stdin().lock(),
        PAYLOAD_LIMIT,
        "the payload on stdin",
    )
    .map_err(anyhow::Error::msg)?;
    let value: Value =
        serde_json::from_slice(&bytes).context("the payload on stdin is not valid JSON")?;
    let (Some((_, event, fields)), Value::Object(own)) = (dialect::recognise_for(d, &value), value)
    else {
        bail!(
            "the payload on stdin has no `{}`; is this {agent}'s hook payload?",
            event_field(d)
        );
    };
    Ok((event, fields, own))
}

/// The field that names the event in agent `d`'s payload.
fn event_field(d: Dialect) -> &'static str {
    match d {
        Dialect::Vscode => "hookEventName",
        Dialect::Goose | Dialect::Opencode => "event",
        Dialect::Cline => "hookName",
        Dialect::Windsurf => "agent_action_name",
        _ => "hook_event_name",
    }
}

/// The adapter's work; `blocking` is cleared once the payload is known not to be a
/// PreToolUse.
#[allow(unsafe_code)]
async fn adapt(
    d: Dialect,
    a: HookArgs,
    user_home: &crate::env::UserHome,
    blocking: &mut bool,
) -> anyhow::Result<u8> {
    let read = read_payload(d, &a.agent);
    if let Ok((event, _, _)) = &read {
        *blocking = matches!(event, Some(Event::PreToolUse | Event::PreSkillShellCommand));
    }
    // Before the recursion guard, whose variable a project's settings `env` can set: this
    // runs no hook, and skipping it would send a prompt a hook replaced.
    if let Ok((None, fields, own)) = &read
        && d == Dialect::Gemini
        && own.get("hook_event_name").and_then(Value::as_str) == Some("BeforeModel")
    {
        return before_model(d, a.project.clone(), fields, own, user_home);
    }
    if std::env::var_os(ADAPTER_ENV).is_some() {
        bail!(
            "refusing to run inside another `hookhost hook` ({ADAPTER_ENV} is set): a hook called the adapter again; nothing was fired"
        );
    }
    let (event, fields, own) = read?;
    let prompt = own
        .get("prompt")
        .and_then(Value::as_str)
        .map(str::to_string);
    let Some(event) = event else {
        // An event with no native meaning (Gemini CLI's AfterModel, its automatic
        // PreCompress, ...: `dialect::events`; BeforeModel was answered above): no hook
        // runs, nothing to say.
        return Ok(0);
    };
    let project = project_of(d, a.project, &fields, user_home)?;
    let home = user_home.dir();
    guard_env(&project, &fields, home.as_deref());
    let session = session_of(&fields).unwrap_or("adapter").to_string();
    let mut native = fields.clone();
    native.insert("cwd".into(), project.to_string_lossy().into());
    let mut payload = Payload::from_object(event, native.into(), &project, &session)
        .map_err(anyhow::Error::msg)?;
    // The agent's own payload, for the hooks of its dialect (`"dialect": "claude"`): they
    // read what the agent sent, field for field.
    payload.attach_origin(d, Some(event), own);
    // SAFETY of set_var: the runtime is single-threaded here and nothing reads the
    // environment concurrently; every hook spawned from now on inherits the marker.
    unsafe { std::env::set_var(ADAPTER_ENV, d.as_str()) };
    // hookhost is the agent's hook: the hooks of its dialect get the agent's own variables
    // (its `CLAUDE_ENV_FILE`, `GEMINI_SESSION_ID`, ...), not values of hookhost's.
    let setup = user_home
        .setup(&project)
        .native_only()
        .agent_env(dialect::AgentEnv::from_process(d));
    note_ignored_env();
    let policy = super::trust_policy_env_stricter_only(a.trust.as_deref())?;
    // A big module's optimised build is left to a background `hookhost compile`.
    let ready = setup
        .policy(policy)
        .wasm(WasmOptions {
            tiering: Some(Tiering::Deferred),
            compile_timeout: Some(COMPILE_TIMEOUT),
            ..WasmOptions::one_event()
        })
        .runner()?;
    super::env::warn_trust(ready.trust_warning.as_ref());
    let (runner, spawner) = (ready.runner, ready.spawner);
    let tool = payload.tool_name().map(str::to_string);
    let report = runner.fire(payload).await;
    runner.wait_async().await;
    let report = match d {
        Dialect::Gemini if report.updated_prompt.is_some() => {
            let kept = keep_replacement(
                &report,
                &fields,
                prompt.as_deref(),
                home.as_deref(),
                &project,
            );
            dialect::route_replacement(&report, kept)
        }
        _ => report,
    };
    for e in &report.config_errors {
        eprintln!("hookhost: error: {e}");
    }
    let answer = dialect::respond(d, &report, tool.as_deref());
    if !answer.stderr.is_empty() {
        eprintln!("hookhost: {}", answer.stderr);
    }
    print_answer(&answer.stdout)?;
    super::tier_up::hand_off(&spawner);
    Ok(answer.exit_code)
}

/// The agent ran this process with its project's settings `env`: what a project file at the
/// project, the payload's `cwd` or the current directory sets is not obeyed
/// (`hookhost::host_env`), whichever of them the project directory variables chose.
fn guard_env(project: &Path, fields: &Map<String, Value>, home: Option<&Path>) {
    let cwd = fields
        .get("cwd")
        .and_then(|c| c.as_str())
        .map(PathBuf::from);
    let here = std::env::current_dir().ok();
    let starts: Vec<&Path> = [Some(project), cwd.as_deref(), here.as_deref()]
        .into_iter()
        .flatten()
        .collect();
    hookhost::host_env::guard(&starts, home);
}

/// The payload's session id, if it has one.
fn session_of(fields: &Map<String, Value>) -> Option<&str> {
    fields
        .get("sessionId")
        .and_then(|s| s.as_str())
        .filter(|s| !s.is_empty())
}

/// Gemini CLI's BeforeAgent whose prompt a hook replaced: records the pair for BeforeModel
/// when the user's own Gemini CLI settings run the adapter there and pin a model (`Err` says why not: the
/// original is then blocked).
fn keep_replacement(
    report: &hookhost::EventReport,
    fields: &Map<String, Value>,
    original: Option<&str>,
    home: Option<&Path>,
    project: &Path,
) -> Result<(), String> {
    let (Some(replacement), hookhost::Decision::Pass) = (&report.updated_prompt, report.decision)
    else {
        return Ok(());
    };
    let home = home.ok_or("there is no home directory to read ~/.gemini/settings.json from")?;
    // As Gemini CLI passed it to its hooks (a project's `.env` can set it: it can only take
    // the replacement away, never give it).
    let env_model = std::env::var("GEMINI_MODEL").ok();
    dialect::gemini_before_model_wiring(home, project, env_model.as_deref())?;
    let session = session_of(fields).ok_or("the payload has no `session_id`")?;
    let original = original.ok_or("the payload has no `prompt`")?;
    // The runner's own state (`once` marks), under the cache root the set-up settled.
    hookhost::session_env::SessionEnv::default_root().record_replacement(
        session,
        original,
        replacement,
    )
}

/// Gemini CLI's BeforeModel: the request with the prompts hooks replaced in this session
/// replaced (`hookhost::dialect::before_model_answer`); no hook runs. The session's state is
/// found as at BeforeAgent (the same project, variables and cache root).
fn before_model(
    d: Dialect,
    project: Option<PathBuf>,
    fields: &Map<String, Value>,
    own: &Map<String, Value>,
    user_home: &crate::env::UserHome,
) -> anyhow::Result<u8> {
    let pairs = match session_of(fields) {
        None => Ok(Vec::new()),
        Some(session) => {
            let project = project_of(d, project, fields, user_home)?;
            guard_env(&project, fields, user_home.dir().as_deref());
            // Settles the cache root, as the set-up of BeforeAgent did.
            let _ = user_home.setup(&project);
            hookhost::session_env::SessionEnv::default_root().replacements(session)
        }
    };
    let answer = dialect::before_model_answer(own.get("llm_request"), pairs);
    print_answer(&answer.stdout)?;
    Ok(answer.exit_code)
}

/// The answer on stdout (nothing when it is empty).
fn print_answer(answer: &str) -> std::io::Result<()> {
    if answer.is_empty() {
        return Ok(());
    }
    let mut out = std::io::stdout().lock();
    match writeln!(out, "{answer}").and_then(|()| out.flush()) {
        // The agent closed our stdout: it left, and nobody is there to answer. The event
        // was run and logged; say nothing more.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        r => r,
    }
}

/// The project directory: `--project`, else the directory the agent was started in (which
/// it names for its hooks), else the nearest project root at or above the payload's `cwd`
/// (then the current directory), else the payload's `cwd`, else the current directory.
fn project_of(
    d: Dialect,
    project: Option<PathBuf>,
    fields: &Map<String, Value>,
    user_home: &crate::env::UserHome,
) -> anyhow::Result<PathBuf> {
    if project.is_some() {
        return super::project_dir(project, user_home);
    }
    let home = user_home.dir();
    // The directory the agent was started in, which it names for its hooks; the
    // payload's `cwd` follows the model's `cd` (after `cd src` the project's own
    // guards would no longer be found).
    let vars: &[&str] = match d {
        Dialect::Gemini => &["GEMINI_PROJECT_DIR", "CLAUDE_PROJECT_DIR"],
        Dialect::Cursor => &["CURSOR_PROJECT_DIR", "CLAUDE_PROJECT_DIR"],
        Dialect::Copilot => &["COPILOT_PROJECT_DIR", "CLAUDE_PROJECT_DIR"],
        // Their own variables only (`QWEN_PROJECT_DIR`, `FACTORY_PROJECT_DIR`; none for the
        // agents that name none): a Claude Code session around them is not their project.
        d if d.is_claude_like() => dialect::agent_variables(d),
        // opencode names none; its plugin sends the directory opencode was started in as
        // `cwd`. Cline names none: its payload's `workspaceRoots` is the project. Windsurf
        // names none: a command's `tool_info.cwd`, else the nearest project marker.
        Dialect::Opencode | Dialect::Cline | Dialect::Windsurf => &[],
        _ => &["CLAUDE_PROJECT_DIR"],
    };
    let started_in = vars
        .iter()
        .filter_map(std::env::var_os)
        .map(PathBuf::from)
        .find(|p| p.is_dir());
    let cwd = fields
        .get("cwd")
        .and_then(|c| c.as_str())
        .map(PathBuf::from)
        .filter(|p| p.is_dir());
    // Codex names no directory: the payload's `cwd` may be a subdirectory of the
    // project (a session started in `repo/src`), whose guards are at the root.
    let found = || {
        cwd.iter()
            .cloned()
            .chain(std::env::current_dir().ok())
            .find_map(|start| crate::project::find_project(&start, home.as_deref()))
    };
    match started_in.or_else(found).or(cwd) {
        Some(dir) => super::project_dir(Some(dir), user_home),
        // The adapter's last resort is the directory the agent ran it in, as is.
        None => super::project_dir(Some(std::env::current_dir()?), user_home),
    }
}

/// Numbers and modes a project's `env` could set to cut a first compile short (a spawn
/// failure only warns on a non-blocking event: the user's wasm hook would not run) are not
/// read here: the defaults hold, and a set one is said on stderr.
fn note_ignored_env() {
    let timeout_default = COMPILE_TIMEOUT.as_millis().to_string();
    for (var, default) in [
        (COMPILE_TIMEOUT_ENV, timeout_default.as_str()),
        (TIERING_ENV, "deferred"),
    ] {
        if let Ok(v) = std::env::var(var)
            && !v.is_empty()
            && v.trim() != default
        {
            eprintln!(
                "hookhost: note: the adapter ignores ${var}={v:?} (a project's settings `env` can set it); the default ({default}) holds"
            );
        }
    }
}
