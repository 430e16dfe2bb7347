//! The compiled-code cache and the decision log's directory: where they are (the directory
//! variables vetted as [`hookhost::locations`] does), whether they exist, are this user's and
//! closed to others (an error otherwise: a cache others can write could hand hookhost code to
//! run, so it fails closed), and their size; whether the log is on.

use super::{Finding, Section};
use hookhost::decision_log::{LOG_DIR_ENV, LOG_ENV};
use hookhost::locations::{self, CACHE_DIR_ENV};
use std::path::Path;

/// At most this many entries are counted for a directory's size (a huge cache is not walked
/// whole).
const MAX_ENTRIES: usize = 100_000;

/// The `directories` section.
pub fn section(project: &Path, home: Option<&Path>) -> Section {
    let mut out = Vec::new();
    let (roots, _) = locations::choose(project, home);
    named(CACHE_DIR_ENV, project, home, &mut out);
    match &roots.cache {
        Some(dir) => out.push(directory("compiled-code cache", dir)),
        None => out.push(Finding::warning(
            "no compiled-code cache (no home or cache directory): every wasm hook compiles at every event",
        )
        .fix(format!("set {CACHE_DIR_ENV} to a directory of yours"))),
    }
    named(LOG_DIR_ENV, project, home, &mut out);
    let mode = std::env::var(LOG_ENV).unwrap_or_default();
    let off = matches!(
        mode.trim().to_ascii_lowercase().as_str(),
        "off" | "0" | "false" | "no"
    );
    match hookhost::decision_log::writer::default_dir(project, home) {
        Some(_) if off => out.push(Finding::info(format!(
            "decision log off ({LOG_ENV}={mode}): `hookhost log` and `explain` have nothing to show"
        ))
        .fix(format!("unset {LOG_ENV} to turn it on"))),
        Some(dir) => {
            let capture = if mode.trim().eq_ignore_ascii_case("full") {
                "on, full capture (payloads and output kept)"
            } else {
                "on"
            };
            let mut f = directory("decision log", &dir);
            f.what = format!("{} (log {capture})", f.what);
            out.push(f);
        }
        None => out.push(Finding::info(
            "decision log: no cache directory to keep it in; nothing is logged",
        )),
    }
    Section::new("directories", "Cache and log directories", out)
}

/// A directory variable that is set but refused: an error (hookhost falls back to the
/// default, but the user asked for something else).
fn named(var: &str, project: &Path, home: Option<&Path>, out: &mut Vec<Finding>) {
    let Some(value) = std::env::var_os(var).filter(|v| !v.is_empty()) else {
        return;
    };
    let dir = Path::new(&value);
    if let Err(why) = locations::vet_dir(var, dir, project, home) {
        out.push(
            Finding::error(format!("${var} is not used: {why}"))
                .at(dir.display().to_string())
                .fix(format!(
                    "`chmod go-w {}` if it is yours, or point {var} at a private directory",
                    dir.display()
                )),
        );
    }
}

/// One directory: missing (made 0700 on first use), private, or not.
fn directory(what: &str, dir: &Path) -> Finding {
    let place = dir.display().to_string();
    match std::fs::symlink_metadata(dir) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            Finding::info(format!("{what}: not created yet (made 0700 on first use)")).at(place)
        }
        Err(e) => Finding::error(format!("{what}: cannot inspect it: {e}"))
            .at(place)
            .fix("make it readable by you, or remove it"),
        Ok(_) => match hookhost::files::check_private_dir(dir) {
            Err(why) => Finding::error(format!(
                "{what}: {why} (hookhost refuses to use it: others could plant code or read what it holds)"
            ))
            .at(place.clone())
            .fix(format!("chmod 700 {place} (or remove it: it is made again, private)")),
            Ok(()) => {
                let (bytes, capped) = size(dir);
                Finding::ok(format!(
                    "{what}: private to you, {}{}",
                    human(bytes),
                    if capped { " or more" } else { "" }
                ))
                .at(place)
            }
        },
    }
}

/// The bytes of the regular files under `dir` (symlinks not followed), and whether the count
/// stopped at [`MAX_ENTRIES`].
fn size(dir: &Path) -> (u64, bool) {
    let mut total = 0u64;
    let mut seen = 0usize;
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            seen += 1;
            if seen > MAX_ENTRIES {
                return (total, true);
            }
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_dir() {
                stack.push(entry.path());
            } else if kind.is_file() {
                total += entry.metadata().map(|m| m.len()).unwrap_or(0);
            }
        }
    }
    (total, false)
}

fn human(bytes: u64) -> String {
    #[allow(clippy::cast_precision_loss)]
    let b = bytes as f64;
    if bytes < 1024 {
        format!("{bytes} B")
    } else if b < 1024.0 * 1024.0 {
        format!("{:.1} KiB", b / 1024.0)
    } else if b < 1024.0 * 1024.0 * 1024.0 {
        format!("{:.1} MiB", b / (1024.0 * 1024.0))
    } else {
        format!("{:.1} GiB", b / (1024.0 * 1024.0 * 1024.0))
    }
}
