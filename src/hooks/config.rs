//! Loading and validating `hooks.json` (DESIGN §3).
//!
//! Two files are read, the project's then the user's global one; a missing file is empty.
//! Validation is strict and exhaustive: every problem in a file is collected (unknown keys
//! and events, bad regexes, misplaced options, ...) and reported together, each naming the
//! file, the hook as `Event[index]` and what to change. Regexes are compiled here, once.
//! This module decides what a hook *is*; it runs nothing.

use super::confine::{Escape, canonical_or_same, resolve_inside, same_file};
use super::event::Event;
use super::files::sha256_hex;
use super::files::{CONFIG_LIMIT, read_bounded};
use super::payload::json_type_name;
use regex::Regex;
use serde::Serialize;
use serde_json::{Map, Value};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// Default hook timeout (DESIGN §3).
pub const DEFAULT_TIMEOUT_MS: u64 = 10_000;
/// Upper bound on `timeout`, so a typo (`"timeout": 50000000`) cannot wedge a session for hours.
pub const MAX_TIMEOUT_MS: u64 = 3_600_000;
/// Default wasm memory cap in MiB.
pub const DEFAULT_MEMORY_MIB: u64 = 128;
/// Upper bound on `memory`: a 32-bit wasm memory cannot exceed 4 GiB anyway.
pub const MAX_MEMORY_MIB: u64 = 4096;

/// Where the project's hooks live, relative to the project root.
pub const PROJECT_CONFIG: &str = ".coding-agent/hooks.json";

/// Which of the two files a hook came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    Project,
    Global,
}

/// The kind of handler, as shown by `list` and `run --json`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum HookKind {
    Shell,
    Wasm,
    Http,
    Fn,
}

impl HookKind {
    pub fn as_str(self) -> &'static str {
        match self {
            HookKind::Shell => "shell",
            HookKind::Wasm => "wasm",
            HookKind::Http => "http",
            HookKind::Fn => "fn",
        }
    }
}

/// Filesystem access of a wasm hook to the project directory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum FsAccess {
    None,
    #[default]
    Read,
    Write,
}

/// Limits and grants of a wasm hook (`fuel`, `memory`, `fs`, `env`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct WasmLimits {
    /// Explicit fuel budget; `None` derives it from the timeout.
    pub fuel: Option<u64>,
    pub memory_mib: u64,
    pub fs: FsAccess,
    /// Names of host environment variables passed to the guest.
    pub env: Vec<String>,
}

impl Default for WasmLimits {
    fn default() -> Self {
        WasmLimits {
            fuel: None,
            memory_mib: DEFAULT_MEMORY_MIB,
            fs: FsAccess::Read,
            env: Vec::new(),
        }
    }
}

/// What runs when the hook fires.
#[derive(Debug, Clone, PartialEq)]
pub enum Handler {
    /// `sh -c command`.
    Shell { command: String },
    /// A WebAssembly module or component; `argv[0]` is the module path as written.
    Wasm {
        command: String,
        module: PathBuf,
        argv: Vec<String>,
        limits: WasmLimits,
    },
    /// POST the payload to `url`.
    Http {
        url: String,
        headers: Vec<(String, String)>,
        allowed_env: Vec<String>,
    },
}

impl Handler {
    pub fn kind(&self) -> HookKind {
        match self {
            Handler::Shell { .. } => HookKind::Shell,
            Handler::Wasm { .. } => HookKind::Wasm,
            Handler::Http { .. } => HookKind::Http,
        }
    }

    /// The command or URL as the user wrote it.
    pub fn display(&self) -> &str {
        match self {
            Handler::Shell { command } | Handler::Wasm { command, .. } => command,
            Handler::Http { url, .. } => url,
        }
    }
}

/// On a crash or an unexpected exit code of a blocking hook: warn (default) or fail closed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum OnError {
    #[default]
    Warn,
    Block,
}

/// One configured hook, validated and resolved.
#[derive(Debug, Clone)]
pub struct Hook {
    pub event: Event,
    /// Position in its file's list for `event` (0-based).
    pub index: usize,
    pub scope: Scope,
    pub file: PathBuf,
    pub handler: Handler,
    pub matcher: Option<Regex>,
    /// The regex as written.
    pub match_source: Option<String>,
    pub description: Option<String>,
    pub timeout: Duration,
    /// Absolute working directory.
    pub cwd: PathBuf,
    pub is_async: bool,
    pub on_error: OnError,
}

impl Hook {
    /// `PreToolUse[2]`: how errors and logs name this hook.
    pub fn label(&self) -> String {
        format!("{}[{}]", self.event, self.index)
    }

    /// Whether this hook applies to a tool name (events without tools always match).
    pub fn matches_tool(&self, tool: Option<&str>) -> bool {
        match (&self.matcher, tool) {
            (None, _) => true,
            (Some(re), Some(name)) => re.is_match(name),
            (Some(_), None) => false,
        }
    }
}

/// All hooks in run order, per event: project hooks first, then global ones.
#[derive(Debug, Clone, Default)]
pub struct HookSet {
    hooks: Vec<Arc<Hook>>,
    /// The files that were read (present or not), in order.
    pub files: Vec<PathBuf>,
    /// SHA-256 of the exact bytes each present file was parsed from: what trust compares, so
    /// the hash trusted is the hash of the config that runs (the file is read once).
    pub file_hashes: std::collections::BTreeMap<PathBuf, String>,
}

impl HookSet {
    pub fn from_hooks(hooks: Vec<Hook>) -> Self {
        HookSet {
            hooks: hooks.into_iter().map(Arc::new).collect(),
            files: Vec::new(),
            file_hashes: Default::default(),
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

    pub fn len(&self) -> usize {
        self.hooks.len()
    }

    pub fn is_empty(&self) -> bool {
        self.hooks.is_empty()
    }
}

/// One problem in a config file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ConfigError {
    pub file: PathBuf,
    /// `PreToolUse[2]`, or `None` for file-level problems.
    pub hook: Option<String>,
    /// What is wrong and how to fix it.
    pub message: String,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.hook {
            Some(hook) => write!(f, "{}: {}: {}", self.file.display(), hook, self.message),
            None => write!(f, "{}: {}", self.file.display(), self.message),
        }
    }
}

/// Every problem found in the config files, in file order.
#[derive(Debug, Clone, thiserror::Error, PartialEq, Eq)]
pub struct ConfigErrors(pub Vec<ConfigError>);

impl fmt::Display for ConfigErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.0.len();
        writeln!(
            f,
            "{n} problem{} in hook configuration:",
            if n == 1 { "" } else { "s" }
        )?;
        for e in &self.0 {
            writeln!(f, "  {e}")?;
        }
        Ok(())
    }
}

/// Where the config files are and what the hooks run against.
#[derive(Debug, Clone)]
pub struct ConfigPaths {
    pub project_dir: PathBuf,
    /// `<project>/.coding-agent/hooks.json`
    pub project_file: PathBuf,
    /// `~/.coding-agent/hooks.json`, or `None` when there is no home directory.
    pub global_file: Option<PathBuf>,
    pub home: Option<PathBuf>,
}

impl ConfigPaths {
    /// The standard locations for `project_dir`, with the home directory from `dirs` (which
    /// honours `$HOME`).
    pub fn for_project(project_dir: &Path) -> Self {
        Self::with_home(project_dir, dirs::home_dir())
    }

    /// The project directory is made canonical (symlinks resolved): every "inside the
    /// project" check compares canonical paths.
    pub fn with_home(project_dir: &Path, home: Option<PathBuf>) -> Self {
        let project_dir = canonical_or_same(project_dir);
        ConfigPaths {
            project_file: project_dir.join(PROJECT_CONFIG),
            global_file: home.as_ref().map(|h| h.join(".coding-agent/hooks.json")),
            home,
            project_dir,
        }
    }
}

/// Loads both files. All problems of both files are returned together.
pub fn load(paths: &ConfigPaths) -> Result<HookSet, ConfigErrors> {
    let (set, errors) = load_lenient(paths);
    if errors.is_empty() {
        Ok(set)
    } else {
        Err(ConfigErrors(errors))
    }
}

/// Loads both files, keeping the hooks that are valid alongside every problem found (what
/// `hookhost check` needs to go on checking modules and commands past a config error).
pub fn load_lenient(paths: &ConfigPaths) -> (HookSet, Vec<ConfigError>) {
    let mut hooks = Vec::new();
    let mut errors = Vec::new();
    let mut hashes = std::collections::BTreeMap::new();
    let mut files = vec![paths.project_file.clone()];
    let mut sources = Vec::new();
    match &paths.global_file {
        // A project at the home directory: its "project file" *is* the user's global file,
        // which the user wrote; it loads once, as global (trusted), never as a project file.
        Some(global) if same_file(global, &paths.project_file) => {
            sources.push((global.clone(), Scope::Global));
        }
        Some(global) => {
            files.push(global.clone());
            sources.push((paths.project_file.clone(), Scope::Project));
            sources.push((global.clone(), Scope::Global));
        }
        None => sources.push((paths.project_file.clone(), Scope::Project)),
    }
    for (file, scope) in sources {
        match read_bounded(&file, CONFIG_LIMIT) {
            Ok(bytes) => {
                hashes.insert(file.clone(), sha256_hex(&bytes));
                let text = match String::from_utf8(bytes) {
                    Ok(t) => t,
                    Err(_) => {
                        errors.push(ConfigError {
                            file: file.clone(),
                            hook: None,
                            message: "the file is not UTF-8 text; save it as UTF-8 JSON".into(),
                        });
                        continue;
                    }
                };
                let (h, e) = parse_file(&text, &file, scope, paths);
                hooks.extend(h);
                errors.extend(e);
            }
            Err(e) if e.is_not_found() => {}
            Err(e) => errors.push(ConfigError {
                file: file.clone(),
                hook: None,
                message: format!("cannot read the file: {e}"),
            }),
        }
    }
    // Run order: by event, project before global, declared order within a file.
    hooks.sort_by_key(|h: &Hook| (h.event, h.scope == Scope::Global));
    let mut set = HookSet::from_hooks(hooks);
    set.files = files;
    set.file_hashes = hashes;
    (set, errors)
}

/// Parses one file's text. Returns the hooks that were valid and every problem found.
pub fn parse_file(
    text: &str,
    file: &Path,
    scope: Scope,
    paths: &ConfigPaths,
) -> (Vec<Hook>, Vec<ConfigError>) {
    let mut cx = FileCx {
        file,
        scope,
        paths,
        errors: Vec::new(),
    };
    let hooks = cx.parse(text);
    (hooks, cx.errors)
}

const TOP_KEYS: &[&str] = &["hooks", "$schema"];
const HOOK_KEYS: &[&str] = &[
    "command",
    "url",
    "headers",
    "allowedEnv",
    "match",
    "description",
    "timeout",
    "cwd",
    "async",
    "onError",
    "fuel",
    "memory",
    "fs",
    "env",
];
const WASM_ONLY: &[&str] = &["fuel", "memory", "fs", "env"];
const HTTP_ONLY: &[&str] = &["headers", "allowedEnv"];

struct FileCx<'a> {
    file: &'a Path,
    scope: Scope,
    paths: &'a ConfigPaths,
    errors: Vec<ConfigError>,
}

impl FileCx<'_> {
    fn err(&mut self, hook: Option<String>, message: impl Into<String>) {
        self.errors.push(ConfigError {
            file: self.file.to_path_buf(),
            hook,
            message: message.into(),
        });
    }

    fn parse(&mut self, text: &str) -> Vec<Hook> {
        let root: Value = match serde_json::from_str(text) {
            Ok(v) => v,
            Err(e) => {
                self.err(
                    None,
                    format!(
                        "invalid JSON at line {}, column {}: {e}; the file must hold one JSON object like {{\"hooks\": {{\"PreToolUse\": [ ... ]}}}}",
                        e.line(),
                        e.column()
                    ),
                );
                return Vec::new();
            }
        };
        let Value::Object(root) = root else {
            self.err(
                None,
                format!(
                    "the file holds {}, expected an object like {{\"hooks\": {{...}}}}",
                    json_type_name(&root)
                ),
            );
            return Vec::new();
        };
        for key in root.keys() {
            if !TOP_KEYS.contains(&key.as_str()) {
                let hint = if key.parse::<Event>().is_ok() {
                    format!("; put events inside \"hooks\": {{\"hooks\": {{\"{key}\": [...]}}}}")
                } else {
                    "; the only top-level key is \"hooks\"".to_string()
                };
                self.err(None, format!("unknown top-level key `{key}`{hint}"));
            }
        }
        let events = match root.get("hooks") {
            None => return Vec::new(),
            Some(Value::Object(m)) => m,
            Some(other) => {
                self.err(
                    None,
                    format!(
                        "\"hooks\" is {}, expected an object mapping event names to lists of hooks",
                        json_type_name(other)
                    ),
                );
                return Vec::new();
            }
        };
        let mut hooks = Vec::new();
        for (name, list) in events {
            let event = match name.parse::<Event>() {
                Ok(e) => e,
                Err(e) => {
                    let hint = Event::parse_loose(name)
                        .map(|ev| format!(" (did you mean `{ev}`? event names are case-sensitive)"))
                        .unwrap_or_default();
                    self.err(None, format!("{e}{hint}"));
                    continue;
                }
            };
            let Value::Array(items) = list else {
                self.err(
                    Some(event.to_string()),
                    format!(
                        "expected a list of hooks, got {}; write \"{event}\": [{{\"command\": \"...\"}}]",
                        json_type_name(list)
                    ),
                );
                continue;
            };
            for (index, item) in items.iter().enumerate() {
                if let Some(h) = self.parse_hook(event, index, item) {
                    hooks.push(h);
                }
            }
        }
        hooks
    }

    /// Validates one hook object; records every problem; returns the hook if it had none.
    fn parse_hook(&mut self, event: Event, index: usize, item: &Value) -> Option<Hook> {
        let label = format!("{event}[{index}]");
        let before = self.errors.len();
        let Value::Object(obj) = item else {
            self.err(
                Some(label),
                format!(
                    "a hook is an object like {{\"command\": \"...\"}}, got {}",
                    json_type_name(item)
                ),
            );
            return None;
        };
        let e = |cx: &mut Self, msg: String| cx.err(Some(label.clone()), msg);

        if obj.contains_key("matcher") && !obj.contains_key("hooks") {
            e(
                self,
                "unknown key `matcher`; did you mean `match`? (a regex on the tool name, e.g. \"match\": \"bash\")".into(),
            );
            return None;
        }
        if obj.contains_key("hooks") {
            e(
                self,
                "this looks like Claude Code's nested format ({\"matcher\": ..., \"hooks\": [...]}); hookhost takes a flat list: move each inner hook up one level and write `match` instead of `matcher`".into(),
            );
            return None;
        }
        for key in obj.keys() {
            if !HOOK_KEYS.contains(&key.as_str()) {
                let hint = closest(key, HOOK_KEYS)
                    .map(|k| format!("did you mean `{k}`?"))
                    .unwrap_or_else(|| format!("allowed keys: {}", HOOK_KEYS.join(", ")));
                e(self, format!("unknown key `{key}`; {hint}"));
            }
        }

        let command = self.opt_string(obj, "command", &label);
        let url = self.opt_string(obj, "url", &label);
        let description = self.opt_string(obj, "description", &label);
        let cwd_text = self.opt_string(obj, "cwd", &label);
        let match_text = self.opt_string(obj, "match", &label);
        let is_async = self.opt_bool(obj, "async", &label).unwrap_or(false);

        // Handler kind.
        let kind = match (&command, &url) {
            (Some(_), Some(_)) => {
                e(
                    self,
                    "has both `command` and `url`; a hook is either a command or an HTTP endpoint: keep one".into(),
                );
                None
            }
            (None, None) => {
                if !obj.contains_key("command") && !obj.contains_key("url") {
                    e(
                        self,
                        "has neither `command` nor `url`; add \"command\": \"path/to/script.sh\" (or a .wasm file), or \"url\": \"http://...\"".into(),
                    );
                }
                None
            }
            (Some(c), None) if c.trim().is_empty() => {
                e(
                    self,
                    "`command` is empty; give a shell command or a path to a .wasm file".into(),
                );
                None
            }
            (Some(c), None) => match wasm_words(c) {
                Ok(Some(_)) => Some(HookKind::Wasm),
                Ok(None) => Some(HookKind::Shell),
                Err(msg) => {
                    e(self, msg);
                    None
                }
            },
            (None, Some(u)) => {
                if !(u.starts_with("http://") || u.starts_with("https://")) {
                    e(
                        self,
                        format!("`url` must start with http:// or https://, got {u:?}"),
                    );
                    None
                } else {
                    Some(HookKind::Http)
                }
            }
        };

        // Options that belong to one kind only.
        if let Some(kind) = kind {
            for key in WASM_ONLY {
                if obj.contains_key(*key) && kind != HookKind::Wasm {
                    e(
                        self,
                        format!(
                            "`{key}` applies to wasm hooks only (a command whose first word ends in .wasm); remove it or point `command` at a .wasm module"
                        ),
                    );
                }
            }
            for key in HTTP_ONLY {
                if obj.contains_key(*key) && kind != HookKind::Http {
                    e(
                        self,
                        format!("`{key}` applies to HTTP hooks (`url`) only; remove it"),
                    );
                }
            }
        }

        // match
        let mut matcher = None;
        if let Some(m) = &match_text {
            if !event.takes_tool_matcher() {
                e(
                    self,
                    format!(
                        "`match` filters by tool name and only applies to PreToolUse and PostToolUse, not {event}; remove it"
                    ),
                );
            } else {
                match Regex::new(&format!("^(?:{m})$")) {
                    Ok(re) => matcher = Some(re),
                    Err(err) => e(
                        self,
                        format!(
                            "`match` is not a valid regex ({m:?}): {}; it is matched against the whole tool name, e.g. \"bash|shell\"",
                            err.to_string().lines().last().unwrap_or_default()
                        ),
                    ),
                }
            }
        }

        // async
        if is_async && !event.allows_async() {
            e(
                self,
                format!(
                    "`async` is not allowed on {event}: its hooks decide (block/force), and a fire-and-forget hook cannot; remove `async` or move the hook to a non-blocking event"
                ),
            );
        }

        // timeout
        let timeout_ms = match obj.get("timeout") {
            None => Some(DEFAULT_TIMEOUT_MS),
            Some(v) => match v.as_u64() {
                Some(ms) if (1..=MAX_TIMEOUT_MS).contains(&ms) => Some(ms),
                _ => {
                    e(
                        self,
                        format!(
                            "`timeout` must be a whole number of milliseconds between 1 and {MAX_TIMEOUT_MS}, got {v}; e.g. \"timeout\": 5000"
                        ),
                    );
                    None
                }
            },
        };

        // onError
        let on_error = match obj.get("onError") {
            None => OnError::Warn,
            Some(Value::String(s)) if s == "warn" => OnError::Warn,
            Some(Value::String(s)) if s == "block" => OnError::Block,
            Some(v) => {
                e(
                    self,
                    format!("`onError` must be \"warn\" or \"block\", got {v}"),
                );
                OnError::Warn
            }
        };

        // cwd: project hooks and every wasm hook stay inside the project.
        let confined = self.scope == Scope::Project || kind == Some(HookKind::Wasm);
        let project = &self.paths.project_dir;
        let cwd = match &cwd_text {
            None => project.clone(),
            Some(c) if !confined => project.join(c),
            Some(c) => match resolve_inside(project, project, Path::new(c)) {
                Ok(dir) => dir,
                Err(escape) => {
                    e(
                        self,
                        format!(
                            "`cwd` {c:?} {escape}; {} hooks run inside the project: give a path relative to the project root that stays inside it",
                            if kind == Some(HookKind::Wasm) {
                                "wasm"
                            } else {
                                "project"
                            }
                        ),
                    );
                    project.clone()
                }
            },
        };

        // Wasm options.
        let limits = self.wasm_limits(obj, &label);
        let headers = self.headers(obj, &label);
        let allowed_env = self.names(obj, "allowedEnv", &label);
        for (name, value) in &headers {
            // Values come from the environment at run time; here only the allowlist counts.
            let any_value = |_: &str| Some(String::new());
            if let Err(problem) = super::spawner::http::expand_with(value, &allowed_env, any_value)
            {
                e(self, format!("header `{name}`: {problem}"));
            }
        }

        if self.errors.len() > before {
            return None;
        }
        let handler = match kind? {
            HookKind::Shell => Handler::Shell { command: command? },
            HookKind::Wasm => {
                let command = command?;
                let argv = wasm_words(&command).ok()??;
                let module = match self.resolve_module(&argv[0], &cwd) {
                    Ok(m) => m,
                    Err(msg) => {
                        e(self, msg);
                        return None;
                    }
                };
                Handler::Wasm {
                    command,
                    module,
                    argv,
                    limits,
                }
            }
            HookKind::Http => Handler::Http {
                url: url?,
                headers,
                allowed_env,
            },
            HookKind::Fn => return None,
        };
        Some(Hook {
            event,
            index,
            scope: self.scope,
            file: self.file.to_path_buf(),
            handler,
            matcher,
            match_source: match_text,
            description,
            timeout: Duration::from_millis(timeout_ms?),
            cwd,
            is_async,
            on_error,
        })
    }

    /// A wasm module's path: relative to the hook's cwd, `~/` expanded for global hooks. A
    /// project hook's module must lie inside the project (what trust pins is what runs).
    fn resolve_module(&self, word: &str, cwd: &Path) -> Result<PathBuf, String> {
        if self.scope == Scope::Global {
            if let (Some(rest), Some(home)) = (word.strip_prefix("~/"), &self.paths.home) {
                return Ok(home.join(rest));
            }
            return Ok(cwd.join(word));
        }
        resolve_inside(&self.paths.project_dir, cwd, Path::new(word)).map_err(|escape| {
            let why = match escape {
                Escape::NotLexicallyInside if word.starts_with("~/") => {
                    "uses `~/`, which only global hooks may".to_string()
                }
                other => other.to_string(),
            };
            format!(
                "wasm module {word:?} {why}; a project hook's module must be a file inside the project (put it under .coding-agent/hooks/)"
            )
        })
    }

    fn opt_string(&mut self, obj: &Map<String, Value>, key: &str, label: &str) -> Option<String> {
        match obj.get(key)? {
            Value::String(s) => Some(s.clone()),
            v => {
                self.err(
                    Some(label.to_string()),
                    format!("`{key}` must be a string, got {}", json_type_name(v)),
                );
                None
            }
        }
    }

    fn opt_bool(&mut self, obj: &Map<String, Value>, key: &str, label: &str) -> Option<bool> {
        match obj.get(key)? {
            Value::Bool(b) => Some(*b),
            v => {
                self.err(
                    Some(label.to_string()),
                    format!("`{key}` must be true or false, got {v}"),
                );
                None
            }
        }
    }

    /// A list of environment variable names.
    fn names(&mut self, obj: &Map<String, Value>, key: &str, label: &str) -> Vec<String> {
        let Some(v) = obj.get(key) else {
            return Vec::new();
        };
        let valid = |s: &str| {
            !s.is_empty()
                && !s.starts_with(|c: char| c.is_ascii_digit())
                && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        };
        match v.as_array() {
            Some(items) if items.iter().all(|i| i.as_str().is_some_and(valid)) => items
                .iter()
                .filter_map(|i| i.as_str().map(str::to_string))
                .collect(),
            _ => {
                self.err(
                    Some(label.to_string()),
                    format!(
                        "`{key}` must be a list of environment variable names like [\"GITHUB_TOKEN\"], got {v}"
                    ),
                );
                Vec::new()
            }
        }
    }

    fn headers(&mut self, obj: &Map<String, Value>, label: &str) -> Vec<(String, String)> {
        match obj.get("headers") {
            None => Vec::new(),
            Some(Value::Object(m)) if m.values().all(Value::is_string) => m
                .iter()
                .map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_string()))
                .collect(),
            Some(v) => {
                self.err(
                    Some(label.to_string()),
                    format!(
                        "`headers` must be an object of string values like {{\"X-Token\": \"$TOKEN\"}}, got {}",
                        json_type_name(v)
                    ),
                );
                Vec::new()
            }
        }
    }

    fn wasm_limits(&mut self, obj: &Map<String, Value>, label: &str) -> WasmLimits {
        let mut limits = WasmLimits::default();
        let label = Some(label.to_string());
        if let Some(v) = obj.get("fuel") {
            match v.as_u64() {
                Some(f) if f > 0 => limits.fuel = Some(f),
                _ => self.err(
                    label.clone(),
                    format!(
                        "`fuel` must be a positive whole number of fuel units, got {v}; omit it to derive fuel from `timeout`"
                    ),
                ),
            }
        }
        if let Some(v) = obj.get("memory") {
            match v.as_u64() {
                Some(m) if (1..=MAX_MEMORY_MIB).contains(&m) => limits.memory_mib = m,
                _ => self.err(
                    label.clone(),
                    format!(
                        "`memory` is the memory cap in MiB, a whole number between 1 and {MAX_MEMORY_MIB}; got {v}"
                    ),
                ),
            }
        }
        match obj.get("fs") {
            None => {}
            Some(Value::String(s)) if s == "none" => limits.fs = FsAccess::None,
            Some(Value::String(s)) if s == "read" => limits.fs = FsAccess::Read,
            Some(Value::String(s)) if s == "write" => limits.fs = FsAccess::Write,
            Some(v) => self.err(
                label.clone(),
                format!("`fs` must be \"none\", \"read\" or \"write\", got {v}"),
            ),
        }
        limits.env = self.names(obj, "env", label.as_deref().unwrap_or_default());
        limits
    }
}

/// Splits a command into words if its first word names a `.wasm` file. `Ok(None)`: a shell
/// command. `Err`: it names a .wasm file but cannot be split (unbalanced quotes).
pub fn wasm_words(command: &str) -> Result<Option<Vec<String>>, String> {
    let first_raw = command.split_whitespace().next().unwrap_or_default();
    let looks_wasm = first_raw
        .trim_matches(|c| c == '"' || c == '\'')
        .ends_with(".wasm");
    match shlex::split(command) {
        Some(words) if words.first().is_some_and(|w| w.ends_with(".wasm")) => Ok(Some(words)),
        Some(_) => Ok(None),
        None if looks_wasm => Err(format!(
            "cannot split the wasm command {command:?} into words (an unbalanced quote?); wasm commands are split like a shell would, without expansion"
        )),
        None => Ok(None),
    }
}

/// The allowed word closest to `word` by edit distance, if close enough to be a typo.
fn closest<'a>(word: &str, candidates: &[&'a str]) -> Option<&'a str> {
    candidates
        .iter()
        .map(|c| (edit_distance(&word.to_lowercase(), &c.to_lowercase()), *c))
        .filter(|(d, _)| *d <= 2)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != *cb);
            cur.push(sub.min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}
