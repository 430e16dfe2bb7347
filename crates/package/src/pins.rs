//! The pinned entries of a `hooks.json`: what `hookhost add` writes, what `update` moves and
//! `remove` deletes, with the rest of the file kept as it was (its other keys and hooks, in
//! order; the file is re-indented and, within each object, keys come out sorted).
//!
//! A pinned entry is an ordinary hook whose `package` names the module by digest:
//! `{"package": {"ref": "oci://ghcr.io/you/guard:1.0", "digest": "sha256:..."}, "match":
//! "bash", "fs": "none", "memory": 64, "timeout": 5000}`. Its grants (`fs`, `env`, `memory`,
//! `timeout`, `fuel`) are the manifest's requests as the user approved them; from then on
//! they are the config's, and the config wins.

use super::manifest::{Manifest, fs_name};
use hookhost::Event;
use hookhost::store::Digest;
use serde_json::{Map, Value, json};

pub use crate::hooks_file::{PinsError, read_doc, read_project_doc, write_doc, write_project_doc};

/// One pinned hook found in a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pinned {
    /// Its event.
    pub event: String,
    /// Its index in the event's list.
    pub index: usize,
    /// `package.ref`.
    pub reference: String,
    /// `package.digest`.
    pub digest: Digest,
}

/// The hook entries that run `manifest`'s module (pinned to `digest`, recorded as coming
/// from `reference`): one per event it names, with its default `match` on tool events and
/// its capabilities as grants.
pub fn entries_for(manifest: &Manifest, reference: &str, digest: &Digest) -> Vec<(String, Value)> {
    manifest
        .events
        .iter()
        .map(|event| {
            let mut e = Map::new();
            e.insert(
                "package".into(),
                json!({"ref": reference, "digest": digest.to_string()}),
            );
            if let Some(d) = &manifest.description {
                e.insert("description".into(), json!(d));
            }
            let tool = event.parse::<Event>().is_ok_and(Event::takes_tool_matcher);
            if let (Some(m), true) = (&manifest.matcher, tool) {
                e.insert("match".into(), json!(m));
            }
            grant(&mut e, manifest);
            (event.clone(), Value::Object(e))
        })
        .collect()
}

/// Writes `manifest`'s capabilities as the entry's grants.
fn grant(e: &mut Map<String, Value>, manifest: &Manifest) {
    let c = &manifest.capabilities;
    e.insert("fs".into(), json!(fs_name(c.fs)));
    for (key, v) in [
        ("memory", c.memory),
        ("timeout", c.timeout),
        ("fuel", c.fuel),
    ] {
        match v {
            Some(v) => e.insert(key.into(), json!(v)),
            None => e.remove(key),
        };
    }
    if c.env.is_empty() {
        e.remove("env");
    } else {
        e.insert("env".into(), json!(c.env));
    }
}

fn hooks_mut(doc: &mut Value) -> &mut Map<String, Value> {
    if !doc.is_object() {
        *doc = json!({});
    }
    let root = doc.as_object_mut().expect("an object");
    let hooks = root.entry("hooks").or_insert_with(|| json!({}));
    if !hooks.is_object() {
        *hooks = json!({});
    }
    hooks.as_object_mut().expect("an object")
}

/// The `package.ref` of an entry.
fn ref_of(entry: &Value) -> Option<&str> {
    entry.get("package")?.get("ref")?.as_str()
}

/// Every pinned entry of `doc`, in file order.
pub fn pinned(doc: &Value) -> Vec<Pinned> {
    let mut out = Vec::new();
    let Some(hooks) = doc.get("hooks").and_then(Value::as_object) else {
        return out;
    };
    for (event, list) in hooks {
        for (index, entry) in list.as_array().into_iter().flatten().enumerate() {
            let digest = entry
                .get("package")
                .and_then(|p| p.get("digest"))
                .and_then(Value::as_str)
                .and_then(|d| Digest::parse(d).ok());
            if let (Some(reference), Some(digest)) = (ref_of(entry), digest) {
                out.push(Pinned {
                    event: event.clone(),
                    index,
                    reference: reference.to_string(),
                    digest,
                });
            }
        }
    }
    out
}

/// Adds `entries`, first removing the entries already pinned from `reference` (adding a
/// package again replaces it). Returns how many entries were replaced.
pub fn add(doc: &mut Value, reference: &str, entries: Vec<(String, Value)>) -> usize {
    let replaced = remove(doc, |r| r == reference);
    let hooks = hooks_mut(doc);
    for (event, entry) in entries {
        let list = hooks.entry(event).or_insert_with(|| json!([]));
        if !list.is_array() {
            *list = json!([]);
        }
        list.as_array_mut().expect("an array").push(entry);
    }
    replaced
}

/// Removes every entry whose `package.ref` satisfies `which`; returns how many. Events left
/// with no hooks are removed.
pub fn remove(doc: &mut Value, which: impl Fn(&str) -> bool) -> usize {
    let hooks = hooks_mut(doc);
    let mut removed = 0;
    for list in hooks.values_mut() {
        if let Some(items) = list.as_array_mut() {
            let before = items.len();
            items.retain(|e| !ref_of(e).is_some_and(&which));
            removed += before - items.len();
        }
    }
    if removed > 0 {
        hooks.retain(|_, list| list.as_array().is_none_or(|a| !a.is_empty()));
    }
    removed
}

/// Moves the entries pinned from `reference` to `manifest`'s module at `digest`: the digest
/// and the grants change; `match`, `description`, `cwd`, `args` and the rest stay as the
/// user left them. Events the new manifest drops lose their entries; events it adds get new
/// ones.
pub fn update(doc: &mut Value, reference: &str, manifest: &Manifest, digest: &Digest) {
    let hooks = hooks_mut(doc);
    let mut seen = Vec::new();
    for (event, list) in hooks.iter_mut() {
        let Some(items) = list.as_array_mut() else {
            continue;
        };
        let keep = manifest.events.contains(event);
        items.retain(|e| keep || ref_of(e) != Some(reference));
        for entry in items.iter_mut().filter(|e| ref_of(e) == Some(reference)) {
            if let Some(p) = entry.get_mut("package").and_then(Value::as_object_mut) {
                p.insert("digest".into(), json!(digest.to_string()));
            }
            if let Some(e) = entry.as_object_mut() {
                grant(e, manifest);
            }
            seen.push(event.clone());
        }
    }
    hooks.retain(|_, list| list.as_array().is_none_or(|a| !a.is_empty()));
    let fresh: Vec<_> = entries_for(manifest, reference, digest)
        .into_iter()
        .filter(|(event, _)| !seen.contains(event))
        .collect();
    for (event, entry) in fresh {
        let list = hooks.entry(event).or_insert_with(|| json!([]));
        if let Some(items) = list.as_array_mut() {
            items.push(entry);
        }
    }
}

#[cfg(test)]
#[path = "pins_tests.rs"]
mod tests;
