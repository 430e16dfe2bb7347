//! The environment a hook of another agent's dialect runs with, besides hookhost's own
//! `HOOK_EVENT` and `HOOK_PROJECT_DIR`: the variables that agent sets for its hooks.
//!
//! | dialect | variables (as the agent sets them, checked against the pinned versions) |
//! |---|---|
//! | Claude Code | `CLAUDE_PROJECT_DIR`, `CLAUDE_CODE_SESSION_ID`; `CLAUDE_ENV_FILE` at SessionStart |
//! | Gemini CLI | `GEMINI_PROJECT_DIR`, `GEMINI_CWD`, `GEMINI_SESSION_ID`, `CLAUDE_PROJECT_DIR` |
//! | Codex | none (Codex 0.171 sets no variable for its hooks) |
//! | Cursor | `CURSOR_PROJECT_DIR`, `CLAUDE_PROJECT_DIR` |
//! | GitHub Copilot CLI | `COPILOT_PROJECT_DIR`, `CLAUDE_PROJECT_DIR` (what Copilot CLI 1.0.102 sets) |
//! | Qwen Code | `QWEN_PROJECT_DIR` |
//! | Factory Droid | `FACTORY_PROJECT_DIR` |
//! | Qoder CLI, Grok CLI, Auggie, VS Code | none (their hooks references name none) |
//! | goose | `PLUGIN_ROOT` (the plugin's directory: set with the command, `config/agents/plugins.rs`) |
//! | native, ling | none |
//!
//! From hookhost's own agent the values are the ones hookhost knows (the project, the
//! session, a private env file: `session_env`). Under `hookhost hook --for X` hookhost is X's
//! hook: the hooks of X's dialect get the values X gave hookhost's own process under X's
//! names ([`AgentEnv`]: only those names, e.g. Claude Code's own `CLAUDE_ENV_FILE`, never a
//! file of hookhost's), and also `CLAUDE_EFFORT`, `CLAUDECODE` and `CLAUDE_CODE_REMOTE`
//! (Claude Code) or `GEMINI_PLANS_DIR` (Gemini CLI), which hookhost has no value of its own
//! for. A shell hook of a dialect inherits no value of that agent's variables that hookhost
//! did not set for it ([`env_unset`]).

use crate::Dialect;
use crate::config::agents::claude_like;
use std::path::Path;

/// The variables agent `d` sets for its hooks that hookhost passes on from its own
/// environment when it runs as that agent's hook.
pub fn agent_variables(d: Dialect) -> &'static [&'static str] {
    match d {
        Dialect::Claude => &[
            "CLAUDE_PROJECT_DIR",
            "CLAUDE_CODE_SESSION_ID",
            "CLAUDE_ENV_FILE",
            "CLAUDE_EFFORT",
            "CLAUDECODE",
            "CLAUDE_CODE_REMOTE",
        ],
        Dialect::Gemini => &[
            "GEMINI_PROJECT_DIR",
            "GEMINI_CWD",
            "GEMINI_SESSION_ID",
            "GEMINI_PLANS_DIR",
            "CLAUDE_PROJECT_DIR",
        ],
        Dialect::Cursor => &["CURSOR_PROJECT_DIR", "CLAUDE_PROJECT_DIR"],
        Dialect::Copilot => &["COPILOT_PROJECT_DIR", "CLAUDE_PROJECT_DIR"],
        Dialect::Codex | Dialect::Native | Dialect::Ling => &[],
        // The Claude-like agents: their row's (`config::agents::claude_like`).
        d => claude_like::profile(d).map_or(&[], |p| p.variables),
    }
}

/// The variables the agent that started hookhost set for it (`hookhost hook --for X` runs
/// as X's hook): the hooks of X's dialect get them under the same names, unchanged.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AgentEnv {
    /// Whose variables these are.
    pub dialect: Dialect,
    /// Name and value, of [`agent_variables`] only.
    pub vars: Vec<(String, String)>,
}

impl AgentEnv {
    /// The variables of agent `d` this process was started with (absent or non-UTF-8 ones
    /// are left out).
    pub fn from_process(d: Dialect) -> AgentEnv {
        AgentEnv {
            dialect: d,
            vars: agent_variables(d)
                .iter()
                .filter_map(|name| Some((name.to_string(), std::env::var(name).ok()?)))
                .collect(),
        }
    }

    /// The value the agent gave `name`.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.vars
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// What a hook's environment is made of, besides its dialect.
#[derive(Debug, Clone, Copy)]
pub struct EnvFacts<'a> {
    /// The project directory.
    pub project: &'a Path,
    /// The session (`sessionId`), when known.
    pub session_id: Option<&'a str>,
    /// The file a Claude Code hook may write `export` lines to (SessionStart): hookhost's
    /// own, for its own agent.
    pub env_file: Option<&'a Path>,
    /// The variables the agent that started hookhost set for it.
    pub agent: Option<&'a AgentEnv>,
}

impl<'a> EnvFacts<'a> {
    /// Facts of `project` alone.
    pub fn of(project: &'a Path) -> Self {
        EnvFacts {
            project,
            session_id: None,
            env_file: None,
            agent: None,
        }
    }
}

/// The environment a hook of dialect `d` runs with, besides `HOOK_EVENT` and
/// `HOOK_PROJECT_DIR` (see the module's table).
pub fn env(d: Dialect, f: &EnvFacts) -> Vec<(String, String)> {
    // Per hook and event: a native hook allocates nothing.
    let dir = || f.project.to_string_lossy().into_owned();
    let mut vars: Vec<(String, String)> = match d {
        Dialect::Claude => {
            let mut v = vec![("CLAUDE_PROJECT_DIR".into(), dir())];
            v.extend(
                f.session_id
                    .map(|s| ("CLAUDE_CODE_SESSION_ID".to_string(), s.to_string())),
            );
            v.extend(f.env_file.map(|p| {
                (
                    "CLAUDE_ENV_FILE".to_string(),
                    p.to_string_lossy().into_owned(),
                )
            }));
            v
        }
        Dialect::Gemini => {
            let mut v = vec![
                ("GEMINI_PROJECT_DIR".into(), dir()),
                ("GEMINI_CWD".into(), dir()),
            ];
            v.extend(
                f.session_id
                    .map(|s| ("GEMINI_SESSION_ID".to_string(), s.to_string())),
            );
            v.push(("CLAUDE_PROJECT_DIR".into(), dir()));
            v
        }
        Dialect::Cursor => vec![
            ("CURSOR_PROJECT_DIR".into(), dir()),
            ("CLAUDE_PROJECT_DIR".into(), dir()),
        ],
        Dialect::Copilot => vec![
            ("COPILOT_PROJECT_DIR".into(), dir()),
            ("CLAUDE_PROJECT_DIR".into(), dir()),
        ],
        Dialect::Codex | Dialect::Native | Dialect::Ling => return Vec::new(),
        d => agent_variables(d)
            .iter()
            .map(|name| (name.to_string(), dir()))
            .collect(),
    };
    if let Some(agent) = f.agent.filter(|a| a.dialect == d) {
        for (name, value) in &agent.vars {
            match vars.iter_mut().find(|(n, _)| n == name) {
                Some(slot) => slot.1.clone_from(value),
                None => vars.push((name.clone(), value.clone())),
            }
        }
    }
    vars
}

/// The variables of agent `d` that a hook gets no value for in `set` (what [`env`](fn@env) made):
/// cleared from a shell hook's inherited environment, so that a value some outer agent set
/// for hookhost itself (hookhost run inside a Claude Code session) is not taken for this
/// agent's (another session's `CLAUDE_ENV_FILE`).
pub fn env_unset(d: Dialect, set: &[(String, String)]) -> Vec<&'static str> {
    agent_variables(d)
        .iter()
        .copied()
        .filter(|name| !set.iter().any(|(n, _)| n == name))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(v: &[(String, String)]) -> Vec<&str> {
        v.iter().map(|(n, _)| n.as_str()).collect()
    }

    #[test]
    fn each_agent_sets_its_own_variables() {
        let f = EnvFacts {
            session_id: Some("s1"),
            ..EnvFacts::of(Path::new("/p"))
        };
        let claude = env(Dialect::Claude, &f);
        assert_eq!(
            names(&claude),
            ["CLAUDE_PROJECT_DIR", "CLAUDE_CODE_SESSION_ID"]
        );
        assert_eq!(claude[1].1, "s1");
        let gemini = env(Dialect::Gemini, &f);
        assert_eq!(
            names(&gemini),
            [
                "GEMINI_PROJECT_DIR",
                "GEMINI_CWD",
                "GEMINI_SESSION_ID",
                "CLAUDE_PROJECT_DIR"
            ]
        );
        assert!(env(Dialect::Codex, &f).is_empty());
        assert!(env(Dialect::Native, &f).is_empty());
        let file = Path::new("/cache/session-env/s1/sessionstart-hook-0.sh");
        let with_file = env(
            Dialect::Claude,
            &EnvFacts {
                env_file: Some(file),
                ..f
            },
        );
        assert_eq!(
            with_file[2],
            ("CLAUDE_ENV_FILE".into(), file.display().to_string())
        );
    }

    #[test]
    fn an_outer_agents_variables_are_cleared_where_this_one_sets_none() {
        let f = EnvFacts {
            session_id: Some("s1"),
            ..EnvFacts::of(Path::new("/p"))
        };
        let set = env(Dialect::Claude, &f);
        assert_eq!(
            env_unset(Dialect::Claude, &set),
            [
                "CLAUDE_ENV_FILE",
                "CLAUDE_EFFORT",
                "CLAUDECODE",
                "CLAUDE_CODE_REMOTE"
            ]
        );
        assert!(env_unset(Dialect::Native, &[]).is_empty());
    }

    #[test]
    fn the_agents_own_values_pass_through_to_its_dialect_only() {
        let agent = AgentEnv {
            dialect: Dialect::Claude,
            vars: vec![
                ("CLAUDE_PROJECT_DIR".into(), "/started/in".into()),
                (
                    "CLAUDE_ENV_FILE".into(),
                    "/home/u/.claude/session-env/x/sessionstart-hook-0.sh".into(),
                ),
                ("CLAUDE_EFFORT".into(), "high".into()),
            ],
        };
        let f = EnvFacts {
            session_id: Some("s1"),
            agent: Some(&agent),
            ..EnvFacts::of(Path::new("/p"))
        };
        let claude = env(Dialect::Claude, &f);
        assert_eq!(
            names(&claude),
            [
                "CLAUDE_PROJECT_DIR",
                "CLAUDE_CODE_SESSION_ID",
                "CLAUDE_ENV_FILE",
                "CLAUDE_EFFORT"
            ]
        );
        assert_eq!(claude[0].1, "/started/in");
        assert!(claude[2].1.starts_with("/home/u/.claude/"));
        // A Gemini CLI hook under Claude Code gets hookhost's values, not Claude Code's.
        let gemini = env(Dialect::Gemini, &f);
        assert!(
            gemini
                .iter()
                .all(|(n, v)| n == "GEMINI_SESSION_ID" || v == "/p"),
            "{gemini:?}"
        );
    }
}
