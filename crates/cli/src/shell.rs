//! Shell integration generated from the clap definitions: `hookhost completions SHELL`
//! (bash, zsh, fish, elvish, powershell), `hookhost man` (roff on stdout) and `hookhost man
//! --dir DIR` (hookhost.1 and a page per subcommand). scripts/release writes both into the
//! artifacts; the packages install them where their format allows. [`Hinted`] gives the
//! completion scripts the usual values of a free-text argument (events, languages, agents).

use clap::builder::{PossibleValue, StringValueParser, TypedValueParser};
use clap::{Args, CommandFactory, ValueEnum};
use clap_complete::Shell;
use std::ffi::OsStr;
use std::io::Write;
use std::path::PathBuf;

/// The value parser of a free-text argument whose usual values are known: any string is
/// accepted (a parse or a check further on judges it, with its own message), and the values
/// are what clap offers the completion scripts. Use with `hide_possible_values = true`, as the
/// argument's help says which values it takes.
#[derive(Clone, Debug)]
pub struct Hinted(Vec<&'static str>);

impl Hinted {
    /// Offers `values` (the module that owns the list passes it: `hook`'s agents, `new`'s
    /// languages), accepting any text.
    pub fn new(values: impl IntoIterator<Item = &'static str>) -> Hinted {
        Hinted(values.into_iter().collect())
    }
}

impl TypedValueParser for Hinted {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<String, clap::Error> {
        StringValueParser::new().parse_ref(cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(self.0.iter().map(|v| PossibleValue::new(*v))))
    }
}

/// hookhost's event names (`run EVENT`, `log --event`); other agents' names are accepted too.
pub fn events() -> Hinted {
    Hinted(hookhost::Event::ALL.iter().map(|e| e.as_str()).collect())
}

/// `hookhost completions SHELL`.
#[derive(Args, Debug)]
pub struct CompletionsArgs {
    /// The shell to write a completion script for (on stdout).
    #[arg(value_enum)]
    shell: ShellName,
}

/// The shells clap_complete writes for.
#[derive(ValueEnum, Clone, Copy, Debug)]
enum ShellName {
    Bash,
    Zsh,
    Fish,
    Elvish,
    Powershell,
}

impl From<ShellName> for Shell {
    fn from(s: ShellName) -> Self {
        match s {
            ShellName::Bash => Shell::Bash,
            ShellName::Zsh => Shell::Zsh,
            ShellName::Fish => Shell::Fish,
            ShellName::Elvish => Shell::Elvish,
            ShellName::Powershell => Shell::PowerShell,
        }
    }
}

/// Writes the completion script for `args.shell` on stdout.
pub fn completions(args: &CompletionsArgs) -> anyhow::Result<u8> {
    let mut cmd = crate::Cli::command();
    let mut out = Vec::new();
    clap_complete::generate(Shell::from(args.shell), &mut cmd, "hookhost", &mut out);
    write_stdout(&out)
}

/// `hookhost man`.
#[derive(Args, Debug)]
pub struct ManArgs {
    /// Write hookhost.1 and one page per subcommand (hookhost-run.1, ...: the pages
    /// hookhost(1) names) into DIR, created if missing, and print their paths.
    #[arg(long, value_name = "DIR", value_hint = clap::ValueHint::DirPath)]
    dir: Option<PathBuf>,
}

/// Writes the man page hookhost(1) (roff) on stdout, or with `--dir` every page into DIR.
pub fn man(args: &ManArgs) -> anyhow::Result<u8> {
    let Some(dir) = &args.dir else {
        let mut out = Vec::new();
        clap_mangen::Man::new(crate::Cli::command()).render(&mut out)?;
        return write_stdout(&out);
    };
    let mut out = String::new();
    for path in man_pages(dir)? {
        out.push_str(&format!("{}\n", path.display()));
    }
    write_stdout(out.as_bytes())
}

/// Writes hookhost.1 and a page per visible subcommand into `dir`: the paths written.
fn man_pages(dir: &std::path::Path) -> anyhow::Result<Vec<PathBuf>> {
    if dir.exists() && !dir.is_dir() {
        anyhow::bail!(
            "--dir {} is not a directory; pass a directory for the man pages (it is created if missing)",
            dir.display()
        );
    }
    std::fs::create_dir_all(dir).map_err(|e| {
        anyhow::anyhow!(
            "cannot create the man page directory {}: {e}; pass a directory you can write with --dir",
            dir.display()
        )
    })?;
    let mut cmd = crate::Cli::command().disable_help_subcommand(true);
    cmd.build();
    let mut pages = vec![cmd.clone()];
    pages.extend(cmd.get_subcommands().filter(|s| !s.is_hide_set()).cloned());
    pages
        .into_iter()
        .map(|page| {
            clap_mangen::Man::new(page).generate_to(dir).map_err(|e| {
                anyhow::anyhow!(
                    "cannot write a man page into {}: {e}; pass a directory you can write with --dir",
                    dir.display()
                )
            })
        })
        .collect()
}

fn write_stdout(bytes: &[u8]) -> anyhow::Result<u8> {
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(bytes).and_then(|()| stdout.flush()) {
        Ok(()) => Ok(0),
        // `hookhost man | head` closes the pipe early: not an error.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(0),
        Err(e) => Err(anyhow::anyhow!("cannot write to stdout: {e}")),
    }
}
