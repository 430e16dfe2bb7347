//! Which places are protected: hookhost's own state and the files that wire hookhost into an
//! agent, each with what it is (for the denial's reason), as written and as resolved.
//!
//! | place | what |
//! |---|---|
//! | `~/.coding-agent/` | the user's hooks, hook scripts and trust store (`trusted.json`) |
//! | the managed files (`/etc/coding-agent/`, Claude Code's managed settings directory) | the administrator's hooks |
//! | `<cache>/hookhost/`, the compiled-code cache and hook store roots, the decision log's directory | hookhost's caches, packages and decision log |
//! | the running binary and its `hookhost*` siblings; an npm install's `hookhost` and `@hookhost/` packages | the binary and its launchers |
//! | `~/.claude/settings.json`, `settings.local.json`, `plugins/`, `hooks/`; `~/.gemini/settings.json`, `extensions/`; `~/.codex/config.toml`, `hooks.json`, `plugins/`; `~/.cursor/hooks.json`, `plugins/`; `~/.copilot/hooks/`, `config.json`; `~/.ling/hooks.json`; Cline's and Windsurf's user hooks; the Claude-like agents' user settings (`~/.qwen`, `~/.qoder`, `~/.grok/hooks/`, `~/.factory`, `~/.augment`, `~/.agents/plugins/`); opencode's plugins and user config | the agents' user-level settings that wire `hookhost hook --for X` in |
//! | the project's `.coding-agent/`, and each of its agent settings files that names hookhost | the project's guards and their wiring |
//!
//! The home directories are the runner's (the account's for the adapter, never `$HOME`) and
//! the account's when they differ. Not protected: what hookhost only reads from a project
//! besides the above (a project's own hooks in other agents' files are the project's, and
//! trust pins make a changed one untrusted).

pub(crate) use hookhost_sys::resolve::{normalise, resolve, resolve_from};
use hookhost_sys::stamps::Stamps;
use std::path::{Path, PathBuf};

/// One protected place: a file or a directory (everything below it).
#[derive(Debug, Clone)]
pub struct Place {
    /// As written (absolute, normalised).
    pub path: PathBuf,
    /// Resolved (symlinks followed as far as the path exists); equal to `path` when nothing
    /// resolves differently.
    pub resolved: PathBuf,
    /// What it is, for the reason: "the user's hooks and trust store".
    pub what: &'static str,
}

/// What the places are computed from.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Sources {
    /// The runner's home directory (the account's for the adapter).
    pub home: Option<PathBuf>,
    /// The account's home directory, when it differs.
    pub account_home: Option<PathBuf>,
    /// The project root.
    pub project: Option<PathBuf>,
    /// Managed files in force (hookhost's and Claude Code's).
    pub managed: Vec<PathBuf>,
    /// Cache, store and log roots.
    pub state_dirs: Vec<PathBuf>,
    /// The running executable.
    pub exe: Option<PathBuf>,
}

/// The agents' user-level files and folders that wire hookhost in (relative to a home).
const AGENT_WIRING: &[(&str, &str)] = &[
    (".claude/settings.json", "Claude Code's user settings"),
    (".claude/settings.local.json", "Claude Code's user settings"),
    (".claude/plugins", "Claude Code's plugins"),
    (".claude/hooks", "Claude Code's hook scripts"),
    (".gemini/settings.json", "Gemini CLI's user settings"),
    (".gemini/extensions", "Gemini CLI's extensions"),
    (".codex/config.toml", "Codex's user config"),
    (".codex/hooks.json", "Codex's user hooks"),
    (".codex/plugins", "Codex's plugins"),
    (".cursor/hooks.json", "Cursor's user hooks"),
    (".cursor/plugins", "Cursor's plugins"),
    (".copilot/hooks", "GitHub Copilot CLI's user hooks"),
    (".copilot/config.json", "GitHub Copilot CLI's user config"),
    (".ling/hooks.json", "the ling agent's user hooks"),
    ("Documents/Cline/Hooks", "Cline's user hooks"),
    (".cline/hooks", "Cline's user hooks"),
    (".codeium/windsurf/hooks.json", "Windsurf's user hooks"),
    (".qwen/settings.json", "Qwen Code's user settings"),
    (".qoder/settings.json", "Qoder CLI's user settings"),
    (".qoder/settings.local.json", "Qoder CLI's user settings"),
    (".grok/hooks", "Grok CLI's user hooks"),
    (".factory/settings.json", "Factory Droid's user settings"),
    (".factory/hooks.json", "Factory Droid's user hooks"),
    (".augment/settings.json", "Auggie's user settings"),
    (".agents/plugins", "goose's (Open Plugins) plugins"),
    (".config/opencode/plugins", "opencode's plugins"),
    (".config/opencode/opencode.json", "opencode's user config"),
    (".config/opencode/opencode.jsonc", "opencode's user config"),
];

/// The project's agent settings files that are protected when they name hookhost.
pub(super) const PROJECT_WIRING: &[&str] = &[
    ".claude/settings.json",
    ".claude/settings.local.json",
    ".gemini/settings.json",
    ".codex/config.toml",
    ".codex/hooks.json",
    ".cursor/hooks.json",
    ".ling/hooks.json",
];

/// Every protected place for `s`, in no particular order.
pub fn places(s: &Sources) -> Vec<Place> {
    collect(s, None)
}

/// [`places`], with the stamps of everything it read, taken before it read it: the route to
/// each place and to the project (which names are there, which are directories: where each
/// resolves), the executable's route (its launchers are found from it) and each project
/// agent settings file whose text decides whether it is a place. While they are unchanged
/// ([`Stamps::unchanged`]), computing the places again finds the same ones (the warm
/// engine's events: `Protected::new`).
pub(crate) fn stamped(s: &Sources, since: std::time::SystemTime) -> (Vec<Place>, Stamps) {
    let mut stamps = Stamps::since(since);
    let places = collect(s, Some(&mut stamps));
    (places, stamps)
}

fn collect(s: &Sources, mut stamps: Option<&mut Stamps>) -> Vec<Place> {
    if let (Some(st), Some(exe)) = (stamps.as_deref_mut(), &s.exe) {
        st.take_route(exe);
    }
    let mut out: Vec<(PathBuf, &'static str)> = Vec::new();
    let homes = s.home.iter().chain(s.account_home.iter());
    for home in homes {
        out.push((
            home.join(".coding-agent"),
            "the user's hooks, hook scripts and trust store",
        ));
        out.push((
            home.join(".cache/hookhost"),
            "hookhost's caches and decision log",
        ));
        for (rel, what) in AGENT_WIRING {
            out.push((home.join(rel), what));
        }
    }
    for m in &s.managed {
        let dir = m.parent().filter(|p| p.parent().is_some());
        out.push((
            dir.unwrap_or(m).to_path_buf(),
            "the administrator's managed hooks",
        ));
    }
    for d in &s.state_dirs {
        out.push((d.clone(), "hookhost's caches, packages and decision log"));
    }
    if let Some(exe) = &s.exe {
        out.extend(
            launchers(exe)
                .into_iter()
                .map(|p| (p, "the hookhost binary or its launcher")),
        );
    }
    if let Some(project) = &s.project {
        out.push((
            project.join(".coding-agent"),
            "the project's hooks and hook scripts",
        ));
        for rel in PROJECT_WIRING {
            let file = project.join(rel);
            if let Some(st) = stamps.as_deref_mut() {
                st.take(&file);
            }
            if names_hookhost(&file) {
                out.push((file, "the project's agent settings that run hookhost"));
            }
        }
    }
    // Each place once (by its bytes: comparing `Path`s component by component, every place
    // with every other, was a third of a warm event's cost).
    let mut seen = std::collections::HashSet::new();
    let out: Vec<(PathBuf, &'static str)> = out
        .into_iter()
        .map(|(path, what)| (normalise(&path), what))
        .filter(|(path, _)| seen.insert(path.as_os_str().to_os_string()))
        .collect();
    if let Some(st) = stamps {
        for (path, _) in &out {
            st.take_route(path);
        }
        if let Some(project) = &s.project {
            st.take_route(project);
        }
    }
    let mut places: Vec<Place> = Vec::with_capacity(out.len());
    // Each directory prefix is looked up once (the places share their homes and folders).
    let mut memo = std::collections::HashMap::new();
    for (path, what) in out {
        let resolved = resolve_memo(&path, &mut memo);
        places.push(Place {
            path,
            resolved,
            what,
        });
    }
    places
}

/// The running binary, its `hookhost*` siblings, and an npm install's packages around it.
fn launchers(exe: &Path) -> Vec<PathBuf> {
    let mut out = vec![exe.to_path_buf()];
    let exe = resolve(exe);
    out.push(exe.clone());
    if let Some(dir) = exe.parent() {
        for sibling in [
            "hookhost",
            "hookhost-warm",
            "hookhost.exe",
            "hookhost-warm.exe",
        ] {
            out.push(dir.join(sibling));
        }
    }
    // `.../node_modules/@hookhost/linux-x64-gnu/bin/hookhost`: the launcher package and the
    // platform packages beside it.
    let mut cur = exe.as_path();
    while let Some(parent) = cur.parent() {
        if parent.file_name().is_some_and(|n| n == "node_modules") {
            out.push(parent.join("hookhost"));
            out.push(parent.join("@hookhost"));
            out.push(parent.join(".bin/hookhost"));
            break;
        }
        cur = parent;
    }
    out
}

/// Whether a project file names hookhost (it wires the adapter in). Read bounded (a FIFO or
/// a device is refused at once: `files::read_bounded`); a file over 1 MiB is taken to name it
/// (fail closed).
fn names_hookhost(file: &Path) -> bool {
    match crate::files::read_bounded(file, 1 << 20) {
        Ok(b) => b.windows(8).any(|w| w.eq_ignore_ascii_case(b"hookhost")),
        Err(crate::files::ReadError::TooLarge { .. }) => true,
        Err(_) => false,
    }
}

/// [`resolve`] of an absolute, normalised `path`, each prefix resolved once across calls.
fn resolve_memo(path: &Path, memo: &mut std::collections::HashMap<PathBuf, PathBuf>) -> PathBuf {
    if let Some(r) = memo.get(path) {
        return r.clone();
    }
    let resolved = match (path.parent(), path.file_name()) {
        (Some(parent), Some(name)) if path.is_absolute() => {
            let parent = resolve_memo(parent, memo);
            resolve_from(parent, Path::new(name))
        }
        _ => resolve(path),
    };
    memo.insert(path.to_path_buf(), resolved.clone());
    resolved
}
