//! What a client's messages hold in memory, bounded: a parsed JSON value costs many times its
//! bytes (`[{"":0},...]` is ~100x: every little object is a map node of its own), so the
//! bytes of a line say little. Every line being read and every request read and not yet
//! answered holds a [`Charge`] on two [`Pool`]s, its connection's and the server's; a line
//! or a request that would go past either is refused. A request's charge is what its parsed
//! value costs, counted while it is parsed ([`parse_charged`]), before the memory is taken.

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// A number of bytes that charges may hold at once.
#[derive(Debug)]
pub struct Pool {
    cap: usize,
    used: AtomicUsize,
}

impl Pool {
    /// A pool of `cap` bytes.
    pub fn new(cap: usize) -> Arc<Self> {
        Arc::new(Pool {
            cap,
            used: AtomicUsize::new(0),
        })
    }

    /// Its size.
    pub fn cap(&self) -> usize {
        self.cap
    }

    /// Bytes held now.
    pub fn used(&self) -> usize {
        self.used.load(Ordering::Acquire)
    }

    fn take(&self, n: usize) -> bool {
        self.used
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |used| {
                used.checked_add(n).filter(|&total| total <= self.cap)
            })
            .is_ok()
    }

    fn give(&self, n: usize) {
        self.used.fetch_sub(n, Ordering::AcqRel);
    }
}

/// The pools a connection's charges draw on: its own and the server's.
#[derive(Debug, Clone)]
pub struct Budget {
    pools: [Arc<Pool>; 2],
}

impl Budget {
    /// Charges on `connection` and `server`.
    pub fn new(connection: Arc<Pool>, server: Arc<Pool>) -> Self {
        Budget {
            pools: [connection, server],
        }
    }

    /// No bound (tests).
    #[cfg(test)]
    pub fn unbounded() -> Self {
        Budget::new(Pool::new(usize::MAX), Pool::new(usize::MAX))
    }

    /// An empty charge.
    pub fn charge(&self) -> Charge {
        Charge {
            pools: self.pools.clone(),
            held: 0,
        }
    }

    /// The connection's pool.
    pub fn connection(&self) -> &Pool {
        &self.pools[0]
    }

    /// The server's pool.
    pub fn server(&self) -> &Pool {
        &self.pools[1]
    }
}

/// Bytes held on both pools, given back when dropped.
#[derive(Debug)]
pub struct Charge {
    pools: [Arc<Pool>; 2],
    held: usize,
}

impl Charge {
    /// Holds `n` more bytes; false (and nothing more held) when a pool has no room.
    pub fn grow(&mut self, n: usize) -> bool {
        if !self.pools[0].take(n) {
            return false;
        }
        if !self.pools[1].take(n) {
            self.pools[0].give(n);
            return false;
        }
        self.held += n;
        true
    }

    /// Holds at least `n` bytes in all.
    pub fn grow_to(&mut self, n: usize) -> bool {
        n <= self.held || self.grow(n - self.held)
    }

    /// Bytes held.
    #[cfg(test)]
    pub fn held(&self) -> usize {
        self.held
    }

    /// Whether `more` bytes could never fit, even with nothing else held on either pool.
    pub fn never_fits(&self, more: usize) -> bool {
        self.held.saturating_add(more) > self.pools[0].cap.min(self.pools[1].cap)
    }
}

impl Drop for Charge {
    fn drop(&mut self) {
        for p in &self.pools {
            p.give(self.held);
        }
    }
}

/// What a parsed value costs on the heap, as charged: the value itself (in its parent's
/// storage), twice for an array element (a vector grows by doubling), a string's bytes and
/// its allocation, a map's node (a B-tree leaf holds 11 entries and may be half full) and
/// each entry's share of it.
const VALUE: usize = std::mem::size_of::<Value>();
const ALLOC: usize = 16;
const MAP_NODE: usize = 11 * (std::mem::size_of::<String>() + VALUE) + 64;
const MAP_ENTRY: usize = MAP_NODE / 5;

/// Why [`parse_charged`] failed.
#[derive(Debug)]
pub enum ParseFailure {
    /// Not JSON (serde_json's message).
    Invalid(String),
    /// Parsing it would hold more than the charge could grow to; `needed` bytes were being
    /// asked for when it stopped.
    NoRoom { needed: usize },
}

/// Parses `line`, charging `charge` for what the value holds as it is built; stops at the
/// first allocation the charge has no room for.
pub fn parse_charged(line: &[u8], charge: &mut Charge) -> Result<Value, ParseFailure> {
    let mut room = Room {
        charge,
        short: None,
    };
    let mut de = serde_json::Deserializer::from_slice(line);
    let parsed = Seed(&mut room)
        .deserialize(&mut de)
        .and_then(|v| de.end().map(|()| v));
    match (parsed, room.short) {
        (_, Some(needed)) => Err(ParseFailure::NoRoom { needed }),
        (Ok(v), None) => Ok(v),
        (Err(e), None) => Err(ParseFailure::Invalid(e.to_string())),
    }
}

struct Room<'a> {
    charge: &'a mut Charge,
    short: Option<usize>,
}

impl Room<'_> {
    fn take<E: de::Error>(&mut self, n: usize) -> Result<(), E> {
        if self.charge.grow(n) {
            Ok(())
        } else {
            self.short = Some(n);
            Err(E::custom("out of request memory"))
        }
    }
}

struct Seed<'r, 'a>(&'r mut Room<'a>);

impl<'de> DeserializeSeed<'de> for Seed<'_, '_> {
    type Value = Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Seed<'_, '_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Value, E> {
        if !v.is_empty() {
            self.0.take::<E>(v.len() + ALLOC)?;
        }
        Ok(Value::String(v.to_owned()))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Value, E> {
        if !v.is_empty() {
            self.0.take::<E>(v.capacity() + ALLOC)?;
        }
        Ok(Value::String(v))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        Seed(self.0).deserialize(d)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut out = Vec::new();
        loop {
            self.0
                .take::<A::Error>(2 * VALUE + if out.is_empty() { ALLOC } else { 0 })?;
            match seq.next_element_seed(Seed(&mut *self.0))? {
                Some(v) => out.push(v),
                None => return Ok(Value::Array(out)),
            }
        }
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut out = Map::new();
        loop {
            self.0
                .take::<A::Error>(MAP_ENTRY + if out.is_empty() { MAP_NODE } else { 0 })?;
            let Some(key) = map.next_key::<String>()? else {
                return Ok(Value::Object(out));
            };
            if !key.is_empty() {
                self.0.take::<A::Error>(key.len() + ALLOC)?;
            }
            let v = map.next_value_seed(Seed(&mut *self.0))?;
            out.insert(key, v);
        }
    }
}

/// The `id` of a message that could not be parsed in full, when it has a string or number
/// one: found without keeping anything else of the message.
pub fn id_of(line: &[u8]) -> Value {
    #[derive(serde::Deserialize)]
    struct Envelope {
        #[serde(default)]
        id: Id,
    }
    #[derive(Default)]
    struct Id(Value);
    impl<'de> serde::Deserialize<'de> for Id {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Id, D::Error> {
            struct V;
            impl<'de> Visitor<'de> for V {
                type Value = Id;
                fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                    f.write_str("an id")
                }
                fn visit_i64<E>(self, v: i64) -> Result<Id, E> {
                    Ok(Id(Value::from(v)))
                }
                fn visit_u64<E>(self, v: u64) -> Result<Id, E> {
                    Ok(Id(Value::from(v)))
                }
                fn visit_f64<E>(self, v: f64) -> Result<Id, E> {
                    Ok(Id(
                        serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number)
                    ))
                }
                fn visit_str<E>(self, v: &str) -> Result<Id, E> {
                    // An id is short; a long one is not echoed (it would be held again).
                    Ok(Id(if v.len() <= 1024 {
                        Value::String(v.to_owned())
                    } else {
                        Value::Null
                    }))
                }
                fn visit_unit<E>(self) -> Result<Id, E> {
                    Ok(Id(Value::Null))
                }
                fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Id, A::Error> {
                    while seq.next_element::<IgnoredAny>()?.is_some() {}
                    Ok(Id(Value::Null))
                }
                fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Id, A::Error> {
                    while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                    Ok(Id(Value::Null))
                }
            }
            d.deserialize_any(V)
        }
    }
    serde_json::from_slice::<Envelope>(line)
        .map(|e| e.id.0)
        .unwrap_or(Value::Null)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn budget(cap: usize) -> Budget {
        Budget::new(Pool::new(cap), Pool::new(usize::MAX))
    }

    #[test]
    fn parses_like_serde_json() {
        let text = br#"{"a":[1,-2,3.5,"x",null,true,{"b":{}}],"":"","c":[]}"#;
        let b = Budget::unbounded();
        let mut c = b.charge();
        let v = parse_charged(text, &mut c).unwrap();
        assert_eq!(v, serde_json::from_slice::<Value>(text).unwrap());
        assert!(c.held() > 0);
        drop(c);
        assert_eq!(b.connection().used(), 0);
        assert!(matches!(
            parse_charged(b"{nope", &mut b.charge()),
            Err(ParseFailure::Invalid(_))
        ));
        assert!(matches!(
            parse_charged(b"{} x", &mut b.charge()),
            Err(ParseFailure::Invalid(_))
        ));
    }

    #[test]
    fn small_objects_are_charged_many_times_their_bytes() {
        let line = format!("[{}]", vec![r#"{"":0}"#; 1000].join(","));
        let b = Budget::unbounded();
        let mut c = b.charge();
        parse_charged(line.as_bytes(), &mut c).unwrap();
        assert!(
            c.held() > 50 * line.len(),
            "{} for {}",
            c.held(),
            line.len()
        );
        // A long string costs about its bytes.
        let line = format!("\"{}\"", "x".repeat(1 << 20));
        let mut c = b.charge();
        parse_charged(line.as_bytes(), &mut c).unwrap();
        assert!(c.held() < line.len() + 1024);
    }

    #[test]
    fn a_value_past_the_pool_stops_and_gives_everything_back() {
        let b = budget(100_000);
        let line = format!("[{}]", vec![r#"{"":0}"#; 10_000].join(","));
        let mut c = b.charge();
        assert!(matches!(
            parse_charged(line.as_bytes(), &mut c),
            Err(ParseFailure::NoRoom { .. })
        ));
        drop(c);
        assert_eq!(b.connection().used(), 0);
        assert_eq!(b.server().used(), 0);
    }

    #[test]
    fn two_pools_both_bound() {
        let server = Pool::new(10);
        let a = Budget::new(Pool::new(8), server.clone());
        let b = Budget::new(Pool::new(8), server.clone());
        let mut ca = a.charge();
        assert!(ca.grow(6));
        assert!(!ca.grow(3), "the connection's pool is full");
        let mut cb = b.charge();
        assert!(!cb.grow(5), "the server's pool is full");
        assert!(cb.grow(4));
        drop(ca);
        assert!(cb.grow_to(8));
        assert_eq!(server.used(), 8);
    }

    #[test]
    fn the_id_is_found_without_the_rest() {
        assert_eq!(
            id_of(br#"{"params":{"x":[1,2]},"id":7,"method":"fire"}"#),
            7
        );
        assert_eq!(id_of(br#"{"id":"a"}"#), "a");
        assert_eq!(id_of(br#"{"id":[1]}"#), Value::Null);
        assert_eq!(id_of(b"nope"), Value::Null);
    }
}
