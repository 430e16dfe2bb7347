//! `hookhost check`: every problem of both config files, every wasm module compiled (and so
//! cached: the first real event is then fast), and each shell command whose program the shell
//! will not run (missing, not executable, a bare name not on PATH): an error on events whose
//! hooks decide (PreToolUse, Stop, SubagentStop), a warning elsewhere. Exit 1 on any error;
//! warnings do not change the exit status.

use clap::Args;
use hookhost::terminal_safe_lines;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct CheckArgs {
    /// Project directory (default: the current directory).
    #[arg(long)]
    project: Option<PathBuf>,
    /// Print JSON: {"errors": [...], "warnings": [...], "hooks": N}.
    #[arg(long)]
    json: bool,
}

pub async fn check(a: CheckArgs, home: &super::env::UserHome) -> anyhow::Result<u8> {
    let project = super::project_dir(a.project, home)?;
    // The same report `serve` answers `check` with.
    let report = hookhost_package::check(&home.paths(&project)).await?;
    if a.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        // Errors and warnings quote the config (commands, paths): escaped for the terminal.
        for e in &report.errors {
            println!("error: {}", terminal_safe_lines(&e.to_string()));
        }
        for w in &report.warnings {
            println!("warning: {}", terminal_safe_lines(&w.to_string()));
        }
        println!(
            "checked {} hook{}{} in {}: {} error{}, {} warning{}",
            report.hooks,
            if report.hooks == 1 { "" } else { "s" },
            if report.disabled == 0 {
                String::new()
            } else {
                format!(
                    " (and {} disabled, not run: `hookhost list`)",
                    report.disabled
                )
            },
            report
                .files
                .iter()
                .map(|f| terminal_safe_lines(&f.display().to_string()).into_owned())
                .collect::<Vec<_>>()
                .join(" and "),
            report.errors.len(),
            if report.errors.len() == 1 { "" } else { "s" },
            report.warnings.len(),
            if report.warnings.len() == 1 { "" } else { "s" },
        );
    }
    Ok(if report.errors.is_empty() { 0 } else { 1 })
}
