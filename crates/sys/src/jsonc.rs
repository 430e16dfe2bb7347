//! JSON with comments, as Gemini CLI reads its settings (`//` and `/* */` outside strings),
//! and the hint for a native file that has them (native files are strict JSON).

use std::borrow::Cow;

/// `text` with every comment replaced by spaces (newlines kept), so a parse error still
/// points at the line and column the user wrote. Unchanged text is borrowed.
pub fn strip_comments(text: &str) -> Cow<'_, str> {
    if first_comment(text).is_none() {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut scan = Scanner::new(text);
    while let Some(piece) = scan.next_piece() {
        match piece {
            Piece::Text(s) => out.push_str(s),
            Piece::Comment(s) => out.extend(s.chars().map(|c| if c == '\n' { '\n' } else { ' ' })),
        }
    }
    Cow::Owned(out)
}

/// The 1-based line of the first comment outside a string, if any.
pub fn first_comment(text: &str) -> Option<usize> {
    let mut scan = Scanner::new(text);
    let mut line = 1;
    while let Some(piece) = scan.next_piece() {
        match piece {
            Piece::Text(s) => line += s.matches('\n').count(),
            Piece::Comment(_) => return Some(line),
        }
    }
    None
}

/// What to add to a JSON parse error of a strict file that holds a comment.
pub fn no_comments_hint(text: &str) -> Option<String> {
    first_comment(text).map(|line| {
        format!(
            "; JSON has no comments: remove the comment at line {line} (a note about a hook can go in its \"description\")"
        )
    })
}

enum Piece<'a> {
    Text(&'a str),
    Comment(&'a str),
}

struct Scanner<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Scanner<'a> {
    fn new(text: &'a str) -> Self {
        Scanner { text, pos: 0 }
    }

    /// The next run of non-comment text (strings whole), or the next comment.
    fn next_piece(&mut self) -> Option<Piece<'a>> {
        let rest = &self.text[self.pos..];
        if rest.is_empty() {
            return None;
        }
        if rest.starts_with("//") {
            let len = rest.find('\n').unwrap_or(rest.len());
            return Some(self.take(len, true));
        }
        if let Some(body) = rest.strip_prefix("/*") {
            // An unterminated block comment runs to the end (the parser then reports it).
            let len = body.find("*/").map_or(rest.len(), |i| i + 4);
            return Some(self.take(len, true));
        }
        let end = text_run(rest);
        Some(self.take(end, false))
    }

    fn take(&mut self, len: usize, comment: bool) -> Piece<'a> {
        let s = &self.text[self.pos..self.pos + len];
        self.pos += len;
        if comment {
            Piece::Comment(s)
        } else {
            Piece::Text(s)
        }
    }
}

/// How many bytes of `rest` (not starting a comment) are text: up to the next comment
/// outside a string.
fn text_run(rest: &str) -> usize {
    let bytes = rest.as_bytes();
    let mut i = 0;
    let mut in_string = false;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' if in_string => i += 1,
            b'"' => in_string = !in_string,
            b'/' if !in_string && i > 0 && matches!(bytes.get(i + 1), Some(b'/' | b'*')) => {
                return i;
            }
            _ => {}
        }
        i += 1;
    }
    bytes.len()
}

/// A JSON parse error as hookhost says it: `invalid JSON at line L, column C: what`, the
/// position once (serde_json's own text ends in it again).
pub fn json_error(e: &serde_json::Error) -> String {
    let text = e.to_string();
    let place = format!(" at line {} column {}", e.line(), e.column());
    let what = text.strip_suffix(&place).unwrap_or(&text);
    format!(
        "invalid JSON at line {}, column {}: {what}",
        e.line(),
        e.column()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_json_error_gives_its_position_once() {
        let e = serde_json::from_str::<serde_json::Value>("{\n  ,}").unwrap_err();
        assert_eq!(
            json_error(&e),
            "invalid JSON at line 2, column 3: key must be a string"
        );
    }

    #[test]
    fn comments_go_strings_stay_and_positions_hold() {
        let text = "{\n  // a note\n  \"a\": \"x // not a comment\", /* b */ \"c\": \"\\\"/*\"\n}";
        let stripped = strip_comments(text);
        let v: serde_json::Value = serde_json::from_str(&stripped).unwrap();
        assert_eq!(v["a"], "x // not a comment");
        assert_eq!(v["c"], "\"/*");
        assert_eq!(stripped.len(), text.len());
        assert_eq!(stripped.lines().count(), text.lines().count());
        assert_eq!(first_comment(text), Some(2));
        assert!(matches!(strip_comments("{\"a\": 1}"), Cow::Borrowed(_)));
        assert_eq!(first_comment("{\"url\": \"http://x\"}"), None);
        assert_eq!(first_comment("/* top */ {}"), Some(1));
        assert!(no_comments_hint("{\n\n// x\n}").unwrap().contains("line 3"));
    }
}
