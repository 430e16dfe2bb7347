//! `hookhost hook --for claude|gemini|codex`: the outbound adapter. Reads that agent's hook
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

use anyhow::{Context, bail};
use clap::Args;
use hookhost::hooks::Event;
use hookhost::hooks::config::ConfigPaths;
use hookhost::hooks::dialect::{self, Dialect};
use hookhost::hooks::files::{PAYLOAD_LIMIT, read_stream_bounded};
use hookhost::hooks::spawner::{HookSpawner, WasmEngineConfig};
use hookhost::hooks::{Payload, Runner, TrustPolicy, TrustStore};
use std::io::Write;
use std::path::PathBuf;

/// Set in the environment of the hooks the adapter runs.
pub const ADAPTER_ENV: &str = "HOOKHOST_ADAPTER";

#[derive(Args, Debug)]
pub struct HookArgs {
    /// Whose payload comes on stdin and whose protocol the answer speaks.
    #[arg(long = "for", value_name = "claude|gemini|codex")]
    agent: String,
    /// Project directory (default: the agent's `$CLAUDE_PROJECT_DIR` / `$GEMINI_PROJECT_DIR`,
    /// else the payload's `cwd`, else the current directory).
    #[arg(long)]
    project: Option<PathBuf>,
    /// What to do with untrusted project hooks: all, skip or block. Default:
    /// $HOOKHOST_TRUST, else skip (untrusted shell and HTTP hooks do not run; untrusted wasm hooks can only pass or block).
    #[arg(long, value_name = "all|skip|block")]
    trust: Option<String>,
}

pub async fn hook(a: HookArgs) -> anyhow::Result<u8> {
    let d: Dialect = a.agent.parse().map_err(anyhow::Error::msg)?;
    if !matches!(d, Dialect::Claude | Dialect::Gemini | Dialect::Codex) {
        bail!("--for takes claude, gemini or codex, got {}", a.agent);
    }
    // Until the payload is read and says otherwise, an error may be hiding a PreToolUse.
    let mut blocking = true;
    match adapt(d, a, &mut blocking).await {
        Err(e) if blocking => {
            eprintln!("hookhost: error: {e:#}; blocking the tool call to fail closed");
            Ok(2)
        }
        other => other,
    }
}

/// The payload on stdin: its event (`None`: one hookhost does not fire) and its fields in
/// native terms.
fn read_payload(
    agent: &str,
) -> anyhow::Result<(Option<Event>, serde_json::Map<String, serde_json::Value>)> {
    let bytes = read_stream_bounded(
        std::io::stdin().lock(),
        PAYLOAD_LIMIT,
        "the payload on stdin",
    )
    .map_err(anyhow::Error::msg)?;
    let value: serde_json::Value =
        serde_json::from_slice(&bytes).context("the payload on stdin is not valid JSON")?;
    let Some((_, event, fields)) = dialect::recognise(&value) else {
        bail!("the payload on stdin has no `hook_event_name`; is this {agent}'s hook payload?");
    };
    Ok((event, fields))
}

/// The adapter's work; `blocking` is cleared once the payload is known not to be a
/// PreToolUse.
async fn adapt(d: Dialect, a: HookArgs, blocking: &mut bool) -> anyhow::Result<u8> {
    let read = read_payload(&a.agent);
    if let Ok((event, _)) = &read {
        *blocking = *event == Some(Event::PreToolUse);
    }
    if std::env::var_os(ADAPTER_ENV).is_some() {
        bail!(
            "refusing to run inside another `hookhost hook` ({ADAPTER_ENV} is set): a hook called the adapter again; nothing was fired"
        );
    }
    let (event, fields) = read?;
    let Some(event) = event else {
        // An event hookhost does not fire (Notification, BeforeModel, ...): nothing to say.
        return Ok(0);
    };
    let project = match a.project {
        Some(p) => super::project_dir(Some(p))?,
        None => {
            // The directory the agent was started in, which it names for its hooks; the
            // payload's `cwd` follows the model's `cd` (after `cd src` the project's own
            // guards would no longer be found).
            let vars: &[&str] = match d {
                Dialect::Gemini => &["GEMINI_PROJECT_DIR", "CLAUDE_PROJECT_DIR"],
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
            super::project_dir(started_in.or(cwd))?
        }
    };
    let session = fields
        .get("sessionId")
        .and_then(|s| s.as_str())
        .unwrap_or("adapter")
        .to_string();
    let mut native = fields.clone();
    native.insert("cwd".into(), project.to_string_lossy().into());
    let payload = Payload::from_object(event, native.into(), &project, &session)
        .map_err(anyhow::Error::msg)?;
    // SAFETY of set_var: the runtime is single-threaded here and nothing reads the
    // environment concurrently; every hook spawned from now on inherits the marker.
    unsafe { std::env::set_var(ADAPTER_ENV, d.as_str()) };
    // A big module's optimised build is left to a background `hookhost compile`.
    let spawner = std::sync::Arc::new(HookSpawner::with_wasm_config(WasmEngineConfig {
        pooling: false,
        prewarm: None,
        tiering: super::tier_up::tiering_from_env(),
        ..WasmEngineConfig::default()
    })?);
    let paths = ConfigPaths::for_project(&project).native_only();
    let policy = super::trust_policy_env_stricter_only(a.trust.as_deref())?;
    let store = match TrustStore::load(paths.home.as_deref()) {
        Ok(store) => store,
        Err(e) if policy == TrustPolicy::All => {
            eprintln!("hookhost: warning: {e}; treating every project hook as untrusted");
            TrustStore::load(None)?
        }
        Err(e) => return Err(e.into()),
    };
    let runner = Runner::builder(&project)
        .config_paths(paths)
        .lenient()
        .spawner(spawner.clone())
        .trust(policy, store)
        .build()?;
    let tool = payload.tool_name().map(str::to_string);
    let report = runner.fire(payload).await;
    runner.wait_async().await;
    for e in &report.config_errors {
        eprintln!("hookhost: error: {e}");
    }
    let answer = dialect::respond(d, &report, tool.as_deref());
    if !answer.stdout.is_empty() {
        let mut out = std::io::stdout().lock();
        writeln!(out, "{}", answer.stdout)?;
    }
    super::tier_up::hand_off(&spawner);
    Ok(answer.exit_code)
}
