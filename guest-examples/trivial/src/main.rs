//! The smallest hook: read nothing, exit 0. For latency benchmarks.
fn main() {}
