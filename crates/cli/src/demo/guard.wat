;; The demo's wasm hook: a WASI preview 1 command that reads the PreToolUse payload from stdin
;; and blocks (exit 2, reason on stderr) when it contains `--force`. Hand-written so the demo
;; needs no guest toolchain; guest-examples/ shows the same idea in Rust with the SDK.
(module
  (import "wasi_snapshot_preview1" "fd_read" (func $fd_read (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "proc_exit" (func $proc_exit (param i32)))
  (memory (export "memory") 2)
  ;; 0: iovec {ptr, len}; 8: bytes read/written; 16: the needle; 32: the message; 1024..: stdin
  (data (i32.const 16) "--force")
  (data (i32.const 32) "wasm guard: `--force` rewrites shared history; push without it\0a")
  (func (export "_start")
    (local $len i32) (local $n i32) (local $i i32) (local $j i32)
    (block $eof
      (loop $read
        (i32.store (i32.const 0) (i32.add (i32.const 1024) (local.get $len)))
        (i32.store (i32.const 4) (i32.sub (i32.const 130048) (local.get $len)))
        (br_if $eof (call $fd_read (i32.const 0) (i32.const 0) (i32.const 1) (i32.const 8)))
        (local.set $n (i32.load (i32.const 8)))
        (br_if $eof (i32.eqz (local.get $n)))
        (local.set $len (i32.add (local.get $len) (local.get $n)))
        (br_if $eof (i32.ge_u (local.get $len) (i32.const 130048)))
        (br $read)))
    (block $absent
      (loop $scan
        (br_if $absent (i32.gt_u (i32.add (local.get $i) (i32.const 7)) (local.get $len)))
        (local.set $j (i32.const 0))
        (block $differ
          (loop $compare
            (br_if $differ
              (i32.ne
                (i32.load8_u (i32.add (i32.const 1024) (i32.add (local.get $i) (local.get $j))))
                (i32.load8_u (i32.add (i32.const 16) (local.get $j)))))
            (local.set $j (i32.add (local.get $j) (i32.const 1)))
            (br_if $compare (i32.lt_u (local.get $j) (i32.const 7)))
            (i32.store (i32.const 0) (i32.const 32))
            (i32.store (i32.const 4) (i32.const 63))
            (drop (call $fd_write (i32.const 2) (i32.const 0) (i32.const 1) (i32.const 8)))
            (call $proc_exit (i32.const 2))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $scan)))))
