//! The `hookhost` command line (DESIGN §8): argument parsing, logging set-up and exit
//! statuses. Each subcommand is a file of this crate; the engine is the `hookhost` library.

mod check;
mod compile;
mod demo;
mod diagnose;
mod doctor;
mod env;
mod explain;
mod hook;
mod import;
mod install;
mod list;
mod log;
mod new;
mod package;
mod project;
#[cfg(unix)]
mod prove;
mod replay;
mod run;
mod serve;
mod shell;
mod tier_up;
mod transcript;
mod trust;
#[cfg(unix)]
mod warm;

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

/// `hookhost --version`: `hookhost VERSION (commit COMMIT, wasmtime VERSION)`; the first two
/// tokens are the name and the version, as clap prints them by default (tests/version.rs).
const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (commit ",
    env!("HOOKHOST_GIT_COMMIT"),
    ", wasmtime ",
    env!("HOOKHOST_WASMTIME_VERSION"),
    ")"
);

/// A hook host for coding agents: shell and sandboxed WebAssembly hooks at agent lifecycle
/// events.
#[derive(Parser, Debug)]
#[command(
    name = "hookhost",
    version = VERSION,
    about,
    long_about = None,
    after_help = "Hooks live in /etc/coding-agent/hooks.json (managed, run first), <project>/.coding-agent/hooks.json (the project's) and ~/.coding-agent/hooks.json (yours), then other agents' files (.claude/settings.json, .gemini/settings.json, .codex/hooks.json and config.toml, .ling/hooks.json, .cursor/hooks.json, .github/hooks/*.json); `hookhost list` shows the order. Trust pins: ~/.coding-agent/trusted.json. Compiled wasm: $HOOKHOST_CACHE_DIR (default ~/.cache/hookhost/wasm)."
)]
struct Cli {
    #[command(flatten)]
    global: Global,
    #[command(subcommand)]
    command: Command,
}

/// The flags every subcommand takes.
#[derive(clap::Args, Debug, Clone)]
struct Global {
    /// More logging on stderr (-v: info, -vv: debug). RUST_LOG overrides.
    #[arg(short, long, action = clap::ArgAction::Count, global = true)]
    verbose: u8,
    /// Run in this process, never through a warm engine (set by `hookhost-warm` when it
    /// hands an invocation back).
    #[arg(long, global = true, hide = true)]
    no_warm: bool,
    /// Run in this process, then start a warm engine if the user's switch allows (set by
    /// `hookhost-warm` when no engine answered).
    #[arg(long, global = true, hide = true)]
    warm_start: bool,
    /// The user's home directory: ~/.coding-agent/ (hooks.json, trusted.json), the decision
    /// log and the caches under it (default: the account's, from the password database; never
    /// $HOME, which a project's agent settings can set). Given twice, the last one counts.
    #[arg(long, global = true, value_name = "DIR", overrides_with = "home")]
    home: Option<PathBuf>,
}

/// The hot path's parser: the two subcommands an agent starts once per event (`hook --for X`
/// and `run EVENT`), with the same argument types as [`Cli`], so a command line means the same
/// to both. Building clap's tree of all 25 subcommands costs more than parsing one
/// (docs/performance.md); anything this parser does not accept (`--help`, a mistake) goes to
/// [`Cli`], which gives the full help and error text.
#[derive(Parser, Debug)]
#[command(name = "hookhost")]
struct HotCli {
    #[command(flatten)]
    global: Global,
    #[command(subcommand)]
    command: HotCommand,
}

#[derive(Subcommand, Debug, Clone)]
enum HotCommand {
    Run(run::RunArgs),
    Hook(hook::HookArgs),
}

impl From<HotCommand> for Command {
    fn from(hot: HotCommand) -> Command {
        match hot {
            HotCommand::Run(args) => Command::Run(args),
            HotCommand::Hook(args) => Command::Hook(args),
        }
    }
}

/// Parse the command line: through [`HotCli`] when it starts with `hook` or `run` and parses,
/// else through [`Cli`] (which exits with its help or error text).
fn parse_command_line() -> (Global, Command) {
    let first = std::env::args_os().nth(1);
    if matches!(
        first.as_ref().and_then(|a| a.to_str()),
        Some("run" | "hook")
    ) && let Some(parsed) = parse_hot(std::env::args_os())
    {
        return parsed;
    }
    let cli = Cli::parse();
    (cli.global, cli.command)
}

/// `argv` (with the program name) through [`HotCli`]: `None` when it does not parse there.
fn parse_hot(argv: impl IntoIterator<Item = std::ffi::OsString>) -> Option<(Global, Command)> {
    let (global, command) = parse_served(argv)?;
    Some((global, command.into()))
}

/// `argv` (with the program name) through [`HotCli`], as the two commands it serves.
fn parse_served(
    argv: impl IntoIterator<Item = std::ffi::OsString>,
) -> Option<(Global, HotCommand)> {
    let hot = HotCli::try_parse_from(argv).ok()?;
    Some((hot.global, hot.command))
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Fire one event with the configured hooks. Exit 0: pass; 2: block or force; 1: error.
    ///
    /// Reads <project>/.coding-agent/hooks.json, then ~/.coding-agent/hooks.json (project
    /// hooks first), then other agents' hook files (.ling/hooks.json, .claude/settings.json,
    /// .claude/settings.local.json, ~/.claude/settings.json, .gemini/settings.json,
    /// ~/.gemini/settings.json, .codex/hooks.json, ~/.codex/hooks.json, .cursor/hooks.json,
    /// ~/.cursor/hooks.json, .github/hooks/*.json, ~/.copilot/hooks/*.json), the trust pins in ~/.coding-agent/trusted.json, and the compiled-code
    /// cache ($HOOKHOST_CACHE_DIR, default ~/.cache/hookhost/wasm), which it writes.
    Run(run::RunArgs),
    /// Validate every config file, compile every wasm module, find commands that will not run.
    ///
    /// Reads <project>/.coding-agent/hooks.json, ~/.coding-agent/hooks.json, other agents'
    /// hook files (listing what hookhost accepts but does not implement as warnings) and
    /// ~/.coding-agent/trusted.json; compiles every wasm module into the compiled-code cache
    /// ($HOOKHOST_CACHE_DIR, default ~/.cache/hookhost/wasm), so the first event is fast.
    /// Exit 1 on any error.
    Check(check::CheckArgs),
    /// What is set up and what is broken: agents wired, hooks that cannot run, trust,
    /// directories, toolchains. Exit 1 on any error.
    Doctor(doctor::DoctorArgs),
    /// Re-fire a recorded Claude Code, Codex or Gemini CLI session through the current hooks.
    ///
    /// Reads the transcript, then fires each prompt, tool call and stop as `run` would (no tool
    /// runs; shell hooks run, wasm hooks sandboxed) and prints what would now be decided
    /// differently. Exit 0: nothing would differ; 3: something would; 1: error.
    Replay(replay::ReplayArgs),
    /// Compile wasm modules into the compiled-code cache ahead of the first event.
    ///
    /// Compiles the named `.wasm` files, else every wasm module the configured hooks name
    /// (all config files `list` shows), into the compiled-code cache ($HOOKHOST_CACHE_DIR,
    /// default ~/.cache/hookhost/wasm), which it writes. Exit 1 if a module fails to compile.
    Compile(compile::CompileArgs),
    /// Show the effective hooks in run order, with their source file and dialect.
    ///
    /// Reads <project>/.coding-agent/hooks.json and ~/.coding-agent/hooks.json, then other
    /// agents' hook files (Claude Code, Gemini CLI, Codex, ling, Cursor, Copilot CLI; see `run --help`).
    List(list::ListArgs),
    /// Show the recent events of the decision log (docs/observability.md).
    ///
    /// Reads the decision log ($HOOKHOST_LOG_DIR, default ~/.cache/hookhost/log/decisions.jsonl).
    Log(log::LogArgs),
    /// Explain one logged event: what ran, what did not and why, how it was decided.
    Explain(explain::ExplainArgs),
    /// Run a scripted agent session with shell and wasm hooks in a temporary project.
    ///
    /// Writes only a temporary directory (removed at the end unless --keep); reads no config
    /// of yours.
    Demo(demo::DemoArgs),
    /// Show which project hooks are new or changed since last trusted, and trust them.
    ///
    /// Reads <project>/.coding-agent/hooks.json, the wasm modules and scripts it names, and
    /// ~/.coding-agent/trusted.json, which it writes (0600, under a lock).
    Trust(trust::TrustArgs),
    /// Create a ready-to-build hook project: `hookhost new LANG NAME`.
    New(new::NewArgs),
    /// Build the hook project (here, or --dir) into NAME.wasm and print its path.
    Build(new::build::BuildArgs),
    /// Fire the hook project's samples/*.json at its built NAME.wasm and compare outcomes.
    Test(new::test::TestArgs),
    /// Outbound adapter: run hookhost's hooks inside Claude Code, Gemini CLI, Codex, Cursor or Copilot CLI.
    ///
    /// Reads that agent's hook payload on stdin, fires the event with
    /// <project>/.coding-agent/hooks.json and ~/.coding-agent/hooks.json only (never the
    /// agent's own settings), and answers on stdout in that agent's protocol.
    Hook(hook::HookArgs),
    /// Wire this hookhost into an agent's user settings on every event it fires (or unwire it).
    ///
    /// Writes `<absolute path of this hookhost> hook --for AGENT` into ~/.claude/settings.json,
    /// ~/.codex/hooks.json, ~/.gemini/settings.json, ~/.cursor/hooks.json or
    /// ~/.copilot/hooks/hookhost.json, keeping the user's hooks and settings; `--uninstall`
    /// removes exactly hookhost's entries.
    Install(install::InstallArgs),
    /// Prove that the wired agents enforce a guard: run each real agent against a scripted model.
    ///
    /// For each agent installed here and wired to hookhost in your settings (Claude Code,
    /// Codex, Gemini CLI), runs it headless and offline in a throwaway copy of that wiring
    /// with a canary guard, and reports per path (shell, file write, subagent, MCP, a crashing
    /// and a timing-out hook): enforced, degraded, bypassed, not applicable or not tested.
    /// Exit 1 when a path is bypassed.
    #[cfg(unix)]
    Prove(prove::ProveArgs),
    /// Convert Claude Code / Gemini CLI / Codex hooks into .coding-agent/hooks.json.
    ///
    /// Reads <project>/.claude/settings.json, .claude/settings.local.json,
    /// .gemini/settings.json, .codex/hooks.json; prints the result (dry run), or with
    /// --write appends it to <project>/.coding-agent/hooks.json.
    Import(import::ImportArgs),
    /// Embed hook.json as the manifest of FILE.wasm (a `hookhost:manifest` section).
    Pack(package::pack::PackArgs),
    /// Show a hook package's manifest and digest: FILE, sha256:DIGEST or a REF.
    Inspect(package::inspect::InspectArgs),
    /// Push a packed hook to an OCI registry: `hookhost publish FILE oci://registry/repo:tag`.
    Publish(package::publish::PublishArgs),
    /// Add a hook package to hooks.json, pinned by digest: `hookhost add REF`.
    Add(package::add::AddArgs),
    /// Move pinned tags to the digests they name now, showing what changed.
    Update(package::update::UpdateArgs),
    /// Remove a hook package's entries from hooks.json.
    Remove(package::remove::RemoveArgs),
    /// Download pinned packages missing from (or damaged in) the store.
    Fetch(package::fetch::FetchArgs),
    /// Keep the engine warm: JSON-RPC 2.0 on stdio, or on a Unix socket with --socket.
    ///
    /// Reads <project>/.coding-agent/hooks.json, ~/.coding-agent/hooks.json and
    /// ~/.coding-agent/trusted.json, and re-reads them when they change (notifying clients);
    /// writes the compiled-code cache ($HOOKHOST_CACHE_DIR, default ~/.cache/hookhost/wasm)
    /// and, with --socket, the socket. Protocol: docs/serve-protocol.md.
    Serve(serve::ServeArgs),
    /// Write a shell completion script on stdout: `hookhost completions bash|zsh|fish`.
    ///
    /// Install: bash `hookhost completions bash > ~/.local/share/bash-completion/completions/hookhost`,
    /// zsh into a directory on $fpath as `_hookhost`, fish into ~/.config/fish/completions/hookhost.fish.
    Completions(shell::CompletionsArgs),
    /// Write the man page hookhost(1) (roff) on stdout: `hookhost man | man -l -`.
    ///
    /// With --dir DIR, write hookhost.1 and one page per subcommand (hookhost-run.1, ...)
    /// into DIR and print their paths: `man -M` on its parent, or a copy into a man1
    /// directory on MANPATH, then makes `man hookhost-run` work.
    Man(shell::ManArgs),
    /// The warm per-user engine (started by its clients under HOOKHOST_DAEMON=1).
    #[cfg(unix)]
    #[command(name = "warm-serve", hide = true)]
    WarmServe(warm::WarmServeArgs),
}

pub(crate) use project::project_dir;

/// The trust policy from `--trust`, else `$HOOKHOST_TRUST`, else `skip`.
pub(crate) fn trust_policy(flag: Option<&str>) -> anyhow::Result<hookhost::TrustPolicy> {
    use hookhost::trust::TRUST_ENV;
    // A project's settings can set it (`host_env`): then the default policy holds.
    let from_env = hookhost::host_env::var(TRUST_ENV, "the default policy (skip)");
    match flag.map(str::to_string).or(from_env) {
        None => Ok(hookhost::TrustPolicy::Skip),
        Some(v) => v.parse().map_err(|e: hookhost::trust::UnknownPolicy| {
            anyhow::anyhow!("--trust / {TRUST_ENV}: {e}")
        }),
    }
}

/// The trust policy of a process whose environment a project can set (the outbound adapter
/// runs with the `env` of the agent's project settings): `--trust` as given, but
/// `$HOOKHOST_TRUST` may only make the default stricter (`block`); an `all` there is ignored
/// with a warning (a cloned repository must not switch its own hooks on).
pub(crate) fn trust_policy_env_stricter_only(
    flag: Option<&str>,
) -> anyhow::Result<hookhost::TrustPolicy> {
    use hookhost::TrustPolicy;
    use hookhost::trust::TRUST_ENV;
    if flag.is_some() {
        return trust_policy(flag);
    }
    match trust_policy(None)? {
        TrustPolicy::All => {
            eprintln!(
                "hookhost: warning: ignoring {TRUST_ENV}=all here (a project's agent settings can set it); untrusted project hooks are skipped: pass --trust all on the hook command line to run them"
            );
            Ok(TrustPolicy::Skip)
        }
        policy => Ok(policy),
    }
}

fn init_logging(verbose: u8) {
    let default = match verbose {
        0 => "warn,hookhost::report=off,hookhost::runner=off",
        1 => "info",
        _ => "debug",
    };
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default));
    // Colour only on a terminal (a pipe or a log file gets plain text), and never with NO_COLOR.
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stderr())
        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(ansi)
        .with_writer(std::io::stderr)
        .with_target(false)
        .try_init();
}

fn main() -> ExitCode {
    #[cfg(unix)]
    let start_engine = match through_warm_engine() {
        WarmFirst::Answered(code) => return ExitCode::from(code),
        WarmFirst::Run { start_engine } => start_engine,
    };
    let (global, command) = parse_command_line();
    #[cfg(unix)]
    if let Some(code) = start_engine
        .or_else(|| global.warm_start.then(warm_socket).flatten())
        .and_then(|socket| start_warm_engine(&global, &socket))
    {
        return ExitCode::from(code);
    }
    env::quiet_when_stdout_closes(&command);
    init_logging(global.verbose);
    #[cfg(unix)]
    if let Command::WarmServe(a) = &command {
        // Each invocation's log is dropped, and so written, before its answer goes.
        hookhost::decision_log::write_in_background(false);
        return ExitCode::from(finish(warm::serve(a)));
    }
    // One event per process: a current-thread runtime starts faster than a pool of workers
    // (wasm compilation still goes to the blocking pool, the epoch ticker has its thread).
    let rt = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("hookhost: cannot start the async runtime: {e}");
            return ExitCode::from(1);
        }
    };
    // One event per process writes its log line in place (starting the log's writer thread
    // would cost more); `serve` lives long and writes off the events' path.
    hookhost::decision_log::write_in_background(matches!(command, Command::Serve(_)));
    let result = rt.block_on(dispatch(command, &global));
    // Spans still queued leave now, waiting at most the OTLP timeout capped at 2 s.
    hookhost::telemetry::shutdown();
    // Do not wait for blocking threads that never return (a guest that opened a FIFO nobody
    // writes to stays blocked in the kernel after its hook timed out): give them a moment,
    // then exit anyway.
    rt.shutdown_timeout(std::time::Duration::from_millis(100));
    tier_up::reap();
    ExitCode::from(finish(result))
}

/// What the warm engine made of this invocation before it is parsed.
#[cfg(unix)]
enum WarmFirst {
    /// It answered (its output written): exit with this code.
    Answered(u8),
    /// Run it here (stdin put back if it was read for the engine); with the socket where no
    /// engine answered, to start one at once the user's switch is known.
    Run { start_engine: Option<PathBuf> },
}

/// `hook ...` and `run ...` go to the warm engine first (crates/warm; on by default).
#[cfg(unix)]
fn through_warm_engine() -> WarmFirst {
    use hookhost_warm::client::{self, Forwarded, Mode};
    let run = WarmFirst::Run { start_engine: None };
    let Ok(exe) = std::env::current_exe() else {
        return run;
    };
    let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    match client::forward(Mode::from_env(), &exe, &args) {
        Forwarded::Answered(code) => WarmFirst::Answered(code),
        Forwarded::NoEngine(socket) => WarmFirst::Run {
            start_engine: Some(socket),
        },
        Forwarded::NotUsed | Forwarded::Returned(None) => run,
        Forwarded::Returned(Some(stdin)) => match client::restore_stdin(&stdin) {
            Ok(()) => run,
            Err(e) => {
                eprintln!("hookhost: cannot restore stdin after the warm engine declined: {e}");
                WarmFirst::Answered(1)
            }
        },
    }
}

/// The warm engine's socket for this process (`--warm-start`: `hookhost-warm` found none
/// answering there).
#[cfg(unix)]
fn warm_socket() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    hookhost_warm::client::socket_for(&exe)
}

/// Starts the warm engine at `socket` when the user's switch allows (`"warmEngine"` in the
/// user's or the managed file; never a variable). Under `HOOKHOST_DAEMON=wait` (tests) the
/// invocation then goes to it: `Some(code)` when it answered. Otherwise the invocation runs
/// here and the engine serves the next one.
#[cfg(unix)]
fn start_warm_engine(global: &Global, socket: &std::path::Path) -> Option<u8> {
    use hookhost_warm::client::{self, Forwarded, Mode};
    let mode = Mode::from_env();
    if mode == Mode::Off || global.no_warm || !env::warm_engine_on(global.home.clone()) {
        return None;
    }
    let exe = std::env::current_exe().ok()?;
    client::start(&exe, socket)?;
    if mode != Mode::Wait {
        return None;
    }
    let args: Vec<std::ffi::OsString> = std::env::args_os()
        .skip(1)
        .filter(|a| a != client::WARM_START_FLAG)
        .collect();
    match client::wait_and_forward(&exe, socket, &args) {
        Forwarded::Answered(code) => Some(code),
        Forwarded::Returned(Some(stdin)) => client::restore_stdin(&stdin).err().map(|e| {
            eprintln!("hookhost: cannot restore stdin after the warm engine declined: {e}");
            1
        }),
        _ => None,
    }
}

/// The exit status of a command's result (an error said on stderr).
fn finish(result: anyhow::Result<u8>) -> u8 {
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("hookhost: {e:#}");
            1
        }
    }
}

/// Runs one command (everything but `warm-serve`, which runs its own runtime).
/// Every command that reads the user's files takes `home` (`--home`, else the account's).
async fn dispatch(command: Command, global: &Global) -> anyhow::Result<u8> {
    let home = &env::UserHome::new(global.home.clone());
    match command {
        Command::Run(args) => run::run(args, global.verbose > 0, home).await,
        Command::Check(args) => check::check(args, home).await,
        Command::Doctor(args) => doctor::doctor(args, home).await,
        Command::Replay(args) => replay::replay(args, home).await,
        Command::Compile(args) => compile::compile(args, home).await,
        Command::List(args) => list::list(args, home),
        Command::Log(args) => log::log(args, home),
        Command::Explain(args) => explain::explain(args, home),
        Command::Demo(a) => demo::demo(a).await,
        Command::Trust(args) => trust::trust(args, home),
        Command::New(args) => new::new(args),
        Command::Build(args) => new::build::build(args),
        Command::Test(args) => new::test::test(args).await,
        Command::Hook(args) => hook::hook(args, home).await,
        Command::Import(args) => import::import(args, home),
        Command::Install(args) => install::install(args, home),
        #[cfg(unix)]
        Command::Prove(args) => prove::prove(args, home),
        Command::Pack(args) => package::pack::pack(args),
        Command::Inspect(args) => package::inspect::inspect(args, home).await,
        Command::Publish(args) => package::publish::publish(args).await,
        Command::Add(args) => package::add::add(args, home).await,
        Command::Update(args) => package::update::update(args, home).await,
        Command::Remove(args) => package::remove::remove(args, home),
        Command::Fetch(args) => package::fetch::fetch(args, home).await,
        Command::Serve(args) => serve::serve(args, home).await,
        Command::Completions(args) => shell::completions(&args),
        Command::Man(args) => shell::man(&args),
        #[cfg(unix)]
        Command::WarmServe(_) => anyhow::bail!("warm-serve runs its own runtime"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The hot path's parser reads a command line exactly as the full one does, and leaves
    /// to it whatever it does not accept.
    #[test]
    fn the_hot_parser_agrees_with_the_full_one() {
        let same = [
            vec!["hookhost", "hook", "--for", "claude"],
            vec![
                "hookhost", "hook", "--for", "codex", "--trust", "all", "-vv",
            ],
            vec![
                "hookhost",
                "hook",
                "--for=gemini",
                "--project",
                "/p",
                "--home",
                "/h",
            ],
            vec![
                "hookhost",
                "run",
                "PreToolUse",
                "--tool",
                "bash",
                "--args",
                "{}",
            ],
            vec![
                "hookhost", "run", "Stop", "--json", "-v", "--trust", "block",
            ],
        ];
        for argv in same {
            let hot = HotCli::try_parse_from(&argv).expect("the hot parser accepts it");
            let full = Cli::try_parse_from(&argv).expect("the full parser accepts it");
            let hot_command = match hot.command {
                HotCommand::Run(a) => Command::Run(a),
                HotCommand::Hook(a) => Command::Hook(a),
            };
            assert_eq!(
                format!("{hot_command:?}"),
                format!("{:?}", full.command),
                "{argv:?}"
            );
            assert_eq!(hot.global.verbose, full.global.verbose, "{argv:?}");
        }
        for argv in [
            vec!["hookhost", "run", "--help"],
            vec!["hookhost", "hook", "--for", "claude", "--no-such-flag"],
            vec!["hookhost", "hook", "--version"],
        ] {
            assert!(HotCli::try_parse_from(&argv).is_err(), "{argv:?}");
        }
    }

    /// An argument whose values the completion scripts offer (`shell::Hinted`) still takes
    /// others: another agent's event name, a language alias, an agent a later check refuses
    /// with its own message.
    #[test]
    fn hinted_arguments_take_values_outside_their_hints() {
        for argv in [
            vec!["hookhost", "run", "BeforeTool"],
            vec!["hookhost", "log", "--event", "AfterAgent"],
            vec!["hookhost", "new", "ts", "guard"],
            vec!["hookhost", "hook", "--for", "ling"],
        ] {
            Cli::try_parse_from(&argv).unwrap_or_else(|e| panic!("{argv:?}: {e}"));
        }
    }
}
