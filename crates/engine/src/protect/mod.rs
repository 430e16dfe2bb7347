//! The protected-state guard: a tool call that would write, move, delete, chmod or link
//! hookhost's own state or the files that wire hookhost into an agent is denied, always, in
//! every entry point (`Runner::fire` on PreToolUse and PermissionRequest, so `run`, `serve`,
//! every `hook --for X` and the bindings; and the core's permission checker through
//! [`Protected::permission_guard`]). The party a guard exists to stop is the agent whose
//! calls it judges; that agent must not be able to switch the guard off.
//!
//! - Which places: `places.rs` (the user's and managed config, the trust store, caches,
//!   package store, decision log, the binary and launchers; every agent's user-level
//!   settings, config and plugin folders; the project's `.coding-agent/` and the project
//!   agent settings that run hookhost).
//! - File tools of every dialect are judged by their paths, resolved (symlinks followed,
//!   dangling ones too): `calls.rs`.
//! - Shell commands by a real parse (`shell_parse`): redirections, the arguments of every
//!   command that is not a known reader, `cd` followed, inline interpreter code that names a
//!   protected place, and every `hookhost` subcommand that changes trust, packages or
//!   config: `shell.rs`.
//!
//! The user at a terminal changes these as before: only tool calls are judged. What a
//! determined program can still do (a script file the call runs, paths built at run time)
//! is in SECURITY.md.

mod calls;
pub mod places;
mod shell;

use places::{Place, Sources};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub use places::Sources as ProtectedSources;

/// Why a tool call is denied: what it would touch, and what that is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Denial {
    /// The protected path (as the call named it, resolved) or the command.
    pub target: String,
    /// What it is ("the user's hooks, hook scripts and trust store").
    pub what: String,
}

impl Denial {
    /// The reason given to the agent and the user.
    pub fn reason(&self) -> String {
        format!(
            "hookhost: protected: this call would change {} ({}); an agent's tool call cannot change hookhost's guards, its trust or its wiring into the agent. If it is meant, make the change yourself in a terminal.",
            self.target, self.what
        )
    }
}

/// How a path a call names is compared with the protected places.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reach {
    /// The call writes the path: it is protected when it lies in a protected place.
    Inside,
    /// The call removes, moves or changes the mode of the path and everything below it: also
    /// protected when a protected place lies below it (`rm -rf ~`).
    InsideOrAbove,
}

/// How many sources' places a long-lived process keeps ([`Protected::new`]).
const KEPT_MAX: usize = 16;

/// The protected places of one runner, computed once.
#[derive(Debug, Clone)]
pub struct Protected {
    places: Arc<[Place]>,
    /// The home directory, for `~` and `$HOME` in commands.
    home: Option<PathBuf>,
    /// Text that names a protected place in code or a word built at run time: each place's
    /// path, and the part of it under the home directory (`.claude/settings.json`).
    needles: Arc<[String]>,
    /// Device and inode of the protected files (a place's own, and the files directly in a
    /// protected directory): a hard link elsewhere is the same file. Read at the first
    /// file with more than one link.
    inodes: std::sync::OnceLock<Vec<(u64, u64)>>,
    /// The project root, resolved: a relative path under it is resolved from there.
    project: Option<PathBuf>,
    /// Each place's paths as bytes, for comparing (`places[i]` and `keys[i]`).
    keys: Arc<[Key]>,
}

/// A place's paths as bytes, and whether it lies outside the project.
#[derive(Debug, Clone)]
struct Key {
    path: Vec<u8>,
    resolved: Vec<u8>,
    parent: Vec<u8>,
    resolved_parent: Vec<u8>,
    outside: bool,
}

/// A path's bytes (lossy elsewhere than on Unix).
fn bytes(p: &Path) -> &[u8] {
    p.as_os_str().as_encoded_bytes()
}

/// Whether the path `c` is `place` or lies below it (bytes of normalised absolute paths).
fn under(c: &[u8], place: &[u8]) -> bool {
    c.starts_with(place) && (c.len() == place.len() || c[place.len()] == b'/' || place == b"/")
}

impl Protected {
    /// The places of `sources`, resolved now.
    pub fn new(sources: &Sources) -> Self {
        if !hookhost_sys::host_env::remembering() {
            return Protected::from_places(sources, places::places(sources).into());
        }
        Protected::remembered(sources).0
    }

    /// [`Protected::new`] in a process that runs one invocation after another (the warm
    /// engine), and whether kept places were used: the places computed for the same sources
    /// are used again while the stamps of everything their computing read are unchanged
    /// (`places::stamped`); a change, a link or a racy time anywhere on the way means they
    /// are computed again, as a fresh process computes them. The hard-link inodes are never
    /// kept: each copy reads them anew. Those of up to [`KEPT_MAX`] sources are kept (an
    /// engine serves the runners of a few projects and homes: `hook` and `run`, `--home`);
    /// past that it starts over.
    fn remembered(sources: &Sources) -> (Self, bool) {
        type Kept = Vec<(Sources, hookhost_sys::stamps::Stamps, Protected)>;
        static KEPT: std::sync::Mutex<Kept> = std::sync::Mutex::new(Vec::new());
        let mut kept = KEPT
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(i) = kept.iter().position(|(s, _, _)| s == sources) {
            if kept[i].1.unchanged() {
                return (kept[i].2.fresh(), true);
            }
            kept.swap_remove(i);
        }
        let (places, stamps) = places::stamped(sources, std::time::SystemTime::now());
        let protected = Protected::from_places(sources, places.into());
        if stamps.usable() {
            if kept.len() >= KEPT_MAX {
                kept.clear();
            }
            kept.push((sources.clone(), stamps, protected.fresh()));
        }
        (protected, false)
    }

    /// A copy sharing the places, with no hard-link inodes read yet.
    fn fresh(&self) -> Self {
        Protected {
            places: self.places.clone(),
            home: self.home.clone(),
            needles: self.needles.clone(),
            inodes: std::sync::OnceLock::new(),
            project: self.project.clone(),
            keys: self.keys.clone(),
        }
    }

    fn from_places(sources: &Sources, places: Arc<[Place]>) -> Self {
        let home = sources
            .home
            .clone()
            .or_else(|| sources.account_home.clone());
        // In order, each once (a set: comparing each with all before it was quadratic).
        let mut needles: Vec<String> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let mut add = |text: String| {
            if !text.is_empty() && seen.insert(text.clone()) {
                needles.push(text);
            }
        };
        for p in places.iter() {
            for path in [&p.path, &p.resolved] {
                add(path.to_string_lossy().into_owned());
                let under_home = [&sources.home, &sources.account_home]
                    .into_iter()
                    .flatten()
                    .find_map(|h| path.strip_prefix(h).ok());
                if let Some(rel) = under_home {
                    add(rel.to_string_lossy().into_owned());
                }
            }
        }
        let project = sources.project.as_deref().map(places::resolve);
        let keys = places
            .iter()
            .map(|p| {
                let parent = |x: &Path| x.parent().map(|d| bytes(d).to_vec()).unwrap_or_default();
                Key {
                    path: bytes(&p.path).to_vec(),
                    resolved: bytes(&p.resolved).to_vec(),
                    parent: parent(&p.path),
                    resolved_parent: parent(&p.resolved),
                    outside: !project.as_ref().is_some_and(|root| {
                        p.resolved.starts_with(root) || p.path.starts_with(root)
                    }),
                }
            })
            .collect();
        Protected {
            places,
            home,
            needles: needles.into(),
            inodes: std::sync::OnceLock::new(),
            project,
            keys,
        }
    }

    /// The places for a runner of `project` with `home` and the managed files in force,
    /// the account's home, this process's cache roots and executable.
    pub fn for_runner(project: &Path, home: Option<&Path>, managed: &[PathBuf]) -> Self {
        let account = crate::locations::account_home();
        let mut state_dirs = Vec::new();
        if let Some(roots) = crate::locations::settled() {
            state_dirs.extend(roots.cache);
            state_dirs.extend(roots.store);
        }
        for h in home.into_iter().chain(account.as_deref()) {
            if let Some(c) = crate::locations::user_cache(project, Some(h)) {
                state_dirs.push(c.join("hookhost"));
            }
        }
        if let Some(log) = crate::decision_log::writer::default_dir(project, home) {
            state_dirs.push(log);
        }
        Protected::new(&Sources {
            home: home.map(Path::to_path_buf),
            account_home: account.filter(|a| Some(a.as_path()) != home),
            project: Some(project.to_path_buf()),
            managed: managed.to_vec(),
            state_dirs,
            exe: std::env::current_exe().ok(),
        })
    }

    /// The denial for a call of `tool` with `args`, made in the directory `cwd`, if it would
    /// change a protected place.
    pub fn judge(&self, tool: &str, args: &Value, cwd: &Path) -> Option<Denial> {
        calls::judge(self, tool, args, cwd)
    }

    /// This guard as the core's permission checker takes it: a system deny nothing overrides.
    pub fn permission_guard(self: Arc<Self>) -> crate::agent::SystemGuard {
        Arc::new(move |tool: &str, args: &Value| {
            let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
            self.judge(tool, args, &cwd).map(|d| d.reason())
        })
    }

    /// What protected place `path` (absolute) touches with `reach`, if any, said for the
    /// reason.
    fn touches(&self, path: &Path, reach: Reach) -> Option<String> {
        let written = places::normalise(path);
        // Under the (resolved) project root only the rest needs looking up.
        let resolved = match self
            .project
            .as_ref()
            .and_then(|p| Some((p, path.strip_prefix(p).ok()?)))
        {
            // `..` is taken after links are followed, as the kernel does: `link/../x` is
            // beside the link's target, not beside the link.
            Some((p, rest)) => places::resolve_from(p.clone(), rest),
            None => places::resolve(path),
        };
        // Compared as bytes (component-wise `Path` comparisons of every place were most of
        // an event's cost).
        let forms = [bytes(&written), bytes(&resolved)];
        let places = || self.places.iter().zip(self.keys.iter());
        if let Some((p, _)) = places().find(|(_, k)| {
            forms
                .iter()
                .any(|c| under(c, &k.path) || under(c, &k.resolved))
        }) {
            return Some(p.what.to_string());
        }
        // The folder a protected place is in (`cp x ~/.claude/`, `tar -C ~ -x`): a write
        // there can create or replace it. Not the project's own folder (every build writes
        // there), nor `/` (`rm` refuses it).
        let outside = || places().filter(|(_, k)| k.outside);
        if let Some((p, _)) = outside().find(|(_, k)| {
            forms
                .iter()
                .any(|c| *c == k.parent.as_slice() || *c == k.resolved_parent.as_slice())
        }) {
            return Some(format!(
                "the folder that holds {}: {}",
                p.what,
                p.path.display()
            ));
        }
        if reach == Reach::InsideOrAbove
            && let Some((p, _)) = outside().find(|(_, k)| {
                forms
                    .iter()
                    .any(|c| *c != b"/" && (under(&k.path, c) || under(&k.resolved, c)))
            })
        {
            return Some(format!("it holds {}: {}", p.what, p.path.display()));
        }
        self.same_inode(&resolved)
            .then(|| "a hard link of one of hookhost's protected files".to_string())
    }

    /// Whether `path` is a hard link of a protected file.
    #[cfg(unix)]
    fn same_inode(&self, path: &Path) -> bool {
        use std::os::unix::fs::MetadataExt;
        match std::fs::symlink_metadata(path) {
            Ok(m) if m.is_file() && m.nlink() > 1 => self
                .inodes
                .get_or_init(|| protected_inodes(&self.places))
                .contains(&(m.dev(), m.ino())),
            _ => false,
        }
    }

    #[cfg(not(unix))]
    fn same_inode(&self, _path: &Path) -> bool {
        false
    }

    /// The denial for a path a call names (relative ones under `base`), with `~` and
    /// `$HOME` expanded.
    fn check_path(&self, base: &Path, written: &str, reach: Reach) -> Option<Denial> {
        if written.starts_with('~') && !written.starts_with("~/") && written != "~" {
            // `~alice/.claude/...`: another spelling of a home; judged by what it names.
            return self.named_in(written);
        }
        let expanded = self.expand_home(written)?;
        let path = base.join(&expanded);
        self.touches(&path, reach).map(|what| Denial {
            target: path.display().to_string(),
            what,
        })
    }

    /// `~`, `~/x`, `$HOME/x` and `${HOME}/x` under the home directory; `None` for an empty
    /// word or `~user`.
    fn expand_home(&self, word: &str) -> Option<PathBuf> {
        if word.is_empty() {
            return None;
        }
        for prefix in ["~", "$HOME", "${HOME}"] {
            if let Some(rest) = word.strip_prefix(prefix) {
                if rest.is_empty() || rest.starts_with('/') {
                    let home = self.home.as_ref()?;
                    return Some(home.join(rest.trim_start_matches('/')));
                }
                if prefix == "~" {
                    return None;
                }
            }
        }
        Some(PathBuf::from(word))
    }

    /// The first protected place that `text` (code, a word built at run time) names.
    fn named_in(&self, text: &str) -> Option<Denial> {
        let i = self
            .needles
            .iter()
            .position(|n| text.contains(n.as_str()))?;
        let needle = &self.needles[i];
        let what = self
            .places
            .iter()
            .find(|p| {
                p.path.to_string_lossy().ends_with(needle.as_str())
                    || p.resolved.to_string_lossy().ends_with(needle.as_str())
            })
            .map_or("hookhost's protected state", |p| p.what);
        Some(Denial {
            target: needle.clone(),
            what: what.to_string(),
        })
    }
}

/// Device and inode of each protected file: a place that is a file, and the files directly
/// in a place that is a directory (at most 256 per directory).
fn protected_inodes(places: &[Place]) -> Vec<(u64, u64)> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let mut out = Vec::new();
        for p in places {
            match std::fs::metadata(&p.resolved) {
                Ok(m) if m.is_file() => out.push((m.dev(), m.ino())),
                Ok(m) if m.is_dir() => {
                    if let Ok(entries) = std::fs::read_dir(&p.resolved) {
                        for e in entries.flatten().take(256) {
                            if let Ok(m) = e.metadata()
                                && m.is_file()
                            {
                                out.push((m.dev(), m.ino()));
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        out
    }
    #[cfg(not(unix))]
    {
        let _ = places;
        Vec::new()
    }
}

#[cfg(test)]
mod tests;
