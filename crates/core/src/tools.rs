//! The built-in tools: bash (with its own timeout), read_file, write_file, edit_file,
//! todo_write; `task` (subagents) is run by the loop itself. Paths are relative to the
//! project directory; a tool error is a result the model sees, never a crash.

use super::model::ToolSpec;
use super::todo::{TodoItem, TodoList};
use crate::process::kill_group;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

/// Default timeout of the bash tool.
pub const BASH_TIMEOUT: Duration = Duration::from_secs(30);
/// Output kept from a bash command per stream.
const BASH_OUTPUT_CAP: usize = 64 * 1024;

/// The result of one tool call.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolOutput {
    /// What the model sees: the result, or the error message.
    pub content: Value,
    /// The call failed (PostToolUse hooks see `toolError: true`).
    pub is_error: bool,
}

impl ToolOutput {
    /// A successful result.
    pub fn ok(content: Value) -> Self {
        ToolOutput {
            content,
            is_error: false,
        }
    }
    /// A failed call with this message.
    pub fn error(message: impl Into<String>) -> Self {
        ToolOutput {
            content: Value::String(message.into()),
            is_error: true,
        }
    }
    /// The result as text for the model.
    pub fn text(&self) -> String {
        match &self.content {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        }
    }
}

/// The tools the model can call.
pub fn specs() -> Vec<ToolSpec> {
    vec![
        ToolSpec {
            name: "bash",
            description: "Run a shell command in the project directory",
            parameters: json!({"type": "object", "properties": {"command": {"type": "string"}, "timeout": {"type": "integer", "description": "ms"}}, "required": ["command"]}),
        },
        ToolSpec {
            name: "read_file",
            description: "Read a file of the project",
            parameters: json!({"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}),
        },
        ToolSpec {
            name: "write_file",
            description: "Create or overwrite a file",
            parameters: json!({"type": "object", "properties": {"path": {"type": "string"}, "content": {"type": "string"}}, "required": ["path", "content"]}),
        },
        ToolSpec {
            name: "edit_file",
            description: "Replace one occurrence of `old` by `new` in a file",
            parameters: json!({"type": "object", "properties": {"path": {"type": "string"}, "old": {"type": "string"}, "new": {"type": "string"}}, "required": ["path", "old", "new"]}),
        },
        ToolSpec {
            name: "todo_write",
            description: "Replace the todo list",
            parameters: json!({"type": "object", "properties": {"todos": {"type": "array", "items": {"type": "object", "properties": {"content": {"type": "string"}, "status": {"enum": ["pending", "in_progress", "completed"]}}}}}, "required": ["todos"]}),
        },
        ToolSpec {
            name: "task",
            description: "Run a subagent on a sub-task; it sees only the tool-call hooks",
            parameters: json!({"type": "object", "properties": {"prompt": {"type": "string"}, "subagent": {"type": "string"}}, "required": ["prompt"]}),
        },
    ]
}

fn str_arg<'a>(args: &'a Value, key: &str) -> Result<&'a str, ToolOutput> {
    args.get(key)
        .and_then(Value::as_str)
        .ok_or_else(|| ToolOutput::error(format!("missing string argument `{key}`")))
}

fn resolve(project: &Path, path: &str) -> PathBuf {
    project.join(path)
}

/// Whether the shell tool takes a variable named `name` from a hook (`CLAUDE_ENV_FILE`):
/// a shell name (`[A-Za-z_][A-Za-z0-9_]*`) that does not make every later command run code
/// that no PreToolUse hook sees. Refused: the dynamic loader's (`LD_*`, `DYLD_*`), the
/// shell's start-up and parsing ones (`BASH_ENV`, `ENV`, `BASH_FUNC_*`, `SHELLOPTS`,
/// `BASHOPTS`, `PROMPT_COMMAND`, `PS4`, `IFS`, `CDPATH`), and hookhost's own (`HOOKHOST_*`).
pub fn shell_env_allows(name: &str) -> bool {
    let mut chars = name.chars();
    let shell_name = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
    const REFUSED: [&str; 9] = [
        "BASH_ENV",
        "ENV",
        "SHELLOPTS",
        "BASHOPTS",
        "PROMPT_COMMAND",
        "PS4",
        "IFS",
        "CDPATH",
        "GLOBIGNORE",
    ];
    const REFUSED_PREFIXES: [&str; 4] = ["LD_", "DYLD_", "BASH_FUNC_", "HOOKHOST_"];
    shell_name && !REFUSED.contains(&name) && !REFUSED_PREFIXES.iter().any(|p| name.starts_with(p))
}

/// Runs a built-in tool other than `task`.
pub async fn run(name: &str, args: &Value, project: &Path, todos: &mut TodoList) -> ToolOutput {
    run_with_env(name, args, project, todos, &[]).await
}

/// [`run`], with variables for the shell tool (those [`shell_env_allows`]; the others are
/// left out), set over the agent's own environment.
pub async fn run_with_env(
    name: &str,
    args: &Value,
    project: &Path,
    todos: &mut TodoList,
    env: &[(String, String)],
) -> ToolOutput {
    let result = match name {
        "bash" => bash(args, project, env).await,
        "read_file" => {
            str_arg(args, "path").map(|p| match std::fs::read_to_string(resolve(project, p)) {
                Ok(s) => ToolOutput::ok(Value::String(s)),
                Err(e) => ToolOutput::error(format!("cannot read {p}: {e}")),
            })
        }
        "write_file" => str_arg(args, "path").and_then(|p| {
            let content = str_arg(args, "content")?;
            let path = resolve(project, p);
            if let Some(dir) = path.parent() {
                let _ = std::fs::create_dir_all(dir);
            }
            Ok(match std::fs::write(&path, content) {
                Ok(()) => ToolOutput::ok(json!(format!("wrote {} bytes to {p}", content.len()))),
                Err(e) => ToolOutput::error(format!("cannot write {p}: {e}")),
            })
        }),
        "edit_file" => edit(args, project),
        "todo_write" => match serde_json::from_value::<Vec<TodoItem>>(
            args.get("todos").cloned().unwrap_or(Value::Null),
        ) {
            Ok(items) => {
                todos.replace(items);
                Ok(ToolOutput::ok(json!(todos.summary())))
            }
            Err(e) => Ok(ToolOutput::error(format!("invalid todos: {e}"))),
        },
        other => Ok(ToolOutput::error(format!("unknown tool `{other}`"))),
    };
    result.unwrap_or_else(|e| e)
}

fn edit(args: &Value, project: &Path) -> Result<ToolOutput, ToolOutput> {
    let p = str_arg(args, "path")?;
    let old = str_arg(args, "old")?;
    let new = str_arg(args, "new")?;
    let path = resolve(project, p);
    let text = std::fs::read_to_string(&path)
        .map_err(|e| ToolOutput::error(format!("cannot read {p}: {e}")))?;
    if !text.contains(old) {
        return Ok(ToolOutput::error(format!("`{old}` does not occur in {p}")));
    }
    std::fs::write(&path, text.replacen(old, new, 1))
        .map_err(|e| ToolOutput::error(format!("cannot write {p}: {e}")))?;
    Ok(ToolOutput::ok(json!(format!("edited {p}"))))
}

async fn bash(
    args: &Value,
    project: &Path,
    env: &[(String, String)],
) -> Result<ToolOutput, ToolOutput> {
    let command = str_arg(args, "command")?;
    let timeout = args
        .get("timeout")
        .and_then(Value::as_u64)
        .map(Duration::from_millis)
        .unwrap_or(BASH_TIMEOUT);
    let mut cmd = tokio::process::Command::new("sh");
    cmd.arg("-c")
        .arg(command)
        .current_dir(project)
        .envs(
            env.iter()
                .filter(|(name, _)| shell_env_allows(name))
                .map(|(k, v)| (k, v)),
        )
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    // Its own process group, so that a timeout kills what it started too.
    #[cfg(unix)]
    cmd.process_group(0);
    let mut child = cmd
        .spawn()
        .map_err(|e| ToolOutput::error(format!("cannot start sh: {e}")))?;
    let pid = child.id();
    // Capped while streaming: the rest is read and dropped, never buffered.
    let stdout = tokio::spawn(read_capped(child.stdout.take()));
    let stderr = tokio::spawn(read_capped(child.stderr.take()));
    let status = match tokio::time::timeout(timeout, child.wait()).await {
        Ok(Ok(status)) => status,
        Ok(Err(e)) => return Ok(ToolOutput::error(format!("command failed: {e}"))),
        Err(_) => {
            kill_group(pid);
            let _ = child.kill().await;
            stdout.abort();
            stderr.abort();
            return Ok(ToolOutput::error(format!(
                "command timed out after {} ms (it and everything it started were killed)",
                timeout.as_millis()
            )));
        }
    };
    // A background grandchild may hold the pipes open: give them a moment, then move on.
    let grace = Duration::from_millis(100);
    let take = |h: tokio::task::JoinHandle<Vec<u8>>| async move {
        tokio::time::timeout(grace, h)
            .await
            .ok()
            .and_then(Result::ok)
            .unwrap_or_default()
    };
    let (out, err) = (take(stdout).await, take(stderr).await);
    let code = status.code();
    Ok(ToolOutput {
        content: json!({
            "exitCode": code,
            "stdout": String::from_utf8_lossy(&out),
            "stderr": String::from_utf8_lossy(&err),
        }),
        is_error: code != Some(0),
    })
}

/// Reads a stream to its end, keeping the first [`BASH_OUTPUT_CAP`] bytes.
async fn read_capped(stream: Option<impl tokio::io::AsyncRead + Unpin>) -> Vec<u8> {
    use tokio::io::AsyncReadExt;
    let Some(mut stream) = stream else {
        return Vec::new();
    };
    let mut kept = Vec::new();
    let mut buf = vec![0u8; 16 * 1024];
    loop {
        match stream.read(&mut buf).await {
            Ok(0) | Err(_) => return kept,
            Ok(n) => {
                let room = BASH_OUTPUT_CAP.saturating_sub(kept.len());
                kept.extend_from_slice(&buf[..n.min(room)]);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn bash_output_is_capped_while_streaming() {
        let dir = tempfile::tempdir().unwrap();
        let args = json!({"command": "head -c 5000000 /dev/zero | tr '\\0' x"});
        let out = run("bash", &args, dir.path(), &mut TodoList::default()).await;
        assert_eq!(
            out.content["stdout"].as_str().unwrap().len(),
            BASH_OUTPUT_CAP
        );
        assert_eq!(out.content["exitCode"], 0);
    }

    #[tokio::test]
    async fn bash_takes_the_hooks_variables_but_never_the_loaders_or_the_shells() {
        let dir = tempfile::tempdir().unwrap();
        let env = [
            ("GREETING".to_string(), "hi there".to_string()),
            ("LD_PRELOAD".to_string(), "/tmp/evil.so".to_string()),
            ("BASH_ENV".to_string(), "/tmp/evil.sh".to_string()),
            ("ENV".to_string(), "/tmp/evil.sh".to_string()),
        ];
        let args = json!({"command": "printf '%s|%s|%s|%s' \"$GREETING\" \"$LD_PRELOAD\" \"$BASH_ENV\" \"$ENV\""});
        let out = run_with_env("bash", &args, dir.path(), &mut TodoList::default(), &env).await;
        assert_eq!(out.content["stdout"], "hi there|||", "{out:?}");
        for refused in [
            "LD_PRELOAD",
            "DYLD_INSERT_LIBRARIES",
            "BASH_FUNC_ls%%",
            "HOOKHOST_TRUST",
            "IFS",
            "1X",
            "A-B",
            "",
        ] {
            assert!(!shell_env_allows(refused), "{refused}");
        }
        for allowed in ["PATH", "NODE_ENV", "_X", "VIRTUAL_ENV"] {
            assert!(shell_env_allows(allowed), "{allowed}");
        }
    }

    #[cfg(unix)]
    #[tokio::test]
    async fn bash_timeout_kills_the_whole_process_group() {
        let dir = tempfile::tempdir().unwrap();
        let marker = dir.path().join("grandchild-survived");
        let command = format!("(sleep 1; touch {}) & sleep 30", marker.display());
        let args = json!({"command": command, "timeout": 200});
        let out = run("bash", &args, dir.path(), &mut TodoList::default()).await;
        assert!(out.is_error);
        assert!(out.text().contains("timed out"), "{}", out.text());
        tokio::time::sleep(Duration::from_millis(1500)).await;
        assert!(!marker.exists(), "the background grandchild was not killed");
    }
}
