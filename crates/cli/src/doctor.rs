//! `hookhost doctor`: what is set up and what is broken, in one screen. The findings come from
//! the library ([`crate::diagnose`]); this file adds the toolchains of `new`/`build` (which
//! only the CLI knows) and renders. Exit 1 on any error, 0 with warnings only.

use crate::diagnose::{self as doctor, DoctorReport, Finding, Section, Severity};
use clap::Args;
use hookhost::terminal_safe_lines;
use std::path::PathBuf;

#[derive(Args, Debug)]
#[command(
    after_help = "Reads: the agents' settings files (.claude/settings.json, \
    .claude/settings.local.json, .gemini/settings.json, .codex/hooks.json, the project's and \
    yours), their plugin installs (~/.claude/plugins, ~/.codex/plugins and config.toml, \
    ~/.gemini/extensions), every hooks file `list` shows, ~/.coding-agent/trusted.json, the \
    cache and log directories. Writes: the compiled-code cache (wasm modules are compiled as \
    `check` does). Exit 1 on any error."
)]
pub struct DoctorArgs {
    /// Project directory (default: the current directory).
    #[arg(long)]
    project: Option<PathBuf>,
    /// The trust policy untrusted hooks are judged under (default: $HOOKHOST_TRUST, else skip).
    #[arg(long, value_name = "skip|block|all")]
    trust: Option<String>,
    /// Print JSON (schema/doctor.schema.json).
    #[arg(long)]
    json: bool,
}

pub async fn doctor(a: DoctorArgs, home: &super::env::UserHome) -> anyhow::Result<u8> {
    let project = super::project_dir(a.project, home)?;
    let policy = super::trust_policy(a.trust.as_deref())?;
    // The roots settled as for `check`, so the cache warmed here is the one `run` reads.
    let setup = home.setup(&project);
    let mut report = doctor::diagnose(setup.paths(), policy).await;
    report.push(toolchains());
    if a.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print!("{}", render(&report, colour()));
    }
    Ok(report.exit_code())
}

/// `hookhost build`'s toolchain per language of `hookhost new`.
fn toolchains() -> Section {
    let findings = super::new::languages()
        .map(|lang| match super::new::build::toolchain(lang) {
            Ok(found) => Finding::ok(format!("{lang}: {found}")),
            Err(missing) => {
                let (what, fix) = missing
                    .split_once(": ")
                    .map_or((missing.as_str(), None), |(w, f)| (w, Some(f)));
                let f = Finding::info(format!("{lang}: {what}"));
                match fix {
                    Some(fix) => f.fix(fix),
                    None => f,
                }
            }
        })
        .collect();
    Section::new(
        "toolchains",
        "Toolchains for `hookhost new`/`build`",
        findings,
    )
}

/// Colour only on a terminal and without NO_COLOR (as the log lines).
fn colour() -> bool {
    std::io::IsTerminal::is_terminal(&std::io::stdout())
        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// The human report: one heading per section, one line per finding (its place and fix
/// indented under it), and a closing count.
pub fn render(report: &DoctorReport, colour: bool) -> String {
    let mut out = format!(
        "hookhost doctor: {}\n",
        terminal_safe_lines(&report.project.display().to_string())
    );
    for section in &report.sections {
        out.push_str(&format!("\n{}\n", section.title));
        for f in &section.findings {
            out.push_str(&format!(
                "  {} {}\n",
                tag(f.severity, colour),
                terminal_safe_lines(&f.what)
            ));
            if let Some(place) = &f.place {
                out.push_str(&format!("            at {}\n", terminal_safe_lines(place)));
            }
            if let Some(fix) = &f.fix
                && f.severity != Severity::Ok
            {
                out.push_str(&format!("            fix: {}\n", terminal_safe_lines(fix)));
            }
        }
    }
    out.push_str(&format!(
        "\n{} error{}, {} warning{}\n",
        report.errors,
        if report.errors == 1 { "" } else { "s" },
        report.warnings,
        if report.warnings == 1 { "" } else { "s" },
    ));
    out
}

/// `error  `, `warning`, `ok     `, `info   `, coloured on a terminal.
fn tag(s: Severity, colour: bool) -> String {
    let text = format!("{:<7}", s.as_str());
    if !colour {
        return text;
    }
    let code = match s {
        Severity::Error => "31",
        Severity::Warning => "33",
        Severity::Ok => "32",
        Severity::Info => "2",
    };
    format!("\x1b[{code}m{text}\x1b[0m")
}
