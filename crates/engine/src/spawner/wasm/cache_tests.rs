//! The compiled-code cache: sealed entries, what a stale or tampered one does.

use super::*;

const A: &str = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
const B: &str = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";
const ID: EntryId = EntryId {
    dev: 1,
    ino: 2,
    size: 3,
    mtime_ns: 4,
};

#[test]
fn a_seal_is_bound_to_its_module_its_engine_and_its_bytes() {
    let engine = [7u8; 32];
    let seal = seal_bytes(Kind::Component, A, &engine, ID).unwrap();
    assert_eq!(parse_seal(&seal, A, &engine), Some((Kind::Component, ID)));
    assert_eq!(parse_seal(&seal, B, &engine), None, "another module's seal");
    assert_eq!(
        parse_seal(&seal, A, &[8u8; 32]),
        None,
        "another engine's seal"
    );
    let mut flipped = seal.clone();
    flipped[90] ^= 1;
    assert_eq!(parse_seal(&flipped, A, &engine), None, "a patched identity");
    assert_eq!(parse_seal(&seal[1..], A, &engine), None);
    assert_eq!(parse_seal(b"short", A, &engine), None);
}

fn engine() -> Engine {
    Engine::new(&wasmtime::Config::new()).unwrap()
}

/// The smallest module (the header alone).
const WAT_MODULE: &[u8] = b"\0asm\x01\0\0\0";

#[test]
fn an_entry_round_trips_and_a_swapped_or_edited_entry_is_refused() {
    let root = tempfile::tempdir().unwrap();
    let engine = engine();
    let cache = DiskCache::new(Some(root.path().to_path_buf()), &engine, "test");
    let module = Module::new(&engine, WAT_MODULE).unwrap();
    let hash_a = sha256_hex(b"a");
    let hash_b = sha256_hex(b"b");
    cache.store(&hash_a, &Artifact::Module(module.clone()));
    cache.store(&hash_b, &Artifact::Module(module));
    assert!(matches!(
        cache.load(&engine, &hash_a),
        Some(Artifact::Module(_))
    ));
    let dir = cache.dir().unwrap();
    // B's entry copied over A's name: same bytes, another inode.
    std::fs::copy(
        dir.join(format!("{hash_b}.module")),
        dir.join(format!("{hash_a}.module.new")),
    )
    .unwrap();
    std::fs::rename(
        dir.join(format!("{hash_a}.module.new")),
        dir.join(format!("{hash_a}.module")),
    )
    .unwrap();
    assert!(cache.load(&engine, &hash_a).is_none(), "a swapped entry");
    // An entry appended to in place: another size.
    let b = dir.join(format!("{hash_b}.module"));
    std::fs::OpenOptions::new()
        .append(true)
        .open(&b)
        .unwrap()
        .write_all(b"x")
        .unwrap();
    assert!(cache.load(&engine, &hash_b).is_none(), "an edited entry");
    // Rewritten by a new store: valid again.
    cache.store(
        &hash_b,
        &Artifact::Module(Module::new(&engine, WAT_MODULE).unwrap()),
    );
    assert!(cache.load(&engine, &hash_b).is_some());
}

#[cfg(unix)]
#[test]
fn a_symlinked_entry_is_refused() {
    let root = tempfile::tempdir().unwrap();
    let engine = engine();
    let cache = DiskCache::new(Some(root.path().to_path_buf()), &engine, "test");
    let hash = sha256_hex(b"a");
    cache.store(
        &hash,
        &Artifact::Module(Module::new(&engine, WAT_MODULE).unwrap()),
    );
    let dir = cache.dir().unwrap();
    let entry = dir.join(format!("{hash}.module"));
    let moved = root.path().join("elsewhere");
    std::fs::rename(&entry, &moved).unwrap();
    std::os::unix::fs::symlink(&moved, &entry).unwrap();
    assert!(cache.load(&engine, &hash).is_none());
}

#[cfg(unix)]
#[test]
fn a_lock_handed_down_is_adopted_and_no_other_descriptor_takes_it() {
    let root = tempfile::tempdir().unwrap();
    let engine = engine();
    let cache = DiskCache::new(Some(root.path().to_path_buf()), &engine, "test");
    let held = cache.try_lock(A).expect("a free lock is taken");
    assert!(cache.try_lock(A).is_none(), "held: a second claim fails");
    // What a child inherits: the same open file description, so the lock is its own.
    let inherited = held.try_clone().unwrap();
    let adopted = cache
        .adopt_lock(A, inherited)
        .expect("the held lock is adopted");
    drop(held);
    assert!(cache.try_lock(A).is_none(), "the adopter keeps the claim");
    // Another description of the same file is no claim while someone holds it.
    let path = cache.dir().unwrap().join(format!("{A}.lock"));
    let other = std::fs::File::open(&path).unwrap();
    assert!(cache.adopt_lock(A, other).is_err());
    // A lock file of another module, or any other file, is given back untouched.
    let b = cache.try_lock(B).unwrap();
    assert!(cache.adopt_lock(A, b.try_clone().unwrap()).is_err());
    let stray = tempfile::tempfile().unwrap();
    assert!(cache.adopt_lock(A, stray).is_err());
    drop(adopted);
    assert!(
        cache.try_lock(A).is_some(),
        "released with its last descriptor"
    );
}
