//! [`PermissionRule`]: a hook's `if`, in Claude Code's permission-rule syntax (`"Bash(git *)"`,
//! `"Edit(*.ts)"`, `"Bash"`, `"mcp__server__tool"`): the hook is not started when the tool
//! call does not match (Claude Code 2.1.85 and later; hookhost reads the same field on native
//! hooks).
//!
//! The tool part is read through the alias map (`agents::tools`): `Bash(git *)` and
//! `bash(git *)` both name the core's `bash`; `Edit(...)` covers every tool that writes a
//! file (Claude Code's `Edit`, `Write`, `MultiEdit`, `NotebookEdit`; the core's `edit_file`
//! and `write_file`). What is in the parentheses depends on the tool:
//! - a shell command (`Bash`): `*` matches anything, the rest is literal; a trailing ` *` (or
//!   the older `:*`) also matches the bare prefix (`git *` matches `git`); the rule matches
//!   when the whole command or any part of it between shell operators matches (as Claude Code
//!   matches subcommands), or any command bash would run for it as the parser finds it
//!   (`shell_parse`: quotes and escapes removed, `/bin/rm` read as `rm`, wrappers such as
//!   `sudo`, `env`, `timeout`, `xargs`, `find -exec`, `sh -c` unwrapped, substitutions and
//!   compound commands included), or when what it runs cannot be told (`eval "$V"`, `$x y`);
//! - a file (`Read`, `Edit`, `Write`): a gitignore-style glob (`*` within a name, `**` across
//!   directories): `//abs/path` absolute, `~/path` under the home directory, `/path` and
//!   `./path` under the project root, a name without `/` (`*.ts`, `.env`) at any depth; the
//!   path is matched as written and as resolved (symlinks of its longest existing prefix
//!   followed), so `Edit(.env)` covers a write to `env-link` -> `.env`;
//! - `WebFetch(domain:example.com)`: the call's `url` on that host or a subdomain;
//! - any other tool: a `*` pattern matched against each string argument.
//!
//! A hook is a guard more often than not, so whatever cannot be told runs it: a call without
//! the argument the rule looks at matches. A rule that cannot be read is a config error.

use super::agents::tools;
use crate::Dialect;
use crate::shell_parse;
use regex::Regex;
use serde_json::Value;
use std::fmt;
use std::path::{Component, Path, PathBuf};
use std::sync::LazyLock;

/// The core's tools, whose other names the alias map knows (`config/agents/tools.rs`).
pub(crate) const CORE_TOOLS: [&str; 4] = ["bash", "read_file", "write_file", "edit_file"];

/// Where a rule's relative paths lead: the project root and the home directory.
#[derive(Debug, Clone, Copy)]
pub(crate) struct RuleBase<'a> {
    pub project_dir: &'a Path,
    pub home: Option<&'a Path>,
}

/// A compiled `if`: which tool, and what its arguments must look like.
#[derive(Debug, Clone)]
pub struct PermissionRule {
    source: String,
    tool: ToolPart,
    content: Content,
    /// The project root, against which a call's relative paths are read.
    project_dir: PathBuf,
}

#[derive(Debug, Clone)]
enum ToolPart {
    /// A tool name, with every name the alias map gives it.
    Named(Vec<String>),
    /// `mcp__server` or `mcp__server__*`: every tool of that server (the prefix ends `__`).
    McpServer(String),
}

#[derive(Debug, Clone)]
enum Content {
    /// No parentheses, or `(*)`.
    Any,
    Command(Regex),
    Path(Regex),
    Domain(String),
    Other(Regex),
}

impl PartialEq for PermissionRule {
    fn eq(&self, other: &Self) -> bool {
        self.source == other.source
    }
}

impl fmt::Display for PermissionRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.source)
    }
}

const SYNTAX: &str = "write Tool or Tool(pattern), e.g. \"Bash(git *)\", \"Edit(*.ts)\", \"Bash\" or \"mcp__server__tool\"";

impl PermissionRule {
    /// Reads `text`; `Err` says what is wrong and how to write it.
    pub(crate) fn parse(text: &str, base: RuleBase<'_>) -> Result<Self, String> {
        let t = text.trim();
        if t.is_empty() {
            return Err(format!("`if` is empty; {SYNTAX}, or remove it"));
        }
        let (tool, content) = match t.find('(') {
            None => (t, None),
            Some(open) => match t.strip_suffix(')') {
                Some(inner) => (t[..open].trim_end(), Some(&inner[open + 1..])),
                None => {
                    return Err(format!(
                        "`if` {text:?} is not a permission rule: a \"(\" without the closing \")\" at the end; {SYNTAX}"
                    ));
                }
            },
        };
        let tool_part = tool_part(tool).ok_or_else(|| {
            format!(
                "`if` {text:?} names no tool: a tool name is letters, digits and `_` (an MCP server's tools: \"mcp__server__*\"); {SYNTAX}"
            )
        })?;
        let content = match content.map(str::trim) {
            None | Some("*") => Content::Any,
            Some("") => {
                return Err(format!(
                    "`if` {text:?} has empty parentheses; write {tool:?} to match every call, or a pattern: \"{tool}(...)\""
                ));
            }
            Some(_) if matches!(tool_part, ToolPart::McpServer(_)) || tool.starts_with("mcp__") => {
                return Err(format!(
                    "`if` {text:?}: an MCP tool's rule takes no parentheses; write \"{tool}\""
                ));
            }
            Some(c) => content_for(tool, c, base),
        };
        Ok(PermissionRule {
            source: text.to_string(),
            tool: tool_part,
            content,
            project_dir: base.project_dir.to_path_buf(),
        })
    }

    /// The rule as written.
    pub fn as_str(&self) -> &str {
        &self.source
    }

    /// Whether a call of `tool` with `args` matches (by the event's names: the core's, or
    /// the agent's own).
    pub fn matches(&self, tool: Option<&str>, args: Option<&Value>) -> bool {
        let Some(tool) = tool else {
            return false;
        };
        let named = match &self.tool {
            ToolPart::McpServer(prefix) => tool.starts_with(prefix.as_str()),
            ToolPart::Named(names) => {
                let core = core_of(tool);
                names
                    .iter()
                    .any(|n| n == tool || core.as_deref() == Some(n.as_str()))
            }
        };
        named && self.content_matches(args)
    }

    fn content_matches(&self, args: Option<&Value>) -> bool {
        let arg = |keys: &[&str]| {
            keys.iter()
                .find_map(|k| args.and_then(|a| a.get(*k)).and_then(Value::as_str))
        };
        match &self.content {
            Content::Any => true,
            Content::Command(re) => arg(&["command", "cmd"]).is_none_or(|c| command_matches(re, c)),
            Content::Path(re) => arg(&["path", "file_path", "notebook_path"]).is_none_or(|p| {
                re.is_match(&absolute(&self.project_dir, p))
                    || resolved(&self.project_dir, p).is_some_and(|r| re.is_match(&r))
            }),
            Content::Domain(d) => arg(&["url"]).is_none_or(|u| {
                let host = host_of(u);
                host == *d || host.ends_with(&format!(".{d}"))
            }),
            Content::Other(re) => {
                let strings: Vec<&str> = match args {
                    Some(Value::Object(m)) => m.values().filter_map(Value::as_str).collect(),
                    _ => Vec::new(),
                };
                strings.is_empty() || strings.iter().any(|s| re.is_match(s))
            }
        }
    }
}

/// The core's name for any agent's tool name (`Bash` -> `bash`), if it has one.
pub(crate) fn core_of(tool: &str) -> Option<String> {
    if CORE_TOOLS.contains(&tool) {
        return Some(tool.to_string());
    }
    Dialect::ALL
        .into_iter()
        .map(|d| tools::name_to_core(d, tool))
        .find(|c| CORE_TOOLS.contains(&c.as_str()))
}

/// Every name of a core tool, the core's first (`bash`, `Bash`, `run_shell_command`).
pub(crate) fn names_of_core(core: &str) -> Vec<String> {
    let mut names = vec![core.to_string()];
    for d in Dialect::ALL {
        let n = tools::name_to_dialect(d, core);
        if !names.contains(&n) {
            names.push(n);
        }
    }
    names
}

/// The tool part of a rule, with the names it covers.
fn tool_part(tool: &str) -> Option<ToolPart> {
    let word = |s: &str| {
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    };
    if let Some(rest) = tool.strip_prefix("mcp__") {
        let server = rest.strip_suffix("__*").unwrap_or(rest);
        if word(server) && !server.contains("__") {
            return Some(ToolPart::McpServer(format!("mcp__{server}__")));
        }
        return word(rest).then(|| ToolPart::Named(vec![tool.to_string()]));
    }
    if !word(tool) {
        return None;
    }
    let mut names = match core_of(tool) {
        Some(core) => names_of_core(&core),
        None => Vec::new(),
    };
    if !names.iter().any(|n| n == tool) {
        names.push(tool.to_string());
    }
    // Claude Code's `Edit` rules cover every tool that edits a file.
    if matches!(tool, "Edit" | "edit_file" | "MultiEdit") {
        for n in names_of_core("write_file")
            .into_iter()
            .chain(["MultiEdit".into(), "NotebookEdit".into()])
        {
            if !names.contains(&n) {
                names.push(n);
            }
        }
    }
    Some(ToolPart::Named(names))
}

/// What the parentheses hold, read for the tool they belong to.
fn content_for(tool: &str, content: &str, base: RuleBase<'_>) -> Content {
    let core = core_of(tool);
    let file_tool = matches!(tool, "MultiEdit" | "NotebookEdit")
        || matches!(
            core.as_deref(),
            Some("read_file" | "write_file" | "edit_file")
        );
    match core.as_deref() {
        Some("bash") => Content::Command(command_regex(content)),
        _ if file_tool => Content::Path(path_regex(content, base)),
        _ => match content.strip_prefix("domain:") {
            Some(d) if tool == "WebFetch" => Content::Domain(d.trim().to_ascii_lowercase()),
            _ => Content::Other(wildcard(content, "", "")),
        },
    }
}

/// `*` as "anything", the rest literal, anchored; `prefix`/`suffix` are regex text.
fn wildcard(pattern: &str, prefix: &str, suffix: &str) -> Regex {
    let body: Vec<String> = pattern.split('*').map(regex::escape).collect();
    // Built from escaped text and fixed syntax only: it always compiles.
    Regex::new(&format!("(?s)^{prefix}{}{suffix}$", body.join(".*")))
        .unwrap_or_else(|_| Regex::new("^$").expect("a fixed regex"))
}

/// A command pattern: a trailing ` *` or `:*` also matches the bare prefix.
fn command_regex(pattern: &str) -> Regex {
    match pattern
        .strip_suffix(" *")
        .or_else(|| pattern.strip_suffix(":*"))
    {
        Some(prefix) => wildcard(prefix, "", r"(?:\s.*)?"),
        None => wildcard(pattern, "", ""),
    }
}

/// Whether a shell command matches: the whole of it or a part between operators as written,
/// or any command bash would run for it (its line with argv[0]'s file name, and with argv[0] as
/// written), or it cannot be told what it runs. Parsed only when the text alone does not match.
fn command_matches(re: &Regex, command: &str) -> bool {
    if command_parts(command).iter().any(|p| re.is_match(p)) {
        return true;
    }
    let analysis = shell_parse::analyze(command);
    if analysis.undecidable.is_some() {
        // The reason quotes the command: a payload value, which logs never carry.
        tracing::debug!("a Bash rule matches a command whose programs cannot be told statically");
        return true;
    }
    analysis.commands.iter().any(|c| {
        let written = c
            .argv
            .iter()
            .map(|w| w.text.as_str())
            .collect::<Vec<_>>()
            .join(" ");
        re.is_match(&c.line()) || re.is_match(&written)
    })
}

/// The whole command and each part of it between shell operators, with leading `VAR=value`
/// assignments and grouping characters taken off.
fn command_parts(command: &str) -> Vec<String> {
    static OPERATORS: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"&&|\|\||[;|&\n]").expect("a fixed regex"));
    let mut parts = vec![command.trim().to_string()];
    for piece in OPERATORS.split(command) {
        let mut p = piece.trim().trim_start_matches(['(', '{', '!', ' ']).trim();
        while let Some((first, rest)) = p.split_once(char::is_whitespace) {
            let assignment = first.split_once('=').is_some_and(|(name, _)| {
                !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            });
            if !assignment {
                break;
            }
            p = rest.trim_start();
        }
        let p = p.trim_end_matches([')', '}', ' ']).to_string();
        if !p.is_empty() && !parts.contains(&p) {
            parts.push(p);
        }
    }
    parts
}

/// A file pattern as a regex over absolute, normalised paths; a pattern that names a
/// directory covers what is inside it.
fn path_regex(pattern: &str, base: RuleBase<'_>) -> Regex {
    let dir = |d: &Path| d.to_string_lossy().trim_end_matches('/').to_string();
    let (root, rest) = if let Some(rest) = pattern.strip_prefix("//") {
        (String::new(), rest)
    } else if let Some(rest) = pattern.strip_prefix("~/") {
        match base.home {
            Some(h) => (dir(h), rest),
            // No home directory: the name at any depth (matches more, never less).
            None => (String::from("**"), rest),
        }
    } else if let Some(rest) = pattern
        .strip_prefix("./")
        .or_else(|| pattern.strip_prefix('/'))
    {
        (dir(base.project_dir), rest)
    } else if !pattern.contains('/') {
        (String::from("**"), pattern)
    } else {
        (dir(base.project_dir), pattern)
    };
    let glob = format!("{root}/{}", rest.trim_end_matches('/'));
    Regex::new(&format!("(?s)^{}(?:/.*)?$", glob_to_regex(&glob)))
        .unwrap_or_else(|_| Regex::new("^$").expect("a fixed regex"))
}

fn glob_to_regex(glob: &str) -> String {
    let mut out = String::new();
    let chars: Vec<char> = glob.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '*' if chars.get(i + 1) == Some(&'*') => {
                if chars.get(i + 2) == Some(&'/') {
                    out.push_str("(?:.*/)?");
                    i += 3;
                } else {
                    out.push_str(".*");
                    i += 2;
                }
                continue;
            }
            '*' => out.push_str("[^/]*"),
            '?' => out.push_str("[^/]"),
            c => out.push_str(&regex::escape(&c.to_string())),
        }
        i += 1;
    }
    out
}

/// `path` as an absolute, lexically normalised path (relative paths are the project's).
fn absolute(project: &Path, path: &str) -> String {
    let joined = project.join(path);
    let mut out = PathBuf::new();
    for c in joined.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out.to_string_lossy().into_owned()
}

/// `path` (relative paths are the project's) with the symlinks of its longest existing prefix
/// resolved and the rest appended, lexically normalised; a result under the project's real
/// directory is given under `project` as written, so rules rooted there match it. `None` when
/// it resolves to itself.
fn resolved(project: &Path, path: &str) -> Option<String> {
    // The one resolver the protected-state guard uses too: dangling links followed, `..`
    // taken after links as the kernel does.
    let mut full = hookhost_sys::resolve::resolve(&project.join(path));
    if let Ok(real_project) = std::fs::canonicalize(project)
        && real_project != project
        && let Ok(inside) = full.strip_prefix(&real_project)
    {
        full = project.join(inside);
    }
    let out = absolute(Path::new("/"), &full.to_string_lossy());
    (out != absolute(project, path)).then_some(out)
}

/// The host of a URL, lower case, without user, port, path or query.
fn host_of(url: &str) -> String {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    host.split(':')
        .next()
        .unwrap_or_default()
        .to_ascii_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn rule(text: &str) -> PermissionRule {
        PermissionRule::parse(
            text,
            RuleBase {
                project_dir: Path::new("/p"),
                home: Some(Path::new("/home/u")),
            },
        )
        .unwrap()
    }

    fn bash(r: &PermissionRule, command: &str) -> bool {
        r.matches(Some("bash"), Some(&json!({ "command": command })))
    }

    #[test]
    fn a_command_rule_matches_the_command_or_a_part_of_it() {
        let r = rule("Bash(git *)");
        assert!(bash(&r, "git push") && bash(&r, "git"));
        assert!(!bash(&r, "gitk") && !bash(&r, "ls -la"));
        assert!(bash(&r, "cd x && git push --force"));
        assert!(bash(&r, "FOO=1 git status; ls"));
        assert!(bash(&rule("Bash(rm *)"), "ls | (rm -rf /tmp/x)"));
        assert!(bash(&rule("Bash(npm:*)"), "npm test"));
        assert!(bash(&rule("Bash(ls*)"), "lsof"));
        assert!(!bash(&rule("Bash(ls *)"), "lsof"));
        assert!(bash(&rule("Bash(npm run build)"), "npm run build"));
        assert!(!bash(&rule("Bash(npm run build)"), "npm run build:prod"));
    }

    #[test]
    fn a_command_rule_matches_what_bash_would_run() {
        let r = rule("Bash(rm *)");
        for c in [
            r"\rm x",
            "sudo -u root rm x",
            "sh -c 'rm x'",
            "echo $(rm x)",
            "eval \"$V\"",
        ] {
            assert!(bash(&r, c), "{c}");
        }
        for c in ["ls -la", "echo rm", "git rm x"] {
            assert!(!bash(&r, c), "{c}");
        }
        // argv[0] as written too.
        assert!(bash(&rule("Bash(/bin/rm *)"), "'/bin/rm' x"));
    }

    #[cfg(unix)]
    #[test]
    fn a_path_rule_matches_the_resolved_path_too() {
        let dir = tempfile::TempDir::new().unwrap();
        let project = dir.path().canonicalize().unwrap();
        std::fs::write(project.join(".env"), "").unwrap();
        std::os::unix::fs::symlink(".env", project.join("link")).unwrap();
        let r = PermissionRule::parse(
            "Edit(/.env)",
            RuleBase {
                project_dir: &project,
                home: None,
            },
        )
        .unwrap();
        let p = |path: &str| r.matches(Some("write_file"), Some(&json!({ "path": path })));
        assert!(p("link") && p(".env") && !p("other") && !p("missing/deep/x"));
    }

    #[test]
    fn the_tool_is_read_through_the_alias_map() {
        for text in ["Bash(git *)", "bash(git *)"] {
            let r = rule(text);
            assert!(bash(&r, "git push"), "{text}");
            assert!(r.matches(Some("Bash"), Some(&json!({"command": "git push"}))));
            assert!(r.matches(
                Some("run_shell_command"),
                Some(&json!({"command": "git x"}))
            ));
            assert!(!r.matches(Some("write_file"), Some(&json!({"path": "git x"}))));
        }
        assert!(rule("Bash").matches(Some("bash"), None));
        assert!(!rule("Bash").matches(None, None));
        let edit = rule("Edit(*.ts)");
        for tool in ["edit_file", "write_file", "Edit", "Write", "MultiEdit"] {
            assert!(
                edit.matches(Some(tool), Some(&json!({"path": "src/a.ts"}))),
                "{tool}"
            );
        }
        assert!(!edit.matches(Some("read_file"), Some(&json!({"path": "a.ts"}))));
        assert!(rule("Read").matches(Some("read_file"), None));
    }

    #[test]
    fn file_rules_are_globs_from_their_root() {
        let p = |r: &PermissionRule, path: &str| {
            r.matches(Some("edit_file"), Some(&json!({ "file_path": path })))
        };
        let ts = rule("Edit(*.ts)");
        assert!(p(&ts, "a.ts") && p(&ts, "/p/src/deep/b.ts") && !p(&ts, "a.tsx"));
        let src = rule("Edit(/src/**/*.ts)");
        assert!(p(&src, "src/a.ts") && p(&src, "src/x/y/a.ts") && !p(&src, "lib/a.ts"));
        assert!(p(&rule("Edit(src)"), "src/deep/a.rs"));
        assert!(p(&rule("Edit(//etc/*)"), "/etc/passwd"));
        assert!(!p(&rule("Edit(//etc/*)"), "/p/etc/passwd"));
        assert!(p(&rule("Edit(~/.ssh/**)"), "/home/u/.ssh/id_rsa"));
        assert!(p(&rule("Edit(.env)"), "sub/../.env"));
        // No path to look at: the hook runs.
        assert!(ts.matches(Some("edit_file"), Some(&json!({}))));
    }

    #[test]
    fn mcp_and_other_tools() {
        let server = rule("mcp__github");
        assert!(server.matches(Some("mcp__github__create_issue"), None));
        assert!(!server.matches(Some("mcp__githubx__a"), None));
        assert!(rule("mcp__github__*").matches(Some("mcp__github__x"), None));
        let exact = rule("mcp__github__create_issue");
        assert!(exact.matches(Some("mcp__github__create_issue"), None));
        assert!(!exact.matches(Some("mcp__github__close_issue"), None));
        let web = rule("WebFetch(domain:example.com)");
        assert!(web.matches(
            Some("WebFetch"),
            Some(&json!({"url": "https://docs.example.com/x"}))
        ));
        assert!(!web.matches(
            Some("WebFetch"),
            Some(&json!({"url": "https://example.org"}))
        ));
        assert!(rule("Grep(TODO*)").matches(Some("Grep"), Some(&json!({"pattern": "TODO: x"}))));
    }

    #[test]
    fn malformed_rules_say_how_to_write_one() {
        let base = RuleBase {
            project_dir: Path::new("/p"),
            home: None,
        };
        for (text, says) in [
            ("", "is empty"),
            ("Bash(git *", "closing"),
            ("Ba sh", "names no tool"),
            ("(git *)", "names no tool"),
            ("Bash()", "empty parentheses"),
            ("mcp__s__t(x)", "no parentheses"),
        ] {
            let e = PermissionRule::parse(text, base).unwrap_err();
            assert!(e.contains(says), "{text}: {e}");
        }
    }
}
