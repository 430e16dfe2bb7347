//! A [`Draft`]'s line, written straight from it: the JSON of an [`EventRecord`], field for
//! field, without making the record first (`Draft::record` reads a record back from this
//! line; a test fires every shape of event through both). Every line is written this way: no
//! string of the line is allocated, and the hashes are of the draft's bytes as they lie.
//!
//! [`EventRecord`]: super::EventRecord

use super::record::{Draft, HookFacts, JudgementFacts, RECORD_VERSION};
use serde::ser::{Serialize, SerializeSeq, SerializeStruct, Serializer};
use sha2::{Digest, Sha256};
use std::fmt;

/// The line of a draft.
pub(crate) struct Line<'a>(pub &'a Draft);

/// First 12 hex digits of the SHA-256 of the parts, one after the other.
struct ShortHash([u8; 12]);

impl ShortHash {
    fn of(parts: &[&[u8]]) -> Self {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        let mut sha = Sha256::new();
        for part in parts {
            sha.update(part);
        }
        let digest = sha.finalize();
        let mut out = [0u8; 12];
        for (i, b) in digest[..6].iter().enumerate() {
            out[2 * i] = HEX[usize::from(b >> 4)];
            out[2 * i + 1] = HEX[usize::from(b & 0xf)];
        }
        ShortHash(out)
    }

    fn as_str(&self) -> &str {
        // Hex digits only: always UTF-8.
        std::str::from_utf8(&self.0).unwrap_or_default()
    }
}

/// The record's id: Unix milliseconds, process id and the count, in hex.
struct Id<'a>(&'a Draft);

impl fmt::Display for Id<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:x}-{:x}-{:x}",
            self.0.start_ms,
            std::process::id(),
            self.0.seq
        )
    }
}

impl Serialize for Line<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let d = self.0;
        let mut s = serializer.serialize_struct("EventRecord", 15)?;
        s.serialize_field("v", &RECORD_VERSION)?;
        s.serialize_field("id", &format_args!("{}", Id(d)))?;
        s.serialize_field("time", &hookhost_sys::clock::iso_of_ms(d.start_ms))?;
        s.serialize_field("session", &d.text_of(d.session))?;
        s.serialize_field("event", d.event)?;
        s.serialize_field("agent", &d.agent)?;
        s.serialize_field("tool", &d.text_of(d.tool))?;
        s.serialize_field("project", d.get(d.project))?;
        s.serialize_field("decision", &d.decision)?;
        s.serialize_field("reason", &d.text_of(d.reason))?;
        s.serialize_field("payload_sha256", ShortHash::of(&[&d.payload]).as_str())?;
        if let Some(payload) = &d.full_payload {
            s.serialize_field("payload", payload)?;
        }
        s.serialize_field("duration_ms", &d.duration_ms)?;
        s.serialize_field("hooks", &Hooks(d))?;
        s.serialize_field("not_run", &d.not_run)?;
        s.end()
    }
}

struct Hooks<'a>(&'a Draft);

impl Serialize for Hooks<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.0.hooks.len()))?;
        for h in &self.0.hooks {
            seq.serialize_element(&Hook(self.0, h))?;
        }
        seq.end()
    }
}

struct Hook<'a>(&'a Draft, &'a HookFacts);

impl Serialize for Hook<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let (d, h) = (self.0, self.1);
        let (stdout, stderr) = (d.get(h.stdout), d.get(h.stderr));
        let mut s = serializer.serialize_struct("HookEntry", 18)?;
        s.serialize_field("hook", &format_args!("{}", h.hook))?;
        s.serialize_field("file", &d.text_of(h.file))?;
        s.serialize_field("index", &h.hook.index)?;
        s.serialize_field("scope", &h.source)?;
        s.serialize_field("kind", &h.kind)?;
        s.serialize_field("dialect", &h.dialect)?;
        s.serialize_field("trust", if h.untrusted { "untrusted" } else { "trusted" })?;
        s.serialize_field("outcome", h.outcome.as_str())?;
        s.serialize_field("row", &format_args!("{}", h.row))?;
        s.serialize_field("exit_code", &h.exit_code)?;
        s.serialize_field("duration_ms", &h.duration_ms)?;
        s.serialize_field("message", &d.text_of(h.message))?;
        let output = ShortHash::of(&[stdout.as_bytes(), stderr.as_bytes()]);
        s.serialize_field("output_sha256", output.as_str())?;
        if h.rejudged {
            s.serialize_field("rejudged", &true)?;
        }
        if d.full_payload.is_some() {
            s.serialize_field("stdout", stdout)?;
            s.serialize_field("stderr", stderr)?;
        }
        if let Some(m) = &h.model {
            s.serialize_field("model", &Judgement(d, m))?;
        }
        if let Some(sandbox) = d.text_of(h.sandbox) {
            s.serialize_field("sandbox", sandbox)?;
        }
        s.end()
    }
}

/// A model hook's judgement (`ModelJudgement`).
struct Judgement<'a>(&'a Draft, &'a JudgementFacts);

impl Serialize for Judgement<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let (d, m) = (self.0, self.1);
        let mut s = serializer.serialize_struct("ModelJudgement", 5)?;
        s.serialize_field("model", d.get(m.model))?;
        s.serialize_field("asked_sha256", d.get(m.asked_sha256))?;
        s.serialize_field("ok", &m.ok)?;
        if let Some(reason) = d.text_of(m.reason) {
            s.serialize_field("reason", reason)?;
        }
        if m.replayed {
            s.serialize_field("replayed", &true)?;
        }
        s.end()
    }
}
