//! How the wire types read their fields: leniently where hookhost reads a payload (a field of
//! the wrong type is as good as absent, as an agent's hook would treat it), strictly where it
//! reads a hook's answer (a known field of the wrong type is a protocol error that names the
//! field and shows what was there). Used through `#[serde(deserialize_with = "...")]`; serde
//! calls these only for fields that are present, so "present but null" stays apart from
//! "absent" where that matters.

use crate::event::Event;
use serde::de::{Deserialize, Deserializer, Error};
use serde_json::Value;

/// A string, or `None` when the field holds anything else.
pub fn string<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    Ok(match Value::deserialize(d)? {
        Value::String(s) => Some(s),
        _ => None,
    })
}

/// A boolean, or `None` when the field holds anything else.
pub fn boolean<'de, D: Deserializer<'de>>(d: D) -> Result<Option<bool>, D::Error> {
    Ok(Value::deserialize(d)?.as_bool())
}

/// Any value, `null` included: present is `Some`.
pub fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(d).map(Some)
}

/// An event by its exact name, or `None`.
pub fn event<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Event>, D::Error> {
    Ok(Value::deserialize(d)?
        .as_str()
        .and_then(|name| name.parse().ok()))
}

/// A strictly read string: `null` is absent, anything but a string is the error
/// "`KEY` must be a string, got VALUE".
pub fn strict_string<'de, D: Deserializer<'de>>(
    d: D,
    key: &str,
) -> Result<Option<String>, D::Error> {
    match Value::deserialize(d)? {
        Value::Null => Ok(None),
        Value::String(s) => Ok(Some(s)),
        v => Err(D::Error::custom(format!(
            "`{key}` must be a string, got {v}"
        ))),
    }
}

/// A strictly read boolean: `null` is absent, anything else than `true`/`false` is the error
/// "`KEY` must be true or false, got VALUE".
pub fn strict_bool<'de, D: Deserializer<'de>>(d: D, key: &str) -> Result<Option<bool>, D::Error> {
    match Value::deserialize(d)? {
        Value::Null => Ok(None),
        Value::Bool(b) => Ok(Some(b)),
        v => Err(D::Error::custom(format!(
            "`{key}` must be true or false, got {v}"
        ))),
    }
}

/// A strictly read object of tool arguments: `null` is absent, anything else than an object
/// is the error "`KEY` must be an object holding the new tool arguments, got VALUE".
pub fn strict_arguments<'de, D: Deserializer<'de>>(
    d: D,
    key: &str,
) -> Result<Option<Value>, D::Error> {
    match Value::deserialize(d)? {
        Value::Null => Ok(None),
        v @ Value::Object(_) => Ok(Some(v)),
        v => Err(D::Error::custom(format!(
            "`{key}` must be an object holding the new tool arguments, got {v}"
        ))),
    }
}

/// Strict readers named after their field, for `deserialize_with`: `strict!(string reason =
/// "reason")` defines `fn reason` reading the field `reason` with [`strict_string`].
macro_rules! strict {
    ($($kind:ident $name:ident = $key:literal),* $(,)?) => {$(
        fn $name<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<strict!(@ty $kind)>, D::Error> {
            strict!(@fn $kind)(d, $key)
        }
    )*};
    (@ty string) => { String };
    (@ty bool) => { bool };
    (@ty arguments) => { serde_json::Value };
    (@fn string) => { $crate::wire::fields::strict_string };
    (@fn bool) => { $crate::wire::fields::strict_bool };
    (@fn arguments) => { $crate::wire::fields::strict_arguments };
}
pub(crate) use strict;
