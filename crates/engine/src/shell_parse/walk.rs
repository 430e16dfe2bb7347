//! The walk over brush's syntax tree: every simple command of a script, in source order, with
//! its words read (words.rs) and its wrappers unwrapped (wrappers.rs); substitutions, process
//! substitutions, here-documents and `sh -c` strings analysed as scripts of their own, one level
//! deeper. It owns the bounds (depth, command count, nesting) and the first reason a line is
//! undecidable; it does not know any command's options.

use super::words::{self, Expanded};
use super::wrappers::{self, Inner};
use super::{MAX_COMMANDS, MAX_DEPTH, MAX_INPUT, MAX_NESTING};
use super::{Redirect, RedirectKind, SimpleCommand, Word};
use brush_parser::ast::{
    self, AndOr, Command, CommandPrefixOrSuffixItem, CompoundCommand, CompoundList,
    ExtendedTestExpr, IoFileRedirectKind, IoFileRedirectTarget, IoRedirect,
};
use brush_parser::{Parser, ParserOptions};

/// The state of one analysis.
pub(super) struct Walker {
    opts: ParserOptions,
    pub commands: Vec<SimpleCommand>,
    pub undecidable: Option<String>,
    /// A bound was passed: nothing more is read.
    stopped: bool,
    /// Part of the line was syntax the parser cannot read.
    unreadable: bool,
    /// The text of each script being read, innermost last.
    sources: Vec<String>,
}

impl Walker {
    pub(super) fn new() -> Self {
        Walker {
            opts: ParserOptions::default(),
            commands: Vec::new(),
            undecidable: None,
            stopped: false,
            unreadable: false,
            sources: Vec::new(),
        }
    }

    /// Whether the walk stopped early or met syntax it cannot read.
    pub(super) fn cut_short(&self) -> bool {
        self.stopped || self.unreadable
    }

    /// Records the first reason the line cannot be decided; the walk goes on.
    fn give_up(&mut self, why: String) {
        if self.undecidable.is_none() {
            self.undecidable = Some(why);
        }
    }

    /// A bound was passed: undecidable, and the walk ends.
    fn stop(&mut self, why: String) {
        self.give_up(why);
        self.stopped = true;
    }

    /// Analyses `text` as a script found `depth` levels deep through `via`.
    pub(super) fn script(&mut self, text: &str, depth: usize, via: &[String]) {
        if self.stopped {
            return;
        }
        if depth > MAX_DEPTH {
            return self.stop(format!("commands nested more than {MAX_DEPTH} levels deep"));
        }
        if text.len() > MAX_INPUT {
            return self.stop(format!("a command line longer than {MAX_INPUT} bytes"));
        }
        if nesting(text) > MAX_NESTING {
            return self.stop(format!(
                "brackets or compound commands nested more than {MAX_NESTING} deep"
            ));
        }
        match Parser::new(text.as_bytes(), &self.opts).parse_program() {
            Ok(program) => {
                self.sources.push(text.to_string());
                for list in &program.complete_commands {
                    self.list(list, depth, via);
                }
                self.sources.pop();
            }
            Err(e) => {
                self.unreadable = true;
                self.give_up(format!("shell syntax hookhost cannot read ({e})"));
            }
        }
    }

    /// An arithmetic command: `(( … ))` evaluates, but brush also reads nested subshells
    /// `( ( … ) )` as one, and bash runs those: whatever was not written `((` is a script.
    fn arithmetic(&mut self, a: &ast::ArithmeticCommand, depth: usize, via: &[String]) {
        let written_as_arithmetic = self.sources.last().is_some_and(|text| {
            let mut at = text.chars().skip(a.loc.start.index);
            at.next() == Some('(') && at.next() == Some('(')
        });
        if written_as_arithmetic {
            self.text_substitutions(&a.expr.value, depth, via);
        } else {
            self.script(&a.expr.value, depth + 1, via);
        }
    }

    fn list(&mut self, list: &CompoundList, depth: usize, via: &[String]) {
        for item in &list.0 {
            self.pipeline(&item.0.first, depth, via);
            for next in &item.0.additional {
                let (AndOr::And(p) | AndOr::Or(p)) = next;
                self.pipeline(p, depth, via);
            }
        }
    }

    fn pipeline(&mut self, p: &ast::Pipeline, depth: usize, via: &[String]) {
        for c in &p.seq {
            self.command(c, depth, via);
        }
    }

    fn command(&mut self, c: &Command, depth: usize, via: &[String]) {
        if self.stopped {
            return;
        }
        match c {
            Command::Simple(sc) => self.simple(sc, depth, via),
            Command::Compound(cc, redirects) => {
                self.compound(cc, depth, via);
                self.redirect_list(redirects.as_ref(), depth, via);
            }
            Command::Function(f) => {
                self.compound(&f.body.0, depth, via);
                self.redirect_list(f.body.1.as_ref(), depth, via);
            }
            Command::ExtendedTest(t, redirects) => {
                self.test_expr(&t.expr, depth, via);
                self.redirect_list(redirects.as_ref(), depth, via);
            }
        }
    }

    fn compound(&mut self, c: &CompoundCommand, depth: usize, via: &[String]) {
        match c {
            CompoundCommand::Arithmetic(a) => self.arithmetic(a, depth, via),
            CompoundCommand::ArithmeticForClause(f) => {
                for e in [&f.initializer, &f.condition, &f.updater]
                    .into_iter()
                    .flatten()
                {
                    self.text_substitutions(&e.value, depth, via);
                }
                self.list(&f.body.list, depth, via);
            }
            CompoundCommand::BraceGroup(g) => self.list(&g.list, depth, via),
            CompoundCommand::Subshell(s) => self.list(&s.list, depth, via),
            CompoundCommand::ForClause(f) => {
                for w in f.values.iter().flatten() {
                    self.words(w, depth, via);
                }
                self.list(&f.body.list, depth, via);
            }
            CompoundCommand::CaseClause(c) => {
                self.words(&c.value, depth, via);
                for item in &c.cases {
                    for p in &item.patterns {
                        self.words(p, depth, via);
                    }
                    if let Some(body) = &item.cmd {
                        self.list(body, depth, via);
                    }
                }
            }
            CompoundCommand::IfClause(i) => {
                self.list(&i.condition, depth, via);
                self.list(&i.then, depth, via);
                for e in i.elses.iter().flatten() {
                    if let Some(c) = &e.condition {
                        self.list(c, depth, via);
                    }
                    self.list(&e.body, depth, via);
                }
            }
            CompoundCommand::WhileClause(w) | CompoundCommand::UntilClause(w) => {
                self.list(&w.0, depth, via);
                self.list(&w.1.list, depth, via);
            }
            CompoundCommand::Coprocess(c) => self.command(&c.body, depth, via),
        }
    }

    fn test_expr(&mut self, e: &ExtendedTestExpr, depth: usize, via: &[String]) {
        match e {
            ExtendedTestExpr::And(a, b) | ExtendedTestExpr::Or(a, b) => {
                self.test_expr(a, depth, via);
                self.test_expr(b, depth, via);
            }
            ExtendedTestExpr::Not(a) | ExtendedTestExpr::Parenthesized(a) => {
                self.test_expr(a, depth, via);
            }
            ExtendedTestExpr::UnaryTest(_, w) => {
                self.words(w, depth, via);
            }
            ExtendedTestExpr::BinaryTest(_, a, b) => {
                self.words(a, depth, via);
                self.words(b, depth, via);
            }
        }
    }

    /// The words `w` becomes; its substitutions are analysed first (they run first).
    fn words(&mut self, w: &ast::Word, depth: usize, via: &[String]) -> Vec<Word> {
        let read = words::expand(&w.value, &self.opts);
        self.take(read, depth, via)
    }

    fn take(&mut self, read: Result<Expanded, String>, depth: usize, via: &[String]) -> Vec<Word> {
        match read {
            Ok(e) => {
                for s in &e.substitutions {
                    self.script(s, depth + 1, via);
                }
                e.words
            }
            Err(why) => {
                self.give_up(why);
                Vec::new()
            }
        }
    }

    /// The substitutions in free text (an arithmetic expression).
    fn text_substitutions(&mut self, text: &str, depth: usize, via: &[String]) {
        if text.contains("$(") || text.contains('`') {
            let read = words::single(text, &self.opts);
            self.take(read, depth, via);
        }
    }

    fn simple(&mut self, sc: &ast::SimpleCommand, depth: usize, via: &[String]) {
        let mut cmd = SimpleCommand {
            via: via.to_vec(),
            ..SimpleCommand::default()
        };
        let items = sc.prefix.iter().flat_map(|p| p.0.iter());
        for item in items {
            self.item(item, &mut cmd, depth, via);
        }
        if let Some(w) = &sc.word_or_name {
            let words = self.words(w, depth, via);
            cmd.argv.extend(words);
        }
        for item in sc.suffix.iter().flat_map(|s| s.0.iter()) {
            self.item(item, &mut cmd, depth, via);
        }
        self.emit(cmd, depth);
    }

    fn item(
        &mut self,
        item: &CommandPrefixOrSuffixItem,
        cmd: &mut SimpleCommand,
        depth: usize,
        via: &[String],
    ) {
        match item {
            CommandPrefixOrSuffixItem::IoRedirect(r) => {
                self.redirect(r, &mut cmd.redirects, depth, via);
            }
            CommandPrefixOrSuffixItem::Word(w) => {
                let words = self.words(w, depth, via);
                cmd.argv.extend(words);
            }
            CommandPrefixOrSuffixItem::AssignmentWord(a, w) => {
                if !cmd.argv.is_empty() {
                    // After the command name (`export A=$(x)`): an argument like any other.
                    let words = self.words(w, depth, via);
                    cmd.argv.extend(words);
                    return;
                }
                let name = match &a.name {
                    ast::AssignmentName::VariableName(n) => n.clone(),
                    ast::AssignmentName::ArrayElementName(n, i) => format!("{n}[{i}]"),
                };
                let value = match &a.value {
                    ast::AssignmentValue::Scalar(v) => {
                        let read = words::single(&v.value, &self.opts);
                        self.take(read, depth, via).pop().unwrap_or_default()
                    }
                    ast::AssignmentValue::Array(elements) => {
                        let mut joined = Word::default();
                        for (_, v) in elements {
                            for part in self.words(v, depth, via) {
                                if !joined.text.is_empty() {
                                    joined.text.push(' ');
                                }
                                joined.text.push_str(&part.text);
                                joined.dynamic |= part.dynamic;
                            }
                        }
                        joined
                    }
                };
                cmd.assignments.push((name, value));
            }
            CommandPrefixOrSuffixItem::ProcessSubstitution(kind, sub) => {
                self.list(&sub.list, depth + 1, via);
                let text = match kind {
                    ast::ProcessSubstitutionKind::Read => "<(…)",
                    ast::ProcessSubstitutionKind::Write => ">(…)",
                };
                cmd.argv.push(Word {
                    text: text.to_string(),
                    dynamic: true,
                });
            }
        }
    }

    fn redirect_list(&mut self, list: Option<&ast::RedirectList>, depth: usize, via: &[String]) {
        let Some(list) = list else { return };
        let mut redirects = Vec::new();
        for r in &list.0 {
            self.redirect(r, &mut redirects, depth, via);
        }
        if !redirects.is_empty() {
            // A compound command's redirections: a command without words holds them.
            let cmd = SimpleCommand {
                redirects,
                via: via.to_vec(),
                ..SimpleCommand::default()
            };
            self.emit(cmd, depth);
        }
    }

    fn redirect(&mut self, r: &IoRedirect, out: &mut Vec<Redirect>, depth: usize, via: &[String]) {
        match r {
            IoRedirect::File(_, kind, target) => {
                let (word, duplicate) = match target {
                    IoFileRedirectTarget::Filename(w) => (w, false),
                    IoFileRedirectTarget::Duplicate(w) => (w, true),
                    IoFileRedirectTarget::Fd(_) => return,
                    IoFileRedirectTarget::ProcessSubstitution(_, sub) => {
                        return self.list(&sub.list, depth + 1, via);
                    }
                };
                let target = self
                    .words(word, depth, via)
                    .into_iter()
                    .next()
                    .unwrap_or_default();
                let kind = match kind {
                    IoFileRedirectKind::Read => RedirectKind::Read,
                    IoFileRedirectKind::Write | IoFileRedirectKind::Clobber => RedirectKind::Write,
                    IoFileRedirectKind::Append => RedirectKind::Append,
                    IoFileRedirectKind::ReadAndWrite => RedirectKind::ReadWrite,
                    // `>&file` writes the file; `>&2`, `>&-` only move descriptors.
                    IoFileRedirectKind::DuplicateOutput
                        if !(duplicate && is_descriptor(&target.text)) =>
                    {
                        RedirectKind::Write
                    }
                    IoFileRedirectKind::DuplicateOutput | IoFileRedirectKind::DuplicateInput => {
                        return;
                    }
                };
                out.push(Redirect { kind, target });
            }
            IoRedirect::OutputAndError(w, append) => {
                let target = self
                    .words(w, depth, via)
                    .into_iter()
                    .next()
                    .unwrap_or_default();
                let kind = if *append {
                    RedirectKind::Append
                } else {
                    RedirectKind::Write
                };
                out.push(Redirect { kind, target });
            }
            IoRedirect::HereString(_, w) => {
                self.words(w, depth, via);
            }
            IoRedirect::HereDocument(_, doc) => {
                if doc.requires_expansion {
                    let subs = words::heredoc_substitutions(&doc.doc.value, &self.opts);
                    match subs {
                        Ok(subs) => {
                            for s in subs {
                                self.script(&s, depth + 1, via);
                            }
                        }
                        Err(why) => self.give_up(why),
                    }
                }
            }
        }
    }

    /// Records `cmd`, then what it runs through a wrapper.
    fn emit(&mut self, cmd: SimpleCommand, depth: usize) {
        if self.stopped {
            return;
        }
        if self.commands.len() >= MAX_COMMANDS {
            return self.stop(format!("more than {MAX_COMMANDS} commands"));
        }
        if depth > MAX_DEPTH {
            return self.stop(format!("commands nested more than {MAX_DEPTH} levels deep"));
        }
        let (argv, via) = (cmd.argv.clone(), cmd.via.clone());
        self.commands.push(cmd);
        let Some(first) = argv.first() else { return };
        if first.dynamic {
            return self.give_up(format!(
                "the command name `{}` is known only when it runs",
                first.text
            ));
        }
        for inner in wrappers::inner(super::file_name(&first.text), &argv[1..]) {
            self.run_inner(inner, &via, depth);
        }
    }

    fn run_inner(&mut self, inner: Inner, via: &[String], depth: usize) {
        match inner {
            Inner::Command {
                label,
                argv,
                assignments,
            } => {
                let mut via = via.to_vec();
                via.push(label);
                let cmd = SimpleCommand {
                    argv,
                    redirects: Vec::new(),
                    assignments,
                    via,
                };
                self.emit(cmd, depth + 1);
            }
            Inner::Script { label, text } => {
                if text.dynamic {
                    return self.give_up(format!(
                        "`{label}` runs `{}`, a value known only when it runs",
                        text.text
                    ));
                }
                let mut via = via.to_vec();
                via.push(label);
                self.script(&text.text, depth + 1, &via);
            }
            Inner::Undecidable(why) => self.give_up(why),
        }
    }
}

/// `2`, `-`, `10`: a descriptor, not a file name.
fn is_descriptor(text: &str) -> bool {
    text == "-" || (!text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()))
}

/// An upper bound of how deeply `text` nests brackets and compound commands (quotes ignored),
/// so the parser is never handed more than its stack can take.
fn nesting(text: &str) -> usize {
    let (mut depth, mut max) = (0usize, 0usize);
    let mut in_backquote = false;
    let bytes = text.as_bytes();
    for (i, b) in bytes.iter().enumerate() {
        match b {
            b'`' if in_backquote => {
                in_backquote = false;
                depth = depth.saturating_sub(1);
            }
            b'`' => {
                in_backquote = true;
                depth += 1;
            }
            b'(' | b'{' | b'[' => depth += 1,
            b')' | b'}' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
        let starts_word = i == 0 || !bytes[i - 1].is_ascii_alphanumeric();
        if starts_word && b.is_ascii_alphabetic() {
            let rest = &bytes[i..];
            let keyword = |k: &[u8]| {
                rest.starts_with(k) && rest.get(k.len()).is_none_or(|c| !c.is_ascii_alphanumeric())
            };
            if [&b"if"[..], b"while", b"until", b"for", b"case", b"select"]
                .into_iter()
                .any(keyword)
            {
                depth += 1;
            } else if [&b"fi"[..], b"done", b"esac"].into_iter().any(keyword) {
                depth = depth.saturating_sub(1);
            }
        }
        max = max.max(depth);
    }
    max
}
