//! TEMPORARY STUB (replaced by the parser branch).
#![allow(dead_code)]
pub struct Analysis {
    pub commands: Vec<SimpleCommand>,
    pub undecidable: Option<String>,
}
pub struct SimpleCommand {
    pub argv: Vec<Word>,
    pub redirects: Vec<Redirect>,
    pub assignments: Vec<(String, Word)>,
    pub via: Vec<String>,
}
#[derive(Clone)]
pub struct Word {
    pub text: String,
    pub dynamic: bool,
}
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum RedirectKind {
    Read,
    Write,
    Append,
    ReadWrite,
}
pub struct Redirect {
    pub kind: RedirectKind,
    pub target: Word,
}
impl SimpleCommand {
    pub fn name(&self) -> &str {
        self.argv
            .first()
            .map(|w| w.text.rsplit('/').next().unwrap_or(""))
            .unwrap_or("")
    }
    pub fn line(&self) -> String {
        let mut v = vec![self.name().to_string()];
        v.extend(self.argv.iter().skip(1).map(|w| w.text.clone()));
        v.join(" ")
    }
}
pub fn analyze(command: &str) -> Analysis {
    let mut commands = Vec::new();
    for part in command.split([';', '&', '|', '\n']) {
        let mut argv = Vec::new();
        let mut redirects = Vec::new();
        let words = shlex::split(part).unwrap_or_default();
        let mut it = words.into_iter();
        while let Some(w) = it.next() {
            if w == ">" || w == ">>" || w == ">|" {
                if let Some(t) = it.next() {
                    redirects.push(Redirect {
                        kind: RedirectKind::Write,
                        target: Word {
                            dynamic: t.contains('$'),
                            text: t,
                        },
                    });
                }
            } else {
                argv.push(Word {
                    dynamic: w.contains('$'),
                    text: w,
                });
            }
        }
        if !argv.is_empty() {
            commands.push(SimpleCommand {
                argv,
                redirects,
                assignments: vec![],
                via: vec![],
            });
        }
    }
    Analysis {
        commands,
        undecidable: command.contains('$').then(|| "stub".into()),
    }
}
