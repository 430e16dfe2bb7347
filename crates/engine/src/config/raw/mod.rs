//! Phase 1 of reading a `hooks.json`: its text becomes a list of [`Entry`]s, each hook a
//! [`RawHook`] whose every key has been read and its type checked.
//!
//! Nothing is interpreted here: which kind a hook is, whether an option suits its kind or
//! event, where its paths lead and whether its regex compiles are phase 2's questions
//! (`resolve.rs`). What this phase owns: the shape of the file (an object with `hooks`, event
//! names, lists), the known keys (an unknown one gets a "did you mean"), and each value's JSON
//! type and range. A hook with a wrongly typed value is still read as far as it goes, so that
//! phase 2 can report its other problems too.

mod model;
mod values;

use super::types::{FsAccess, OnError, ShellKind};
use crate::Dialect;
use crate::event::Event;
use crate::payload::json_type_name;
pub(super) use model::{MODEL_EXAMPLE, RawModel};
use serde_json::{Map, Value};
use std::collections::BTreeSet;
use values::Reader;

const TOP_KEYS: &[&str] = &[
    "hooks",
    "$schema",
    MANAGED_ONLY_KEY,
    REQUIRE_SANDBOX_KEY,
    DISABLE_ALL_KEY,
    super::mcp_servers::SERVERS_KEY,
    MODEL_KEY,
    super::warm_switch::WARM_KEY,
];
/// The block that configures the model of `prompt` and `agent` hooks (the user's or the
/// managed file only).
pub(super) const MODEL_KEY: &str = "model";
/// The managed file's switch that turns every other config file off.
pub(super) const MANAGED_ONLY_KEY: &str = "allowManagedHooksOnly";
/// The managed file's switch that makes every command hook run sandboxed.
pub(super) const REQUIRE_SANDBOX_KEY: &str = "requireSandbox";
/// The switch that turns off the hooks of its file and of every lower rank (never managed
/// hooks).
pub(super) const DISABLE_ALL_KEY: &str = "disableAllHooks";
const HOOK_KEYS: &[&str] = &[
    "command",
    "url",
    "prompt",
    "agent",
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
    "net",
    "secrets",
    "sandbox",
    "dialect",
    "package",
    "enabled",
    "if",
    "mcp",
    "args",
    "shell",
    "onFailure",
    "statusMessage",
    "once",
    "asyncRewake",
];

/// One item of a file, in document order.
#[derive(Debug)]
pub(super) enum Entry {
    /// A problem outside any one hook (the JSON, a top-level key, an event name or its
    /// list), or a hook that cannot be read at all. `hook` names it as in
    /// [`ConfigError::hook`](super::ConfigError::hook).
    Problem {
        hook: Option<String>,
        message: String,
    },
    /// The whole file could not be read (not JSON, not an object): the only entry.
    Unreadable(String),
    /// A hook object, read.
    Hook(Box<RawHook>),
    /// `"allowManagedHooksOnly": true|false` (meaningful in the managed file only; the
    /// loader decides what it means elsewhere).
    ManagedOnly(bool),
    /// `"requireSandbox": true|false` (the managed file only).
    RequireSandbox(bool),
    /// `"disableAllHooks": true|false`.
    DisableAll(bool),
    /// `"warmEngine": true|false`, checked here (whether this file may say it is the loader's
    /// question; the value is read on its own: `config::warm_switch`).
    WarmEngine,
    /// `"mcpServers": {...}`: the MCP servers this file defines (each read when a hook
    /// names it). Comes before the file's hooks.
    McpServers(Map<String, Value>),
    /// `"model": {...}`, read (whether this file may say it is the loader's question).
    Model(RawModel),
}

/// A hook as written: typed, not resolved. A field is `None` (or empty) when the key is
/// absent or its value was wrong; the problem is then in `problems`.
#[derive(Debug)]
pub(super) struct RawHook {
    pub event: Event,
    /// Position in its event's list (0-based).
    pub index: usize,
    /// Every key present, whatever its value (what "an option of another kind" checks).
    pub keys: BTreeSet<String>,
    pub command: Option<String>,
    pub url: Option<String>,
    /// `prompt`: a question for the user's model.
    pub prompt: Option<String>,
    /// `agent`: a question for the user's model, which may read the project first.
    pub agent: Option<String>,
    pub headers: Vec<(String, String)>,
    pub allowed_env: Vec<String>,
    /// The `match` text.
    pub matcher: Option<String>,
    pub description: Option<String>,
    pub timeout_ms: Option<u64>,
    pub cwd: Option<String>,
    pub is_async: bool,
    pub on_error: Option<OnError>,
    /// `fuel`, `memory`, `fs`, `env`, `net`, `secrets`.
    pub grants: RawGrants,
    /// `sandbox`: a command hook's explicit choice.
    pub sandbox: Option<bool>,
    /// `dialect`: whose contract the hook is written for (default native).
    pub dialect: Option<Dialect>,
    /// `package`: a hook package pinned by digest (runs from the store).
    pub package: Option<RawPackage>,
    /// `enabled` (absent: true).
    pub enabled: Option<bool>,
    /// `if`: a permission rule on the tool call, as written.
    pub condition: Option<String>,
    /// `mcp`: an MCP tool to call.
    pub mcp: Option<RawMcp>,
    /// `args`, `shell`, `statusMessage`, `once`.
    pub command_fields: CommandFields,
    /// What is wrong with the values, in reading order; phase 2 adds its own.
    pub problems: Vec<String>,
}

/// The grants and limits of a wasm hook or a sandboxed command hook, as written.
#[derive(Debug, Default)]
pub(super) struct RawGrants {
    pub fuel: Option<u64>,
    pub memory_mib: Option<u64>,
    pub fs: Option<FsAccess>,
    pub env: Vec<String>,
    /// `net`: `host:port` destinations.
    pub net: Vec<crate::config::NetTarget>,
    /// `secrets`: values the host injects into a wasm hook's HTTP requests.
    pub secrets: Vec<crate::config::Secret>,
}

/// The fields of a command hook Claude Code's format brought (read as the native file's).
#[derive(Debug, Default)]
pub(super) struct CommandFields {
    /// `args`: the exec form's arguments (`command` is then the program, run without a
    /// shell).
    pub args: Option<Vec<String>>,
    /// `shell`: the shell form's interpreter.
    pub shell: Option<ShellKind>,
    /// `statusMessage`: what is shown while the hook runs.
    pub status_message: Option<String>,
    /// `once`: the hook runs once per session.
    pub once: bool,
    /// `asyncRewake`: runs in the background; its exit 2 wakes the agent later.
    pub async_rewake: bool,
}

/// `"package": {"ref": "oci://...", "digest": "sha256:...", "args": [...]}`, read.
#[derive(Debug, Clone)]
pub(super) struct RawPackage {
    /// Where it came from (shown, and what `hookhost update` moves); never fetched at run time.
    pub reference: String,
    /// The module's digest: what runs.
    pub digest: crate::store::Digest,
    /// Arguments after argv[0].
    pub args: Vec<String>,
}

/// `"mcp": {"server": "...", "tool": "...", "input": {...}}`, read.
#[derive(Debug, Clone)]
pub(super) struct RawMcp {
    pub server: String,
    pub tool: String,
    /// An object (absent: `{}`).
    pub input: Value,
}

impl RawHook {
    /// `PreToolUse[2]`: how errors name this hook.
    pub fn label(&self) -> String {
        format!("{}[{}]", self.event, self.index)
    }
}

/// Reads a whole file's text.
pub(super) fn read_file(text: &str) -> Vec<Entry> {
    let root: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => {
            return vec![Entry::Unreadable(format!(
                "{}{}",
                crate::jsonc::json_error(&e),
                crate::jsonc::no_comments_hint(text).unwrap_or_else(|| {
                    "; the file must hold one JSON object like {\"hooks\": {\"PreToolUse\": [ ... ]}}".into()
                })
            ))];
        }
    };
    let Value::Object(root) = root else {
        return vec![Entry::Unreadable(format!(
            "the file holds {}, expected an object like {{\"hooks\": {{...}}}}",
            json_type_name(&root)
        ))];
    };
    let mut entries = top_level(&root);
    match root.get(super::mcp_servers::SERVERS_KEY) {
        None => {}
        Some(Value::Object(servers)) => entries.push(Entry::McpServers(servers.clone())),
        Some(other) => entries.push(problem(
            None,
            format!(
                "\"{}\" is {}, expected an object mapping server names to definitions like {{\"guard\": {{\"command\": \"guard-server\", \"args\": []}}}}",
                super::mcp_servers::SERVERS_KEY,
                json_type_name(other)
            ),
        )),
    }
    match root.get("hooks") {
        None => {}
        Some(Value::Object(events)) => read_events(events, &mut entries),
        Some(other) => entries.push(problem(
            None,
            format!(
                "\"hooks\" is {}, expected an object mapping event names to lists of hooks",
                json_type_name(other)
            ),
        )),
    }
    entries
}

fn problem(hook: Option<String>, message: String) -> Entry {
    Entry::Problem { hook, message }
}

/// The top-level keys besides `hooks`: unknown ones, and the managed-only switch.
fn top_level(root: &Map<String, Value>) -> Vec<Entry> {
    let mut entries = Vec::new();
    for key in root.keys() {
        if !TOP_KEYS.contains(&key.as_str()) {
            let hint = if key.parse::<Event>().is_ok() {
                format!("; put events inside \"hooks\": {{\"hooks\": {{\"{key}\": [...]}}}}")
            } else {
                "; the top-level keys are \"hooks\", \"mcpServers\", \"disableAllHooks\", \"model\" and \"warmEngine\" (the user's or the managed file only) and, in the machine-wide managed file only, \"allowManagedHooksOnly\"".to_string()
            };
            entries.push(problem(
                None,
                format!("unknown top-level key `{key}`{hint}"),
            ));
        }
    }
    for (key, entry) in [
        (MANAGED_ONLY_KEY, Entry::ManagedOnly as fn(bool) -> Entry),
        (REQUIRE_SANDBOX_KEY, Entry::RequireSandbox),
        (DISABLE_ALL_KEY, Entry::DisableAll),
        (super::warm_switch::WARM_KEY, |_| Entry::WarmEngine),
    ] {
        match root.get(key) {
            None => {}
            Some(Value::Bool(b)) => entries.push(entry(*b)),
            Some(other) => entries.push(problem(
                None,
                format!(
                    "\"{key}\" is {}, expected true or false",
                    json_type_name(other)
                ),
            )),
        }
    }
    if let Some(v) = root.get(MODEL_KEY) {
        match model::read_model(v) {
            Ok(m) => entries.push(Entry::Model(m)),
            Err(problems) => entries.extend(problems.into_iter().map(|m| problem(None, m))),
        }
    }
    entries
}

/// The events of `hooks`, each a list of hook objects.
fn read_events(events: &Map<String, Value>, entries: &mut Vec<Entry>) {
    for (name, list) in events {
        let event = match name.parse::<Event>() {
            Ok(e) => e,
            Err(e) => {
                let hint = unknown_event_hint(name);
                entries.push(problem(None, format!("{e}{hint}")));
                continue;
            }
        };
        let Value::Array(items) = list else {
            entries.push(problem(
                Some(event.to_string()),
                format!(
                    "expected a list of hooks, got {}; write \"{event}\": [{{\"command\": \"...\"}}]",
                    json_type_name(list)
                ),
            ));
            continue;
        };
        for (index, item) in items.iter().enumerate() {
            entries.push(read_hook(event, index, item));
        }
    }
}

/// What an unknown event name in hookhost's own file was probably meant to be: the event in
/// another case, another agent's name for one (Gemini CLI's `BeforeTool`), or the nearest name.
fn unknown_event_hint(name: &str) -> String {
    use super::agents::events;
    if let Ok(ev) = Event::parse_loose(name) {
        return format!(" (did you mean `{ev}`? event names are case-sensitive)");
    }
    if let Ok(n) = events::resolve(name) {
        let agents: Vec<&str> = n.agents.iter().map(|d| d.agent()).collect();
        return format!(
            " (`{name}` is {}'s name for {}; hookhost's own file takes \"{}\")",
            agents.join(" and "),
            n.event,
            n.event
        );
    }
    match events::did_you_mean(name).and_then(|near| events::resolve(near).ok()) {
        Some(n) => format!(" (did you mean `{}`?)", n.event),
        None => String::new(),
    }
}

/// Why `obj` is Claude Code's nested format rather than a hook, if it is.
fn nested_format(obj: &Map<String, Value>) -> Option<&'static str> {
    if obj.contains_key("hooks") {
        return Some(
            "this looks like Claude Code's nested format ({\"matcher\": ..., \"hooks\": [...]}); hookhost reads that format as is from .claude/settings.json; here it takes a flat list: move each inner hook up one level, write `match` instead of `matcher` and add \"dialect\": \"claude\" (`hookhost import` does this)",
        );
    }
    obj.contains_key("matcher").then_some(
        "unknown key `matcher`; did you mean `match`? (a regex on the tool name, e.g. \"match\": \"bash\")",
    )
}

/// A problem for each key of `obj` that no hook has, with the closest known one.
fn unknown_keys(obj: &Map<String, Value>) -> Vec<String> {
    obj.keys()
        .filter(|key| !HOOK_KEYS.contains(&key.as_str()))
        .map(|key| {
            let hint = closest(key, HOOK_KEYS)
                .map(|k| format!("did you mean `{k}`?"))
                .unwrap_or_else(|| format!("allowed keys: {}", HOOK_KEYS.join(", ")));
            format!("unknown key `{key}`; {hint}")
        })
        .collect()
}

/// Reads one hook object: a [`RawHook`], or a problem when it is not a hook object at all.
pub(super) fn read_hook(event: Event, index: usize, item: &Value) -> Entry {
    let label = format!("{event}[{index}]");
    let unreadable = |message: String| Entry::Problem {
        hook: Some(label.clone()),
        message,
    };
    let Value::Object(obj) = item else {
        return unreadable(format!(
            "a hook is an object like {{\"command\": \"...\"}}, got {}",
            json_type_name(item)
        ));
    };
    if let Some(why) = nested_format(obj) {
        return unreadable(why.into());
    }
    let mut r = Reader {
        obj,
        problems: unknown_keys(obj),
    };
    let command = r.string("command");
    let url = r.string("url");
    let prompt = r.string("prompt");
    let agent = r.string("agent");
    let description = r.string("description");
    let cwd = r.string("cwd");
    let matcher = r.string("match");
    let is_async = r.bool("async").unwrap_or(false);
    let timeout_ms = r.timeout();
    let on_error = r.on_error();
    let fuel = r.fuel();
    let memory_mib = r.memory();
    let fs = r.fs();
    let env = r.names("env");
    let net = r.net();
    let secrets = r.secrets();
    let sandbox = r.bool("sandbox");
    let headers = r.headers();
    let allowed_env = r.names("allowedEnv");
    let dialect = r.dialect();
    let package = r.package();
    let enabled = r.bool("enabled");
    let condition = r.string("if");
    let mcp = r.mcp();
    Entry::Hook(Box::new(RawHook {
        event,
        index,
        keys: obj.keys().cloned().collect(),
        command,
        url,
        prompt,
        agent,
        headers,
        allowed_env,
        matcher,
        description,
        timeout_ms,
        cwd,
        is_async,
        on_error,
        grants: RawGrants {
            fuel,
            memory_mib,
            fs,
            env,
            net,
            secrets,
        },
        sandbox,
        dialect,
        package,
        enabled,
        condition,
        mcp,
        command_fields: r.command_fields(),
        problems: r.problems,
    }))
}

/// The allowed key closest to `word`, if close enough to be a typo (Levenshtein distance at
/// most 2, ignoring case; the first of equally close ones).
fn closest<'a>(word: &str, candidates: &[&'a str]) -> Option<&'a str> {
    let word = word.to_lowercase();
    candidates
        .iter()
        .map(|c| (strsim::levenshtein(&word, &c.to_lowercase()), *c))
        .filter(|(d, _)| *d <= 2)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

#[cfg(test)]
mod tests;
