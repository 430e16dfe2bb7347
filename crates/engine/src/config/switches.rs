//! What turns configured hooks off, once every file is read: a hook's own
//! `"enabled": false` (decided where it is read), and a file's switch ([`Switch`]):
//! hookhost's `"disableAllHooks": true`, Claude Code's `disableAllHooks`, Gemini CLI's
//! `hooksConfig.enabled` / `hooksConfig.disabled`, Codex's `[features] hooks = false` and
//! `[hooks.state]`.
//!
//! The rule, one for every switch: a switch turns off hooks of its own file, and hooks of
//! its reach (every file for hookhost's own switch; that agent's files for an agent's) at its
//! file's rank and every lower one, never a managed hook of another file. A project file
//! therefore turns off project hooks only, a user's file the user's and the project's, and
//! only the managed file itself reaches managed hooks (and a native managed file not even
//! its own: `disableAllHooks` never turns managed hooks off). The agents themselves let a
//! project's settings turn off the user's hooks too; hookhost does not (a project file never
//! weakens a user's or managed guard), and `check` says so where it differs.

use super::types::{DisabledHook, Hook, Scope};
use crate::Dialect;
use hookhost_protocol::ConfigError;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

/// One file's switch.
#[derive(Debug, Clone)]
pub(super) struct Switch {
    /// The file that says it.
    pub file: PathBuf,
    /// Its file's rank.
    pub scope: Scope,
    /// Whose hooks it reaches beyond its own file.
    pub reach: Reach,
    /// `None`: every hook it reaches; else only those whose [`Hook::switch_id`] is listed.
    pub names: Option<Vec<String>>,
    /// As the file says it (`"disableAllHooks": true`).
    pub why: String,
}

/// Whose hooks a switch reaches beyond its own file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Reach {
    /// Every hook (hookhost's own `disableAllHooks`).
    Every,
    /// The hooks of one agent's own files (its switch knows no others).
    AgentFiles(Dialect),
}

impl Switch {
    /// Whether this switch turns `hook` off; `agent_files` says which agent's file each
    /// other agent's file is.
    fn turns_off(&self, hook: &Hook, agent_files: &BTreeMap<PathBuf, Dialect>) -> bool {
        let own = hook.file == self.file;
        let reached = match self.reach {
            Reach::Every => true,
            Reach::AgentFiles(d) => agent_files.get(&hook.file) == Some(&d),
        };
        let named = self
            .names
            .as_ref()
            .is_none_or(|names| hook.switch_id.as_ref().is_some_and(|id| names.contains(id)));
        let ranked = if own {
            !(self.reach == Reach::Every && hook.scope == Scope::Managed)
        } else {
            hook.scope != Scope::Managed && hook.scope.rank() >= self.scope.rank()
        };
        reached && named && ranked
    }
}

/// Splits `hooks` into those that run and those a switch turns off (in file order).
pub(super) fn apply(
    hooks: Vec<Hook>,
    switches: &[Switch],
    agent_files: &BTreeMap<PathBuf, Dialect>,
) -> (Vec<Hook>, Vec<DisabledHook>) {
    let mut on = Vec::new();
    let mut off = Vec::new();
    for hook in hooks {
        match switches.iter().find(|s| s.turns_off(&hook, agent_files)) {
            Some(s) => off.push(DisabledHook {
                hook: Arc::new(hook),
                by: s.file.clone(),
                why: s.why.clone(),
            }),
            None => on.push(hook),
        }
    }
    (on, off)
}

/// What `check` says about a project file's agent switch: the agent would turn off the
/// user's hooks too, hookhost does not.
pub(super) fn project_switch_notes(switches: &[Switch]) -> Vec<ConfigError> {
    switches
        .iter()
        .filter_map(|s| match (s.scope, s.reach) {
            (Scope::Project, Reach::AgentFiles(d)) => {
                let agent = super::agents::agent_name(d);
                let what = if s.names.is_some() {
                    "the hooks it names"
                } else {
                    "the hooks"
                };
                Some(ConfigError {
                    file: s.file.clone(),
                    hook: None,
                    message: format!(
                        "{}: turns off {what} of this project's {agent} files; {agent} would turn off the user's too, hookhost does not (a project file never turns off a user's or managed hook)",
                        s.why,
                    ),
                })
            }
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Handler, OnError};
    use std::path::Path;
    use std::time::Duration;

    fn hook(scope: Scope, file: &str, dialect: Dialect) -> Hook {
        Hook {
            event: crate::Event::PreToolUse,
            index: 0,
            scope,
            file: PathBuf::from(file),
            handler: Handler::Shell {
                command: "guard".into(),
                shell: Default::default(),
            },
            matcher: None,
            match_source: None,
            description: None,
            timeout: Duration::from_secs(1),
            cwd: PathBuf::from("/p"),
            is_async: false,
            on_error: OnError::Warn,
            dialect,
            source: 0,
            condition: None,
            switch_id: Some("guard".into()),
            status_message: None,
            once: false,
            async_rewake: false,
            sandbox: crate::config::SandboxMode::Default,
            plugin_env: None,
        }
    }

    fn switch(file: &str, scope: Scope, reach: Reach) -> Switch {
        Switch {
            file: PathBuf::from(file),
            scope,
            reach,
            names: None,
            why: "off".into(),
        }
    }

    #[test]
    fn a_switch_reaches_its_rank_and_below_never_managed_hooks() {
        let files = BTreeMap::from([
            (PathBuf::from("/p/.claude/settings.json"), Dialect::Claude),
            (PathBuf::from("/h/.claude/settings.json"), Dialect::Claude),
        ]);
        let managed = hook(Scope::Managed, "/etc/m.json", Dialect::Native);
        let user = hook(
            Scope::Global,
            "/h/.coding-agent/hooks.json",
            Dialect::Native,
        );
        let user_claude = hook(Scope::Global, "/h/.claude/settings.json", Dialect::Claude);
        let project = hook(
            Scope::Project,
            "/p/.coding-agent/hooks.json",
            Dialect::Native,
        );
        let project_claude = hook(Scope::Project, "/p/.claude/settings.json", Dialect::Claude);
        let off = |s: &Switch| {
            [&managed, &user, &user_claude, &project, &project_claude]
                .map(|h| s.turns_off(h, &files))
        };
        let native = |file: &str, scope| switch(file, scope, Reach::Every);
        assert_eq!(
            off(&native("/p/.coding-agent/hooks.json", Scope::Project)),
            [false, false, false, true, true]
        );
        assert_eq!(
            off(&native("/h/.coding-agent/hooks.json", Scope::Global)),
            [false, true, true, true, true]
        );
        assert_eq!(
            off(&native("/etc/m.json", Scope::Managed)),
            [false, true, true, true, true]
        );
        let claude = |file: &str, scope| switch(file, scope, Reach::AgentFiles(Dialect::Claude));
        assert_eq!(
            off(&claude("/p/.claude/settings.json", Scope::Project)),
            [false, false, false, false, true]
        );
        assert_eq!(
            off(&claude("/h/.claude/settings.json", Scope::Global)),
            [false, false, true, false, true]
        );
        let named = Switch {
            names: Some(vec!["other".into()]),
            ..claude("/h/.claude/settings.json", Scope::Global)
        };
        assert_eq!(off(&named), [false; 5]);
        let (on, disabled) = apply(
            vec![project.clone(), user.clone()],
            &[native("/p/.coding-agent/hooks.json", Scope::Project)],
            &files,
        );
        assert_eq!((on.len(), disabled.len()), (1, 1));
        assert_eq!(disabled[0].by, Path::new("/p/.coding-agent/hooks.json"));
    }
}
