//! What a shell command line would run, found statically with a real bash parser.
//!
//! Owns [`analyze`]: a command line in, an [`Analysis`] out: every simple command that would run
//! (wrappers such as `sudo`, `env`, `timeout`, `xargs`, `find -exec` and `sh -c` unwrapped,
//! substitutions and compound bodies included), with its words after quote removal, its
//! redirections and its assignments; or the reason the line cannot be decided statically
//! (`eval "$V"`, `$x -rf y`, an alias, a parse error, a bound passed). It does not decide what a
//! rule means (config/rule.rs) and does not touch the file system.
//!
//! The parser is `brush-parser`, the parser of the brush shell: pure Rust (no C toolchain, no
//! grammar blob, nothing unsafe to audit here), maintained with the shell that runs on it, and it
//! ships a word parser for quotes, escapes and expansions, which is what deciding "does this run
//! `rm`" needs; tree-sitter-bash gives a syntax tree only, and words would still need a hand-written
//! unquoter. Its tokenizer and word parser keep a 64-entry cache each (bounded; with the input
//! bound below at most a few MiB).
//!
//! Hostile input is bounded: a line longer than [`MAX_INPUT`] bytes, nesting deeper than
//! [`MAX_DEPTH`] or more than [`MAX_COMMANDS`] simple commands is undecidable, never a hang, a
//! stack overflow or a panic.

/// A line longer than this (bytes) is not parsed: undecidable.
pub(crate) const MAX_INPUT: usize = 64 * 1024;
/// Nesting (substitutions, `sh -c`/`eval` strings, wrappers within wrappers) deeper than this is
/// undecidable.
pub(crate) const MAX_DEPTH: usize = 24;
/// More simple commands than this in one line is undecidable.
pub(crate) const MAX_COMMANDS: usize = 4096;
/// Brackets and compound commands nested deeper than this in one script are not handed to the
/// parser (it recurses per level): undecidable.
pub(crate) const MAX_NESTING: usize = 48;

mod walk;
mod words;
mod wrappers;

#[cfg(test)]
mod tests;

/// What a shell command line would run, found statically.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Analysis {
    /// Every simple command that would run, in source order: wrappers unwrapped, nested ones
    /// included (`sh -c`/`bash -c` strings, `$(…)`, backquotes, `<(…)`, bodies of
    /// if/while/for/case/subshells/groups/functions, `find -exec`, `xargs`).
    pub commands: Vec<SimpleCommand>,
    /// Why something cannot be decided statically (eval of a non-literal, a variable or
    /// substitution as the command name, an alias defined, a parse error), if anything. When
    /// Some, callers treat the line as "could be anything".
    pub undecidable: Option<String>,
    /// Whether the walk stopped before the end of the line (a bound passed, or syntax it
    /// cannot read): commands after that point are not in `commands`.
    pub cut_short: bool,
}

/// One simple command: its words, redirections and assignments.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct SimpleCommand {
    /// The words after quote removal and brace expansion, argv[0] as written (path kept, e.g.
    /// "/bin/rm").
    pub argv: Vec<Word>,
    /// Redirections of this command (`>`, `>>`, `>|`, `&>`, `&>>`, `<>`, `<`, here-strings
    /// excluded).
    pub redirects: Vec<Redirect>,
    /// `NAME=value` assignments before it.
    #[allow(dead_code, reason = "read by the tests; no caller needs it yet")]
    pub assignments: Vec<(String, Word)>,
    /// The wrappers it was found through, outermost first (`["sudo", "env"]`, `["bash -c"]`).
    pub via: Vec<String>,
}

/// One word of a command.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Word {
    /// Quotes and escapes removed; expansions (`$X`, `${X}`, `$(…)`, `~`) kept in their written
    /// form.
    pub text: String,
    /// Whether the value is not known statically: it holds an unquoted or double-quoted parameter
    /// expansion, a command/arithmetic substitution, or an unquoted glob character. (A leading `~`
    /// alone does NOT make it dynamic; callers expand `~`/`$HOME` themselves.)
    pub dynamic: bool,
}

/// What a redirection does to its target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RedirectKind {
    /// `<`
    Read,
    /// `>`, `>|`, `&>`
    Write,
    /// `>>`, `&>>`
    Append,
    /// `<>`
    ReadWrite,
}

/// A redirection to or from a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Redirect {
    /// What it does.
    pub kind: RedirectKind,
    /// The file.
    pub target: Word,
}

impl SimpleCommand {
    /// argv[0]'s file name (`/bin/rm` -> `rm`), or "" when there is none.
    pub(crate) fn name(&self) -> &str {
        self.argv.first().map_or("", |w| file_name(&w.text))
    }

    /// name() and the other words joined with single spaces, for pattern matching.
    pub(crate) fn line(&self) -> String {
        let mut out = self.name().to_string();
        for w in self.argv.iter().skip(1) {
            out.push(' ');
            out.push_str(&w.text);
        }
        out
    }
}

/// Whether a command named `name` runs another command from its words (`sudo`, `env`,
/// `nohup`, `sh -c`, `find -exec`, `eval`, ...): then its words are not plain arguments.
pub(crate) fn runs_another(name: &str, args: &[Word]) -> bool {
    matches!(
        name,
        "eval" | "source" | "." | "alias" | "sh" | "bash" | "dash" | "zsh" | "ksh" | "su" | "trap"
    ) || !wrappers::inner(name, args).is_empty()
}

/// What `command` would run, as far as it can be told without running it.
pub(crate) fn analyze(command: &str) -> Analysis {
    let mut walker = walk::Walker::new();
    walker.script(command, 0, &[]);
    Analysis {
        cut_short: walker.cut_short(),
        commands: walker.commands,
        undecidable: walker.undecidable,
    }
}

/// The last component of a command name as written (`/bin/rm` -> `rm`).
fn file_name(text: &str) -> &str {
    text.rsplit('/').next().unwrap_or_default()
}
