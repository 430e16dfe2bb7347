//! Shell integration generated from the clap definitions: `hookhost completions SHELL`
//! (bash, zsh, fish, elvish, powershell) and `hookhost man` (roff on stdout). scripts/release
//! writes both into the artifacts; the packages install them where their format allows.

use clap::{Args, CommandFactory, ValueEnum};
use clap_complete::Shell;
use std::io::Write;

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

/// Writes the man page hookhost(1) (roff) on stdout.
pub fn man() -> anyhow::Result<u8> {
    let cmd = crate::Cli::command();
    let mut out = Vec::new();
    clap_mangen::Man::new(cmd).render(&mut out)?;
    write_stdout(&out)
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
