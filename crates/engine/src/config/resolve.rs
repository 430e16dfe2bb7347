//! Phase 2 of reading a `hooks.json`: a [`RawHook`] with its event, scope and paths becomes a
//! [`Hook`], or the list of what is wrong with it.
//!
//! What this phase owns: the hook's kind from its `command`/`url` ([`wasm_words`]), options
//! valid for that kind, `match` on tool events only (compiled once, into a [`Matcher`]),
//! `async` on non-blocking events only, `cwd` and a project hook's module confined to the
//! project ([`crate::confine`]: resolved once, canonically), header `$NAME`
//! references checked against `allowedEnv`, and the defaults of absent fields. What it does
//! not: reading JSON or checking value types (phase 1, `raw.rs`), or running anything.

use super::headers::expand_with;
use super::matcher::Matcher;
use super::paths::ConfigPaths;
use super::raw::{RawGrants, RawHook, RawMcp, RawPackage};
use super::rule::{PermissionRule, RuleBase};
use super::types::{
    DEFAULT_MEMORY_MIB, DEFAULT_TIMEOUT_MS, Grants, Handler, Hook, HookKind, ModelMode,
    ModuleSource, PackageModule, SandboxMode, Scope, ShellKind, WasmLimits,
};
use crate::confine::{Escape, resolve_inside};
use crate::event::Event;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

const WASM_ONLY: &[&str] = &["fuel"];
/// The grants a wasm hook and a sandboxed command hook share.
const GRANT_KEYS: &[&str] = &["memory", "fs", "env", "net"];
const HTTP_ONLY: &[&str] = &["headers", "allowedEnv"];

/// Resolves the hooks of one file.
pub(super) struct Resolver<'a> {
    pub file: &'a Path,
    pub scope: Scope,
    pub paths: &'a ConfigPaths,
    /// Which file of its scope (see `HookId::source`).
    pub source: u8,
    /// The file's own `"mcpServers"` (empty for other agents' files).
    pub own_servers: serde_json::Map<String, serde_json::Value>,
}

/// What the hook runs, as far as its `command` or `url` tells.
enum Runs {
    Shell(String),
    /// The exec form: a program and its arguments, no shell.
    Exec {
        program: String,
        args: Vec<String>,
    },
    Wasm {
        command: String,
        argv: Vec<String>,
    },
    Http(String),
    /// A hook package pinned by digest: a wasm module from the store.
    Package(super::raw::RawPackage),
    /// A tool of an MCP server.
    Mcp(RawMcp),
    /// A question for the user's model (`prompt` or `agent`).
    Model(ModelMode, String),
}

impl Runs {
    fn kind(&self) -> HookKind {
        match self {
            Runs::Shell(_) | Runs::Exec { .. } => HookKind::Shell,
            Runs::Wasm { .. } | Runs::Package(_) => HookKind::Wasm,
            Runs::Http(_) => HookKind::Http,
            Runs::Mcp(_) => HookKind::Mcp,
            Runs::Model(ModelMode::Prompt, _) => HookKind::Prompt,
            Runs::Model(ModelMode::Agent, _) => HookKind::Agent,
        }
    }
}

impl Resolver<'_> {
    /// The hook, when neither phase found a problem; else every problem, in order (phase 1's
    /// first).
    pub fn resolve(&self, raw: RawHook) -> Result<Hook, Vec<String>> {
        let RawHook {
            event,
            index,
            keys,
            command,
            url,
            prompt,
            agent,
            headers,
            allowed_env,
            matcher: match_text,
            description,
            timeout_ms,
            cwd: cwd_text,
            is_async,
            on_error,
            grants: raw_grants,
            sandbox,
            dialect,
            package,
            enabled: _,
            condition: condition_text,
            mcp,
            command_fields: mut fields,
            mut problems,
        } = raw;
        let dialect = dialect.unwrap_or_default();
        let (runs, mcp_server) = self.runs_with_server(
            mcp,
            (command, url, package, fields.args.take()),
            (prompt, agent),
            &keys,
            &mut problems,
        );
        let runs_ref = runs.as_ref();
        check_command_fields(event, is_async, runs_ref, (&fields, &keys), &mut problems);
        let kind = runs.as_ref().map(Runs::kind);
        let matcher = compile_matcher(event, dialect, match_text.as_deref(), &mut problems);
        let condition = self.condition(event, condition_text.as_deref(), &mut problems);
        let cwd = self.cwd(cwd_text.as_deref(), kind, &mut problems);
        check_header_references(&headers, &allowed_env, &mut problems);
        check_sandbox_choice(sandbox, &keys, &mut problems);
        secrets::check(self.scope, kind, &raw_grants, &mut problems);
        // Phase 1 reported why `runs` is missing when it is.
        let (Some(runs), true) = (runs, problems.is_empty()) else {
            return Err(problems);
        };
        let (sandbox, limits) = grants(kind, sandbox, &keys, raw_grants);
        let how = (mcp_server, fields.shell.unwrap_or_default());
        let http = (headers, allowed_env);
        let mut handler = self
            .handler(runs, how, &cwd, limits, http)
            .map_err(|e| vec![e.to_string()])?;
        if let Handler::Http { public_only, .. } = &mut handler {
            // As Claude Code holds its HTTP hooks; the user's own and the managed native
            // files may name a private address (a policy server on the LAN).
            *public_only = dialect != crate::Dialect::Native
                || !matches!(self.scope, Scope::Global | Scope::Managed);
        }
        Ok(Hook {
            event,
            index,
            scope: self.scope,
            file: self.file.to_path_buf(),
            handler,
            matcher,
            match_source: match_text,
            description,
            timeout: Duration::from_millis(timeout_ms.unwrap_or(default_timeout(kind, dialect))),
            cwd,
            is_async: is_async || fields.async_rewake,
            on_error: on_error.unwrap_or_default(),
            dialect,
            source: self.source,
            condition,
            switch_id: None,
            status_message: fields.status_message,
            once: fields.once,
            async_rewake: fields.async_rewake,
            sandbox,
            plugin_env: None,
        })
    }

    /// What the hook runs (`args`: the exec form), and for an MCP hook its server (`None`:
    /// a problem says why).
    fn runs_with_server(
        &self,
        mcp: Option<RawMcp>,
        (command, url, package, args): (
            Option<String>,
            Option<String>,
            Option<RawPackage>,
            Option<Vec<String>>,
        ),
        (prompt, agent): (Option<String>, Option<String>),
        keys: &BTreeSet<String>,
        problems: &mut Vec<String>,
    ) -> (Option<Runs>, Option<super::mcp_servers::McpServer>) {
        let alone = command.is_none()
            && url.is_none()
            && package.is_none()
            && prompt.is_none()
            && agent.is_none();
        let (runs, server) = match mcp {
            Some(m) if alone => {
                let server = super::mcp_servers::find(
                    &m.server,
                    &self.own_servers,
                    self.file,
                    self.scope,
                    self.paths,
                )
                .map_err(|e| problems.push(e))
                .ok();
                (Some(Runs::Mcp(m)), server)
            }
            Some(_) => {
                problems.push(
                    "has `mcp` and `command`, `url`, `package`, `prompt` or `agent`; a hook runs one thing: keep one"
                        .into(),
                );
                (None, None)
            }
            None if keys.contains("mcp") => (None, None),
            None => (
                what_runs(command, url, package, (prompt, agent), keys, problems),
                None,
            ),
        };
        let runs = runs.and_then(|r| exec_form(r, args, problems));
        (runs, server)
    }

    /// `if`, compiled once: on tool events only.
    fn condition(
        &self,
        event: Event,
        text: Option<&str>,
        problems: &mut Vec<String>,
    ) -> Option<PermissionRule> {
        let text = text?;
        if !event.takes_tool_matcher() {
            problems.push(format!(
                "`if` is a rule on the tool call and only applies to tool events (PreToolUse, PostToolUse, ...), not {event}; remove it"
            ));
            return None;
        }
        let base = RuleBase {
            project_dir: &self.paths.project_dir,
            home: self.paths.home.as_deref(),
        };
        PermissionRule::parse(text, base)
            .map_err(|e| problems.push(e))
            .ok()
    }

    /// What the hook runs: a wasm module's path resolved (and confined), a package found in
    /// the store, an HTTP hook with its `headers` and `allowedEnv`.
    fn handler(
        &self,
        runs: Runs,
        (mcp_server, shell): (Option<super::mcp_servers::McpServer>, ShellKind),
        cwd: &Path,
        limits: WasmLimits,
        (headers, allowed_env): (Vec<(String, String)>, Vec<String>),
    ) -> Result<Handler, ModulePathError> {
        Ok(match runs {
            Runs::Shell(command) => Handler::Shell { command, shell },
            Runs::Exec { program, args } => Handler::Exec {
                command: exec_line(&program, &args),
                program,
                args,
            },
            Runs::Wasm { command, argv } => Handler::Wasm {
                module: ModuleSource::File(self.resolve_module(&argv[0], cwd)?),
                command,
                argv,
                limits,
            },
            Runs::Package(p) => Handler::Wasm {
                module: ModuleSource::Package(package_module(p.digest.clone())?),
                argv: std::iter::once(p.reference.clone()).chain(p.args).collect(),
                command: format!("{} ({})", p.reference, p.digest),
                limits,
            },
            Runs::Http(url) => Handler::Http {
                url,
                headers,
                allowed_env,
                public_only: true,
            },
            Runs::Mcp(m) => Handler::Mcp {
                display: format!("{}/{}", m.server, m.tool),
                // A server that is not defined is a problem `resolve` recorded, so it is
                // always here.
                server: mcp_server.ok_or(ModulePathError::McpServerUnresolved(m.server))?,
                tool: m.tool,
                input: m.input,
            },
            // The model is the user's or the managed file's: the loader sets it once every
            // file is read.
            Runs::Model(mode, prompt) => Handler::Model {
                mode,
                prompt,
                model: None,
            },
        })
    }

    /// The working directory: the project root unless `cwd` is given. Project hooks and
    /// every wasm hook stay inside the project.
    fn cwd(
        &self,
        cwd: Option<&str>,
        kind: Option<HookKind>,
        problems: &mut Vec<String>,
    ) -> PathBuf {
        let confined = self.scope == Scope::Project || kind == Some(HookKind::Wasm);
        let project = &self.paths.project_dir;
        match cwd {
            None => project.clone(),
            Some(c) if !confined => project.join(c),
            Some(c) => match resolve_inside(project, project, Path::new(c)) {
                Ok(dir) => dir,
                Err(escape) => {
                    problems.push(format!(
                        "`cwd` {c:?} {escape}; {} hooks run inside the project: give a path relative to the project root that stays inside it",
                        if kind == Some(HookKind::Wasm) {
                            "wasm"
                        } else {
                            "project"
                        }
                    ));
                    project.clone()
                }
            },
        }
    }

    /// A wasm module's path. A project hook's module: relative to the hook's cwd, and it must
    /// lie inside the project (what trust pins is what runs). A global hook's: absolute or
    /// `~/...`; a managed hook's: absolute (both run trusted, so never a module the project
    /// supplies).
    fn resolve_module(&self, word: &str, cwd: &Path) -> Result<PathBuf, ModulePathError> {
        let err = |why: fn(String) -> ModulePathError| Err(why(word.to_string()));
        if self.scope == Scope::Managed {
            // Relative to the project (or `~/`) would let a project or user supply the
            // module the administrator's hook runs.
            return if Path::new(word).is_absolute() {
                Ok(PathBuf::from(word))
            } else {
                err(ModulePathError::ManagedNotAbsolute)
            };
        }
        if self.scope == Scope::Global {
            return match (word.strip_prefix("~/"), &self.paths.home) {
                (Some(rest), Some(home)) => Ok(home.join(rest)),
                (Some(_), None) => err(ModulePathError::NoHome),
                (None, _) if Path::new(word).is_absolute() => Ok(PathBuf::from(word)),
                // Relative to the hook's cwd, which is in the project: every project would
                // supply the module this trusted hook runs.
                (None, _) => err(ModulePathError::GlobalRelative),
            };
        }
        resolve_inside(&self.paths.project_dir, cwd, Path::new(word)).map_err(|escape| {
            let why = match escape {
                Escape::NotLexicallyInside if word.starts_with("~/") => {
                    "uses `~/`, which only global hooks may".to_string()
                }
                other => other.to_string(),
            };
            ModulePathError::OutsideProject {
                word: word.to_string(),
                why,
            }
        })
    }
}

/// Why a wasm hook's module cannot be used where the config says it is.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ModulePathError {
    /// A managed hook's module is not an absolute path.
    #[error(
        "wasm module {0:?} is not an absolute path; a managed hook's module must be an absolute path to a file the administrator controls (e.g. /usr/local/lib/hookhost/guard.wasm), never relative to the project or a home directory"
    )]
    ManagedNotAbsolute(String),
    /// A global hook's module uses `~/` with no home directory.
    #[error("wasm module {0:?} uses `~/`, but there is no home directory; write an absolute path")]
    NoHome(String),
    /// A global hook's module is relative (to a project the user does not control).
    #[error(
        "wasm module {0:?} is a relative path; write an absolute path or ~/...: a relative path is looked up in each project, which the project controls (a user's hook runs trusted)"
    )]
    GlobalRelative(String),
    /// A project hook's module lies outside the project.
    #[error(
        "wasm module {word:?} {why}; a project hook's module must be a file inside the project (put it under .coding-agent/hooks/)"
    )]
    OutsideProject {
        /// The path as written.
        word: String,
        /// Why it is outside.
        why: String,
    },
    /// An MCP hook whose server was not resolved (never returned: `resolve` records why).
    #[error("MCP server `{0}` is not defined")]
    McpServerUnresolved(String),
    /// A package hook, with no store to find it in.
    #[error(
        "no user cache directory for the hook store; set {} to a directory of your own",
        crate::store::STORE_ENV
    )]
    NoStore,
}

/// What the hook runs, from its `command`, `url` or `package` (`None`: a problem says why).
fn runs(
    command: Option<String>,
    url: Option<String>,
    package: Option<RawPackage>,
    keys: &BTreeSet<String>,
    problems: &mut Vec<String>,
) -> Option<Runs> {
    let problem = |problems: &mut Vec<String>, message: &str| {
        problems.push(message.to_string());
        None
    };
    match (command, url, package) {
        (None, None, Some(p)) => Some(Runs::Package(p)),
        (_, _, Some(_)) => problem(
            problems,
            "has `package` and `command` or `url`; a package hook runs its pinned module: keep `package` alone",
        ),
        (Some(_), Some(_), None) => problem(
            problems,
            "has both `command` and `url`; a hook is either a command or an HTTP endpoint: keep one",
        ),
        (None, None, None) => {
            if !["command", "url", "prompt", "agent"]
                .iter()
                .any(|k| keys.contains(*k))
            {
                problems.push(
                    "has neither `command` nor `url`; add \"command\": \"path/to/script.sh\" (or a .wasm file), or \"url\": \"http://...\"".into(),
                );
            }
            None
        }
        (Some(c), None, None) if c.trim().is_empty() => problem(
            problems,
            "`command` is empty; give a shell command or a path to a .wasm file",
        ),
        (Some(c), None, None) => match wasm_words(&c) {
            Ok(Some(argv)) => match backslashes_read_as_escapes(&c, &argv[0]) {
                Some(why) => problem(problems, &why),
                None => Some(Runs::Wasm { command: c, argv }),
            },
            Ok(None) => Some(Runs::Shell(c)),
            Err(e) => problem(problems, &e.to_string()),
        },
        (None, Some(u), None) if !(u.starts_with("http://") || u.starts_with("https://")) => {
            problems.push(format!(
                "`url` must start with http:// or https://, got {u:?}"
            ));
            None
        }
        (None, Some(u), None) => Some(Runs::Http(u)),
    }
}

/// A hook's timeout when it gives none: a model hook's (Claude Code's: prompt 30 s, agent
/// 60 s), else its agent's default (native: 10 s).
fn default_timeout(kind: Option<HookKind>, dialect: crate::Dialect) -> u64 {
    match (kind, dialect) {
        (Some(HookKind::Prompt), _) => DEFAULT_PROMPT_TIMEOUT_MS,
        (Some(HookKind::Agent), _) => DEFAULT_AGENT_TIMEOUT_MS,
        (_, crate::Dialect::Native) => DEFAULT_TIMEOUT_MS,
        (_, d) => d.default_timeout_ms(),
    }
}

/// With `args`, a command is the exec form (Claude Code's: `"command": "node", "args":
/// ["guard.js"]`): the program runs without a shell, each argument intact. A program that
/// names a `.wasm` module runs that module with these arguments. `args` beside `url` or
/// `package` is a problem.
fn exec_form(runs: Runs, args: Option<Vec<String>>, problems: &mut Vec<String>) -> Option<Runs> {
    let Some(args) = args else {
        return Some(runs);
    };
    match runs {
        Runs::Shell(program) => Some(Runs::Exec { program, args }),
        // The whole command is the program's path (it may hold blanks): no splitting.
        Runs::Wasm { command, .. } => {
            let argv: Vec<String> = std::iter::once(command).chain(args).collect();
            Some(Runs::Wasm {
                command: exec_line(&argv[0], &argv[1..]),
                argv,
            })
        }
        Runs::Exec { .. } => Some(runs),
        Runs::Http(_) | Runs::Mcp(_) | Runs::Model(..) => {
            problems.push(
                "`args` applies to a command (the exec form: \"command\": \"node\", \"args\": [\"guard.js\"]), not to an HTTP, MCP, prompt or agent hook; remove it".into(),
            );
            None
        }
        Runs::Package(_) => {
            problems.push(
                "`args` applies to a command; a package hook's arguments go in `package.args`"
                    .into(),
            );
            None
        }
    }
}

/// `shell` names the interpreter of a shell-form command: not of the exec form (no shell
/// runs), a wasm module or an HTTP hook.
fn check_shell(runs: Option<&Runs>, shell: Option<ShellKind>, problems: &mut Vec<String>) {
    let Some(shell) = shell else {
        return;
    };
    let why = match runs {
        Some(Runs::Exec { .. }) => {
            "with `args` the program starts directly, without a shell: remove `shell`, or drop `args` and write the whole command line in `command`"
        }
        Some(Runs::Wasm { .. } | Runs::Package(_)) => {
            "a wasm hook runs in the wasm sandbox, not in a shell: remove `shell`"
        }
        Some(Runs::Http(_) | Runs::Mcp(_) | Runs::Model(..)) => {
            "an HTTP, MCP, prompt or agent hook runs no command: remove `shell`"
        }
        Some(Runs::Shell(_)) | None => return,
    };
    problems.push(format!("`shell` is \"{}\", but {why}", shell.as_str()));
}

/// `shell`, `async`, `asyncRewake` and the other kinds' options against what the hook runs
/// and its event.
fn check_command_fields(
    event: Event,
    is_async: bool,
    runs: Option<&Runs>,
    (fields, keys): (&super::raw::CommandFields, &BTreeSet<String>),
    problems: &mut Vec<String>,
) {
    check_shell(runs, fields.shell, problems);
    if is_async && !event.allows_async() {
        problems.push(format!(
            "`async` is not allowed on {event}: its hooks decide (block/force), and a fire-and-forget hook cannot; remove `async` or move the hook to a non-blocking event"
        ));
    }
    check_rewake(event, runs, fields.async_rewake, problems);
    if let Some(runs) = runs {
        check_kind_options(runs.kind(), keys, problems);
    }
}

/// `asyncRewake` (a background command whose exit 2 wakes the agent later) is a command's,
/// and like `async` it cannot be on an event whose hooks decide.
fn check_rewake(event: Event, runs: Option<&Runs>, rewake: bool, problems: &mut Vec<String>) {
    if !rewake {
        return;
    }
    if !event.allows_async() {
        problems.push(format!(
            "`asyncRewake` is not allowed on {event}: its hooks decide (block/force), and a background hook cannot; remove it, or move the hook to an event such as PostToolUse"
        ));
    }
    if matches!(
        runs,
        Some(Runs::Wasm { .. } | Runs::Package(_) | Runs::Http(_) | Runs::Mcp(_) | Runs::Model(..))
    ) {
        problems.push(
            "`asyncRewake` applies to commands (a shell command or the exec form), not to wasm, HTTP, MCP, prompt or agent hooks; remove it".into(),
        );
    }
}

/// The exec form as one line a shell would split back into the same words, after the same
/// placeholders are filled (`node "${CLAUDE_PROJECT_DIR}/guard.js"`): what `list` shows,
/// trust pins the scripts of, and duplicates are compared by. A word of plain characters is
/// written as is; any other is double-quoted, with every `"`, `\`, `` ` `` and `$` escaped
/// but the `$` of a placeholder the exec form fills.
pub(crate) fn exec_line(program: &str, args: &[String]) -> String {
    std::iter::once(program)
        .chain(args.iter().map(String::as_str))
        .map(quote_word)
        .collect::<Vec<_>>()
        .join(" ")
}

fn quote_word(word: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "_@%+=:,./-".contains(c);
    if !word.is_empty() && word.chars().all(plain) {
        return word.to_string();
    }
    let mut out = String::from("\"");
    for (i, c) in word.char_indices() {
        let placeholder = c == '$' && {
            let after = &word[i + 1..];
            super::types::EXEC_PLACEHOLDERS.iter().any(|n| {
                after.starts_with(&format!("{{{n}}}"))
                    || after.strip_prefix(n).is_some_and(|t| {
                        !t.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
                    })
            })
        };
        if matches!(c, '"' | '\\' | '`') || (c == '$' && !placeholder) {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

/// What the hook runs: a question for the model (`prompt`, `agent`), else what `runs` says.
fn what_runs(
    command: Option<String>,
    url: Option<String>,
    package: Option<RawPackage>,
    (prompt, agent): (Option<String>, Option<String>),
    keys: &BTreeSet<String>,
    problems: &mut Vec<String>,
) -> Option<Runs> {
    match model_question(prompt, agent, problems) {
        Some((mode, text)) if command.is_none() && url.is_none() && package.is_none() => {
            Some(Runs::Model(mode, text))
        }
        Some(_) => {
            problems.push(
                "has `prompt` or `agent` and `command`, `url` or `package`; a hook runs one thing: keep one".into(),
            );
            None
        }
        None => runs(command, url, package, keys, problems),
    }
}

/// The default `timeout` of a `prompt` hook (Claude Code's: 30 s).
pub const DEFAULT_PROMPT_TIMEOUT_MS: u64 = 30_000;
/// The default `timeout` of an `agent` hook (Claude Code's: 60 s).
pub const DEFAULT_AGENT_TIMEOUT_MS: u64 = 60_000;

/// A model hook's question, from `prompt` or `agent` (`None`: neither, or a problem says
/// why).
fn model_question(
    prompt: Option<String>,
    agent: Option<String>,
    problems: &mut Vec<String>,
) -> Option<(ModelMode, String)> {
    let (mode, text) = match (prompt, agent) {
        (Some(_), Some(_)) => {
            problems.push(
                "has both `prompt` and `agent`; an agent hook is a prompt hook that may read the project first: keep one".into(),
            );
            return None;
        }
        (Some(p), None) => (ModelMode::Prompt, p),
        (None, Some(a)) => (ModelMode::Agent, a),
        // Neither, or present with a wrong type (phase 1 said so).
        (None, None) => return None,
    };
    if text.trim().is_empty() {
        let key = if mode == ModelMode::Prompt {
            "prompt"
        } else {
            "agent"
        };
        problems.push(format!(
            "`{key}` is empty; write the question for the model, e.g. \"{key}\": \"Is this command safe? $ARGUMENTS\" ($ARGUMENTS is replaced by the event's payload)"
        ));
        return None;
    }
    Some((mode, text))
}

/// Options that belong to one kind only.
fn check_kind_options(kind: HookKind, keys: &BTreeSet<String>, problems: &mut Vec<String>) {
    for key in WASM_ONLY {
        if keys.contains(*key) && kind != HookKind::Wasm {
            problems.push(format!(
                "`{key}` applies to wasm hooks only (a command whose first word ends in .wasm); remove it or point `command` at a .wasm module"
            ));
        }
    }
    for key in GRANT_KEYS {
        if keys.contains(*key) && !matches!(kind, HookKind::Wasm | HookKind::Shell) {
            problems.push(format!(
                "`{key}` is a grant of wasm and command hooks only (docs/sandbox.md); remove it"
            ));
        }
    }
    if keys.contains("sandbox") && kind != HookKind::Shell {
        problems.push(
            "`sandbox` applies to command hooks only (a wasm hook always runs sandboxed); remove it".into(),
        );
    }
    for key in HTTP_ONLY {
        if keys.contains(*key) && kind != HookKind::Http {
            problems.push(format!(
                "`{key}` applies to HTTP hooks (`url`) only; remove it"
            ));
        }
    }
}

/// The grants as a command hook's sandbox and as a wasm hook's limits (each kind reads its
/// own; the other is unused).
fn grants(
    kind: Option<HookKind>,
    sandbox: Option<bool>,
    keys: &BTreeSet<String>,
    RawGrants {
        fuel,
        memory_mib,
        fs,
        env,
        net,
        secrets,
    }: RawGrants,
) -> (SandboxMode, WasmLimits) {
    let sandbox = sandbox_mode(
        kind,
        sandbox,
        Grants {
            fs: fs.unwrap_or_default(),
            env: env.clone(),
            net: net.clone(),
            memory_mib,
        },
        keys,
    );
    let limits = WasmLimits {
        fuel,
        memory_mib: memory_mib.unwrap_or(DEFAULT_MEMORY_MIB),
        fs: fs.unwrap_or_default(),
        env,
        net,
        secrets,
    };
    (sandbox, limits)
}

/// Whether a command hook runs in the kernel sandbox, from `sandbox` and the grants it
/// declares (any of `fs`, `env`, `net`, `memory`: sandboxed with exactly those). `"sandbox":
/// false` beside a grant is refused in phase 1 ([`check_sandbox_choice`]).
fn sandbox_mode(
    kind: Option<HookKind>,
    sandbox: Option<bool>,
    grants: Grants,
    keys: &BTreeSet<String>,
) -> SandboxMode {
    if kind != Some(HookKind::Shell) {
        return SandboxMode::Default;
    }
    let declares = GRANT_KEYS.iter().any(|k| keys.contains(*k));
    match sandbox {
        Some(false) => SandboxMode::Off,
        Some(true) => SandboxMode::On(grants),
        None if declares => SandboxMode::On(grants),
        None => SandboxMode::Default,
    }
}

/// `"sandbox": false` beside a grant says two things at once.
fn check_sandbox_choice(
    sandbox: Option<bool>,
    keys: &BTreeSet<String>,
    problems: &mut Vec<String>,
) {
    let declared: Vec<&str> = GRANT_KEYS
        .iter()
        .copied()
        .filter(|k| keys.contains(*k))
        .collect();
    if sandbox == Some(false) && !declared.is_empty() {
        problems.push(format!(
            "`\"sandbox\": false` runs the command unsandboxed, but it also declares {}, which only a sandboxed hook gets; remove `sandbox` to run it sandboxed with those grants, or remove them",
            declared.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ")
        ));
    }
}

/// `match`, compiled once: on tool events only (other agents match SessionStart on its
/// `source`, PreCompact on its `trigger`, ...: [`Event::matcher_subject`]).
fn compile_matcher(
    event: Event,
    dialect: crate::Dialect,
    text: Option<&str>,
    problems: &mut Vec<String>,
) -> Option<Matcher> {
    let m = text?;
    let subject_event = dialect != crate::Dialect::Native && event.matcher_subject().is_some();
    if !event.takes_tool_matcher() && !subject_event {
        problems.push(format!(
            "`match` filters by tool name and only applies to the tool events ({}), not {event}; remove it",
            Event::tool_events()
        ));
        return None;
    }
    match Matcher::new(m) {
        Ok(compiled) => Some(compiled),
        Err(err) => {
            problems.push(format!(
                "`match` is not a valid regex ({m:?}): {}; it is matched against the whole tool name, e.g. \"bash|shell\"",
                err.to_string().lines().last().unwrap_or_default()
            ));
            None
        }
    }
}

/// Header references: values come from the environment at run time; here only the
/// allowlist counts.
fn check_header_references(
    headers: &[(String, String)],
    allowed_env: &[String],
    problems: &mut Vec<String>,
) {
    for (name, value) in headers {
        if let Err(problem) = expand_with(value, allowed_env, |_| Some(String::new())) {
            problems.push(format!("header `{name}`: {problem}"));
        }
    }
}

/// A pinned package in the default store. Whether it is there and intact is the run's
/// question (the runner pins its bytes to the digest): a missing package fails only its own
/// hook.
fn package_module(digest: crate::store::Digest) -> Result<PackageModule, ModulePathError> {
    crate::store::Store::default_root()
        .map(|root| PackageModule::new(crate::store::Store::at(root), digest))
        .ok_or(ModulePathError::NoStore)
}

/// A command whose first word names a `.wasm` file but that cannot be split into words.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "cannot split the wasm command {command:?} into words (an unbalanced quote?); wasm commands are split like a shell would, without expansion"
)]
pub struct UnsplittableCommand {
    /// The command as written.
    pub command: String,
}

/// Why a wasm command's module path, written with Windows separators
/// (`.coding-agent\hooks\guard.wasm`), is not the path it names: the command is split like a
/// shell would, so each unquoted backslash escapes the next character and the module looked
/// for is `module` (`.coding-agenthooksguard.wasm`). `None` when no backslash was lost.
fn backslashes_read_as_escapes(command: &str, module: &str) -> Option<String> {
    let written = command
        .split_whitespace()
        .next()?
        .trim_matches(|c| c == '"' || c == '\'');
    (written.contains('\\') && written != module).then(|| {
        format!(
            "the wasm module path `{written}` is written with backslashes, which are read as escapes (a wasm command is split into words like a shell would: the module looked for would be `{module}`); write `{}` (forward slashes work on Windows too), or quote the path in single quotes",
            written.replace('\\', "/")
        )
    })
}

/// Splits a command into words if its first word names a `.wasm` file. `Ok(None)`: a shell
/// command. `Err`: it names a .wasm file but cannot be split (unbalanced quotes).
pub fn wasm_words(command: &str) -> Result<Option<Vec<String>>, UnsplittableCommand> {
    let first_raw = command.split_whitespace().next().unwrap_or_default();
    let looks_wasm = first_raw
        .trim_matches(|c| c == '"' || c == '\'')
        .ends_with(".wasm");
    match shlex::split(command) {
        Some(words) if words.first().is_some_and(|w| w.ends_with(".wasm")) => Ok(Some(words)),
        Some(_) => Ok(None),
        None if looks_wasm => Err(UnsplittableCommand {
            command: command.to_string(),
        }),
        None => Ok(None),
    }
}

mod secrets;

#[cfg(test)]
mod command_fields_tests;
