//! The permission checker: allow / ask / deny rules by tool and argument pattern, and system
//! deny rules that nothing — no hook output, no allow rule — can override.
//!
//! It runs after every PreToolUse hook passed, on the final arguments (hooks can block,
//! never bypass). A rule is `tool` or `tool(pattern)`, where the pattern is a glob (`*` any
//! text) matched against the call's main argument: `command` for bash, `path` for file tools.

use async_trait::async_trait;
use serde_json::Value;
use std::io::{BufRead, IsTerminal, Write};
use std::sync::Arc;

/// One rule, e.g. `bash(rm -rf *)` or `write_file`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rule {
    /// The tool it applies to; `*` for every tool.
    pub tool: String,
    /// The glob on the call's main argument; `None` matches every call of the tool.
    pub pattern: Option<String>,
    text: String,
}

impl Rule {
    /// Parses `tool` or `tool(pattern)`.
    pub fn parse(text: &str) -> Result<Rule, String> {
        let text = text.trim();
        let (tool, pattern) = match text.split_once('(') {
            None => (text, None),
            Some((tool, rest)) => {
                let pattern = rest.strip_suffix(')').ok_or_else(|| {
                    format!(
                        "permission rule {text:?} opens `(` without closing it: write tool(pattern)"
                    )
                })?;
                (tool.trim(), Some(pattern.to_string()))
            }
        };
        if tool.is_empty() {
            return Err(format!("permission rule {text:?} names no tool"));
        }
        Ok(Rule {
            tool: tool.to_string(),
            pattern,
            text: text.to_string(),
        })
    }

    /// Whether the rule covers a call of `tool` with `args`.
    pub fn matches(&self, tool: &str, args: &Value) -> bool {
        if self.tool != tool && self.tool != "*" {
            return false;
        }
        match &self.pattern {
            None => true,
            Some(p) => glob(p, main_argument(args)),
        }
    }
}

impl std::fmt::Display for Rule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
}

/// The argument rules match against.
fn main_argument(args: &Value) -> &str {
    ["command", "path", "file_path", "prompt"]
        .iter()
        .find_map(|k| args.get(*k).and_then(Value::as_str))
        .unwrap_or("")
}

/// `*` matches any text (including none); everything else literally.
pub fn glob(pattern: &str, text: &str) -> bool {
    let parts: Vec<&str> = pattern.split('*').collect();
    if parts.len() == 1 {
        return pattern == text;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !text.starts_with(first) || text.len() < first.len() + last.len() || !text.ends_with(last) {
        return false;
    }
    let mut rest = &text[first.len()..text.len() - last.len()];
    for part in &parts[1..parts.len() - 1] {
        match rest.find(part) {
            Some(i) => rest = &rest[i + part.len()..],
            None => return false,
        }
    }
    true
}

impl std::fmt::Debug for PermissionChecker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PermissionChecker")
            .field("guard", &self.guard.as_ref().map(|_| "installed"))
            .field("system_deny", &self.system_deny)
            .field("deny", &self.deny)
            .field("ask", &self.ask)
            .field("allow", &self.allow)
            .field("default", &self.default)
            .finish()
    }
}

/// What the checker says about one call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Permission {
    /// Run the call.
    Allow,
    /// Ask the user (the rule, or "a hook asked").
    Ask(String),
    /// Denied by this rule.
    Deny(String),
}

/// A built-in deny the embedding installs before every rule (hookhost's protected-state
/// guard): the reason a call is denied, or `None`. Nothing overrides it.
pub type SystemGuard = Arc<dyn Fn(&str, &Value) -> Option<String> + Send + Sync>;

/// Rules, checked in order: the system guard, system deny, deny, ask, allow; anything else
/// gets `default`.
#[derive(Clone)]
pub struct PermissionChecker {
    /// Checked before every rule; nothing overrides it ([`PermissionChecker::with_guard`]).
    pub guard: Option<SystemGuard>,
    /// Checked first; nothing overrides them, no hook output and no allow rule.
    pub system_deny: Vec<Rule>,
    /// Calls denied (after the system list).
    pub deny: Vec<Rule>,
    /// Calls the user must confirm.
    pub ask: Vec<Rule>,
    /// Calls allowed without asking, unless a hook asked.
    pub allow: Vec<Rule>,
    /// What a call no rule matches gets ([`Permission::Allow`] by default).
    pub default: Permission,
}

impl Default for PermissionChecker {
    /// Allows everything except the built-in system deny list.
    fn default() -> Self {
        PermissionChecker {
            guard: None,
            system_deny: ["bash(curl * | sh*)", "bash(*/etc/shadow*)", "bash(sudo *)"]
                .iter()
                .filter_map(|r| Rule::parse(r).ok())
                .collect(),
            deny: Vec::new(),
            ask: Vec::new(),
            allow: Vec::new(),
            default: Permission::Allow,
        }
    }
}

impl PermissionChecker {
    /// The same checker with `guard` checked before every rule.
    pub fn with_guard(mut self, guard: SystemGuard) -> Self {
        self.guard = Some(guard);
        self
    }

    /// The verdict for a call; `hook_asked` is a PreToolUse hook's `ask`.
    pub fn check(&self, tool: &str, args: &Value, hook_asked: bool) -> Permission {
        if let Some(reason) = self.guard.as_ref().and_then(|g| g(tool, args)) {
            return Permission::Deny(reason);
        }
        let find = |rules: &[Rule]| rules.iter().find(|r| r.matches(tool, args)).cloned();
        if let Some(r) = find(&self.system_deny) {
            return Permission::Deny(format!("system rule {r}"));
        }
        if let Some(r) = find(&self.deny) {
            return Permission::Deny(format!("rule {r}"));
        }
        if let Some(r) = find(&self.ask) {
            return Permission::Ask(format!("rule {r}"));
        }
        if hook_asked {
            return Permission::Ask("a PreToolUse hook asked for confirmation".into());
        }
        if find(&self.allow).is_some() {
            return Permission::Allow;
        }
        self.default.clone()
    }
}

/// Asks the user whether a call may run.
#[async_trait]
pub trait Prompter: Send + Sync {
    /// Whether the user allows `tool` with `args`; `why` names what asked (a rule or a hook).
    async fn confirm(&self, tool: &str, args: &Value, why: &str) -> bool;
}

/// y/N on a terminal; denies when stdin is not a terminal (no one to ask).
#[derive(Debug, Default, Clone, Copy)]
pub struct TerminalPrompter;

#[async_trait]
impl Prompter for TerminalPrompter {
    async fn confirm(&self, tool: &str, args: &Value, why: &str) -> bool {
        if !std::io::stdin().is_terminal() {
            return false;
        }
        let question = format!("Allow {tool} {args} ({why})? [y/N] ");
        tokio::task::spawn_blocking(move || {
            let mut err = std::io::stderr();
            let _ = write!(err, "{question}");
            let _ = err.flush();
            let mut line = String::new();
            let _ = std::io::stdin().lock().read_line(&mut line);
            matches!(line.trim(), "y" | "Y" | "yes")
        })
        .await
        .unwrap_or(false)
    }
}

/// Always says no.
#[derive(Debug, Default, Clone, Copy)]
pub struct DenyPrompter;

#[async_trait]
impl Prompter for DenyPrompter {
    async fn confirm(&self, _: &str, _: &Value, _: &str) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn globs() {
        assert!(glob("rm -rf *", "rm -rf /"));
        assert!(glob("*", ""));
        assert!(glob("curl * | sh*", "curl http://x | sh"));
        assert!(!glob("rm -rf *", "ls"));
        assert!(glob("a*b*c", "aXbYc"));
        assert!(!glob("a*b*c", "aXcYb"));
        assert!(glob("exact", "exact"));
        assert!(!glob("ab*ba", "aba"));
    }

    #[test]
    fn order_is_system_deny_deny_ask_allow() {
        let mut c = PermissionChecker::default();
        c.allow.push(Rule::parse("bash").unwrap());
        c.ask.push(Rule::parse("bash(git push*)").unwrap());
        c.deny.push(Rule::parse("bash(rm -rf *)").unwrap());
        c.default = Permission::Deny("default".into());
        let bash = |cmd: &str| json!({ "command": cmd });
        assert_eq!(c.check("bash", &bash("ls"), false), Permission::Allow);
        assert!(matches!(
            c.check("bash", &bash("git push origin"), false),
            Permission::Ask(_)
        ));
        assert!(matches!(
            c.check("bash", &bash("rm -rf /"), false),
            Permission::Deny(_)
        ));
        assert!(
            matches!(c.check("bash", &bash("sudo ls"), false), Permission::Deny(r) if r.contains("system"))
        );
        assert!(matches!(
            c.check("bash", &bash("ls"), true),
            Permission::Ask(_)
        ));
        assert!(matches!(
            c.check("read_file", &json!({"path": "a"}), false),
            Permission::Deny(_)
        ));
    }

    #[test]
    fn bad_rules_say_why() {
        assert!(
            Rule::parse("bash(rm")
                .unwrap_err()
                .contains("without closing")
        );
        assert!(Rule::parse("(x)").is_err());
    }
}
