//! Unit tests of [`analyze`](super::analyze): what a line runs, through which wrapper, and what
//! makes it undecidable.

use super::*;

fn lines(command: &str) -> Vec<String> {
    analyze(command)
        .commands
        .iter()
        .map(SimpleCommand::line)
        .collect()
}

fn runs(command: &str, line: &str) -> bool {
    let a = analyze(command);
    a.commands.iter().any(|c| c.line() == line)
}

#[test]
fn quotes_and_escapes_are_removed() {
    for spelling in [
        r"\rm x",
        "'rm' x",
        "\"rm\" x",
        "r\"\"m x",
        r"r\m x",
        "$'rm' x",
        r"$'\x72m' x",
        "/bin/rm x",
    ] {
        let a = analyze(spelling);
        assert_eq!(a.undecidable, None, "{spelling}");
        assert_eq!(lines(spelling), ["rm x"], "{spelling}");
    }
    let a = analyze("/usr/bin/rm -rf ~/x");
    assert_eq!(a.commands[0].argv[0].text, "/usr/bin/rm");
    assert_eq!(a.commands[0].argv[2].text, "~/x");
    assert!(!a.commands[0].argv[2].dynamic);
}

#[test]
fn wrappers_are_unwrapped_and_kept() {
    for (spelling, via) in [
        ("sudo -u root rm x", vec!["sudo"]),
        ("sudo -- env -i A=1 rm x", vec!["sudo", "env"]),
        ("timeout -s KILL 5 rm x", vec!["timeout"]),
        ("nice -n 5 rm x", vec!["nice"]),
        ("command -p rm x", vec!["command"]),
        ("exec -a foo rm x", vec!["exec"]),
        ("env -u HOME -C / rm x", vec!["env"]),
        ("stdbuf -oL rm x", vec!["stdbuf"]),
        ("ionice -c 3 rm x", vec!["ionice"]),
        ("chrt -f 10 rm x", vec!["chrt"]),
        ("flock /tmp/l rm x", vec!["flock"]),
        ("busybox rm x", vec!["busybox"]),
        ("doas -u root rm x", vec!["doas"]),
        ("xargs -n 1 rm x", vec!["xargs"]),
        ("find . -name y -exec rm x \\;", vec!["find -exec"]),
        ("bash -c 'rm x'", vec!["bash -c"]),
        ("sh -ec 'cd /; rm x'", vec!["sh -c"]),
        ("eval rm x", vec!["eval"]),
        ("env -S 'rm x'", vec!["env -S"]),
        ("flock /tmp/l -c 'rm x'", vec!["flock -c"]),
        ("nohup setsid rm x", vec!["nohup", "setsid"]),
    ] {
        let a = analyze(spelling);
        assert_eq!(a.undecidable, None, "{spelling}");
        let rm = a.commands.iter().find(|c| c.line() == "rm x");
        let rm = rm.unwrap_or_else(|| panic!("{spelling}: {:?}", lines(spelling)));
        assert_eq!(rm.via, via, "{spelling}");
        // The wrapper itself is a command too.
        assert!(a.commands[0].via.is_empty(), "{spelling}");
    }
    let a = analyze("sudo A=1 rm x");
    let rm = a.commands.iter().find(|c| c.name() == "rm").unwrap();
    assert_eq!(rm.assignments[0].0, "A");
}

#[test]
fn nested_commands_are_found() {
    for spelling in [
        "echo $(rm x)",
        "echo `rm x`",
        "cat <(rm x)",
        "(rm x)",
        "{ rm x; }",
        "! rm x",
        "true && rm x",
        "false || rm x",
        "for i in 1; do rm x; done",
        "while false; do :; done; rm x",
        "case a in a) rm x;; esac",
        "f() { rm x; }; f",
        "if true; then rm x; fi",
        "echo ${A:-$(rm x)}",
        "echo $(( $(rm x) + 1 ))",
        "[[ -n $(rm x) ]]",
        "cat <<EOF\n$(rm x)\nEOF",
        "time rm x",
        "ls\nrm x",
        "# a comment\nrm x",
        "cat <<'EOF'\nhello\nEOF\nrm x",
        "echo x > $(rm x)",
        "echo x | xargs -I{} rm x",
    ] {
        assert!(
            runs(spelling, "rm x"),
            "{spelling}: {:?}",
            analyze(spelling)
        );
    }
    assert_eq!(lines("{rm,-rf,x}"), ["rm -rf x"]);
    assert_eq!(lines("echo a{b,c}d"), ["echo abd acd"]);
}

#[test]
fn words_say_whether_they_are_known() {
    let a = analyze(r#"echo "$HOME" '$HOME' *.rs "a b" ~ \*"#);
    let argv = &a.commands[0].argv;
    let shown: Vec<(&str, bool)> = argv.iter().map(|w| (w.text.as_str(), w.dynamic)).collect();
    assert_eq!(
        shown,
        [
            ("echo", false),
            ("$HOME", true),
            ("$HOME", false),
            ("*.rs", true),
            ("a b", false),
            ("~", false),
            ("*", false),
        ]
    );
}

#[test]
fn redirections_and_assignments_are_kept() {
    let a = analyze("FOO='a b' rm x > out 2>>log <in 3<>rw &>all >&2 >| clob");
    let c = &a.commands[0];
    assert_eq!(
        c.assignments,
        [(
            "FOO".to_string(),
            Word {
                text: "a b".into(),
                dynamic: false
            }
        )]
    );
    let r: Vec<(RedirectKind, &str)> = c
        .redirects
        .iter()
        .map(|r| (r.kind, r.target.text.as_str()))
        .collect();
    assert_eq!(
        r,
        [
            (RedirectKind::Write, "out"),
            (RedirectKind::Append, "log"),
            (RedirectKind::Read, "in"),
            (RedirectKind::ReadWrite, "rw"),
            (RedirectKind::Write, "all"),
            (RedirectKind::Write, "clob"),
        ]
    );
    // A compound command's redirections are kept on a command without words.
    let a = analyze("{ echo; } > out");
    assert!(
        a.commands
            .iter()
            .any(|c| c.argv.is_empty() && c.redirects.len() == 1)
    );
}

#[test]
fn what_cannot_be_told_is_undecidable() {
    for spelling in [
        "eval \"$V\"",
        "x=rm; $x -rf y",
        "rm${IFS}x",
        "$(echo rm) x",
        "bash -c \"$CMD\"",
        "alias r=rm; r x",
        "echo rm x | sh",
        "echo 'unclosed",
        "sudo $CMD",
    ] {
        assert!(
            analyze(spelling).undecidable.is_some(),
            "{spelling}: {:?}",
            analyze(spelling)
        );
    }
}

#[test]
fn harmless_lines_are_decidable_and_run_no_rm() {
    for spelling in [
        "ls -la",
        "echo rm",
        "grep rm file",
        "git rm x",
        "cat 'rm x'",
        "echo $(ls)",
    ] {
        let a = analyze(spelling);
        assert_eq!(a.undecidable, None, "{spelling}");
        assert!(a.commands.iter().all(|c| c.name() != "rm"), "{spelling}");
    }
    assert_eq!(analyze("").commands, []);
}

#[test]
fn hostile_input_is_bounded_not_a_crash() {
    let deep_parens = format!("{}rm x{}", "(".repeat(100_000), ")".repeat(100_000));
    let deep_subst = format!("{}rm x{}", "$(".repeat(5_000), ")".repeat(5_000));
    let deep_eval = format!("{}rm x", "eval ".repeat(1_000));
    let deep_sh = (0..30).fold("rm x".to_string(), |s, _| {
        format!("sh -c {}", shlex::try_quote(&s).unwrap())
    });
    let many = "rm x;".repeat(10_000);
    let sudo = format!("{}rm x", "sudo ".repeat(1_000));
    let braces = "{1..1000000000}";
    let long = "a".repeat(super::MAX_INPUT + 1);
    let ifs = format!(
        "{}rm x{}",
        "if true; then ".repeat(1_000),
        "; fi".repeat(1_000)
    );
    for line in [
        deep_parens,
        deep_subst,
        deep_eval,
        deep_sh,
        many,
        sudo,
        braces.to_string(),
        long,
        ifs,
    ] {
        let started = std::time::Instant::now();
        let a = analyze(&line);
        assert!(a.undecidable.is_some(), "{}", &line[..40.min(line.len())]);
        assert!(started.elapsed() < std::time::Duration::from_secs(5));
    }
}
