//! `hookhost new LANG NAME`, `hookhost build` and `hookhost test`: a hook project from a
//! template (`templates.rs`), built with its language's toolchain (`build.rs`), and its sample
//! payloads fired at the built module through the engine (`test.rs`).
//!
//! A hook project is a directory with a `hook.json` manifest (name, version, description,
//! language, events, default match, capabilities), the guard's source, what it needs to
//! build, and `samples/*.json`. `build` writes `NAME.wasm` into the project root.

pub mod build;
mod templates;
pub mod test;

use anyhow::{Context, bail};
use clap::Args;
use serde_json::Value;
use std::path::{Path, PathBuf};

pub use templates::Template;

/// Every language of `hookhost new` (`doctor` checks each one's toolchain).
pub fn languages() -> impl Iterator<Item = &'static str> {
    templates::TEMPLATES.iter().map(|t| t.lang)
}

/// The manifest of a hook project.
pub const MANIFEST: &str = "hook.json";

const DEFAULT_DESCRIPTION: &str = "Blocks destructive bash commands";

#[derive(Args, Debug)]
#[command(
    after_help = "Writes: the directory NAME and the files in it (the guard's source, \
    hook.json, samples/*.json, README.md, .gitignore, and per language a build manifest and \
    what the build needs that no registry provides: the Rust guest SDK in sdk/, wit/hook.wit). \
    Reads nothing; refuses a NAME that exists and is not an empty directory."
)]
pub struct NewArgs {
    /// The language: rust, rust-component, rust-http, python, javascript, typescript, c, go, zig,
    /// assemblyscript. Without it, `new` lists the languages and what each needs.
    #[arg(value_parser = crate::shell::Hinted::new(languages()), hide_possible_values = true)]
    lang: Option<String>,
    /// The directory to create; its last component is the hook's name (lowercase letters,
    /// digits, `-` and `_`, starting with a letter).
    name: Option<PathBuf>,
    /// The hook's description (hook.json, the package manifest and the README).
    #[arg(long)]
    description: Option<String>,
}

/// A hook project on disk: where it is, its name and its language's template.
pub struct Project {
    pub dir: PathBuf,
    pub name: String,
    pub template: &'static Template,
    /// `hook.json`, or an empty object when the project has none.
    pub manifest: Value,
}

impl Project {
    /// The project in `dir` (default: the current directory): `hook.json`'s `name` and
    /// `language`, else the directory's name and a language guessed from its files.
    pub fn open(dir: Option<PathBuf>) -> anyhow::Result<Project> {
        let dir = match dir {
            Some(d) => d,
            None => std::env::current_dir().context("reading the current directory")?,
        };
        let dir = std::fs::canonicalize(&dir).map_err(|e| {
            anyhow::anyhow!(
                "hook project directory {} is not usable: {e}; pass an existing directory with --dir",
                dir.display()
            )
        })?;
        let manifest_path = dir.join(MANIFEST);
        let manifest: Value = match std::fs::read_to_string(&manifest_path) {
            Ok(text) => serde_json::from_str(&text).map_err(|e| {
                anyhow::anyhow!(
                    "{} is not valid JSON: {e}; fix it (`hookhost new` writes a valid one)",
                    manifest_path.display()
                )
            })?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Value::Object(Default::default()),
            Err(e) => bail!("cannot read {}: {e}", manifest_path.display()),
        };
        let template = match manifest.get("language") {
            Some(Value::String(lang)) => templates::find(lang).ok_or_else(|| {
                anyhow::anyhow!(
                    "{}: unknown `language` \"{lang}\"; use one of: {}",
                    manifest_path.display(),
                    templates::languages()
                )
            })?,
            Some(_) => bail!("{}: `language` must be a string", manifest_path.display()),
            None => detect_language(&dir).ok_or_else(|| {
                anyhow::anyhow!(
                    "{} is not a hook project: no {MANIFEST} with a `language`, and no Cargo.toml, go.mod, package.json, *.zig, *.c or app.py to tell it by; create one with `hookhost new LANG NAME`",
                    dir.display()
                )
            })?,
        };
        let name = match manifest.get("name") {
            Some(Value::String(n)) => {
                validate_name(n)
                    .with_context(|| format!("`name` in {}", manifest_path.display()))?;
                n.clone()
            }
            Some(_) => bail!("{}: `name` must be a string", manifest_path.display()),
            None => {
                let n = dir
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                validate_name(&n).with_context(|| {
                    format!(
                        "{} has no `name`, and the directory's name will not do",
                        manifest_path.display()
                    )
                })?;
                n
            }
        };
        Ok(Project {
            dir,
            name,
            template,
            manifest,
        })
    }

    /// Where `build` puts the module and `test` finds it.
    pub fn module(&self) -> PathBuf {
        self.dir.join(format!("{}.wasm", self.name))
    }
}

/// The language of a project without `hook.json`'s `language`, from its files.
fn detect_language(dir: &Path) -> Option<&'static Template> {
    let has = |f: &str| dir.join(f).exists();
    let read = |f: &str| std::fs::read_to_string(dir.join(f)).unwrap_or_default();
    let has_ext = |ext: &str| {
        std::fs::read_dir(dir).ok().is_some_and(|entries| {
            entries
                .flatten()
                .any(|e| e.path().extension().is_some_and(|x| x == ext))
        })
    };
    let lang = if has("Cargo.toml") {
        if read("Cargo.toml").contains("wit-bindgen") {
            "rust-component"
        } else if read("src/main.rs").contains("hookhost_guest::http") {
            "rust-http"
        } else {
            "rust"
        }
    } else if has("go.mod") {
        "go"
    } else if has("package.json") {
        let manifest = read("package.json");
        if manifest.contains("assemblyscript") {
            "assemblyscript"
        } else if manifest.contains("\"typescript\"") {
            "typescript"
        } else {
            "javascript"
        }
    } else if has_ext("zig") {
        "zig"
    } else if has_ext("c") {
        "c"
    } else if has("app.py") {
        "python"
    } else {
        return None;
    };
    templates::find(lang)
}

/// Hook names become crate, npm package, Go module and file names: keep them portable.
fn validate_name(name: &str) -> anyhow::Result<()> {
    let ok = name.len() <= 64
        && name.starts_with(|c: char| c.is_ascii_lowercase())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_');
    if !ok {
        bail!(
            "`{name}` is not a usable hook name: use lowercase letters, digits, `-` and `_`, starting with a letter, at most 64 characters (e.g. `bash-guard`)"
        );
    }
    Ok(())
}

/// `text` as the inside of a JSON (and TOML basic) string literal.
fn escaped(text: &str) -> String {
    let quoted = serde_json::to_string(text).unwrap_or_default();
    quoted[1..quoted.len() - 1].to_string()
}

fn manifest_json(name: &str, description: &str, t: &Template) -> String {
    format!(
        r#"{{
  "name": "{name}",
  "version": "0.1.0",
  "description": "{}",
  "language": "{}",
  "events": ["PreToolUse"],
  "match": "bash",
  "capabilities": {{ "fs": "none", "env": [], "memory": {}, "timeout": {} }}
}}
"#,
        escaped(description),
        t.lang,
        t.memory,
        t.timeout
    )
}

/// Every file of a new project for `t`: (relative path, text, executable).
fn render(name: &str, description: &str, t: &Template) -> Vec<(String, String, bool)> {
    let fill = |path: &str, text: &str| {
        let desc = if path.ends_with(".json") || path.ends_with(".toml") {
            escaped(description)
        } else {
            description.to_string()
        };
        text.replace("{{name}}", name)
            .replace("{{description}}", &desc)
    };
    let mut files: Vec<(String, String, bool)> = t
        .files
        .iter()
        .chain(templates::COMMON)
        .map(|f| (f.path.to_string(), fill(f.path, f.text), f.executable))
        .collect();
    files.push((MANIFEST.into(), manifest_json(name, description, t), false));
    let readme = templates::README
        .replace("{{title}}", t.title)
        .replace("{{source}}", t.source)
        .replace("{{toolchain}}", t.toolchain)
        .replace("{{timeout}}", &t.timeout.to_string())
        .replace("{{memory}}", &t.memory.to_string());
    // The README adds its own full stop.
    let readme = readme.replace("{{description}}", description.trim_end_matches('.'));
    files.push(("README.md".into(), fill("README.md", &readme), false));
    files
}

/// Writes a new project for `lang` into `dir`; returns the hook's name.
pub fn create(lang: &str, dir: &Path, description: Option<&str>) -> anyhow::Result<String> {
    let template = templates::find(lang).ok_or_else(|| {
        anyhow::anyhow!(
            "unknown language `{lang}`; choose one of: {}",
            templates::languages()
        )
    })?;
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .ok_or_else(|| anyhow::anyhow!("`{}` does not end in a directory name", dir.display()))?;
    validate_name(&name)?;
    match std::fs::read_dir(dir) {
        Ok(mut entries) => {
            if entries.next().is_some() {
                bail!(
                    "{} already exists and is not empty; choose another NAME or remove it",
                    dir.display()
                );
            }
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) if dir.exists() => bail!(
            "{} exists but is not a readable directory ({e}); choose another NAME",
            dir.display()
        ),
        Err(e) => bail!("cannot use {}: {e}", dir.display()),
    }
    let description = description.unwrap_or(DEFAULT_DESCRIPTION);
    for (path, text, executable) in render(&name, description, template) {
        let target = dir.join(&path);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("creating {}", parent.display()))?;
        }
        std::fs::write(&target, text).with_context(|| format!("writing {}", target.display()))?;
        #[cfg(unix)]
        if executable {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o755))
                .with_context(|| format!("making {} executable", target.display()))?;
        }
        #[cfg(not(unix))]
        let _ = executable;
    }
    Ok(name)
}

pub fn new(a: NewArgs) -> anyhow::Result<u8> {
    let (Some(lang), Some(dir)) = (a.lang, a.name) else {
        // Exit 2 like any usage error, with the list a first-time user needs.
        eprintln!("usage: hookhost new LANG NAME   (e.g. hookhost new rust bash-guard)\n");
        eprintln!("languages, and what `hookhost build` needs for each:");
        for t in templates::TEMPLATES {
            eprintln!(
                "  {:<16} {}\n  {:<16} needs: {}",
                t.lang, t.title, "", t.toolchain
            );
        }
        let short: Vec<String> = templates::ALIASES
            .iter()
            .map(|(alias, full)| format!("{alias} ({full})"))
            .collect();
        eprintln!("short names: {}", short.join(", "));
        return Ok(2);
    };
    let dir = dir.as_path();
    let name = create(&lang, dir, a.description.as_deref())?;
    let template = templates::find(&lang).map(|t| t.title).unwrap_or_default();
    println!("created {} ({template})", dir.display());
    println!(
        "next: cd {} && hookhost build && hookhost test",
        dir.display()
    );
    println!("then wire {name}.wasm into .coding-agent/hooks.json as its README.md shows");
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_a_non_empty_directory() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("guard");
        std::fs::create_dir(&dir).unwrap();
        std::fs::write(dir.join("keep.txt"), "mine").unwrap();
        let err = create("rust", &dir, None).unwrap_err().to_string();
        assert!(err.contains("already exists and is not empty"), "{err}");
        assert_eq!(
            std::fs::read_to_string(dir.join("keep.txt")).unwrap(),
            "mine"
        );
        assert!(!dir.join("Cargo.toml").exists());
    }

    #[test]
    fn an_empty_directory_is_fine() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("guard");
        std::fs::create_dir(&dir).unwrap();
        assert_eq!(create("go", &dir, None).unwrap(), "guard");
        assert!(dir.join("main.go").is_file() && dir.join("hook.json").is_file());
    }

    #[test]
    fn refuses_an_unknown_language_and_lists_the_known_ones() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("guard");
        let err = create("cobol", &dir, None).unwrap_err().to_string();
        for lang in [
            "rust",
            "rust-component",
            "rust-http",
            "python",
            "javascript",
            "typescript",
            "c",
            "go",
            "zig",
            "assemblyscript",
        ] {
            assert!(err.contains(lang), "{err}");
        }
        assert!(!dir.exists());
    }

    #[test]
    fn refuses_unportable_names() {
        let tmp = tempfile::tempdir().unwrap();
        for bad in ["Guard", "1guard", "my guard", "gu.ard"] {
            let err = create("c", &tmp.path().join(bad), None)
                .unwrap_err()
                .to_string();
            assert!(err.contains("not a usable hook name"), "{bad}: {err}");
        }
    }

    #[test]
    fn every_template_renders_a_manifest_samples_and_no_placeholders() {
        for t in templates::TEMPLATES {
            let files = render("my-guard", "Says \"no\"", t);
            let get = |p: &str| files.iter().find(|f| f.0 == p).map(|f| f.1.clone());
            let manifest: Value = serde_json::from_str(&get(MANIFEST).unwrap()).unwrap();
            assert_eq!(manifest["language"], t.lang);
            assert_eq!(manifest["description"], "Says \"no\"");
            assert_eq!(manifest["events"], serde_json::json!(["PreToolUse"]));
            assert!(get("samples/block.json").is_some() && get("samples/pass.json").is_some());
            assert!(get(t.source).is_some(), "{}: {}", t.lang, t.source);
            for (path, text, _) in &files {
                // The SDK is copied verbatim (its tests use `{{` in format strings).
                assert!(
                    path.starts_with("sdk/") || !text.contains("{{"),
                    "{}: {path} keeps a placeholder",
                    t.lang
                );
                if path.ends_with(".json") {
                    serde_json::from_str::<Value>(text)
                        .unwrap_or_else(|e| panic!("{}: {path}: {e}", t.lang));
                }
            }
        }
    }
}
