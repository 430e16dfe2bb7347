//! The throwaway home of one proving run: the agent's settings with hookhost's wiring copied
//! from the user's own file and nothing else of the user's (no other hook, no credential, no
//! other setting), the settings the headless run needs, and a native
//! `~/.coding-agent/hooks.json` holding only the canary guard. The user's files are read,
//! never written.
//!
//! The adapter takes the home from the password database or `--home`, never `$HOME`: each
//! copied command gets `--home THROWAWAY` (any `--home` it had is replaced), so the adapter
//! reads the canary guard and writes its log and caches there. Everything else of the command
//! (the binary it runs, `--for`, the other flags) is the user's.

use super::judge::CANARY_REASON;
use crate::install::table::{AgentRow, Shape};
use hookhost::dialect::events::from_agent_name;
use hookhost::dialect::is_adapter;
use serde_json::{Map, Value, json};
use std::path::{Path, PathBuf};

/// One adapter entry of the user's file.
#[derive(Debug, Clone)]
pub struct Wired {
    pub event: String,
    pub matcher: Option<Value>,
    pub command: String,
    pub timeout: Option<Value>,
}

/// What the copied wiring runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Variant {
    /// The user's wiring.
    Real,
    /// On the tool-gating event only, a hook that crashes (killed by SIGSEGV).
    Crash,
    /// On the tool-gating event only, a hook that outlives its timeout (2 s).
    Timeout,
}

/// The adapter entries of the user's settings file of `row` (empty: not wired there).
pub fn user_wiring(row: &AgentRow, file: &Path) -> Result<Vec<Wired>, String> {
    let text = match std::fs::read_to_string(file) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(format!("cannot read {}: {e}", file.display())),
        Ok(t) => t,
    };
    let text = if row.comments {
        hookhost::jsonc::strip_comments(&text).into_owned()
    } else {
        text
    };
    let doc: Value = serde_json::from_str(&text).map_err(|e| {
        format!(
            "{} is not valid JSON ({})",
            file.display(),
            hookhost::jsonc::json_error(&e)
        )
    })?;
    let Shape::Groups { .. } = row.shape else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for (event, groups) in doc["hooks"].as_object().into_iter().flatten() {
        for g in groups.as_array().into_iter().flatten() {
            for h in g["hooks"].as_array().into_iter().flatten() {
                let Some(command) = h["command"].as_str().filter(|c| is_adapter(c)) else {
                    continue;
                };
                out.push(Wired {
                    event: event.clone(),
                    matcher: g.get("matcher").cloned(),
                    command: command.to_string(),
                    timeout: h.get("timeout").cloned(),
                });
            }
        }
    }
    Ok(out)
}

/// `command` with `--home home` (any `--home` it had removed).
pub fn rehome(command: &str, home: &Path) -> String {
    let words = shlex::split(command).unwrap_or_else(|| vec![command.to_string()]);
    let mut kept: Vec<String> = Vec::new();
    let mut skip = false;
    for w in words {
        if skip {
            skip = false;
        } else if w == "--home" {
            skip = true;
        } else if !w.starts_with("--home=") {
            kept.push(w);
        }
    }
    kept.push("--home".into());
    kept.push(home.display().to_string());
    shlex::try_join(kept.iter().map(String::as_str)).unwrap_or_else(|_| kept.join(" "))
}

/// The agent's settings document in the throwaway home: `base` (the headless run's
/// settings) with the wiring of `variant`.
pub fn settings(
    row: &AgentRow,
    base: Value,
    wiring: &[Wired],
    variant: Variant,
    home: &Path,
    unit: u64,
) -> std::io::Result<Value> {
    let mut hooks: Map<String, Value> = Map::new();
    let gates =
        |event: &str| from_agent_name(row.dialect, event) == Some(hookhost::Event::PreToolUse);
    for w in wiring {
        let (command, timeout) = match variant {
            Variant::Real => (rehome(&w.command, home), w.timeout.clone()),
            _ if !gates(&w.event) => continue,
            Variant::Crash => (
                stand_in(home, "crash", "kill -SEGV $$\n")?,
                Some(json!(2 * unit)),
            ),
            Variant::Timeout => (
                stand_in(home, "timeout", "exec sleep 60\n")?,
                Some(json!(2 * unit)),
            ),
        };
        let mut entry = json!({"type": "command", "command": command});
        if let Some(t) = timeout {
            entry["timeout"] = t;
        }
        let mut group = json!({"hooks": [entry]});
        if let Some(m) = &w.matcher {
            group["matcher"] = m.clone();
        }
        if let Some(list) = hooks
            .entry(w.event.clone())
            .or_insert_with(|| json!([]))
            .as_array_mut()
        {
            list.push(group);
        }
    }
    let mut doc = base;
    doc["hooks"] = Value::Object(hooks);
    Ok(doc)
}

/// A stand-in hook script under the throwaway home.
fn stand_in(home: &Path, name: &str, body: &str) -> std::io::Result<String> {
    let path = home.join(format!("prove/{name}.sh"));
    script(&path, &format!("cat > /dev/null\n{body}"))?;
    Ok(path.display().to_string())
}

/// Writes an executable `sh` script.
fn script(path: &Path, body: &str) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(path, format!("#!/bin/sh\n{body}"))?;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755))
}

/// The canary guard: a native PreToolUse hook in the throwaway home's own hooks.json that
/// logs every payload it gets to `log` and blocks (exit 2) every call naming `token`. The warm
/// engine is off there (no engine is left running after the proof).
pub fn canary_guard(home: &Path, token: &str) -> std::io::Result<PathBuf> {
    let log = home.join("prove/guard.log");
    let guard = home.join("prove/canary-guard.sh");
    let quote =
        |p: &Path| shlex::try_quote(&p.display().to_string()).map(std::borrow::Cow::into_owned);
    let log_q = quote(&log).map_err(std::io::Error::other)?;
    script(
        &guard,
        &format!(
            "payload=$(cat)\nprintf '%s\\n' \"$payload\" >> {log_q}\ncase \"$payload\" in *{token}*) echo '{CANARY_REASON}' >&2; exit 2;; esac\nexit 0\n"
        ),
    )?;
    let config = json!({
        "warmEngine": false,
        "hooks": {"PreToolUse": [{"command": guard.display().to_string(), "description": "hookhost prove: canary guard"}]},
    });
    let dir = home.join(".coding-agent");
    std::fs::create_dir_all(&dir)?;
    std::fs::write(
        dir.join("hooks.json"),
        serde_json::to_string_pretty(&config)?,
    )?;
    Ok(log)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rehome_replaces_any_home() {
        let h = Path::new("/tmp/prove home");
        assert_eq!(
            rehome("/usr/bin/hookhost hook --for claude --home /home/me", h),
            "/usr/bin/hookhost hook --for claude --home '/tmp/prove home'"
        );
        assert_eq!(
            rehome("hookhost hook --home=/x --for codex", h),
            "hookhost hook --for codex --home '/tmp/prove home'"
        );
    }
}
