//! `hookhost compile [MODULE...]`: compiles wasm modules into the compiled-code cache ahead of
//! the first event (the named files, else every wasm module the project's and the user's hooks
//! name), so that no event waits for a compile. `check` does the same as part of its checks;
//! this is the step for a build script or an installer. Exit 1 if any module fails.
//!
//! Always the optimised code (no baseline tier: this is the "ahead" path). `--background` is
//! the detached compile `run` and `hook` start for a module that ran from the baseline tier
//! (`tier_up.rs`): one absolute module path, at low priority and with a CPU-time limit, under
//! the module's claim (exit 0 at once when another process holds it), printing nothing.

use clap::Args;
use hookhost::config::{self, Handler};
use hookhost::spawner::{OptimisationClaim, Tiering, WasmEngineConfig, WasmSpawner};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::time::Instant;

#[derive(Args, Debug)]
pub struct CompileArgs {
    /// The `.wasm` files to compile (default: every wasm module the hooks name).
    modules: Vec<PathBuf>,
    /// Project directory whose hooks name the modules (default: the current directory).
    #[arg(long)]
    project: Option<PathBuf>,
    /// Print JSON: [{"module": ..., "cached": bool, "ms": N, "error": ...}].
    #[arg(long)]
    json: bool,
    /// The detached compile after a baseline-tier run: one absolute module path, claimed.
    #[arg(long, hide = true)]
    background: bool,
    /// With --background: descriptor 3 is the module's lock file, locked by the parent that
    /// started this compile (`tier_up.rs`); the claim is kept, not taken again.
    #[arg(long, hide = true, requires = "background")]
    claimed: bool,
}

/// CPU seconds a background compile may use (the largest example guest takes about 20).
#[cfg(unix)]
const BACKGROUND_CPU_LIMIT: u64 = 600;

#[derive(Serialize)]
struct Compiled {
    module: PathBuf,
    /// Already in the cache (nothing compiled).
    cached: bool,
    ms: u128,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

/// The engine `hookhost run` uses (on-demand allocation), so that its cache folder is
/// warmed, always optimising.
fn spawner() -> anyhow::Result<WasmSpawner> {
    Ok(WasmSpawner::new(WasmEngineConfig {
        pooling: false,
        compile_timeout: None,
        tiering: Tiering::Off,
        ..WasmEngineConfig::default()
    })?)
}

/// The claim the parent handed down at [`super::tier_up::CLAIM_FD`], if that descriptor is
/// the module's lock file held through it; else the claim taken afresh (`None`: another
/// process holds it). A descriptor that is not the lock is left open and untouched.
#[allow(unsafe_code)]
fn inherited_claim(spawner: &WasmSpawner, module: &Path) -> Option<OptimisationClaim> {
    #[cfg(unix)]
    {
        use std::os::fd::{FromRawFd, IntoRawFd};
        let fd = super::tier_up::CLAIM_FD;
        // SAFETY: fstat only writes the struct it is given; a closed descriptor fails.
        let mut st: libc::stat = unsafe { std::mem::zeroed() };
        let regular = unsafe { libc::fstat(fd, &raw mut st) } == 0
            && st.st_mode & libc::S_IFMT == libc::S_IFREG;
        if regular {
            // SAFETY: fd is open and names a regular file, which nothing else in this
            // process opened (the runtime's descriptors are not regular files); when it is
            // not the lock, ownership is given back unclosed.
            let file = unsafe { std::fs::File::from_raw_fd(fd) };
            match spawner.adopt_optimisation(module, file) {
                Ok(claim) => return Some(claim),
                Err(file) => {
                    let _ = file.into_raw_fd();
                }
            }
        }
    }
    spawner.claim_optimisation(module)
}

/// `--background`: compiles the one module under its claim, quietly.
#[allow(unsafe_code)]
async fn background(modules: &[PathBuf], claimed: bool) -> anyhow::Result<u8> {
    let [module] = modules else {
        anyhow::bail!("--background takes exactly one module path");
    };
    if !module.is_absolute() {
        anyhow::bail!(
            "--background takes an absolute module path, got {}",
            module.display()
        );
    }
    #[cfg(unix)]
    {
        // SAFETY: plain system calls on this process, no pointers kept.
        unsafe {
            libc::nice(10);
            let limit = libc::rlimit {
                rlim_cur: BACKGROUND_CPU_LIMIT,
                rlim_max: BACKGROUND_CPU_LIMIT,
            };
            libc::setrlimit(libc::RLIMIT_CPU, &limit);
        }
    }
    let spawner = spawner()?;
    let claim = if claimed {
        inherited_claim(&spawner, module)
    } else {
        spawner.claim_optimisation(module)
    };
    let Some(_claim) = claim else {
        return Ok(0);
    };
    // Marked failed until it succeeds: a compile killed at the CPU limit stays marked, and
    // runs stop handing the module off until it changes.
    spawner.mark_optimisation_failed(module);
    if spawner.prepare_file(module).await.is_err() {
        return Ok(1);
    }
    spawner.clear_optimisation_failed(module);
    Ok(0)
}

pub async fn compile(a: CompileArgs, home: &super::env::UserHome) -> anyhow::Result<u8> {
    if a.background {
        return background(&a.modules, a.claimed).await;
    }
    let modules = if a.modules.is_empty() {
        let project = super::project_dir(a.project, home)?;
        // First: it settles the cache root the spawner's defaults read (as `run`'s).
        let (set, errors) = config::load_lenient(&home.paths(&project));
        for e in &errors {
            eprintln!(
                "hookhost: error: {}",
                hookhost::terminal_safe_lines(&e.to_string())
            );
        }
        let mut modules: Vec<PathBuf> = set
            .all()
            .filter_map(|h| match &h.handler {
                Handler::Wasm { module, .. } => Some(module.path().to_path_buf()),
                _ => None,
            })
            .collect();
        modules.dedup();
        modules
    } else {
        // The cache root of the project here (or --project), as `run` there would settle it.
        let here = match a.project {
            Some(p) => p,
            None => std::env::current_dir()?,
        };
        home.setup(&here);
        a.modules.clone()
    };
    let spawner = spawner()?;
    if spawner.cache_dir().is_none() {
        eprintln!(
            "hookhost: warning: the compiled-code cache is disabled (see the warning above); compiling only checks the modules"
        );
    }
    let mut results = Vec::new();
    for module in modules {
        let started = Instant::now();
        let before = spawner.stats().compiled.load(Ordering::Relaxed);
        // A compile past a second announces itself (the spawner's notice); one line a module.
        let error = spawner.prepare_file(&module).await.err();
        let cached = error.is_none() && spawner.stats().compiled.load(Ordering::Relaxed) == before;
        results.push(Compiled {
            module,
            cached,
            ms: started.elapsed().as_millis(),
            error,
        });
    }
    let failed = results.iter().any(|r| r.error.is_some());
    if a.json {
        println!("{}", serde_json::to_string(&results)?);
    } else {
        for r in &results {
            match &r.error {
                Some(e) => println!("error: {}", hookhost::terminal_safe_lines(&e.clone())),
                None if r.cached => println!("{}: already compiled", shown(&r.module)),
                None => println!(
                    "{}: compiled in {:.1} s",
                    shown(&r.module),
                    r.ms as f64 / 1000.0
                ),
            }
        }
        if results.is_empty() {
            println!("no wasm modules to compile");
        }
    }
    Ok(u8::from(failed))
}

/// A module path (from a config) as the terminal may show it.
fn shown(path: &std::path::Path) -> String {
    hookhost::terminal_safe(&path.display().to_string()).into_owned()
}
