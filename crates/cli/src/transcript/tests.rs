use super::*;

fn fixture(agent: &str, file: &str) -> String {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/transcripts")
        .join(agent)
        .join(file);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn commands(s: &Session) -> Vec<String> {
    s.steps
        .iter()
        .filter_map(|st| match &st.kind {
            StepKind::Tool { tool, args, .. } if tool == "bash" => args
                .get("command")
                .and_then(Value::as_str)
                .map(str::to_string),
            _ => None,
        })
        .collect()
}

#[test]
fn each_real_transcript_is_detected_and_read() {
    for (agent, file, format) in [
        ("claude", "session.jsonl", Format::Claude),
        ("codex", "rollout.jsonl", Format::Codex),
        ("gemini", "session.jsonl", Format::Gemini),
    ] {
        let s = read(&fixture(agent, file), None, None).unwrap();
        assert_eq!(s.format, format, "{agent}");
        assert!(s.session_id.is_some(), "{agent}");
        let cmds = commands(&s);
        assert!(cmds.iter().any(|c| c == "echo hi"), "{agent}: {cmds:?}");
        assert!(
            cmds.iter().any(|c| c == "rm -rf build"),
            "{agent}: {cmds:?}"
        );
        let first = &s.steps[0].kind;
        assert_eq!(
            first,
            &StepKind::Prompt {
                prompt: "Run the command the test asks for.".into()
            },
            "{agent}"
        );
        assert!(
            matches!(&s.steps.last().unwrap().kind, StepKind::Stop { answer } if answer == "All done."),
            "{agent}: {:?}",
            s.steps.last()
        );
    }
}

#[test]
fn claude_write_is_the_cores_write_file_and_its_refusal_is_kept() {
    let s = read(&fixture("claude", "session.jsonl"), None, None).unwrap();
    let write = s
        .steps
        .iter()
        .find_map(|st| match &st.kind {
            StepKind::Tool {
                tool,
                args,
                happened,
                agent_tool,
            } if tool == "write_file" => Some((agent_tool.clone(), args.clone(), happened.clone())),
            _ => None,
        })
        .expect("a write_file step");
    assert_eq!(write.0, "Write");
    assert_eq!(write.1["path"], "/home/user/project/notes.txt");
    assert!(matches!(write.2, Happened::Refused(_)));
}

#[test]
fn codex_refused_rm_rf_itself() {
    let s = read(&fixture("codex", "rollout.jsonl"), None, None).unwrap();
    let rm = s.steps.iter().find(
        |st| matches!(&st.kind, StepKind::Tool { args, .. } if args["command"] == "rm -rf build"),
    );
    assert!(
        matches!(&rm.unwrap().kind, StepKind::Tool { happened: Happened::Refused(t), .. } if t.contains("rejected"))
    );
}

#[test]
fn malformed_lines_say_where() {
    let e = read(
        "{\"sessionId\":\"s\",\"type\":\"user\",\"cwd\":\"/\"}\n{not json\n",
        None,
        None,
    )
    .unwrap_err();
    assert!(matches!(e, ReplayError::Malformed { line: 2, .. }), "{e}");
    assert!(e.to_string().starts_with("line 2: not JSON"), "{e}");
    let e = read("[1]\n", None, None).unwrap_err();
    assert!(matches!(e, ReplayError::Malformed { line: 1, .. }), "{e}");
    let e = read("{\"hello\":1}\n", None, None).unwrap_err();
    assert!(matches!(e, ReplayError::UnknownFormat(_)), "{e}");
    assert!(e.to_string().contains("--format"), "{e}");
    assert!("vim".parse::<Format>().is_err());
}
