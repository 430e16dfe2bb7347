//! Which environment variables hookhost obeys when a project can set them (issue 37).
//!
//! An agent's project settings set variables for every hook process, `hookhost hook --for X`
//! included: Claude Code's `.claude/settings.json` and `.claude/settings.local.json` `env`,
//! Codex's `.codex/config.toml` `[shell_environment_policy] set`, the `env` of a Copilot CLI
//! (`.github/hooks/*.json`) or Cursor (`.cursor/hooks.json`) hook entry, Gemini CLI's
//! `.env` and `.gemini/.env` (which it loads into its own process). A cloned repository
//! chooses those values. This module owns the rule: **a variable whose value changes what
//! hookhost does for the user is obeyed only when no project file sets it.**
//!
//! How: a process whose environment a project can set (the outbound adapter, `serve`, the
//! bindings' runners: every `hookhost::setup::Setup` of a `hookhost::setup::Home::Given`
//! home) calls [`guard`] with its project directory (the adapter adds the payload's `cwd`
//! and its current directory). [`guard`] reads those project files at each directory and
//! every one above it, below the home directory (whose `~/.claude/settings.json` is the
//! user's own), and remembers which names they set and where. From then on [`var`] returns
//! `None` for such a name, and says so once per name on stderr, naming the file that sets
//! it and what is used instead. A process that never called [`guard`] (the commands a user
//! types: `run`, `check`, `log`, `doctor`) obeys its environment as given.
//!
//! What goes through [`var`] (the defaults when a project sets the name in brackets):
//! - the proxies `HTTP_PROXY`/`http_proxy`, `HTTPS_PROXY`/`https_proxy`,
//!   `ALL_PROXY`/`all_proxy`, `NO_PROXY`/`no_proxy` (no proxy) for HTTP hooks and the OTLP
//!   exporter ([`proxy_for`]); a loopback URL never goes through a proxy;
//! - `OTEL_EXPORTER_OTLP_*` endpoints, protocol and timeout, `OTEL_SDK_DISABLED`,
//!   `OTEL_TRACES_EXPORTER` (no spans; the defaults), and `OTEL_EXPORTER_OTLP_HEADERS` /
//!   `OTEL_EXPORTER_OTLP_TRACES_HEADERS`, which the exporter reads itself: when a project
//!   sets either, no spans are sent at all (`telemetry::config`);
//! - `HOOKHOST_LOG`, `HOOKHOST_LOG_DIR` (log on, default place: `decision_log`);
//! - `XDG_CACHE_HOME`, `HOOKHOST_CACHE_DIR`, `HOOKHOST_STORE_DIR` (the defaults under the
//!   home: [`crate::locations`]), `HOOKHOST_MANAGED_CONFIG`,
//!   `HOOKHOST_CLAUDE_MANAGED_SETTINGS` (the machine's standard managed files);
//! - `HOOKHOST_TRUST` (the default policy, `skip`), `HOOKHOST_COMPILE_TIMEOUT_MS` (the
//!   default timeout);
//! - the variable a user's `"model"` block names in `keyEnv` (no key: the model hook fails
//!   saying which project file sets it).
//!
//! What does not, and why that is safe (every `std::env::var` in `crates/` was looked at):
//! `HOME` (the adapter and runners take the account's home: [`crate::locations`]);
//! `HOOKHOST_ADAPTER` (the recursion guard: set, the adapter fails closed); the project
//! directory variables (`CLAUDE_PROJECT_DIR`, ...: they choose which project's hooks run,
//! never the user's, and [`guard`] reads the project files at the payload's `cwd` and the
//! current directory as well); `PATH`/`PATHEXT` (the shell the user's own hooks name runs
//! under the agent's `PATH` as it would without hookhost); `OTEL_SERVICE_NAME`,
//! `OTEL_RESOURCE_ATTRIBUTES`, `TRACEPARENT`/`TRACESTATE` (labels on spans that go to the
//! user's collector only); a wasm or HTTP hook's `allowedEnv` names (the values the hook's
//! own config asks for, as an agent would give them); `NO_COLOR`, `RUST_LOG` (output only);
//! the agent's own variables handed to hooks of its dialect (`dialect::env`); the `$NAME`
//! values a `CLAUDE_ENV_FILE` line expands (data; which names it may set is
//! `session_env`'s allowlist); `doctor`'s report of the log switch (a command the user types);
//! `HOOKHOST_TIERING` (ignored by the adapter); the build-time and `hookhost new`/registry
//! variables (`CARGO_*`, `DOCKER_CONFIG`, ...: commands the user types); the warm engine's
//! `XDG_RUNTIME_DIR` and daemon switch (the warm client is started only by the user's own
//! commands and compares its whole environment with the daemon's).

use std::collections::{BTreeMap, HashSet};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, RwLock};

mod remembered;

/// The largest project file read for its variable names.
const FILE_LIMIT: u64 = 1 << 20;

/// The names a project's agent settings set, each with the first file found setting it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProjectSet {
    names: BTreeMap<String, PathBuf>,
}

impl ProjectSet {
    /// The names set by the project files at each of `starts` and every directory above it,
    /// stopping below `home` (the user's own files) and at the filesystem root. In a process
    /// that [`remember_reads`], a walk whose stamps are unchanged is not read again.
    pub fn read(starts: &[&Path], home: Option<&Path>) -> ProjectSet {
        if REMEMBER.load(Ordering::SeqCst) {
            return remembered::read(starts, home);
        }
        let mut set = ProjectSet::default();
        for dir in walk(starts, home) {
            set.read_dir(&dir);
        }
        set
    }

    /// The file that sets `name`, if a project file does.
    pub fn file_setting(&self, name: &str) -> Option<&Path> {
        self.names.get(name).map(PathBuf::as_path)
    }

    /// Every name set, in order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.names.keys().map(String::as_str)
    }

    fn add(&mut self, name: &str, file: &Path) {
        if !name.is_empty() {
            self.names
                .entry(name.to_string())
                .or_insert_with(|| file.to_path_buf());
        }
    }

    fn merge(&mut self, other: ProjectSet) {
        for (name, file) in other.names {
            self.names.entry(name).or_insert(file);
        }
    }

    /// The agents' project files in `dir`.
    fn read_dir(&mut self, dir: &Path) {
        for rel in JSON_FILES {
            self.read_json(&dir.join(rel));
        }
        if let Ok(entries) = std::fs::read_dir(dir.join(COPILOT_DIR)) {
            for entry in entries.flatten().take(COPILOT_FILES) {
                let path = entry.path();
                if path.extension().is_some_and(|e| e == "json") {
                    self.read_json(&path);
                }
            }
        }
        self.read_codex(&dir.join(CODEX_TOML));
        for rel in DOTENV_FILES {
            self.read_dotenv(&dir.join(rel));
        }
    }

    /// Every key of every object under a key `env`, anywhere in the file (Claude Code's
    /// top-level `env`, a Copilot or Cursor hook entry's `env`): more than the agent may
    /// apply, never less.
    fn read_json(&mut self, file: &Path) {
        let Some(text) = read_text(file) else { return };
        let text = crate::jsonc::strip_comments(&text);
        let Ok(value) = serde_json::from_str::<serde_json::Value>(&text) else {
            return;
        };
        let mut stack = vec![&value];
        while let Some(v) = stack.pop() {
            match v {
                serde_json::Value::Object(map) => {
                    for (k, v) in map {
                        if k == "env"
                            && let serde_json::Value::Object(env) = v
                        {
                            for name in env.keys() {
                                self.add(name, file);
                            }
                        }
                        stack.push(v);
                    }
                }
                serde_json::Value::Array(items) => stack.extend(items),
                _ => {}
            }
        }
    }

    /// Codex's `[shell_environment_policy] set = { NAME = "value" }`.
    fn read_codex(&mut self, file: &Path) {
        let Some(text) = read_text(file) else { return };
        let Ok(value) = text.parse::<toml::Table>() else {
            return;
        };
        if let Some(set) = value
            .get("shell_environment_policy")
            .and_then(|p| p.get("set"))
            .and_then(toml::Value::as_table)
        {
            for name in set.keys() {
                self.add(name, file);
            }
        }
    }

    /// A `.env` file's `NAME=value` (or `export NAME=value`) lines.
    fn read_dotenv(&mut self, file: &Path) {
        let Some(text) = read_text(file) else { return };
        for line in text.lines() {
            let line = line.trim();
            let line = line
                .strip_prefix("export")
                .filter(|r| r.starts_with([' ', '\t']))
                .map_or(line, str::trim_start);
            if let Some((name, _)) = line.split_once('=') {
                let name = name.trim();
                if !name.starts_with('#')
                    && name
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
                {
                    self.add(name, file);
                }
            }
        }
    }
}

/// The agents' JSON files that can set variables, relative to each directory walked.
const JSON_FILES: [&str; 5] = [
    ".claude/settings.json",
    ".claude/settings.local.json",
    ".cursor/hooks.json",
    ".gemini/settings.json",
    ".codex/hooks.json",
];
/// Codex's config, relative to each directory walked.
const CODEX_TOML: &str = ".codex/config.toml";
/// The `.env` files Gemini CLI loads, relative to each directory walked.
const DOTENV_FILES: [&str; 2] = [".gemini/.env", ".env"];
/// Copilot CLI's hook files' directory, and how many of its entries are read.
const COPILOT_DIR: &str = ".github/hooks";
const COPILOT_FILES: usize = 256;

/// The directories whose project files are read: each of `starts` (canonical) and every
/// directory above it, stopping below `home` and at the root, each once.
fn walk(starts: &[&Path], home: Option<&Path>) -> Vec<PathBuf> {
    let home = home.map(crate::confine::canonical_or_same);
    let mut dirs: Vec<PathBuf> = Vec::new();
    for start in starts {
        let start = crate::confine::canonical_or_same(start);
        for dir in start.ancestors() {
            if Some(dir) == home.as_deref() || dirs.iter().any(|d| d == dir) {
                break;
            }
            dirs.push(dir.to_path_buf());
        }
    }
    dirs
}

/// A file's text, at most [`FILE_LIMIT`] bytes; `None` when it is missing or unreadable.
fn read_text(file: &Path) -> Option<String> {
    let bytes = crate::files::read_bounded(file, FILE_LIMIT).ok()?;
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

/// The names the projects this process serves set; `None`: not guarded.
static GUARD: RwLock<Option<ProjectSet>> = RwLock::new(None);
/// The names already said on stderr.
static NOTED: Mutex<Option<HashSet<String>>> = Mutex::new(None);

/// This process's environment may come from a project: from now on a variable that the
/// project files at `starts` (and above them, below `home`) set is not obeyed. Called again,
/// the names add up.
pub fn guard(starts: &[&Path], home: Option<&Path>) {
    let found = ProjectSet::read(starts, home);
    let mut g = GUARD
        .write()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    g.get_or_insert_with(ProjectSet::default).merge(found);
}

/// Whether [`ProjectSet::read`] remembers what it read (the warm engine, for all its life).
static REMEMBER: AtomicBool = AtomicBool::new(false);

/// From now on this process remembers each walk of [`ProjectSet::read`] with the stamps of
/// what it read ([`crate::stamps`]), and reads a walk again only when one changed: for a
/// process that reads the same projects event after event (the warm engine).
pub fn remember_reads() {
    REMEMBER.store(true, Ordering::SeqCst);
}

/// Whether this process remembers what it read ([`remember_reads`]): others that read the
/// same files event after event (the protected places) remember theirs then too.
pub fn remembering() -> bool {
    REMEMBER.load(Ordering::SeqCst)
}

/// Forgets what [`guard`] found and which names were said: the state of a process that
/// never called it. For a process that runs one invocation after another as fresh
/// processes would (the warm engine, before each).
pub fn forget() {
    *GUARD
        .write()
        .unwrap_or_else(std::sync::PoisonError::into_inner) = None;
    *NOTED
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner) = None;
}

/// Whether [`guard`] was called in this process.
pub fn guarded() -> bool {
    GUARD
        .read()
        .map_or_else(|p| p.into_inner().is_some(), |g| g.is_some())
}

/// The project file that sets `name`, when this process is guarded and one does.
pub fn set_by_project(name: &str) -> Option<PathBuf> {
    let g = GUARD
        .read()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    g.as_ref()?.file_setting(name).map(Path::to_path_buf)
}

/// `name`'s value (`None` when unset or empty), unless a project file sets it in a guarded
/// process: then `None`, and once per name a line on stderr naming the file and saying that
/// `instead` is used.
pub fn var_os(name: &str, instead: &str) -> Option<OsString> {
    let value = std::env::var_os(name).filter(|v| !v.is_empty())?;
    match set_by_project(name) {
        None => Some(value),
        Some(file) => {
            note(name, &file, instead);
            None
        }
    }
}

/// [`var_os`] as text; a value that is not UTF-8 is `None`.
pub fn var(name: &str, instead: &str) -> Option<String> {
    var_os(name, instead).and_then(|v| v.into_string().ok())
}

/// Says once per process per name that `name` is not obeyed.
fn note(name: &str, file: &Path, instead: &str) {
    let mut noted = NOTED
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if noted
        .get_or_insert_with(HashSet::new)
        .insert(name.to_string())
    {
        // A line for the user on stderr, like every other note of the adapter's: `tracing`
        // may be off in an embedder, and this must not be missed.
        eprintln!(
            "hookhost: note: ignoring ${name}: {} sets it, and a project's settings must not change what hookhost does for you; using {instead} (set it in your own shell or agent settings, not the project's)",
            file.display()
        );
    }
}

/// The proxy variables of each scheme, in the order they are looked up.
const HTTP_PROXY: [&str; 4] = ["http_proxy", "HTTP_PROXY", "all_proxy", "ALL_PROXY"];
const HTTPS_PROXY: [&str; 4] = ["https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"];
const NO_PROXY: [&str; 2] = ["no_proxy", "NO_PROXY"];

/// The proxy a request to `url` goes through: none for a loopback host; else the first
/// obeyed proxy variable of its scheme ([`var`]: not one a project sets), unless an obeyed
/// `NO_PROXY` names its host. What every HTTP client hookhost makes uses
/// ([`reqwest_proxy`]), instead of reqwest's own reading of the environment.
pub fn proxy_for(url: &reqwest::Url) -> Option<reqwest::Url> {
    let host = url.host_str()?;
    if is_loopback(host) {
        return None;
    }
    let names: &[&str] = match url.scheme() {
        "http" => &HTTP_PROXY,
        "https" => &HTTPS_PROXY,
        _ => return None,
    };
    let proxy = names
        .iter()
        .find_map(|n| var(n, "no proxy"))
        .filter(|p| !p.trim().is_empty())?;
    if let Some(no) = NO_PROXY.iter().find_map(|n| var(n, "no exceptions"))
        && no_proxy_matches(&no, host)
    {
        return None;
    }
    let proxy = if proxy.contains("://") {
        proxy
    } else {
        format!("http://{proxy}")
    };
    reqwest::Url::parse(&proxy).ok()
}

/// The proxy setting of every HTTP client hookhost makes: [`proxy_for`], per request.
pub fn reqwest_proxy() -> reqwest::Proxy {
    reqwest::Proxy::custom(proxy_for)
}

/// `localhost`, `*.localhost`, 127.0.0.0/8, `::1`.
fn is_loopback(host: &str) -> bool {
    let host = host.trim_start_matches('[').trim_end_matches(']');
    if let Ok(ip) = host.parse::<std::net::IpAddr>() {
        return ip.is_loopback()
            || matches!(ip, std::net::IpAddr::V6(v6) if v6.to_ipv4_mapped().is_some_and(|v4| v4.is_loopback()));
    }
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    host == "localhost" || host.ends_with(".localhost")
}

/// Whether a `NO_PROXY` list names `host`: `*`, the host itself, or a domain it is under
/// (`example.com` and `.example.com` both match `api.example.com`).
fn no_proxy_matches(list: &str, host: &str) -> bool {
    let host = host
        .trim_start_matches('[')
        .trim_end_matches(']')
        .to_ascii_lowercase();
    list.split(',').map(str::trim).any(|entry| {
        let entry = entry.to_ascii_lowercase();
        let domain = entry.trim_start_matches('.');
        entry == "*"
            || (!domain.is_empty() && (host == domain || host.ends_with(&format!(".{domain}"))))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_agents_project_file_names_what_it_sets() {
        let root = tempfile::tempdir().unwrap();
        let home = root.path().join("home");
        let project = home.join("repo");
        let sub = project.join("src");
        std::fs::create_dir_all(&sub).unwrap();
        for d in [".claude", ".codex", ".gemini", ".cursor", ".github/hooks"] {
            std::fs::create_dir_all(project.join(d)).unwrap();
            std::fs::create_dir_all(home.join(d)).unwrap();
        }
        let w = |p: &Path, t: &str| std::fs::write(p, t).unwrap();
        w(
            &project.join(".claude/settings.json"),
            r#"{"env": {"HTTP_PROXY": "http://evil"}}"#,
        );
        w(
            &project.join(".claude/settings.local.json"),
            "// jsonc\n{\"env\": {\"HOOKHOST_LOG\": \"off\"}}",
        );
        w(
            &project.join(".codex/config.toml"),
            "[shell_environment_policy]\nset = { OTEL_EXPORTER_OTLP_ENDPOINT = \"http://x\" }\n",
        );
        w(&project.join(".gemini/.env"), "export NO_PROXY=*\n# C=1\n");
        w(&project.join(".env"), "XDG_CACHE_HOME=/tmp/x\n");
        w(
            &project.join(".github/hooks/a.json"),
            r#"{"hooks": {"preToolUse": [{"bash": "hookhost hook --for copilot", "env": {"HOOKHOST_TRUST": "all"}}]}}"#,
        );
        w(
            &project.join(".cursor/hooks.json"),
            r#"{"hooks": {"beforeShellExecution": [{"command": "x", "env": {"ALL_PROXY": "x"}}]}}"#,
        );
        // The user's own settings are not a project's.
        w(
            &home.join(".claude/settings.json"),
            r#"{"env": {"HTTPS_PROXY": "http://corp"}}"#,
        );
        let set = ProjectSet::read(&[&sub], Some(&home));
        let names: Vec<&str> = set.names().collect();
        assert_eq!(
            names,
            [
                "ALL_PROXY",
                "HOOKHOST_LOG",
                "HOOKHOST_TRUST",
                "HTTP_PROXY",
                "NO_PROXY",
                "OTEL_EXPORTER_OTLP_ENDPOINT",
                "XDG_CACHE_HOME"
            ]
        );
        assert!(
            set.file_setting("HTTP_PROXY")
                .unwrap()
                .ends_with(".claude/settings.json")
        );
        assert_eq!(set.file_setting("HTTPS_PROXY"), None);
    }

    #[test]
    fn loopback_never_goes_through_a_proxy_and_no_proxy_matches_domains() {
        for h in [
            "127.0.0.1",
            "127.1.2.3",
            "[::1]",
            "localhost",
            "a.localhost",
        ] {
            assert!(is_loopback(h), "{h}");
        }
        for h in ["10.0.0.1", "example.com", "localhost.example.com"] {
            assert!(!is_loopback(h), "{h}");
        }
        assert!(no_proxy_matches("a.com, .example.com", "api.example.com"));
        assert!(no_proxy_matches("example.com", "example.com"));
        assert!(no_proxy_matches("*", "x"));
        assert!(!no_proxy_matches("example.com", "notexample.com"));
        assert!(!no_proxy_matches("", "x"));
        let url = reqwest::Url::parse("http://127.0.0.1:8080/hook").unwrap();
        assert_eq!(proxy_for(&url), None);
    }
}
