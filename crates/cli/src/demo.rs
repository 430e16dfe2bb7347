//! `hookhost demo`: the main job on embedded defaults. A scripted agent session runs in a
//! temporary project with shell hooks and a wasm hook, and the trace shows each event, each
//! hook's kind, outcome and duration, and what the agent did with it.

use hookhost::agent::{
    Agent, AgentConfig, AgentEvent, Observer, PermissionChecker, ScriptedModel, TerminalPrompter,
};
use hookhost::config::ConfigPaths;
use hookhost::setup::{Setup, WasmOptions};
use hookhost::{Decision, EventReport, HookKind, Outcome};
use std::io::{IsTerminal, Write};
use std::path::Path;
use std::sync::{Arc, Mutex};

const HOOKS_JSON: &str = include_str!("demo/hooks.json");
const TRANSCRIPT: &str = include_str!("demo/transcript.json");
const GUARD_WAT: &str = include_str!("demo/guard.wat");
const PROMPT: &str = "Clean up the build artifacts and publish the branch.";

const CHECK_BASH: &str = r#"#!/bin/sh
# Blocks destructive shell commands (the payload is on stdin).
payload=$(cat)
case "$payload" in
  *'rm -rf /'*|*'rm -rf ~'*|*mkfs*) echo "check-bash.sh: rm -rf on / or ~ would destroy the machine" >&2; exit 2 ;;
esac
exit 0
"#;

const REQUIRE_TESTS: &str = r#"#!/bin/sh
# Forces one more turn unless the agent is already continuing because of a Stop hook.
payload=$(cat)
case "$payload" in
  *'"stopHookActive":true'*) exit 0 ;;
esac
echo "Before you stop: run the tests and report the result."
exit 2
"#;

/// Writes the demo project into `root`.
fn write_project(root: &Path) -> anyhow::Result<()> {
    let hooks = root.join(".coding-agent/hooks");
    std::fs::create_dir_all(&hooks)?;
    std::fs::create_dir_all(root.join("build"))?;
    std::fs::write(root.join(".coding-agent/hooks.json"), HOOKS_JSON)?;
    std::fs::write(root.join("README.md"), "# demo project\n")?;
    std::fs::write(hooks.join("guard.wasm"), wat::parse_str(GUARD_WAT)?)?;
    for (name, text) in [
        ("check-bash.sh", CHECK_BASH),
        ("require-tests.sh", REQUIRE_TESTS),
    ] {
        let path = hooks.join(name);
        std::fs::write(&path, text)?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))?;
        }
    }
    Ok(())
}

#[derive(Default)]
struct Stats {
    turns: usize,
    tool_calls: usize,
    blocked: usize,
    denied: usize,
    todo_guard: usize,
    forced: usize,
    events: usize,
    durations: Vec<(HookKind, f64)>,
}

/// Prints the trace; collects the summary.
struct Trace {
    color: bool,
    /// Subagent nesting, so engine reports indent like the agent's own lines.
    depth: std::sync::atomic::AtomicUsize,
    stats: Mutex<Stats>,
}

impl Trace {
    fn paint(&self, code: &str, text: &str) -> String {
        if self.color {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }

    fn line(&self, depth: usize, text: String) {
        let indent = "    ".repeat(depth);
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "{indent}{text}");
    }

    fn report(&self, r: &EventReport) {
        let mut stats = hookhost::agent::sync::lock(&self.stats);
        stats.events += 1;
        if r.hooks.is_empty() {
            return;
        }
        let depth = self.depth.load(std::sync::atomic::Ordering::Relaxed);
        let decision = match r.decision {
            Decision::Pass => self.paint("32", "pass"),
            Decision::Block => self.paint("31;1", "BLOCK"),
            Decision::Force => self.paint("33;1", "FORCE"),
        };
        self.line(
            depth,
            format!(
                "  {} {} -> {decision}",
                self.paint("1", "⚑"),
                self.paint("1", r.event.as_str())
            ),
        );
        for h in &r.hooks {
            stats.durations.push((h.kind, h.duration_ms));
            let outcome = match h.outcome {
                Outcome::Pass => self.paint("32", "pass   "),
                Outcome::Block => self.paint("31", "block  "),
                Outcome::Force => self.paint("33", "force  "),
                Outcome::Allow => self.paint("32", "allow  "),
                Outcome::Warn => self.paint("33", "warn   "),
                Outcome::Timeout => self.paint("31", "timeout"),
                Outcome::Error => self.paint("31", "error  "),
                Outcome::Skipped => self.paint("2", "skipped"),
                // A later outcome (the enum is non-exhaustive): its name, uncoloured.
                other => format!("{:<7}", other.as_str()),
            };
            let mut command = h.command.clone();
            if command.chars().count() > 60 {
                command = command.chars().take(57).collect::<String>() + "...";
            }
            self.line(
                depth,
                format!(
                    "      {:<14} {:<5} {outcome} {} {}",
                    h.hook,
                    h.kind.as_str(),
                    self.paint("2", &format!("{:>8.3} ms", h.duration_ms)),
                    command
                ),
            );
        }
        if let Some(reason) = &r.reason {
            self.line(depth, format!("      reason: {reason}"));
        }
        if let Some(args) = &r.updated_args {
            self.line(depth, format!("      updated args: {args}"));
        }
    }
}

impl Observer for Trace {
    fn on(&self, depth: usize, event: &AgentEvent) {
        self.count(event);
        self.line(depth, self.describe(event));
    }
}

impl Trace {
    /// Counts `event` into the summary and follows subagent nesting.
    fn count(&self, event: &AgentEvent) {
        let mut stats = hookhost::agent::sync::lock(&self.stats);
        match event {
            AgentEvent::ModelText(_) => stats.turns += 1,
            AgentEvent::ToolCall { .. } => stats.tool_calls += 1,
            AgentEvent::Blocked { .. } => stats.blocked += 1,
            AgentEvent::PermissionDenied { .. } => stats.denied += 1,
            AgentEvent::TodoGuard(_) => stats.todo_guard += 1,
            AgentEvent::Forced(_) => stats.forced += 1,
            AgentEvent::SubagentStart(_) => {
                self.depth
                    .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            }
            AgentEvent::SubagentEnd(_) => {
                self.depth
                    .fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
            }
            _ => {}
        }
    }

    /// The line of a tool call and what became of it.
    fn tool_line(&self, event: &AgentEvent) -> String {
        match event {
            AgentEvent::ToolCall { name, args } => {
                format!("{} {name} {args}", self.paint("34;1", "tool  ▸"))
            }
            AgentEvent::Blocked { name, .. } => format!(
                "  {} {name} was blocked by a hook; the reason goes back to the model",
                self.paint("31;1", "✗")
            ),
            AgentEvent::PermissionDenied { name, why } => format!(
                "  {} {name}: permission checker {why} (no hook can override a system deny)",
                self.paint("31;1", "✗")
            ),
            AgentEvent::ToolResult {
                output, is_error, ..
            } => {
                let mut o = output.replace('\n', " ");
                if o.chars().count() > 100 {
                    o = o.chars().take(97).collect::<String>() + "...";
                }
                format!(
                    "  {} {o}",
                    if *is_error {
                        self.paint("31", "result (error):")
                    } else {
                        self.paint("32", "result:")
                    }
                )
            }
            _ => String::new(),
        }
    }

    /// The trace line of `event`.
    fn describe(&self, event: &AgentEvent) -> String {
        match event {
            AgentEvent::ToolCall { .. }
            | AgentEvent::Blocked { .. }
            | AgentEvent::PermissionDenied { .. }
            | AgentEvent::ToolResult { .. } => self.tool_line(event),
            AgentEvent::UserPrompt(p) => format!("{} {p}", self.paint("36;1", "user  ▸")),
            AgentEvent::PromptReplaced { original } => {
                format!("  + a hook replaced the prompt (the user wrote: {original})")
            }
            AgentEvent::ModelText(t) => format!("{} {t}", self.paint("35;1", "model ▸")),
            AgentEvent::HookContext(c) => format!("  + context for the model: {c}"),
            AgentEvent::SystemMessage(m) => format!("  + message for the user: {m}"),
            AgentEvent::ToolOutputReplaced { name, output } => {
                format!("  + a hook replaced what the model sees of `{name}`: {output}")
            }
            AgentEvent::TodoGuard(m) => format!(
                "  {} TodoGuard: {}",
                self.paint("33;1", "↻"),
                m.lines().next().unwrap_or("")
            ),
            AgentEvent::Forced(m) => format!(
                "  {} a Stop hook forced one more turn: {m}",
                self.paint("33;1", "↻")
            ),
            AgentEvent::Compacted { before, after } => {
                format!("  ⇣ compacted the conversation: {before} -> {after} messages")
            }
            AgentEvent::SubagentStart(n) => format!(
                "{} subagent `{n}` starts (only the tool-call hooks apply)",
                self.paint("36", "┌")
            ),
            AgentEvent::SubagentEnd(n) => format!("{} subagent `{n}` done", self.paint("36", "└")),
            AgentEvent::Final(t) => format!("{} {t}", self.paint("32;1", "final ▸")),
            AgentEvent::PromptBlocked(r) => format!(
                "  {} a hook blocked the prompt: {r}",
                self.paint("31;1", "✗")
            ),
            AgentEvent::Stopped(r) => format!(
                "  {} a hook stopped the agent: {r}",
                self.paint("31;1", "■")
            ),
            AgentEvent::PermissionAllowed { name, why } => format!(
                "  {} a PermissionRequest hook allowed {name} without asking ({why})",
                self.paint("32;1", "✓")
            ),
            AgentEvent::ConfigChangeUndone { path, reason } => format!(
                "  {} a ConfigChange hook undid the change to {}: {reason}",
                self.paint("31;1", "↺"),
                path.display()
            ),
            AgentEvent::BatchBlocked(r) => format!(
                "  {} a PostToolBatch hook ended the run: {r}",
                self.paint("31;1", "■")
            ),
            AgentEvent::CompactBlocked(r) => format!(
                "  {} a PreCompact hook kept the conversation uncompacted: {r}",
                self.paint("33;1", "⇣")
            ),
        }
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// `hookhost demo [--keep]`.
#[derive(clap::Args, Debug)]
pub struct DemoArgs {
    /// Keep the demo's project (hooks, scripts, the wasm guard, the audit log) and print
    /// where it is, to look at it or run `hookhost list`/`run` in it.
    #[arg(long)]
    keep: bool,
}

pub async fn demo(a: DemoArgs) -> anyhow::Result<u8> {
    let dir = tempfile::Builder::new()
        .prefix("hookhost-demo-")
        .tempdir()?;
    let root = dir.path().canonicalize()?;
    let result = session(&root).await;
    if a.keep {
        let kept = dir.keep();
        println!(
            "\nThe project is kept in {}: `cd` there and run `hookhost trust` (like any project you did not write, its hooks do not run until you have reviewed and trusted them), then `hookhost list`, or `hookhost run PreToolUse --tool bash --args '{{\"command\":\"rm -rf /\"}}'` to see the guard block",
            kept.display()
        );
    } else {
        println!("\n(`hookhost demo --keep` keeps the project to look at)");
    }
    result
}

async fn session(root: &std::path::Path) -> anyhow::Result<u8> {
    let root = root.to_path_buf();
    write_project(&root)?;
    let color = std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    let trace = Arc::new(Trace {
        color,
        depth: Default::default(),
        stats: Mutex::default(),
    });
    println!(
        "hookhost demo: a scripted agent session in {} with shell hooks and a wasm hook\n",
        root.display()
    );

    // Project hooks only: the demo must not pick up the user's own ~/.coding-agent hooks,
    // and it trusts the hooks it wrote itself.
    let t = trace.clone();
    let ready = Setup::with_paths(ConfigPaths::with_home(&root, None))
        .trust_every_hook()
        .wasm(WasmOptions {
            pooling: false,
            ..WasmOptions::default()
        })
        .observer(Arc::new(move |r| t.report(r)))
        .runner()?;
    let runner = Arc::new(ready.runner);

    let model = ScriptedModel::from_json(TRANSCRIPT)?;
    let mut agent = Agent::new(Box::new(model), runner.clone(), &root, "demo-session")
        .with_permissions(
            PermissionChecker::default().with_guard(runner.protected().permission_guard()),
        )
        .with_prompter(Arc::new(TerminalPrompter))
        .with_observer(trace.clone())
        .with_config(AgentConfig {
            compact_after: 16,
            keep_after_compact: 8,
            ..AgentConfig::default()
        });
    // The demo sets its project up first, as `claude --init` does (Setup).
    if agent.setup("init").await.is_none() {
        agent.run(PROMPT).await?;
    }
    agent.end("other").await;
    runner.wait_async().await;

    let audit = std::fs::read_to_string(root.join(".coding-agent/audit.log")).unwrap_or_default();
    let s = hookhost::agent::sync::lock(&trace.stats);
    let by_kind = |k: HookKind| -> Vec<f64> {
        s.durations
            .iter()
            .filter(|(kind, _)| *kind == k)
            .map(|(_, d)| *d)
            .collect()
    };
    let shell = by_kind(HookKind::Shell);
    let wasm = by_kind(HookKind::Wasm);
    println!("\n{}", trace.paint("1", "Summary"));
    println!(
        "  {} model turns, {} tool calls: {} blocked by hooks, {} denied by the permission checker",
        s.turns, s.tool_calls, s.blocked, s.denied
    );
    println!(
        "  {} TodoGuard continuation(s), {} Stop-hook force(s); {} events fired",
        s.todo_guard, s.forced, s.events
    );
    println!(
        "  hook runs: {} shell (median {:.3} ms), {} wasm (median {:.3} ms)",
        shell.len(),
        median(shell.clone()),
        wasm.len(),
        median(wasm.clone())
    );
    println!(
        "  audit log: {} line(s) written by the PostToolUse hook",
        audit.lines().filter(|l| !l.trim().is_empty()).count()
    );
    Ok(0)
}
