//! `hookhost remove REF|NAME`: deletes the pinned entries of a package from `hooks.json`
//! (the store keeps the bytes).

use super::{HooksFileArgs, hooks_file, shown};
use anyhow::bail;
use clap::Args;
use hookhost_package::pins;

#[derive(Args, Debug)]
#[command(
    after_help = "Reads and writes: <project>/.coding-agent/hooks.json (or the user's with --global)."
)]
pub struct RemoveArgs {
    /// The reference (as in hooks.json) or the package's name (the last part of its repository).
    reference: String,
    #[command(flatten)]
    file: HooksFileArgs,
}

/// Whether `which` (a reference or a name) names `reference`.
pub(super) fn names(which: &str, reference: &str) -> bool {
    if which == reference {
        return true;
    }
    let path = reference.split(['#', '@']).next().unwrap_or(reference);
    let last = path.rsplit('/').next().unwrap_or(path);
    let name = last
        .split(':')
        .next()
        .unwrap_or(last)
        .trim_end_matches(".wasm");
    name == which
}

pub fn remove(a: RemoveArgs, home: &crate::env::UserHome) -> anyhow::Result<u8> {
    let target = hooks_file(a.file.project, a.file.global, home)?;
    let file = target.file.clone();
    let mut doc = target.read()?;
    let n = pins::remove(&mut doc, |r| names(&a.reference, r));
    if n == 0 {
        bail!(
            "{}: no pinned hook from {}; `hookhost list` shows the hooks",
            shown(&file),
            a.reference
        );
    }
    target.write(&doc)?;
    println!(
        "removed {n} entr{} from {} (the store keeps the bytes)",
        if n == 1 { "y" } else { "ies" },
        shown(&file)
    );
    Ok(0)
}
