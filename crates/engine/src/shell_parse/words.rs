//! One written shell word to the [`Word`]s it becomes: brace expansion, quote and escape
//! removal (ANSI-C `$'…'` decoded), expansions kept as written and marked dynamic, and the
//! command texts it substitutes (`$(…)`, backquotes, inside `${…}` and `$((…))`) handed back for
//! the walker to analyse. It does not expand parameters, globs or `~`.

use super::Word;
use brush_parser::ParserOptions;
use brush_parser::word::{
    self, BraceExpressionMember, BraceExpressionOrText, WordPiece, WordPieceWithSource,
};

/// More words than this from one brace expansion (`{1..100000}`) is undecidable.
const MAX_BRACE_WORDS: usize = 1024;

/// A word read: what it becomes and what it substitutes.
#[derive(Debug, Default)]
pub(super) struct Expanded {
    /// The words after brace expansion (one, unless braces expanded).
    pub words: Vec<Word>,
    /// The command texts of its substitutions, in order.
    pub substitutions: Vec<String>,
}

/// `raw`, as written in a command, read into words; `Err` says why it cannot be read.
pub(super) fn expand(raw: &str, opts: &ParserOptions) -> Result<Expanded, String> {
    let mut out = Expanded::default();
    for text in braces(raw, opts)? {
        let word = to_word(&text, opts, &mut out.substitutions)?;
        out.words.push(word);
    }
    out.substitutions.dedup();
    Ok(out)
}

/// `raw` read as one word, without brace expansion (assignment values, here-strings).
pub(super) fn single(raw: &str, opts: &ParserOptions) -> Result<Expanded, String> {
    let mut out = Expanded::default();
    let word = to_word(raw, opts, &mut out.substitutions)?;
    out.words.push(word);
    Ok(out)
}

/// The command substitutions of an unquoted here-document's body.
pub(super) fn heredoc_substitutions(
    body: &str,
    opts: &ParserOptions,
) -> Result<Vec<String>, String> {
    let pieces = word::parse_heredoc(body, opts)
        .map_err(|e| format!("a here-document hookhost cannot read ({e})"))?;
    let mut subs = Vec::new();
    let mut scratch = Word::default();
    for p in &pieces {
        piece(body, p, true, &mut scratch, &mut subs, opts)?;
    }
    Ok(subs)
}

/// Brace expansion of the unquoted text of `raw`; text that is no brace expression stays as is.
fn braces(raw: &str, opts: &ParserOptions) -> Result<Vec<String>, String> {
    if !raw.contains('{') {
        return Ok(vec![raw.to_string()]);
    }
    match word::parse_brace_expansions(raw, opts) {
        Ok(Some(pieces)) => expand_pieces(&pieces),
        Ok(None) | Err(_) => Ok(vec![raw.to_string()]),
    }
}

fn expand_pieces(pieces: &[BraceExpressionOrText]) -> Result<Vec<String>, String> {
    let mut acc = vec![String::new()];
    for p in pieces {
        let alternatives = match p {
            BraceExpressionOrText::Text(t) => vec![t.clone()],
            BraceExpressionOrText::Expr(members) => {
                let mut all = Vec::new();
                for m in members {
                    all.extend(member(m)?);
                    bound(all.len())?;
                }
                all
            }
        };
        bound(acc.len().saturating_mul(alternatives.len()))?;
        acc = acc
            .iter()
            .flat_map(|a| alternatives.iter().map(move |b| format!("{a}{b}")))
            .collect();
    }
    Ok(acc)
}

fn member(m: &BraceExpressionMember) -> Result<Vec<String>, String> {
    match m {
        BraceExpressionMember::Child(pieces) => expand_pieces(pieces),
        BraceExpressionMember::NumberSequence {
            start,
            end,
            increment,
        } => sequence(i128::from(*start), i128::from(*end), *increment, |n| {
            Some(n.to_string())
        }),
        BraceExpressionMember::CharSequence {
            start,
            end,
            increment,
        } => sequence(
            i128::from(u32::from(*start)),
            i128::from(u32::from(*end)),
            *increment,
            |n| {
                u32::try_from(n)
                    .ok()
                    .and_then(char::from_u32)
                    .map(String::from)
            },
        ),
    }
}

fn sequence(
    start: i128,
    end: i128,
    increment: i64,
    show: impl Fn(i128) -> Option<String>,
) -> Result<Vec<String>, String> {
    let step = i128::from(increment).abs().max(1);
    bound(usize::try_from((end - start).abs() / step + 1).unwrap_or(usize::MAX))?;
    let mut out = Vec::new();
    let mut n = start;
    while (start <= end && n <= end) || (start > end && n >= end) {
        out.extend(show(n));
        n += if start <= end { step } else { -step };
    }
    Ok(out)
}

fn bound(n: usize) -> Result<(), String> {
    if n > MAX_BRACE_WORDS {
        return Err(format!(
            "a brace expansion of more than {MAX_BRACE_WORDS} words"
        ));
    }
    Ok(())
}

/// One word (no braces left to expand) to its text, its dynamism and its substitutions.
fn to_word(raw: &str, opts: &ParserOptions, subs: &mut Vec<String>) -> Result<Word, String> {
    let pieces = word::parse(raw, opts)
        .map_err(|e| format!("the word `{raw}` hookhost cannot read ({e})"))?;
    let mut w = Word::default();
    for p in &pieces {
        piece(raw, p, false, &mut w, subs, opts)?;
    }
    Ok(w)
}

fn piece(
    raw: &str,
    p: &WordPieceWithSource,
    quoted: bool,
    w: &mut Word,
    subs: &mut Vec<String>,
    opts: &ParserOptions,
) -> Result<(), String> {
    let written = raw.get(p.start_index..p.end_index).unwrap_or_default();
    match &p.piece {
        WordPiece::Text(t) => {
            if !quoted && is_glob(t) {
                w.dynamic = true;
            }
            w.text.push_str(t);
        }
        WordPiece::SingleQuotedText(t) => w.text.push_str(t),
        WordPiece::AnsiCQuotedText(t) => w.text.push_str(&ansi_c(t)),
        WordPiece::DoubleQuotedSequence(inner) | WordPiece::GettextDoubleQuotedSequence(inner) => {
            for q in inner {
                piece(raw, q, true, w, subs, opts)?;
            }
        }
        WordPiece::TildeExpansion(_) => {
            w.text
                .push_str(if written.is_empty() { "~" } else { written });
        }
        WordPiece::EscapeSequence(s) => {
            let escaped = s.strip_prefix('\\').unwrap_or(s);
            if escaped != "\n" {
                w.text.push_str(escaped);
            }
        }
        WordPiece::ParameterExpansion(_) => {
            w.dynamic = true;
            w.text.push_str(written);
            // `${X:-$(cmd)}`: what is inside the braces, read as a word, finds the substitution.
            let inner = written.get(1..).unwrap_or_default();
            if inner.contains("$(") || inner.contains('`') {
                to_word(inner, opts, subs)?;
            }
        }
        WordPiece::CommandSubstitution(c) | WordPiece::BackquotedCommandSubstitution(c) => {
            w.dynamic = true;
            w.text.push_str(written);
            subs.push(c.clone());
        }
        WordPiece::ArithmeticExpression(e) => {
            w.dynamic = true;
            w.text.push_str(written);
            if e.value.contains("$(") || e.value.contains('`') {
                to_word(&e.value, opts, subs)?;
            }
        }
    }
    Ok(())
}

/// Whether unquoted text holds a glob (`*`, `?`, `[`) or an extglob (`@(…)` and kin).
fn is_glob(text: &str) -> bool {
    text.contains(['*', '?', '[']) || ["@(", "!(", "+("].iter().any(|g| text.contains(g))
}

/// The value of the inside of `$'…'`: bash's ANSI-C escapes decoded.
pub(super) fn ansi_c(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let Some(e) = chars.next() else {
            out.push('\\');
            break;
        };
        let simple = match e {
            'n' => Some('\n'),
            't' => Some('\t'),
            'r' => Some('\r'),
            'a' => Some('\u{7}'),
            'b' => Some('\u{8}'),
            'e' | 'E' => Some('\u{1b}'),
            'f' => Some('\u{c}'),
            'v' => Some('\u{b}'),
            '\\' | '\'' | '"' | '?' => Some(e),
            _ => None,
        };
        if let Some(v) = simple {
            out.push(v);
            continue;
        }
        let (radix, max, first) = match e {
            'x' => (16, 2, None),
            'u' => (16, 4, None),
            'U' => (16, 8, None),
            '0'..='7' => (8, 2, e.to_digit(8)),
            'c' => {
                if let Some(n) = chars.next() {
                    out.push(char::from_u32(u32::from(n) & 0x1f).unwrap_or(n));
                }
                continue;
            }
            other => {
                out.push('\\');
                out.push(other);
                continue;
            }
        };
        let mut value = first.unwrap_or(0);
        let mut digits = 0;
        while digits < max {
            match chars.peek().and_then(|d| d.to_digit(radix)) {
                Some(d) => {
                    value = value.saturating_mul(radix).saturating_add(d);
                    chars.next();
                    digits += 1;
                }
                None => break,
            }
        }
        if first.is_none() && digits == 0 {
            out.push('\\');
            out.push(e);
        } else if let Some(ch) = char::from_u32(value) {
            out.push(ch);
        }
    }
    out
}
