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
use hookhost::config::{self, ConfigPaths, Handler};
use hookhost::spawner::{Tiering, WasmEngineConfig, WasmSpawner};
use serde::Serialize;
use std::path::PathBuf;
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
}

/// CPU seconds a background compile may use (the largest example guest takes about 20).
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

/// `--background`: compiles the one module under its claim, quietly.
#[allow(unsafe_code)]
async fn background(modules: &[PathBuf]) -> anyhow::Result<u8> {
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
    let Some(_claim) = spawner.claim_optimisation(module) else {
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

pub async fn compile(a: CompileArgs) -> anyhow::Result<u8> {
    if a.background {
        return background(&a.modules).await;
    }
    let modules = if a.modules.is_empty() {
        let project = super::project_dir(a.project)?;
        let (set, errors) = config::load_lenient(&ConfigPaths::for_project(&project));
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
