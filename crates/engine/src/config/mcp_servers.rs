//! Where an MCP-tool hook's server comes from ([`McpServer`]): the `"mcpServers"` of the
//! hook's own hooks.json, and the servers the agents' settings define (Claude Code's
//! project `.mcp.json` and user `~/.claude.json`, Codex's `[mcp_servers.NAME]` in
//! `config.toml`).
//!
//! Which definitions a hook may use follows who wrote it: a project hook looks in its own
//! file, then the project's definitions, then the user's; a user's hook in its own file and
//! the user's definitions, never the project's (a user's hook runs trusted, and a project's
//! server is project code); a managed hook in its own file only (no user or project can
//! replace the administrator's server). A definition is read when a hook names it, bounded
//! like every config file; only the servers hooks use are checked.

use super::paths::ConfigPaths;
use super::types::Scope;
use crate::files::{CONFIG_LIMIT, read_bounded};
use crate::payload::json_type_name;
use serde::Serialize;
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};

/// The top-level key of a hooks.json (and of Claude Code's files) that defines servers.
pub(super) const SERVERS_KEY: &str = "mcpServers";

/// One MCP server a hook calls, as its definition says.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct McpServer {
    /// Its name, as the hook's `server` gives it.
    pub name: String,
    /// How it is reached.
    pub transport: McpTransport,
    /// The file that defines it.
    pub defined_in: PathBuf,
    /// Who wrote that file: a project's definition is project code (subject to trust).
    pub scope: Scope,
}

/// How an MCP server is reached.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase", tag = "type")]
pub enum McpTransport {
    /// A process started in the project directory, spoken to over its stdin and stdout.
    Stdio {
        /// The program.
        command: String,
        /// Its arguments, each passed intact (no shell).
        args: Vec<String>,
        /// Variables set for it, besides the host's environment.
        env: Vec<(String, String)>,
    },
    /// A streamable-HTTP endpoint.
    Http {
        /// The endpoint.
        url: String,
        /// Headers sent with every request.
        headers: Vec<(String, String)>,
    },
}

impl McpServer {
    /// A canonical text of the definition: what trust pins for a project's server.
    pub fn fingerprint(&self) -> String {
        serde_json::to_string(&self.transport).unwrap_or_default()
    }

    /// For a stdio server, its command line (program and arguments, shell-quoted): what
    /// trust reads for the scripts it runs.
    pub fn command_line(&self) -> Option<String> {
        match &self.transport {
            McpTransport::Stdio { command, args, .. } => Some(
                std::iter::once(command)
                    .chain(args)
                    .map(|w| {
                        shlex::try_quote(w).map_or_else(|_| w.clone(), std::borrow::Cow::into_owned)
                    })
                    .collect::<Vec<_>>()
                    .join(" "),
            ),
            McpTransport::Http { .. } => None,
        }
    }
}

/// Reads one definition (`{"command": ..., "args": [...], "env": {...}}` or
/// `{"type": "http", "url": ..., "headers": {...}}`, Claude Code's shape; Codex's
/// `http_headers` is read as `headers`).
pub(super) fn read_definition(
    name: &str,
    value: &Value,
    file: &Path,
    scope: Scope,
) -> Result<McpServer, String> {
    let Value::Object(def) = value else {
        return Err(format!(
            "it is {}, expected an object like {{\"command\": \"server\", \"args\": []}} or {{\"type\": \"http\", \"url\": \"https://...\"}}",
            json_type_name(value)
        ));
    };
    let string = |key: &str| -> Result<Option<String>, String> {
        match def.get(key) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(v) => Err(format!(
                "`{key}` must be a string, got {}",
                json_type_name(v)
            )),
        }
    };
    let kind = string("type")?;
    let url = string("url")?;
    let command = string("command")?;
    let transport = match (kind.as_deref(), command, url) {
        (Some("sse"), ..) => {
            return Err(
                "it has \"type\": \"sse\", the deprecated HTTP+SSE transport, which hookhost does not speak; use the server's streamable-HTTP endpoint (\"type\": \"http\")".into(),
            );
        }
        (None | Some("stdio"), Some(command), None) => McpTransport::Stdio {
            command,
            args: strings(def.get("args"), "args")?,
            env: pairs(def.get("env"), "env")?,
        },
        (None | Some("http" | "streamable-http" | "streamableHttp"), None, Some(url)) => {
            if !(url.starts_with("http://") || url.starts_with("https://")) {
                return Err(format!(
                    "`url` must start with http:// or https://, got {url:?}"
                ));
            }
            let headers = match def.get("headers") {
                Some(h) => pairs(Some(h), "headers")?,
                None => pairs(def.get("http_headers"), "http_headers")?,
            };
            McpTransport::Http { url, headers }
        }
        (_, Some(_), Some(_)) => {
            return Err(
                "it has both `command` and `url`; a server is a process (`command`) or an HTTP endpoint (`url`): keep one".into(),
            );
        }
        (Some(k), _, _)
            if !matches!(k, "stdio" | "http" | "streamable-http" | "streamableHttp") =>
        {
            return Err(format!(
                "it has \"type\": {k:?}; the transports are \"stdio\" (with `command`) and \"http\" (with `url`)"
            ));
        }
        _ => {
            return Err(
                "it has neither `command` nor `url`; add \"command\": \"server\" (a process spoken to over stdin/stdout) or \"type\": \"http\", \"url\": \"https://...\"".into(),
            );
        }
    };
    Ok(McpServer {
        name: name.to_string(),
        transport,
        defined_in: file.to_path_buf(),
        scope,
    })
}

fn strings(value: Option<&Value>, key: &str) -> Result<Vec<String>, String> {
    match value {
        None => Ok(Vec::new()),
        Some(Value::Array(items)) => items
            .iter()
            .map(|v| match v {
                Value::String(s) => Ok(s.clone()),
                v => Err(format!(
                    "`{key}` must be a list of strings, holds {}",
                    json_type_name(v)
                )),
            })
            .collect(),
        Some(v) => Err(format!(
            "`{key}` must be a list of strings, got {}",
            json_type_name(v)
        )),
    }
}

fn pairs(value: Option<&Value>, key: &str) -> Result<Vec<(String, String)>, String> {
    match value {
        None => Ok(Vec::new()),
        Some(Value::Object(map)) => map
            .iter()
            .map(|(k, v)| match v {
                Value::String(s) => Ok((k.clone(), s.clone())),
                v => Err(format!(
                    "`{key}.{k}` must be a string, got {}",
                    json_type_name(v)
                )),
            })
            .collect(),
        Some(v) => Err(format!(
            "`{key}` must be an object of strings, got {}",
            json_type_name(v)
        )),
    }
}

/// One place servers may be defined.
struct Source {
    file: PathBuf,
    scope: Scope,
    format: SourceFormat,
}

#[derive(Clone, Copy)]
enum SourceFormat {
    /// `{"mcpServers": {NAME: {...}}}`: hookhost's own file, Claude Code's `.mcp.json`.
    Json,
    /// `~/.claude.json`: its `mcpServers`, and the `mcpServers` of its entry for this project
    /// (Claude Code's "local" scope), which win.
    ClaudeUser,
    /// Codex's `config.toml`: `[mcp_servers.NAME]`.
    CodexToml,
}

/// Finds the server `name` for a hook of `scope` from `file`, whose own `"mcpServers"`
/// (already read) are `own`.
pub(super) fn find(
    name: &str,
    own: &Map<String, Value>,
    file: &Path,
    scope: Scope,
    paths: &ConfigPaths,
) -> Result<McpServer, String> {
    if let Some(def) = own.get(name) {
        return read_definition(name, def, file, scope).map_err(|why| {
            format!("MCP server `{name}` in \"{SERVERS_KEY}\" of this file: {why}")
        });
    }
    let mut looked = vec![format!("\"{SERVERS_KEY}\" of this file")];
    for source in sources(scope, paths).into_iter().filter(|s| s.file != file) {
        looked.push(source.file.display().to_string());
        match lookup(&source, name, paths) {
            Ok(None) => {}
            Ok(Some(def)) => {
                return read_definition(name, &def, &source.file, source.scope).map_err(|why| {
                    format!("MCP server `{name}` in {} {why}", source.file.display())
                });
            }
            Err(why) => {
                return Err(format!(
                    "cannot read {} for MCP server `{name}`: {why}",
                    source.file.display()
                ));
            }
        }
    }
    let project_defines = scope != Scope::Project
        && sources(Scope::Project, paths)
            .iter()
            .filter(|s| s.scope == Scope::Project)
            .any(|s| matches!(lookup(s, name, paths), Ok(Some(_))));
    let why = match scope {
        _ if project_defines => format!(
            "; the project defines `{name}`, but a {} hook runs trusted and never starts a server a project defines: define the server in the same file's \"{SERVERS_KEY}\" (or the user's ~/.claude.json)",
            if scope == Scope::Managed {
                "managed"
            } else {
                "user's"
            }
        ),
        Scope::Managed => format!(
            "; a managed hook's server must be defined in the managed file's own \"{SERVERS_KEY}\""
        ),
        _ => format!(
            "; define it in this file's top-level \"{SERVERS_KEY}\": {{\"{name}\": {{\"command\": \"...\", \"args\": []}}}}, in the project's .mcp.json or ~/.claude.json (Claude Code), or as [mcp_servers.{name}] in Codex's config.toml"
        ),
    };
    Err(format!(
        "MCP server `{name}` is not defined (looked in: {}){why}",
        looked.join(", ")
    ))
}

/// Where a hook of `scope` looks, after its own file, in order.
fn sources(scope: Scope, paths: &ConfigPaths) -> Vec<Source> {
    let mut out = Vec::new();
    let project = &paths.project_dir;
    let source = |file: PathBuf, scope, format| Source {
        file,
        scope,
        format,
    };
    if scope == Scope::Managed || scope == Scope::InProcess {
        return out;
    }
    let home_is_project = paths.home.as_deref().is_some_and(|h| {
        crate::confine::canonical_or_same(h) == crate::confine::canonical_or_same(project)
    });
    if scope == Scope::Project && !home_is_project {
        out.push(source(
            project.join(".mcp.json"),
            Scope::Project,
            SourceFormat::Json,
        ));
        out.push(source(
            project.join(".codex/config.toml"),
            Scope::Project,
            SourceFormat::CodexToml,
        ));
    }
    if let Some(home) = &paths.home {
        if let Some(global) = &paths.global_file {
            out.push(source(global.clone(), Scope::Global, SourceFormat::Json));
        }
        out.push(source(
            home.join(".claude.json"),
            Scope::Global,
            SourceFormat::ClaudeUser,
        ));
        out.push(source(
            home.join(".codex/config.toml"),
            Scope::Global,
            SourceFormat::CodexToml,
        ));
    }
    out
}

/// The definition of `name` in `source`: `Ok(None)` when the file is absent or does not
/// define it.
fn lookup(source: &Source, name: &str, paths: &ConfigPaths) -> Result<Option<Value>, String> {
    let bytes = match read_bounded(&source.file, CONFIG_LIMIT) {
        Ok(b) => b,
        Err(e) if e.is_not_found() => return Ok(None),
        Err(e) => return Err(e.to_string()),
    };
    let text = String::from_utf8(bytes).map_err(|_| "the file is not UTF-8 text".to_string())?;
    let root: Value = match source.format {
        SourceFormat::Json | SourceFormat::ClaudeUser => serde_json::from_str(&text)
            .map_err(|e| format!("not JSON ({})", crate::jsonc::json_error(&e)))?,
        SourceFormat::CodexToml => {
            let table: toml::Table =
                toml::from_str(&text).map_err(|e| format!("not TOML: {}", e.message()))?;
            serde_json::to_value(table).map_err(|e| e.to_string())?
        }
    };
    let key = match source.format {
        SourceFormat::CodexToml => "mcp_servers",
        _ => SERVERS_KEY,
    };
    if let SourceFormat::ClaudeUser = source.format {
        let local = root
            .get("projects")
            .and_then(|p| p.get(paths.project_dir.to_string_lossy().as_ref()))
            .and_then(|p| p.get(SERVERS_KEY))
            .and_then(|s| s.get(name));
        if let Some(def) = local {
            return Ok(Some(def.clone()));
        }
    }
    Ok(root.get(key).and_then(|s| s.get(name)).cloned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn read(v: Value) -> Result<McpTransport, String> {
        read_definition("s", &v, Path::new("/f"), Scope::Global).map(|s| s.transport)
    }

    #[test]
    fn reads_claude_shapes() {
        assert_eq!(
            read(json!({"command": "node", "args": ["a b.js"], "env": {"K": "v"}})).unwrap(),
            McpTransport::Stdio {
                command: "node".into(),
                args: vec!["a b.js".into()],
                env: vec![("K".into(), "v".into())],
            }
        );
        assert_eq!(
            read(json!({"type": "http", "url": "https://x/mcp", "headers": {"A": "b"}})).unwrap(),
            McpTransport::Http {
                url: "https://x/mcp".into(),
                headers: vec![("A".into(), "b".into())],
            }
        );
        assert!(
            read(json!({"type": "sse", "url": "https://x"}))
                .unwrap_err()
                .contains("sse")
        );
        assert!(read(json!({})).unwrap_err().contains("neither"));
        assert!(read(json!({"command": 1})).unwrap_err().contains("string"));
        assert!(
            read(json!({"command": "x", "args": "y"}))
                .unwrap_err()
                .contains("list")
        );
    }

    #[test]
    fn a_users_hook_never_finds_a_project_server() {
        let dir = tempfile::TempDir::new().unwrap();
        let (project, home) = (dir.path().join("p"), dir.path().join("h"));
        std::fs::create_dir_all(&project).unwrap();
        std::fs::create_dir_all(&home).unwrap();
        std::fs::write(
            project.join(".mcp.json"),
            r#"{"mcpServers": {"guard": {"command": "guard"}}}"#,
        )
        .unwrap();
        let paths = ConfigPaths::with_home(&project, Some(home));
        let own = Map::new();
        let found = find("guard", &own, Path::new("/f"), Scope::Project, &paths).unwrap();
        assert_eq!(found.scope, Scope::Project);
        let err = find("guard", &own, Path::new("/f"), Scope::Global, &paths).unwrap_err();
        assert!(
            err.contains("never starts a server a project defines"),
            "{err}"
        );
        let err = find("nope", &own, Path::new("/f"), Scope::Project, &paths).unwrap_err();
        assert!(err.contains("is not defined"), "{err}");
    }
}
