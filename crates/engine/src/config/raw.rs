//! Phase 1 of reading a `hooks.json`: its text becomes a list of [`Entry`]s, each hook a
//! [`RawHook`] whose every key has been read and its type checked.
//!
//! Nothing is interpreted here: which kind a hook is, whether an option suits its kind or
//! event, where its paths lead and whether its regex compiles are phase 2's questions
//! (`resolve.rs`). What this phase owns: the shape of the file (an object with `hooks`, event
//! names, lists), the known keys (an unknown one gets a "did you mean"), and each value's JSON
//! type and range. A hook with a wrongly typed value is still read as far as it goes, so that
//! phase 2 can report its other problems too.

use super::types::{FsAccess, MAX_MEMORY_MIB, MAX_TIMEOUT_MS, OnError};
use crate::dialect::Dialect;
use crate::event::Event;
use crate::payload::json_type_name;
use serde_json::{Map, Value};
use std::collections::BTreeSet;

const TOP_KEYS: &[&str] = &["hooks", "$schema", MANAGED_ONLY_KEY];
/// The managed file's switch that turns every other config file off.
pub(super) const MANAGED_ONLY_KEY: &str = "allowManagedHooksOnly";
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
    "dialect",
    "package",
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
    pub headers: Vec<(String, String)>,
    pub allowed_env: Vec<String>,
    /// The `match` text.
    pub matcher: Option<String>,
    pub description: Option<String>,
    pub timeout_ms: Option<u64>,
    pub cwd: Option<String>,
    pub is_async: bool,
    pub on_error: Option<OnError>,
    pub fuel: Option<u64>,
    pub memory_mib: Option<u64>,
    pub fs: Option<FsAccess>,
    pub env: Vec<String>,
    /// `dialect`: whose contract the hook is written for (default native).
    pub dialect: Option<Dialect>,
    /// `package`: a hook package pinned by digest (runs from the store).
    pub package: Option<RawPackage>,
    /// What is wrong with the values, in reading order; phase 2 adds its own.
    pub problems: Vec<String>,
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

impl RawHook {
    /// `PreToolUse[2]`: how errors name this hook.
    pub fn label(&self) -> String {
        format!("{}[{}]", self.event, self.index)
    }
}

/// Reads a whole file's text.
pub(super) fn read_file(text: &str) -> Vec<Entry> {
    let mut entries = Vec::new();
    let problem = |hook: Option<String>, message: String| Entry::Problem { hook, message };
    let root: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => {
            return vec![Entry::Unreadable(format!(
                "invalid JSON at line {}, column {}: {e}; the file must hold one JSON object like {{\"hooks\": {{\"PreToolUse\": [ ... ]}}}}",
                e.line(),
                e.column()
            ))];
        }
    };
    let Value::Object(root) = root else {
        return vec![Entry::Unreadable(format!(
            "the file holds {}, expected an object like {{\"hooks\": {{...}}}}",
            json_type_name(&root)
        ))];
    };
    for key in root.keys() {
        if !TOP_KEYS.contains(&key.as_str()) {
            let hint = if key.parse::<Event>().is_ok() {
                format!("; put events inside \"hooks\": {{\"hooks\": {{\"{key}\": [...]}}}}")
            } else {
                "; the top-level keys are \"hooks\" and, in the machine-wide managed file only, \"allowManagedHooksOnly\"".to_string()
            };
            entries.push(problem(
                None,
                format!("unknown top-level key `{key}`{hint}"),
            ));
        }
    }
    match root.get(MANAGED_ONLY_KEY) {
        None => {}
        Some(Value::Bool(b)) => entries.push(Entry::ManagedOnly(*b)),
        Some(other) => entries.push(problem(
            None,
            format!(
                "\"{MANAGED_ONLY_KEY}\" is {}, expected true or false",
                json_type_name(other)
            ),
        )),
    }
    let events = match root.get("hooks") {
        None => return entries,
        Some(Value::Object(m)) => m,
        Some(other) => {
            entries.push(problem(
                None,
                format!(
                    "\"hooks\" is {}, expected an object mapping event names to lists of hooks",
                    json_type_name(other)
                ),
            ));
            return entries;
        }
    };
    for (name, list) in events {
        let event = match name.parse::<Event>() {
            Ok(e) => e,
            Err(e) => {
                let hint = Event::parse_loose(name)
                    .map(|ev| format!(" (did you mean `{ev}`? event names are case-sensitive)"))
                    .unwrap_or_default();
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
    entries
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
    if obj.contains_key("matcher") && !obj.contains_key("hooks") {
        return unreadable(
            "unknown key `matcher`; did you mean `match`? (a regex on the tool name, e.g. \"match\": \"bash\")".into(),
        );
    }
    if obj.contains_key("hooks") {
        return unreadable(
            "this looks like Claude Code's nested format ({\"matcher\": ..., \"hooks\": [...]}); hookhost reads that format as is from .claude/settings.json; here it takes a flat list: move each inner hook up one level, write `match` instead of `matcher` and add \"dialect\": \"claude\" (`hookhost import` does this)".into(),
        );
    }

    let mut r = Reader {
        obj,
        problems: Vec::new(),
    };
    for key in obj.keys() {
        if !HOOK_KEYS.contains(&key.as_str()) {
            let hint = closest(key, HOOK_KEYS)
                .map(|k| format!("did you mean `{k}`?"))
                .unwrap_or_else(|| format!("allowed keys: {}", HOOK_KEYS.join(", ")));
            r.problems.push(format!("unknown key `{key}`; {hint}"));
        }
    }
    let command = r.string("command");
    let url = r.string("url");
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
    let headers = r.headers();
    let allowed_env = r.names("allowedEnv");
    let dialect = r.dialect();
    let package = r.package();
    Entry::Hook(Box::new(RawHook {
        event,
        index,
        keys: obj.keys().cloned().collect(),
        command,
        url,
        headers,
        allowed_env,
        matcher,
        description,
        timeout_ms,
        cwd,
        is_async,
        on_error,
        fuel,
        memory_mib,
        fs,
        env,
        dialect,
        package,
        problems: r.problems,
    }))
}

/// Reads the values of one hook object, recording each wrong one.
struct Reader<'a> {
    obj: &'a Map<String, Value>,
    problems: Vec<String>,
}

impl Reader<'_> {
    fn string(&mut self, key: &str) -> Option<String> {
        match self.obj.get(key)? {
            Value::String(s) => Some(s.clone()),
            v => {
                self.problems.push(format!(
                    "`{key}` must be a string, got {}",
                    json_type_name(v)
                ));
                None
            }
        }
    }

    fn bool(&mut self, key: &str) -> Option<bool> {
        match self.obj.get(key)? {
            Value::Bool(b) => Some(*b),
            v => {
                self.problems
                    .push(format!("`{key}` must be true or false, got {v}"));
                None
            }
        }
    }

    fn timeout(&mut self) -> Option<u64> {
        let v = self.obj.get("timeout")?;
        match v.as_u64() {
            Some(ms) if (1..=MAX_TIMEOUT_MS).contains(&ms) => Some(ms),
            _ => {
                self.problems.push(format!(
                    "`timeout` must be a whole number of milliseconds between 1 and {MAX_TIMEOUT_MS}, got {v}; e.g. \"timeout\": 5000"
                ));
                None
            }
        }
    }

    fn on_error(&mut self) -> Option<OnError> {
        match self.obj.get("onError")? {
            Value::String(s) if s == "warn" => Some(OnError::Warn),
            Value::String(s) if s == "block" => Some(OnError::Block),
            v => {
                self.problems
                    .push(format!("`onError` must be \"warn\" or \"block\", got {v}"));
                None
            }
        }
    }

    fn dialect(&mut self) -> Option<Dialect> {
        let v = self.obj.get("dialect")?;
        match v.as_str().map(str::parse::<Dialect>) {
            Some(Ok(d)) => Some(d),
            _ => {
                self.problems.push(format!(
                    "`dialect` must be one of \"native\", \"claude\", \"gemini\", \"codex\", \"ling\", got {v}; it says whose payload and rules the hook expects"
                ));
                None
            }
        }
    }

    fn fuel(&mut self) -> Option<u64> {
        let v = self.obj.get("fuel")?;
        match v.as_u64() {
            Some(f) if f > 0 => Some(f),
            _ => {
                self.problems.push(format!(
                    "`fuel` must be a positive whole number of fuel units, got {v}; omit it to derive fuel from `timeout`"
                ));
                None
            }
        }
    }

    fn memory(&mut self) -> Option<u64> {
        let v = self.obj.get("memory")?;
        match v.as_u64() {
            Some(m) if (1..=MAX_MEMORY_MIB).contains(&m) => Some(m),
            _ => {
                self.problems.push(format!(
                    "`memory` is the memory cap in MiB, a whole number between 1 and {MAX_MEMORY_MIB}; got {v}"
                ));
                None
            }
        }
    }

    fn fs(&mut self) -> Option<FsAccess> {
        match self.obj.get("fs")? {
            Value::String(s) if s == "none" => Some(FsAccess::None),
            Value::String(s) if s == "read" => Some(FsAccess::Read),
            Value::String(s) if s == "write" => Some(FsAccess::Write),
            v => {
                self.problems.push(format!(
                    "`fs` must be \"none\", \"read\" or \"write\", got {v}"
                ));
                None
            }
        }
    }

    /// A list of environment variable names.
    fn names(&mut self, key: &str) -> Vec<String> {
        let Some(v) = self.obj.get(key) else {
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
                self.problems.push(format!(
                    "`{key}` must be a list of environment variable names like [\"GITHUB_TOKEN\"], got {v}"
                ));
                Vec::new()
            }
        }
    }

    fn package(&mut self) -> Option<RawPackage> {
        let v = self.obj.get("package")?;
        let example = "e.g. \"package\": {\"ref\": \"oci://ghcr.io/you/guard:1.0\", \"digest\": \"sha256:...\"} (what `hookhost add` writes)";
        let Value::Object(m) = v else {
            self.problems
                .push(format!("`package` must be an object, {example}"));
            return None;
        };
        let mut ok = true;
        for key in m.keys() {
            if !["ref", "digest", "args"].contains(&key.as_str()) {
                self.problems.push(format!(
                    "`package`: unknown key `{key}`; allowed: ref, digest, args"
                ));
                ok = false;
            }
        }
        let reference = m
            .get("ref")
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty());
        if reference.is_none() {
            self.problems.push(format!(
                "`package.ref` must be a non-empty string, {example}"
            ));
        }
        let digest = match m.get("digest").and_then(Value::as_str) {
            Some(d) => match crate::store::Digest::parse(d) {
                Ok(d) => Some(d),
                Err(e) => {
                    self.problems.push(format!("`package.digest`: {e}"));
                    None
                }
            },
            None => {
                self.problems.push(format!(
                    "`package.digest` must be the module's digest, {example}"
                ));
                None
            }
        };
        let args = match m.get("args") {
            None => Some(Vec::new()),
            Some(Value::Array(a)) if a.iter().all(Value::is_string) => Some(
                a.iter()
                    .filter_map(|s| s.as_str().map(str::to_string))
                    .collect(),
            ),
            Some(_) => {
                self.problems
                    .push("`package.args` must be a list of strings".into());
                None
            }
        };
        match (reference, digest, args, ok) {
            (Some(r), Some(digest), Some(args), true) => Some(RawPackage {
                reference: r.to_string(),
                digest,
                args,
            }),
            _ => None,
        }
    }

    fn headers(&mut self) -> Vec<(String, String)> {
        match self.obj.get("headers") {
            None => Vec::new(),
            Some(Value::Object(m)) if m.values().all(Value::is_string) => m
                .iter()
                .map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_string()))
                .collect(),
            Some(v) => {
                self.problems.push(format!(
                    "`headers` must be an object of string values like {{\"X-Token\": \"$TOKEN\"}}, got {}",
                    json_type_name(v)
                ));
                Vec::new()
            }
        }
    }
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
mod tests {
    use super::*;

    #[test]
    fn typos_of_keys_find_the_key() {
        assert_eq!(closest("comand", HOOK_KEYS), Some("command"));
        assert_eq!(closest("asynch", HOOK_KEYS), Some("async"));
        assert_eq!(closest("TimeOut", HOOK_KEYS), Some("timeout"));
        assert_eq!(closest("onerror", HOOK_KEYS), Some("onError"));
        assert_eq!(closest("something", HOOK_KEYS), None);
    }

    #[test]
    fn a_wrongly_typed_hook_is_still_read_as_far_as_it_goes() {
        let entries =
            read_file(r#"{"hooks": {"Stop": [{"command": 5, "timeout": 0, "cwd": "d"}]}}"#);
        let [Entry::Hook(raw)] = entries.as_slice() else {
            panic!("{entries:?}")
        };
        assert_eq!(raw.label(), "Stop[0]");
        assert_eq!(
            (raw.command.as_deref(), raw.cwd.as_deref()),
            (None, Some("d"))
        );
        assert!(raw.keys.contains("command") && raw.timeout_ms.is_none());
        assert_eq!(raw.problems.len(), 2, "{:?}", raw.problems);
    }
}
