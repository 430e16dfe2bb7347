//! Hostile payloads against the hooks people copy: the example guards of `guest-examples/`,
//! run through the real engine.

#[path = "../common/mod.rs"]
mod common;

mod sdk;
