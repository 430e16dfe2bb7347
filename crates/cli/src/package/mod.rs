//! The hook package commands: `pack`, `inspect`, `publish`, `add`, `update`, `remove`,
//! `fetch`. Each is a file; what they share is here: getting a package's bytes from a
//! reference ([`obtain`]), printing a manifest, asking the user, and which `hooks.json` a
//! command edits.

pub mod add;
pub mod fetch;
pub mod inspect;
pub mod pack;
pub mod publish;
pub mod remove;
pub mod update;

use anyhow::{Context, bail};
use hookhost_package::registry::{self, Credentials};
use hookhost_package::{
    Digest, Manifest, OciRef, PACKAGE_LIMIT, PackageRef, credentials, download, pins,
};
use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};

/// A package's bytes, checked, with what they are.
pub struct Fetched {
    pub bytes: Vec<u8>,
    pub digest: Digest,
    /// What `hooks.json` records as `package.ref`.
    pub recorded_ref: String,
    /// The OCI manifest digest, for registry references.
    pub manifest_digest: Option<String>,
}

pub fn credentials_for(r: &OciRef) -> anyhow::Result<Credentials> {
    credentials::for_registry(&r.registry).map_err(anyhow::Error::msg)
}

/// Downloads (or reads) what `text` names and checks it.
pub async fn obtain(text: &str, insecure: bool) -> anyhow::Result<Fetched> {
    let r: PackageRef = text.parse()?;
    match r {
        PackageRef::Oci(o) => {
            let creds = credentials_for(&o)?;
            let pulled = registry::pull(&o, &creds, insecure).await?;
            let recorded_ref = match (&o.tag, &o.digest) {
                (Some(_), None) => o.tagged(),
                _ => format!(
                    "oci://{}/{}@{}",
                    o.registry, o.repository, pulled.manifest_digest
                ),
            };
            Ok(Fetched {
                bytes: pulled.bytes,
                digest: pulled.digest,
                recorded_ref,
                manifest_digest: Some(pulled.manifest_digest),
            })
        }
        PackageRef::Url { url, digest } => {
            let bytes = download::fetch(&url, &digest, insecure)
                .await
                .map_err(anyhow::Error::msg)?;
            Ok(Fetched {
                bytes,
                recorded_ref: format!("{url}#sha256={}", digest.hex()),
                digest,
                manifest_digest: None,
            })
        }
        PackageRef::File(path) => {
            let bytes = hookhost::files::read_bounded(&path, PACKAGE_LIMIT)
                .with_context(|| format!("reading the package {}", path.display()))?;
            let abs = std::fs::canonicalize(&path).unwrap_or(path);
            Ok(Fetched {
                digest: Digest::of(&bytes),
                bytes,
                recorded_ref: abs.display().to_string(),
                manifest_digest: None,
            })
        }
    }
}

/// The manifest of a package, or an error saying it is not a packed hook.
pub fn require_manifest(bytes: &[u8], what: &str) -> anyhow::Result<Manifest> {
    match hookhost_package::manifest_of(bytes)
        .with_context(|| format!("{what}: its hook manifest"))?
    {
        Some(m) => Ok(m),
        None => bail!(
            "{what} has no hook manifest (no `hookhost:manifest` section); its author packs it with `hookhost pack FILE.wasm` next to a hook.json"
        ),
    }
}

/// Human lines describing `m`, capabilities first.
pub fn describe(m: &Manifest, digest: &Digest) -> Vec<String> {
    let mut out = vec![format!("{} {}", m.name, m.version)];
    if let Some(d) = &m.description {
        out.push(format!("  {d}"));
    }
    out.push(format!("  digest:  {digest}"));
    for (k, v) in [("author", &m.author), ("license", &m.license)] {
        if let Some(v) = v {
            out.push(format!("  {k}:{}{v}", " ".repeat(8 - k.len())));
        }
    }
    out.push(format!("  events:  {}", m.events.join(", ")));
    if let Some(mt) = &m.matcher {
        out.push(format!("  match:   {mt}"));
    }
    out.push("  capabilities it asks for:".into());
    out.extend(
        m.capabilities
            .lines()
            .into_iter()
            .map(|l| format!("    {l}")),
    );
    out
}

/// Asks "question [y/N]" on the terminal; `yes` answers for the user. Without a terminal
/// and without `--yes`, refuses.
pub fn confirm(question: &str, yes: bool) -> anyhow::Result<bool> {
    if yes {
        return Ok(true);
    }
    if !std::io::stdin().is_terminal() {
        bail!("not asking without a terminal: review the above and run again with --yes to accept");
    }
    print!("{question} [y/N] ");
    std::io::stdout().flush()?;
    let mut line = String::new();
    std::io::stdin().lock().read_line(&mut line)?;
    Ok(matches!(line.trim(), "y" | "Y" | "yes"))
}

/// Which hooks.json a package command edits: the project's, or with `--global` the user's.
#[derive(clap::Args, Debug)]
pub struct HooksFileArgs {
    /// Project directory (default: the current directory).
    #[arg(long)]
    pub project: Option<PathBuf>,
    /// The user's ~/.coding-agent/hooks.json instead of the project's.
    #[arg(long)]
    pub global: bool,
}

/// The `hooks.json` a command edits: the project's, or with `--global` the user's.
pub struct HooksFile {
    /// The project (canonical).
    pub project: PathBuf,
    /// The file.
    pub file: PathBuf,
    /// Whether it is the user's own `~/.coding-agent/hooks.json`.
    pub global: bool,
}

impl HooksFile {
    /// Reads it. The project's is refused when `.coding-agent` or `hooks.json` is a symlink
    /// (a cloned repository may point them at the user's own `~/.coding-agent`).
    pub fn read(&self) -> anyhow::Result<serde_json::Value> {
        Ok(if self.global {
            pins::read_doc(&self.file)?
        } else {
            pins::read_project_doc(&self.project)?
        })
    }

    /// Writes it atomically; the project's without following a symlink inside the project.
    pub fn write(&self, doc: &serde_json::Value) -> anyhow::Result<()> {
        if self.global {
            pins::write_doc(&self.file, doc)?;
        } else {
            pins::write_project_doc(&self.project, doc)?;
        }
        Ok(())
    }
}

/// The `hooks.json` a command edits: the project's, or with `--global` the user's.
///
/// The cache and store roots are settled for the project here, as `run` there settles them,
/// so the packages a command fetches are in the store `run` reads.
pub fn hooks_file(
    project: Option<PathBuf>,
    global: bool,
    home: &crate::env::UserHome,
) -> anyhow::Result<HooksFile> {
    let project = super::project_dir(project, home)?;
    let setup = home.setup(&project);
    if global {
        let file = setup.paths().global_file.clone().context(
            "no home directory for ~/.coding-agent/hooks.json (this account has none in the password database); pass --home DIR",
        )?;
        Ok(HooksFile {
            project,
            file,
            global: true,
        })
    } else {
        let file = project.join(hookhost::config::PROJECT_CONFIG);
        Ok(HooksFile {
            project,
            file,
            global: false,
        })
    }
}

/// Where a file's display path is shown relative to the current directory when it can be.
pub fn shown(path: &Path) -> String {
    std::env::current_dir()
        .ok()
        .and_then(|cwd| path.strip_prefix(cwd).ok().map(|p| p.display().to_string()))
        .unwrap_or_else(|| path.display().to_string())
}
