//! What the scripted model does, the same in every API: in the main loop, one canary call per
//! path to prove, in order (the shell tool, a file write, a subagent), one per tool result
//! already in the conversation, then a final text; in a subagent's loop (a conversation that
//! carries [`SUBAGENT_MARKER`] and offers no subagent tool), one canary shell call, then text.
//! A request that offers no shell tool (titles, routing, summaries) is a side request.
//!
//! Every canary call names [`Script::token`] (the canary guard blocks exactly those) and
//! would create a file `prove-PATH-TOKEN` in the project: whether it exists afterwards is
//! whether the call ran.

use serde_json::{Value, json};
use std::path::{Path, PathBuf};

/// The shell tools of the agents, by preference.
pub const SHELL_TOOLS: &[&str] = &[
    "Bash",
    "run_shell_command",
    "shell_command",
    "exec_command",
    "shell",
];
/// Their file-writing tools.
pub const WRITE_TOOLS: &[&str] = &["Write", "write_file", "apply_patch"];
/// Their subagent tools (Claude Code's was `Task`, is `Agent`; Qwen Code's is `agent`).
pub const SUBAGENT_TOOLS: &[&str] = &["Agent", "Task", "agent"];
/// In the prompt of the subagent the model starts (never the token: the subagent call itself
/// must pass the guard).
pub const SUBAGENT_MARKER: &str = "hookhost-prove-subagent";

/// A path a guard must cover that the model drives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Probe {
    Shell,
    Write,
    Subagent,
}

impl Probe {
    pub fn as_str(self) -> &'static str {
        match self {
            Probe::Shell => "shell",
            Probe::Write => "write",
            Probe::Subagent => "subagent",
        }
    }
}

/// What the model answers.
#[derive(Debug, Clone, PartialEq)]
pub enum Turn {
    /// Call tool `name` with `args` (a JSON object) for `probe`.
    Call {
        probe: Probe,
        name: String,
        args: Value,
    },
    /// A final answer.
    Text(String),
    /// A request that is not the agent's loop (no shell tool offered).
    Side,
}

/// The script of one agent run.
#[derive(Debug, Clone)]
pub struct Script {
    pub token: String,
    pub project: PathBuf,
    /// The main loop's paths, in order (those whose tool the agent does not offer are skipped).
    pub probes: Vec<Probe>,
}

impl Script {
    /// The file a probe's call would create.
    pub fn marker(&self, probe: Probe) -> PathBuf {
        marker(&self.project, probe, &self.token)
    }

    /// The turn for a request offering `tools` with `results` tool results so far.
    pub fn turn(&self, tools: &[String], results: usize, body: &Value) -> Turn {
        let offered = |list: &[&str]| {
            list.iter()
                .find(|t| tools.iter().any(|o| o == *t))
                .map(|t| (*t).to_string())
        };
        let Some(shell) = offered(SHELL_TOOLS) else {
            return Turn::Side;
        };
        let subagent_tool = offered(SUBAGENT_TOOLS);
        let write = offered(WRITE_TOOLS);
        let steps = self.main_steps(&shell, subagent_tool, write.as_deref());
        // A subagent's loop: the marker in its conversation, and either no subagent tool
        // (Claude Code's) or fewer results than the main loop has once it called the
        // subagent (Qwen Code's subagents may start subagents).
        let called_at = steps.iter().position(|t| {
            matches!(
                t,
                Turn::Call {
                    probe: Probe::Subagent,
                    ..
                }
            )
        });
        if body.to_string().contains(SUBAGENT_MARKER) && called_at.is_none_or(|k| results <= k) {
            return match results {
                0 => self.shell_call(&shell, Probe::Subagent),
                _ => Turn::Text("done".into()),
            };
        }
        steps
            .into_iter()
            .nth(results)
            .unwrap_or_else(|| Turn::Text("done".into()))
    }

    /// The main loop's canary calls, in order, for the tools offered.
    fn main_steps(
        &self,
        shell: &str,
        subagent_tool: Option<String>,
        write: Option<&str>,
    ) -> Vec<Turn> {
        self.probes
            .iter()
            .filter_map(|p| match p {
                Probe::Shell => Some(self.shell_call(shell, Probe::Shell)),
                Probe::Write => write.map(|w| self.write_call(w)),
                Probe::Subagent => subagent_tool.clone().map(|name| Turn::Call {
                    probe: Probe::Subagent,
                    name,
                    args: json!({
                        "description": "prove a subagent",
                        "prompt": format!("{SUBAGENT_MARKER}: run the command you are given."),
                        "subagent_type": "general-purpose",
                    }),
                }),
            })
            .collect()
    }

    fn shell_call(&self, tool: &str, probe: Probe) -> Turn {
        let command = format!("touch {}", self.marker(probe).display());
        let args = match tool {
            "shell" => json!({"command": ["bash", "-lc", command]}),
            "exec_command" => json!({"cmd": command}),
            _ => json!({"command": command, "description": "hookhost prove: canary call"}),
        };
        Turn::Call {
            probe,
            name: tool.into(),
            args,
        }
    }

    fn write_call(&self, tool: &str) -> Turn {
        let path = self.marker(Probe::Write);
        let args = if tool == "apply_patch" {
            let name = path.file_name().unwrap_or_default().to_string_lossy();
            json!({"input": format!("*** Begin Patch\n*** Add File: {name}\n+{}\n*** End Patch\n", self.token)})
        } else {
            json!({"file_path": path, "content": format!("{}\n", self.token)})
        };
        Turn::Call {
            probe: Probe::Write,
            name: tool.into(),
            args,
        }
    }
}

/// `PROJECT/prove-PATH-TOKEN`.
pub fn marker(project: &Path, probe: Probe, token: &str) -> PathBuf {
    project.join(format!("prove-{}-{token}", probe.as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn script() -> Script {
        Script {
            token: "tok".into(),
            project: "/p".into(),
            probes: vec![Probe::Shell, Probe::Write, Probe::Subagent],
        }
    }

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| (*s).to_string()).collect()
    }

    #[test]
    fn main_loop_one_probe_per_result_then_text() {
        let s = script();
        let tools = names(&["Bash", "Write", "Agent", "Read"]);
        let probes: Vec<Turn> = (0..4).map(|n| s.turn(&tools, n, &json!({}))).collect();
        assert!(
            matches!(&probes[0], Turn::Call { probe: Probe::Shell, name, args }
            if name == "Bash" && args["command"] == "touch /p/prove-shell-tok")
        );
        assert!(
            matches!(&probes[1], Turn::Call { probe: Probe::Write, name, args }
            if name == "Write" && args["file_path"] == "/p/prove-write-tok")
        );
        assert!(
            matches!(&probes[2], Turn::Call { probe: Probe::Subagent, name, args }
            if name == "Agent" && !args.to_string().contains("tok"))
        );
        assert_eq!(probes[3], Turn::Text("done".into()));
    }

    #[test]
    fn a_missing_tool_skips_its_probe_and_side_requests_are_side() {
        let s = script();
        let tools = names(&["run_shell_command"]);
        assert!(matches!(
            s.turn(&tools, 0, &json!({})),
            Turn::Call {
                probe: Probe::Shell,
                ..
            }
        ));
        assert_eq!(s.turn(&tools, 1, &json!({})), Turn::Text("done".into()));
        assert_eq!(s.turn(&names(&["Read"]), 0, &json!({})), Turn::Side);
    }

    #[test]
    fn a_subagents_loop_gets_its_own_canary() {
        let s = script();
        let body =
            json!({"messages": [{"role": "user", "content": format!("{SUBAGENT_MARKER}: go")}]});
        let tools = names(&["Bash", "Write"]);
        assert!(
            matches!(s.turn(&tools, 0, &body), Turn::Call { probe: Probe::Subagent, name, args }
            if name == "Bash" && args["command"] == "touch /p/prove-subagent-tok")
        );
        assert_eq!(s.turn(&tools, 1, &body), Turn::Text("done".into()));
    }

    /// Qwen Code's subagents offer its subagent tool too: their loop is told apart from the
    /// main one by how many results it has.
    #[test]
    fn a_subagent_that_may_start_subagents_gets_its_canary_too() {
        let s = script();
        let body =
            json!({"messages": [{"role": "user", "content": format!("{SUBAGENT_MARKER}: go")}]});
        let tools = names(&["run_shell_command", "write_file", "agent"]);
        assert!(matches!(
            s.turn(&tools, 0, &body),
            Turn::Call { probe: Probe::Subagent, name, .. } if name == "run_shell_command"
        ));
        assert_eq!(s.turn(&tools, 1, &body), Turn::Text("done".into()));
        // The main loop after its subagent call (shell, write, subagent: three results).
        assert_eq!(s.turn(&tools, 3, &body), Turn::Text("done".into()));
        assert!(matches!(
            s.turn(&tools, 2, &json!({})),
            Turn::Call { probe: Probe::Subagent, name, .. } if name == "agent"
        ));
    }

    #[test]
    fn codex_patch_adds_the_marker() {
        let s = script();
        let t = s.turn(&names(&["exec_command", "apply_patch"]), 1, &json!({}));
        let Turn::Call { args, .. } = t else { panic!() };
        assert!(
            args["input"]
                .as_str()
                .unwrap()
                .contains("*** Add File: prove-write-tok")
        );
    }
}
