//! The `hookhost` command line: `run`, `check`, `list` (DESIGN §8). Subcommands live in
//! `src/cli/`; this file only hands over.

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}
