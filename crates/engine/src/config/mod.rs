//! Loading and validating `hooks.json` (DESIGN §3).
//!
//! Three files are read: the machine-wide managed one, the project's, then the user's global
//! one (and other agents' files, `agents::foreign_sources`); a missing file is empty.
//! Validation is strict and exhaustive: every problem in a file is collected (unknown keys
//! and events, bad regexes, misplaced options, ...) and reported together, each naming the
//! file, the hook as `Event[index]` and what to change. Regexes are compiled here, once.
//! This module decides what a hook *is*; it runs nothing.
//!
//! A file is read in two phases, like ripgrep's `lowargs` -> `hiargs`:
//! - `raw.rs`, phase 1: JSON text -> raw hooks. Every key is read and its type and range
//!   checked; an unknown key gets a "did you mean". Nothing is interpreted yet.
//! - `resolve.rs`, phase 2: a raw hook, its event, scope and paths -> a [`Hook`]: the kind
//!   from the command, options valid for that kind and event, paths confined to the
//!   project, the `match` compiled into a [`Matcher`], header references checked.
//!
//! Other agents' files (Claude Code's, Gemini CLI's, Codex's, Cursor's, Copilot CLI's, ling's)
//! are read by `agents/` into native hook objects first, with the tables of each agent's event
//! and tool names that run-time translation (`translate/`) also reads.
//!
//! Around them: `paths.rs` (where the files are), `load.rs` (which files, in which order,
//! read bounded, hashed, merged), `parse.rs` (both phases over one file's text),
//! `types.rs` (what a resolved hook is; a problem report is the protocol crate's `ConfigError`),
//! `matcher.rs` ([`Matcher`]: whole-name tool regexes, also for `Runner::register`),
//! `rule.rs` ([`PermissionRule`]: a hook's `if`, in Claude Code's permission-rule syntax),
//! `switches.rs` (what turns hooks off: `"enabled": false`, `disableAllHooks`, the other
//! agents' own switches, each within its file's rank and below, never managed hooks) and
//! [`headers`] (the `$NAME` syntax of header values, also for the HTTP spawner).
//!
//! The file format is also described by a JSON Schema, `schema/hooks.schema.json`, for
//! editors (`"$schema"` may point at it); `tests/schema.rs` keeps it in step with the
//! example configs. This module remains the authority: it checks what a schema cannot
//! (paths, regex syntax, header references, wasm-only options on a shell command).

pub(crate) mod agents;
pub mod headers;
mod http_policy;
mod load;
mod matcher;
mod mcp_servers;
mod model_hooks;
mod parse;
mod paths;
mod raw;
mod resolve;
mod rule;
mod switches;
mod types;
mod warm_switch;

#[doc(no_inline)]
pub use hookhost_protocol::{
    ConfigError, ConfigErrors, DEFAULT_TIMEOUT_MS, FsAccess, HookId, HookKind, NetTarget, OnError,
    Scope,
};
pub use load::{load, load_lenient};
pub use matcher::{Matcher, alias_notes};
pub use mcp_servers::{McpServer, McpTransport};
pub(crate) use model_hooks::no_model_in;
pub use parse::parse_file;
pub use paths::{CLAUDE_MANAGED_SETTINGS, ConfigPaths, MANAGED_CONFIG, PROJECT_CONFIG};
pub use resolve::{ModulePathError, UnsplittableCommand, wasm_words};
pub use rule::PermissionRule;
#[cfg(test)]
pub(crate) use rule::RuleBase;
pub(crate) use types::EXEC_PLACEHOLDERS;
pub use types::{
    DEFAULT_MEMORY_MIB, DisabledHook, Grants, Handler, Hook, HookSet, MAX_MEMORY_MIB,
    MAX_TIMEOUT_MS, ModelApi, ModelConfig, ModelMode, ModuleSource, PackageModule,
    SANDBOX_MEMORY_MIB, SandboxMode, Secret, ShellKind, WasmLimits,
};
pub(crate) use warm_switch::WARM_KEY;
pub use warm_switch::{WarmSwitch, warm_engine};
