//! The files programs read that no word of their command line names: `make`'s makefiles,
//! `just`'s justfile, the module of `python -m`, a JavaScript package runner's manifests.
//! Every candidate that exists is pinned, so one added later (a `GNUmakefile` before the
//! trusted `Makefile`) is untrusted.

use super::pin::{dirs_up_to_project, pin};
use super::shell_words::Token;
use crate::files::read_bounded;
use std::path::{Path, PathBuf};

/// Programs that run what a `package.json` (or their own config) says.
pub(super) const JS_RUNNERS: &[&str] = &[
    "npm", "npx", "yarn", "pnpm", "pnpx", "corepack", "bun", "bunx", "deno",
];

/// A JavaScript package runner `name` run with `rest`: its manifests, and for `npx eslint`
/// the project's own copy of the program, when it has one.
pub(super) fn pin_js_runner(
    name: &str,
    rest: &[Token],
    base: &Path,
    project: &Path,
    found: &mut Vec<PathBuf>,
) {
    pin_js_manifests(base, project, found);
    if name == "npx"
        && let Some(Token::Word(bin)) = rest
            .iter()
            .find(|t| matches!(t, Token::Word(w) if !w.starts_with('-')))
        && !bin.contains('/')
    {
        pin(&format!("node_modules/.bin/{bin}"), base, project, found);
    }
}

/// A JavaScript package runner's manifests and config, in `base` and each directory above
/// it in the project (npm, yarn and pnpm look upwards for the package): `package.json`,
/// `.npmrc` (which can name the shell scripts run in), `.yarnrc`, `.yarnrc.yml` and the
/// `yarnPath` release it runs, pnpm's `.pnpmfile.cjs` and workspace file, `bunfig.toml`
/// (preloads), `deno.json`.
pub(super) fn pin_js_manifests(base: &Path, project: &Path, found: &mut Vec<PathBuf>) {
    const FILES: &[&str] = &[
        "package.json",
        ".npmrc",
        ".yarnrc",
        ".yarnrc.yml",
        ".pnpmfile.cjs",
        "pnpm-workspace.yaml",
        "bunfig.toml",
        "deno.json",
        "deno.jsonc",
    ];
    for dir in dirs_up_to_project(base, project) {
        for f in FILES {
            pin(f, &dir, project, found);
        }
        let yarnrc = dir.join(".yarnrc.yml");
        if let Ok(text) = read_bounded(&yarnrc, 1 << 20) {
            for line in String::from_utf8_lossy(&text).lines() {
                if let Some(v) = line.trim().strip_prefix("yarnPath:") {
                    pin(v.trim().trim_matches(['"', '\'']), &dir, project, found);
                }
            }
        }
    }
}

/// A command's option words, read one at a time (`k` is the word being read).
struct Options<'a> {
    words: Vec<&'a str>,
    k: usize,
}

impl<'a> Options<'a> {
    /// The current word, if any is left.
    fn current(&self) -> Option<&'a str> {
        self.words.get(self.k).copied()
    }

    /// An option's value: `joined` (`-fFILE`, `--file=FILE`) when there is one, else the next
    /// word (which is then consumed).
    fn value(&mut self, joined: &str) -> Option<String> {
        if joined.is_empty() {
            self.k += 1;
            self.current().map(str::to_string)
        } else {
            Some(joined.to_string())
        }
    }
}

/// Which makefiles `make` reads, from which directory.
struct MakeArgs {
    dir: PathBuf,
    files: Vec<String>,
}

/// The makefiles `make` reads: `-f FILE` (relative to the directory after every `-C DIR`),
/// else every one of `GNUmakefile`, `makefile`, `Makefile` (`BSDmakefile` for bmake) there.
pub(super) fn pin_makefiles(
    name: &str,
    rest: &[Token],
    base: &Path,
    project: &Path,
    found: &mut Vec<PathBuf>,
) {
    let words = rest
        .iter()
        .map_while(|t| match t {
            Token::Word(w) => Some(w.as_str()),
            Token::Redirect(_) => None,
        })
        .collect();
    let mut o = Options { words, k: 0 };
    let mut args = MakeArgs {
        dir: base.to_path_buf(),
        files: Vec::new(),
    };
    while let Some(w) = o.current() {
        if let Some(long) = w.strip_prefix("--") {
            make_long_option(&mut o, long, &mut args);
        } else if let Some(short) = w.strip_prefix('-').filter(|s| !s.is_empty()) {
            make_short_options(&mut o, short, &mut args);
        }
        o.k += 1;
    }
    if args.files.is_empty() {
        let defaults: &[&str] = if name == "bmake" {
            &["BSDmakefile", "makefile", "Makefile"]
        } else {
            &["GNUmakefile", "makefile", "Makefile"]
        };
        args.files
            .extend(defaults.iter().map(std::string::ToString::to_string));
    }
    for f in args.files.iter().filter(|f| *f != "-") {
        pin(f, &args.dir, project, found);
    }
}

/// One `--option[=value]` of `make`.
fn make_long_option(o: &mut Options<'_>, long: &str, args: &mut MakeArgs) {
    let (opt, joined) = long.split_once('=').unwrap_or((long, ""));
    match opt {
        "file" | "makefile" => args.files.extend(o.value(joined)),
        "directory" => {
            if let Some(d) = o.value(joined) {
                args.dir = args.dir.join(d);
            }
        }
        "include-dir" | "what-if" | "new-file" | "assume-new" | "old-file" | "assume-old"
            if joined.is_empty() =>
        {
            o.k += 1;
        }
        _ => {}
    }
}

/// Bundled short flags of `make` (`-sC dir`, `-fbuild.mk`): an option that takes a value
/// takes the rest of the word, or the next word.
fn make_short_options(o: &mut Options<'_>, short: &str, args: &mut MakeArgs) {
    for (at, c) in short.char_indices() {
        let joined = &short[at + c.len_utf8()..];
        match c {
            'f' => {
                args.files.extend(o.value(joined));
                break;
            }
            'C' => {
                if let Some(d) = o.value(joined) {
                    args.dir = args.dir.join(d);
                }
                break;
            }
            'I' | 'o' | 'W' => {
                let _ = o.value(joined);
                break;
            }
            _ => {}
        }
    }
}

/// The files `python -m a.b.c` runs from `base` (the first entry of its module path):
/// `a/__init__.py`, `a/b/__init__.py`, then `a/b/c.py`, `a/b/c/__init__.py` and
/// `a/b/c/__main__.py`, and a compiled `a/b/c.pyc` or extension `a/b/c*.so` in its place.
pub(super) fn pin_python_module(
    module: &str,
    base: &Path,
    project: &Path,
    found: &mut Vec<PathBuf>,
) {
    let parts: Vec<&str> = module.split('.').collect();
    if parts
        .iter()
        .any(|p| p.is_empty() || !p.chars().all(|c| c.is_alphanumeric() || c == '_'))
    {
        return;
    }
    let mut dir = String::new();
    for (n, part) in parts.iter().enumerate() {
        let path = format!("{dir}{part}");
        pin(&format!("{path}/__init__.py"), base, project, found);
        if n + 1 == parts.len() {
            for suffix in [".py", ".pyc", ".so", "/__main__.py"] {
                pin(&format!("{path}{suffix}"), base, project, found);
            }
            if let Ok(entries) = std::fs::read_dir(base.join(&dir)) {
                for e in entries.flatten() {
                    let file = e.file_name().to_string_lossy().into_owned();
                    if file.starts_with(&format!("{part}.")) && file.ends_with(".so") {
                        pin(&format!("{dir}{file}"), base, project, found);
                    }
                }
            }
        }
        dir = format!("{path}/");
    }
}

/// `just`'s justfile: `-f`/`--justfile FILE`, else the first directory from `base` (after
/// `-d`/`--working-directory`) upwards in the project with a `justfile` (any case) or
/// `.justfile`; every such file there is pinned.
pub(super) fn pin_justfile(rest: &[Token], base: &Path, project: &Path, found: &mut Vec<PathBuf>) {
    let words = rest
        .iter()
        .filter_map(|t| match t {
            Token::Word(w) => Some(w.as_str()),
            Token::Redirect(_) => None,
        })
        .collect();
    let mut o = Options { words, k: 0 };
    let mut dir = base.to_path_buf();
    let mut file = None;
    while let Some(w) = o.current() {
        let (opt, joined) = w.split_once('=').unwrap_or((w, ""));
        match opt {
            "-f" | "--justfile" => file = o.value(joined),
            "-d" | "--working-directory" => {
                if let Some(d) = o.value(joined) {
                    dir = dir.join(d);
                }
            }
            _ => {}
        }
        o.k += 1;
    }
    if let Some(f) = file {
        pin(&f, base, project, found);
        return;
    }
    for d in dirs_up_to_project(&dir, project) {
        let before = found.len();
        if let Ok(entries) = std::fs::read_dir(&d) {
            for e in entries.flatten() {
                let name = e.file_name().to_string_lossy().into_owned();
                let lower = name.to_ascii_lowercase();
                if lower == "justfile" || lower == ".justfile" {
                    pin(&name, &d, project, found);
                }
            }
        }
        if found.len() > before {
            return;
        }
    }
}
