//! What a configured hook *is* once resolved: [`Hook`], its [`Handler`] and limits, the
//! [`HookSet`] in run order, and the defaults and bounds of the numeric fields.
//!
//! Plain data: nothing here reads a file, checks a path or runs anything. Phase 2
//! (`resolve.rs`) is what makes a [`Hook`] from a config file.

use super::agents;
use super::matcher::Matcher;
use super::rule::{PermissionRule, core_of, names_of_core};
use crate::Dialect;
use crate::store::{Digest, Store};
use hookhost_protocol::Event;
pub(crate) use hookhost_protocol::{
    DEFAULT_TIMEOUT_MS, FsAccess, HookId, HookKind, NetTarget, OnError, Scope,
};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// Upper bound on `timeout`, so a typo (`"timeout": 50000000`) cannot wedge a session for hours.
pub const MAX_TIMEOUT_MS: u64 = 3_600_000;
/// Default wasm memory cap in MiB.
pub const DEFAULT_MEMORY_MIB: u64 = 128;
/// Upper bound on `memory`: a 32-bit wasm memory cannot exceed 4 GiB anyway.
pub const MAX_MEMORY_MIB: u64 = 4096;

/// Limits and grants of a wasm hook (`fuel`, `memory`, `fs`, `env`, `net`, `secrets`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct WasmLimits {
    /// Explicit fuel budget; `None` derives it from the timeout.
    pub fuel: Option<u64>,
    /// Memory cap in MiB (default 128, at most 4096).
    pub memory_mib: u64,
    /// Access to the project directory (default read-only).
    pub fs: FsAccess,
    /// Names of host environment variables passed to the guest.
    pub env: Vec<String>,
    /// The hosts and ports its outgoing HTTP requests may reach (`net`; empty: none).
    pub net: Vec<NetTarget>,
    /// Secrets the host puts into its requests' header values in place of
    /// `${secret:NAME}` (`secrets`; the user's and the managed file only).
    pub secrets: Vec<Secret>,
}

/// One of a wasm hook's `secrets`: `"TOKEN": {"env": "API_TOKEN", "hosts": ["api.example.com"]}`.
/// Only names: the value is read from hookhost's environment when a request needs it, and
/// never enters the guest.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct Secret {
    /// The name in the placeholder: `${secret:TOKEN}`.
    pub name: String,
    /// The environment variable of hookhost's own that holds the value.
    pub env: String,
    /// The hosts (lower case, as in `net`) whose requests may carry it.
    pub hosts: Vec<String>,
}

impl Default for WasmLimits {
    fn default() -> Self {
        WasmLimits {
            fuel: None,
            memory_mib: DEFAULT_MEMORY_MIB,
            fs: FsAccess::Read,
            env: Vec::new(),
            net: Vec::new(),
            secrets: Vec::new(),
        }
    }
}

/// The powers of a command hook run in the kernel sandbox (`fs`, `env`, `net`, `memory` on
/// a shell or exec-form hook; docs/sandbox.md): what it may do beyond running the system's
/// programs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Grants {
    /// The project directory: none, read (the default) or write.
    pub fs: FsAccess,
    /// Names of hookhost's environment variables passed on, besides the fixed few (`PATH`,
    /// `HOME`, `LANG`, ...) every sandboxed hook gets.
    pub env: Vec<String>,
    /// The TCP ports it may connect to (`host:port`; empty: no network at all).
    pub net: Vec<NetTarget>,
    /// Its data memory cap in MiB (`None`: [`SANDBOX_MEMORY_MIB`]).
    pub memory_mib: Option<u64>,
}

/// A sandboxed command hook's memory cap in MiB when it names none (a process's data
/// segment and private writable mappings: `RLIMIT_DATA`).
pub const SANDBOX_MEMORY_MIB: u64 = 2048;

impl Default for Grants {
    fn default() -> Self {
        Grants {
            fs: FsAccess::Read,
            env: Vec::new(),
            net: Vec::new(),
            memory_mib: None,
        }
    }
}

impl Grants {
    /// What an untrusted project hook keeps of these: at most read access to the project,
    /// no variables beyond the fixed few, no network, at most the default memory.
    pub fn reduced(&self) -> Grants {
        Grants {
            fs: self.fs.min(FsAccess::Read),
            env: Vec::new(),
            net: Vec::new(),
            memory_mib: Some(
                self.memory_mib
                    .unwrap_or(SANDBOX_MEMORY_MIB)
                    .min(SANDBOX_MEMORY_MIB / 2),
            ),
        }
    }

    /// `fs read, env [A, B], net [h:443], memory 2048 MiB`: how `list`, `explain` and the
    /// decision log show them.
    pub fn summary(&self) -> String {
        let fs = match self.fs {
            FsAccess::None => "none",
            FsAccess::Read => "read",
            FsAccess::Write => "write",
        };
        let env = if self.env.is_empty() {
            "the fixed set".to_string()
        } else {
            format!("the fixed set and {}", self.env.join(", "))
        };
        let net = if self.net.is_empty() {
            "none".to_string()
        } else {
            self.net
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        };
        let memory = self.memory_mib.unwrap_or(SANDBOX_MEMORY_MIB);
        format!("fs {fs}, env {env}, net {net}, memory {memory} MiB")
    }
}

/// Whether a command hook runs in the kernel sandbox, as its config says.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SandboxMode {
    /// Nothing said: a trusted hook runs unsandboxed, an untrusted one sandboxed with the
    /// reduced grants, and managed policy may require it.
    #[default]
    Default,
    /// `"sandbox": false`: never sandboxed (a trusted hook only; an untrusted one does not
    /// run, and managed `requireSandbox` refuses it).
    Off,
    /// Grants declared (or `"sandbox": true`): sandboxed with exactly these.
    On(Grants),
}

impl SandboxMode {
    /// How `list` shows it: `sandboxed: fs read, ...`, `sandbox: false`, or nothing when the
    /// config says neither.
    pub fn describe(&self) -> Option<String> {
        match self {
            SandboxMode::On(grants) => Some(format!("sandboxed: {}", grants.summary())),
            SandboxMode::Off => Some("sandbox: false".into()),
            SandboxMode::Default => None,
        }
    }
}

/// Where a wasm hook's module comes from, decided once when the config is read: a file the
/// config names, or a hook package pinned by digest (its module in the content store, whose
/// bytes must hash to that digest wherever the hook comes from and however it is trusted).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ModuleSource {
    /// A module file: a project hook's lies inside the project; a global hook's is absolute
    /// or under `~/`, a managed hook's absolute.
    File(PathBuf),
    /// A hook package (`"package": {...}` in the config), pinned by digest.
    Package(PackageModule),
}

impl ModuleSource {
    /// The file the module is loaded from.
    pub fn path(&self) -> &Path {
        match self {
            ModuleSource::File(path) => path,
            ModuleSource::Package(p) => &p.path,
        }
    }

    /// The pinned package, for a package hook.
    pub fn package(&self) -> Option<&PackageModule> {
        match self {
            ModuleSource::Package(p) => Some(p),
            ModuleSource::File(_) => None,
        }
    }
}

/// A hook package's module: its digest and the store it is kept in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackageModule {
    digest: Digest,
    store: Store,
    path: PathBuf,
}

impl PackageModule {
    /// The package with `digest` in `store` (whether or not it is there yet).
    pub fn new(store: Store, digest: Digest) -> Self {
        PackageModule {
            path: store.path(&digest),
            digest,
            store,
        }
    }

    /// The digest the package is pinned by: what its bytes must hash to.
    pub fn digest(&self) -> &Digest {
        &self.digest
    }

    /// The store it is kept in.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// Its file in the store.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// The interpreter of a shell-form command hook (`"shell"`, Claude Code's field of the same
/// name): `sh` unless the hook says otherwise.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ShellKind {
    /// `sh -c command` (Windows without `sh`: `cmd /C`); the default.
    #[default]
    Sh,
    /// `bash -c command`.
    Bash,
    /// `pwsh -NoProfile -Command command` (`powershell.exe` on Windows).
    Powershell,
}

impl ShellKind {
    /// As the config writes it: `sh`, `bash`, `powershell`.
    pub fn as_str(self) -> &'static str {
        match self {
            ShellKind::Sh => "sh",
            ShellKind::Bash => "bash",
            ShellKind::Powershell => "powershell",
        }
    }
}

/// Which API a model endpoint speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ModelApi {
    /// Anthropic's Messages API (`POST {url}` with `x-api-key`).
    Anthropic,
    /// An OpenAI-compatible chat completions endpoint (`POST {url}` with a bearer token).
    #[serde(rename = "openai")]
    OpenAi,
}

impl ModelApi {
    /// `anthropic` or `openai`, as the config writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            ModelApi::Anthropic => "anthropic",
            ModelApi::OpenAi => "openai",
        }
    }
}

/// The placeholders the exec form fills in its program and each argument (`$NAME` or
/// `${NAME}`; Claude Code's, and hookhost's own project root), with the values the hook is
/// given: no shell runs to expand them.
pub(crate) const EXEC_PLACEHOLDERS: &[&str] = &[
    "CLAUDE_PROJECT_DIR",
    "CLAUDE_PLUGIN_ROOT",
    "CLAUDE_PLUGIN_DATA",
    "HOOK_PROJECT_DIR",
];

/// The model `prompt` and `agent` hooks ask: the top-level `"model"` block of the user's or
/// the managed file (never a project's: a project must not choose where its payloads go or
/// whose key pays).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ModelConfig {
    /// The API the endpoint speaks.
    pub api: ModelApi,
    /// The endpoint: the full URL of the messages or chat completions resource.
    pub url: String,
    /// The model's name, sent with every request.
    pub name: String,
    /// The environment variable the API key is read from (`keyEnv`); `None`: no key is sent
    /// (a local server).
    pub key_env: Option<String>,
    /// The file the block was read from.
    pub file: PathBuf,
}

/// Whether a model hook may use tools before it answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ModelMode {
    /// `"prompt"`: one question, one answer.
    Prompt,
    /// `"agent"`: the model may read files, list directories and grep inside the project,
    /// a few turns, then answers.
    Agent,
}

/// What runs when the hook fires.
#[derive(Debug, Clone, PartialEq)]
pub enum Handler {
    /// `sh -c command` (or the `shell` the hook names).
    Shell {
        /// The command line, run as written.
        command: String,
        /// The interpreter (`"shell"`; default `sh`).
        shell: ShellKind,
    },
    /// The exec form (`"command": "node", "args": ["guard.js"]`, Claude Code's exec form):
    /// `program` started directly with `args` as its arguments, each intact, no shell. The
    /// program is looked up on `PATH` the way `execvp` does (a name with a `/` is a path,
    /// relative to the hook's `cwd`).
    Exec {
        /// The program and its arguments quoted into one line like a shell would
        /// (`node guard.js`): how `list`, logs and trust show and compare it.
        command: String,
        /// The program, as written.
        program: String,
        /// Its arguments, as written.
        args: Vec<String>,
    },
    /// A WebAssembly module or component; `argv[0]` is the module path as written (for a
    /// package, its reference).
    Wasm {
        /// The command as written (for a package, `reference (digest)`).
        command: String,
        /// Where the module comes from: a file (resolved against the hook's `cwd`, `~/`
        /// expanded for global hooks) or a pinned package.
        module: ModuleSource,
        /// The command split into words like a shell would, without expansion.
        argv: Vec<String>,
        /// Fuel, memory, filesystem and environment grants.
        limits: WasmLimits,
    },
    /// POST the payload to `url`.
    Http {
        /// The endpoint.
        url: String,
        /// Headers sent with every request, in order; values may reference `$NAME`s listed
        /// in `allowed_env`.
        headers: Vec<(String, String)>,
        /// The host environment variables header values may reference (`allowedEnv`); a
        /// reference to any other is a config error.
        allowed_env: Vec<String>,
        /// Held to public addresses and loopback (`spawner/public_net.rs`): every HTTP hook
        /// but those of the user's own and the managed native files.
        public_only: bool,
    },
    /// Call tool `tool` of the MCP server `server` with `input` (its `${...}` references
    /// filled from the payload) and read the tool's text result as the hook's answer.
    Mcp {
        /// The server, as its definition says.
        server: super::mcp_servers::McpServer,
        /// The tool's name.
        tool: String,
        /// The tool's arguments as written (an object).
        input: serde_json::Value,
        /// `server/tool`: how lists and logs show the hook.
        display: String,
    },
    /// Ask the user's model (`"prompt": "..."` or `"agent": "..."`); its `{"ok", "reason"}`
    /// answer is the hook's decision.
    Model {
        /// `prompt` or `agent`.
        mode: ModelMode,
        /// The prompt as written; `$ARGUMENTS` is replaced by the payload's JSON (absent: the
        /// payload is appended).
        prompt: String,
        /// The model of the user's or the managed file; `None` when neither configures one
        /// (the hook then fails saying where to configure it).
        model: Option<Arc<ModelConfig>>,
    },
}

impl Handler {
    /// Which kind of handler this is.
    pub fn kind(&self) -> HookKind {
        match self {
            // A local process either way: gated, trusted and judged as one.
            Handler::Shell { .. } | Handler::Exec { .. } => HookKind::Shell,
            Handler::Wasm { .. } => HookKind::Wasm,
            Handler::Http { .. } => HookKind::Http,
            Handler::Mcp { .. } => HookKind::Mcp,
            Handler::Model {
                mode: ModelMode::Prompt,
                ..
            } => HookKind::Prompt,
            Handler::Model {
                mode: ModelMode::Agent,
                ..
            } => HookKind::Agent,
        }
    }

    /// The interpreter of a shell-form command (`None`: not one).
    pub fn shell(&self) -> Option<ShellKind> {
        match self {
            Handler::Shell { shell, .. } => Some(*shell),
            _ => None,
        }
    }

    /// The command or URL as the user wrote it (the exec form: its program and arguments,
    /// quoted into one line).
    pub fn display(&self) -> &str {
        match self {
            Handler::Shell { command, .. }
            | Handler::Exec { command, .. }
            | Handler::Wasm { command, .. } => command,
            Handler::Http { url, .. } => url,
            Handler::Mcp { display, .. } => display,
            Handler::Model { prompt, .. } => prompt,
        }
    }
}

/// One configured hook, validated and resolved.
#[derive(Debug, Clone)]
pub struct Hook {
    /// The event it runs at.
    pub event: Event,
    /// Position in its file's list for `event` (0-based).
    pub index: usize,
    /// Which file it comes from: the project's or the global one.
    pub scope: Scope,
    /// The config file it was read from.
    pub file: PathBuf,
    /// What it runs.
    pub handler: Handler,
    /// The `match` regex on the tool name, anchored to the whole name.
    pub matcher: Option<Matcher>,
    /// The `match` text as written (the same as `matcher`'s [`Matcher::as_str`]; a field
    /// for the callers that show it).
    pub match_source: Option<String>,
    /// The `description`, shown by `list` and in logs.
    pub description: Option<String>,
    /// The `timeout` (default 10 s, at most one hour).
    pub timeout: Duration,
    /// Absolute working directory.
    pub cwd: PathBuf,
    /// `async: true`: fire-and-forget; it never affects a decision.
    pub is_async: bool,
    /// What a crash or an unexpected exit code does (`onError`).
    pub on_error: OnError,
    /// Whose contract it is written for: its payload, environment and judging rules.
    pub dialect: Dialect,
    /// Which file of its scope it comes from (see [`HookId::source`]).
    pub source: u8,
    /// The `if`: a permission rule (`"Bash(git *)"`) the tool call must match for the hook to
    /// start; `None` starts it on every call its `match` lets through.
    pub condition: Option<PermissionRule>,
    /// How the agent's own per-hook switches name this hook: Gemini CLI's `name` (else its
    /// command, as `hooksConfig.disabled` lists it), Codex's `hooks.state` key; `None` for
    /// hooks of hookhost's own files.
    pub switch_id: Option<String>,
    /// `statusMessage` (Claude Code's spinner text): shown while the hook runs, by `run`'s
    /// trace and `list`.
    pub status_message: Option<String>,
    /// `once`: the hook runs at most once per session (the mark is kept in hookhost's own
    /// per-session state, across processes: `runner/once.rs`).
    pub once: bool,
    /// `asyncRewake` (implies `is_async`): the command runs detached, outliving the event's
    /// process; when it exits 2 its output is delivered at the session's next event that can
    /// carry it (`runner/rewake.rs`).
    pub async_rewake: bool,
    /// A command hook's sandbox as configured (`fs`, `env`, `net`, `memory`, `sandbox`);
    /// [`SandboxMode::Default`] for every other kind.
    pub sandbox: SandboxMode,
    /// A Claude Code plugin's hook: the plugin's data directory (`CLAUDE_PLUGIN_DATA`, in its
    /// environment and expanded in its command), created private when the hook first starts,
    /// and the options the user configured for the plugin (`CLAUDE_PLUGIN_OPTION_*`).
    pub plugin_env: Option<crate::config::agents::PluginEnv>,
}

impl Hook {
    /// `PreToolUse[2]`: how errors and logs name this hook.
    pub fn label(&self) -> String {
        self.id().to_string()
    }

    /// This hook's identity.
    pub fn id(&self) -> HookId {
        HookId {
            scope: self.scope,
            event: self.event,
            index: self.index,
            source: self.source,
        }
    }

    /// Whether this hook applies to a subject: the tool name on tool events, or for another
    /// agent's hooks the field of [`Event::matcher_subject`] (SessionStart's `source`,
    /// PreCompact's `trigger`, ...; events without a subject always match). A hook of another
    /// dialect matches a core tool name by its alias too (`Bash` matches `bash`); a native
    /// hook's `match` sees every name of a core tool (`"Bash"`, Claude Code's name, matches
    /// the core's `bash`, and `"bash"` matches an event that carries `Bash`).
    pub fn matches_tool(&self, tool: Option<&str>) -> bool {
        match (&self.matcher, tool) {
            (None, _) => true,
            (Some(m), Some(name)) => {
                m.is_match(name)
                    || (self.event.takes_tool_matcher()
                        && match self.dialect {
                            Dialect::Native => core_of(name)
                                .is_some_and(|c| names_of_core(&c).iter().any(|n| m.is_match(n))),
                            d => m.is_match(&agents::tools::name_to_dialect(d, name)),
                        })
            }
            (Some(_), None) => false,
        }
    }

    /// Whether its `if` lets a call of `tool` with `args` start it (no `if`: always).
    pub fn condition_holds(&self, tool: Option<&str>, args: Option<&serde_json::Value>) -> bool {
        self.condition
            .as_ref()
            .is_none_or(|rule| rule.matches(tool, args))
    }

    /// Whether this hook is an identical handler to `other` (DESIGN §3: it runs once, the
    /// higher rank keeps it): the same event, kind, command as written (an HTTP hook's URL),
    /// dialect, working directory, `if` and `async`. What they `match` is not compared: the
    /// question is asked of hooks that both matched a call, as Claude Code and Gemini CLI
    /// do.
    pub fn same_handler(&self, other: &Hook) -> bool {
        self.event == other.event
            && self.handler.kind() == other.handler.kind()
            && std::mem::discriminant(&self.handler) == std::mem::discriminant(&other.handler)
            && self.handler.display() == other.handler.display()
            && self.handler.shell() == other.handler.shell()
            && self.dialect == other.dialect
            && self.cwd == other.cwd
            && self.condition.as_ref().map(PermissionRule::as_str)
                == other.condition.as_ref().map(PermissionRule::as_str)
            && self.is_async == other.is_async
            && match (&self.handler, &other.handler) {
                // `server/tool` is what `display` shows; the input and the server's
                // definition tell two calls apart.
                (
                    Handler::Mcp { server, input, .. },
                    Handler::Mcp {
                        server: s2,
                        input: i2,
                        ..
                    },
                ) => server == s2 && input == i2,
                _ => true,
            }
    }
}

/// A configured hook that does not run, and what turned it off.
#[derive(Debug, Clone)]
pub struct DisabledHook {
    /// The hook, as configured.
    pub hook: Arc<Hook>,
    /// The file whose switch turned it off (its own file for `"enabled": false`).
    pub by: PathBuf,
    /// The switch, as the file says it (`"enabled": false`, `"disableAllHooks": true`, ...).
    pub why: String,
}

/// All hooks in run order, per event: project hooks first, then global ones.
#[derive(Debug, Clone, Default)]
pub struct HookSet {
    hooks: Vec<Arc<Hook>>,
    /// The files that were read (present or not), in order.
    pub files: Vec<PathBuf>,
    /// SHA-256 of the exact bytes each present file was parsed from: what trust compares, so
    /// the hash trusted is the hash of the config that runs (the file is read once).
    pub file_hashes: BTreeMap<PathBuf, String>,
    /// The managed file that turned every other config file off (`allowManagedHooksOnly`),
    /// when one did: only managed (and in-process) hooks run.
    pub managed_only: Option<PathBuf>,
    /// The managed file that requires every command hook to run sandboxed
    /// (`"requireSandbox": true`), when one does.
    pub require_sandbox: Option<PathBuf>,
    /// What the files say that hookhost accepts but does not implement (other agents' keys
    /// and events), or skips: listed by `check`, never an error.
    pub warnings: Vec<super::ConfigError>,
    /// The hooks a switch turned off (`"enabled": false`, `disableAllHooks`, the other
    /// agents' own switches), in file order: shown by `list`, counted by `check`, never run.
    pub disabled: Vec<DisabledHook>,
}

impl HookSet {
    /// A set of exactly these hooks, in this order, with no files behind it.
    pub fn from_hooks(hooks: Vec<Hook>) -> Self {
        HookSet {
            hooks: hooks.into_iter().map(Arc::new).collect(),
            files: Vec::new(),
            file_hashes: Default::default(),
            managed_only: None,
            require_sandbox: None,
            warnings: Vec::new(),
            disabled: Vec::new(),
        }
    }

    /// Every hook, in run order (grouped by event in lifecycle order).
    pub fn all(&self) -> impl Iterator<Item = &Arc<Hook>> {
        self.hooks.iter()
    }

    /// The hooks of `event` that match `tool`, in run order.
    pub fn matching<'a>(
        &'a self,
        event: Event,
        tool: Option<&'a str>,
    ) -> impl Iterator<Item = &'a Arc<Hook>> + 'a {
        self.hooks
            .iter()
            .filter(move |h| h.event == event && h.matches_tool(tool))
    }

    /// The hook that runs instead of `hook` when both match a call: the first hook before it
    /// in run order (a higher rank, or earlier in its file) that is an identical handler
    /// ([`Hook::same_handler`]).
    pub fn duplicate_of(&self, hook: &Hook) -> Option<&Arc<Hook>> {
        self.hooks
            .iter()
            .take_while(|h| h.id() != hook.id())
            .find(|h| hook.same_handler(h))
    }

    /// How many hooks, of every event.
    pub fn len(&self) -> usize {
        self.hooks.len()
    }

    /// Whether there are no hooks at all.
    pub fn is_empty(&self) -> bool {
        self.hooks.is_empty()
    }
}
