//! Shell command lines as trust reads them: split into simple commands (at `;`, `&&`, `||`,
//! `|`, `&`, parentheses and newlines), each a list of words and redirections, with quotes
//! and backslashes honoured and nothing expanded; and the programs that run other words
//! (wrappers, interpreters). No shell runs; nothing is executed.

/// A word, or a redirection (`true` for output: `>`, `>>`).
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Token {
    /// A word, quotes removed.
    Word(String),
    /// A redirection; `true` for output.
    Redirect(bool),
}

/// The simple commands of a shell text, each as its words and redirections: quotes and
/// backslashes honoured, nothing expanded.
pub(super) fn simple_commands(text: &str) -> Vec<Vec<Token>> {
    let mut commands: Vec<Vec<Token>> = vec![Vec::new()];
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = text.chars().peekable();
    fn end_word(word: &mut String, in_word: &mut bool, cmd: &mut Vec<Token>) {
        if *in_word {
            cmd.push(Token::Word(std::mem::take(word)));
            *in_word = false;
        }
    }
    while let Some(c) = chars.next() {
        let cmd = commands.last_mut().expect("never empty");
        match c {
            '\'' => {
                in_word = true;
                for c in chars.by_ref() {
                    if c == '\'' {
                        break;
                    }
                    word.push(c);
                }
            }
            '"' => {
                in_word = true;
                while let Some(c) = chars.next() {
                    match c {
                        '"' => break,
                        '\\' => word.extend(chars.next()),
                        c => word.push(c),
                    }
                }
            }
            '\\' => {
                in_word = true;
                word.extend(chars.next());
            }
            ';' | '&' | '|' | '(' | ')' | '\n' => {
                end_word(&mut word, &mut in_word, cmd);
                commands.push(Vec::new());
            }
            '>' | '<' => {
                // `2>` and the like: the digits belong to the redirection.
                if in_word && word.chars().all(|d| d.is_ascii_digit()) {
                    word.clear();
                    in_word = false;
                }
                end_word(&mut word, &mut in_word, cmd);
                if matches!(chars.peek(), Some('>' | '&')) {
                    chars.next();
                }
                cmd.push(Token::Redirect(c == '>'));
            }
            c if c.is_whitespace() => end_word(&mut word, &mut in_word, cmd),
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if let Some(cmd) = commands.last_mut() {
        end_word(&mut word, &mut in_word, cmd);
    }
    commands.retain(|c| !c.is_empty());
    commands
}

/// Wrappers that run the rest of their words as a command (their options skipped).
pub(super) const WRAPPERS: &[&str] = &[
    "env", "exec", "nice", "timeout", "command", "nohup", "builtin",
];

/// Interpreters whose first non-option argument is the script they run.
pub(super) const INTERPRETERS: &[&str] = &[
    "sh", "bash", "dash", "zsh", "ksh", "fish", "python", "python3", "node", "deno", "bun", "ruby",
    "perl", "php", "pwsh", "tsx", "ts-node", "lua", "Rscript",
];

/// Interpreters and their versioned names (`python3.12`, `pypy3`).
pub(super) fn is_interpreter(name: &str) -> bool {
    INTERPRETERS.contains(&name) || is_python(name)
}

/// `python`, `python3`, `python3.12`, `pypy`, `pypy3`.
pub(super) fn is_python(name: &str) -> bool {
    ["python", "pypy"].iter().any(|p| {
        name.strip_prefix(p)
            .is_some_and(|v| v.chars().all(|c| c.is_ascii_digit() || c == '.'))
    })
}
