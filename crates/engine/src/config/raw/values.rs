//! Phase 1, one value at a time: each key of a hook object read with its JSON type and
//! range checked, a wrong value recorded as a problem (and read as absent).

use super::{CommandFields, RawMcp, RawPackage};
use crate::Dialect;
use crate::config::types::{FsAccess, MAX_MEMORY_MIB, MAX_TIMEOUT_MS, OnError, ShellKind};
use crate::payload::json_type_name;
use serde_json::{Map, Value};

/// Reads the values of one hook object, recording each wrong one.
pub(super) struct Reader<'a> {
    pub(super) obj: &'a Map<String, Value>,
    pub(super) problems: Vec<String>,
}

impl Reader<'_> {
    /// `"mcp": {"server": "NAME", "tool": "TOOL", "input": {...}}`.
    pub(super) fn mcp(&mut self) -> Option<RawMcp> {
        let v = self.obj.get("mcp")?;
        const EXAMPLE: &str = "e.g. \"mcp\": {\"server\": \"guard\", \"tool\": \"check\", \"input\": {\"command\": \"${tool_input.command}\"}}";
        let Value::Object(m) = v else {
            self.problems.push(format!(
                "`mcp` must be an object, got {}; {EXAMPLE}",
                json_type_name(v)
            ));
            return None;
        };
        let mut ok = true;
        for key in m.keys() {
            if !["server", "tool", "input"].contains(&key.as_str()) {
                self.problems.push(format!(
                    "unknown key `mcp.{key}`; `mcp` takes `server`, `tool` and `input`"
                ));
                ok = false;
            }
        }
        let mut text = |key: &str| match m.get(key) {
            Some(Value::String(s)) if !s.trim().is_empty() => Some(s.clone()),
            Some(other) if !other.is_string() => {
                self.problems.push(format!(
                    "`mcp.{key}` must be a string, got {}; {EXAMPLE}",
                    json_type_name(other)
                ));
                None
            }
            _ => {
                self.problems
                    .push(format!("`mcp` needs a non-empty `{key}`; {EXAMPLE}"));
                None
            }
        };
        let server = text("server");
        let tool = text("tool");
        let input = match m.get("input") {
            None => Value::Object(Map::new()),
            Some(i @ Value::Object(_)) => i.clone(),
            Some(other) => {
                self.problems.push(format!(
                    "`mcp.input` must be an object (the tool's arguments), got {}; {EXAMPLE}",
                    json_type_name(other)
                ));
                ok = false;
                Value::Null
            }
        };
        Some(RawMcp {
            server: server?,
            tool: tool?,
            input,
        })
        .filter(|_| ok)
    }

    pub(super) fn string(&mut self, key: &str) -> Option<String> {
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

    pub(super) fn bool(&mut self, key: &str) -> Option<bool> {
        match self.obj.get(key)? {
            Value::Bool(b) => Some(*b),
            v => {
                self.problems
                    .push(format!("`{key}` must be true or false, got {v}"));
                None
            }
        }
    }

    pub(super) fn timeout(&mut self) -> Option<u64> {
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

    /// `onError`, or its alias `onFailure` (Claude Code's name since 2.1.295); both given
    /// and different is a problem.
    pub(super) fn on_error(&mut self) -> Option<OnError> {
        let on_error = self.on_error_key("onError");
        let on_failure = self.on_error_key("onFailure");
        match (on_error, on_failure) {
            (Some(a), Some(b)) if a != b => {
                self.problems.push(format!(
                    "`onError` is \"{}\" but `onFailure` is \"{}\"; `onFailure` is another name for `onError`: keep one",
                    on_error_name(a),
                    on_error_name(b)
                ));
                None
            }
            (a, b) => a.or(b),
        }
    }

    fn on_error_key(&mut self, key: &str) -> Option<OnError> {
        match self.obj.get(key)? {
            Value::String(s) if s == "warn" => Some(OnError::Warn),
            Value::String(s) if s == "block" => Some(OnError::Block),
            // Claude Code's default, by its name.
            Value::String(s) if s == "continue" && key == "onFailure" => Some(OnError::Warn),
            v => {
                let allowed = if key == "onFailure" {
                    "\"block\" or \"continue\" (or \"warn\")"
                } else {
                    "\"warn\" or \"block\""
                };
                self.problems
                    .push(format!("`{key}` must be {allowed}, got {v}"));
                None
            }
        }
    }

    /// `args`, `shell`, `statusMessage` and `once`.
    pub(super) fn command_fields(&mut self) -> CommandFields {
        CommandFields {
            args: self.args(),
            shell: self.shell(),
            status_message: self.string("statusMessage"),
            once: self.bool("once").unwrap_or(false),
            async_rewake: self.bool("asyncRewake").unwrap_or(false),
        }
    }

    /// `args`: a list of strings (the exec form's arguments).
    pub(super) fn args(&mut self) -> Option<Vec<String>> {
        match self.obj.get("args")? {
            Value::Array(items) if items.iter().all(Value::is_string) => Some(
                items
                    .iter()
                    .filter_map(|i| i.as_str().map(str::to_string))
                    .collect(),
            ),
            v => {
                self.problems.push(format!(
                    "`args` must be a list of strings, the program's arguments (e.g. \"command\": \"node\", \"args\": [\"guard.js\"]), got {v}"
                ));
                None
            }
        }
    }

    /// `shell`: `"sh"`, `"bash"` or `"powershell"`.
    pub(super) fn shell(&mut self) -> Option<ShellKind> {
        match self.obj.get("shell")? {
            Value::String(s) if s == "sh" => Some(ShellKind::Sh),
            Value::String(s) if s == "bash" => Some(ShellKind::Bash),
            Value::String(s) if s == "powershell" => Some(ShellKind::Powershell),
            v => {
                self.problems.push(format!(
                    "`shell` must be \"sh\" (the default), \"bash\" or \"powershell\", got {v}"
                ));
                None
            }
        }
    }

    pub(super) fn dialect(&mut self) -> Option<Dialect> {
        let v = self.obj.get("dialect")?;
        match v.as_str().map(str::parse::<Dialect>) {
            Some(Ok(Dialect::Opencode)) => {
                self.problems.push(
                    "`dialect` cannot be \"opencode\": opencode's hooks are JS plugins, not commands; hookhost's plugin (plugins/opencode/hookhost.js) runs your native hooks for it".to_string(),
                );
                None
            }
            Some(Ok(d)) => Some(d),
            _ => {
                let names: Vec<String> = Dialect::ALL
                    .iter()
                    .filter(|d| **d != Dialect::Opencode)
                    .map(|d| format!("\"{}\"", d.as_str()))
                    .collect();
                self.problems.push(format!(
                    "`dialect` must be one of {}, got {v}; it says whose payload and rules the hook expects",
                    names.join(", ")
                ));
                None
            }
        }
    }

    pub(super) fn fuel(&mut self) -> Option<u64> {
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

    pub(super) fn memory(&mut self) -> Option<u64> {
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

    pub(super) fn fs(&mut self) -> Option<FsAccess> {
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

    /// `net`: a list of `host:port` destinations.
    pub(super) fn net(&mut self) -> Vec<crate::config::NetTarget> {
        let Some(v) = self.obj.get("net") else {
            return Vec::new();
        };
        let parsed: Option<Vec<_>> = v.as_array().and_then(|items| {
            items
                .iter()
                .map(|i| i.as_str().and_then(crate::config::NetTarget::parse))
                .collect()
        });
        match parsed {
            Some(targets) => targets,
            None => {
                self.problems.push(format!(
                    "`net` must be a list of \"host:port\" destinations like [\"api.example.com:443\", \"[::1]:8080\"], got {v}; omit it for no network"
                ));
                Vec::new()
            }
        }
    }

    /// `secrets`: `{"TOKEN": {"env": "API_TOKEN", "hosts": ["api.example.com"]}}`, each
    /// name, variable and host checked for shape (where a hook may have them is phase 2's).
    pub(super) fn secrets(&mut self) -> Vec<crate::config::Secret> {
        let Some(v) = self.obj.get("secrets") else {
            return Vec::new();
        };
        let example = r#"{"TOKEN": {"env": "API_TOKEN", "hosts": ["api.example.com"]}}"#;
        let Value::Object(map) = v else {
            self.problems.push(format!(
                "`secrets` must be an object like {example}, got {}",
                json_type_name(v)
            ));
            return Vec::new();
        };
        let mut secrets = Vec::new();
        for (name, spec) in map {
            match secret(name, spec) {
                Ok(s) => secrets.push(s),
                Err(why) => self
                    .problems
                    .push(format!("`secrets.{name}`: {why}; write it like {example}")),
            }
        }
        secrets
    }

    /// A list of environment variable names.
    pub(super) fn names(&mut self, key: &str) -> Vec<String> {
        let Some(v) = self.obj.get(key) else {
            return Vec::new();
        };
        match v.as_array() {
            Some(items) if items.iter().all(|i| i.as_str().is_some_and(is_identifier)) => items
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

    pub(super) fn package(&mut self) -> Option<RawPackage> {
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

    pub(super) fn headers(&mut self) -> Vec<(String, String)> {
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

/// A name fit for an environment variable or a placeholder: letters, digits and `_`, not
/// starting with a digit.
fn is_identifier(s: &str) -> bool {
    !s.is_empty()
        && !s.starts_with(|c: char| c.is_ascii_digit())
        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// One entry of `secrets`, or why it is not one.
fn secret(name: &str, spec: &Value) -> Result<crate::config::Secret, String> {
    if !is_identifier(name) {
        return Err("a secret's name is letters, digits and `_` (it is written `${secret:NAME}` in a header value)".into());
    }
    let Value::Object(fields) = spec else {
        return Err(format!("must be an object, got {}", json_type_name(spec)));
    };
    if let Some(key) = fields
        .keys()
        .find(|k| !matches!(k.as_str(), "env" | "hosts"))
    {
        return Err(format!(
            "unknown key `{key}` (a secret has `env` and `hosts`)"
        ));
    }
    let env = match fields.get("env") {
        Some(Value::String(e)) if is_identifier(e) => e.clone(),
        _ => return Err("`env` must name the environment variable that holds the value".into()),
    };
    let hosts: Option<Vec<String>> = fields
        .get("hosts")
        .and_then(Value::as_array)
        .filter(|h| !h.is_empty())
        .and_then(|h| {
            h.iter()
                .map(|v| {
                    // The host part of a `net` entry (any port will do to check it).
                    let host = v.as_str()?;
                    let bare = host.trim_start_matches('[').trim_end_matches(']');
                    let probe = if bare.contains(':') {
                        format!("[{bare}]:1")
                    } else {
                        format!("{bare}:1")
                    };
                    crate::config::NetTarget::parse(&probe).map(|t| t.host)
                })
                .collect()
        });
    let Some(hosts) = hosts else {
        return Err("`hosts` must be a non-empty list of host names (without ports) the value may be sent to".into());
    };
    Ok(crate::config::Secret {
        name: name.to_string(),
        env,
        hosts,
    })
}

fn on_error_name(o: OnError) -> &'static str {
    match o {
        OnError::Warn => "warn",
        OnError::Block => "block",
    }
}
