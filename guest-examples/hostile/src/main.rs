//! Hostile and probing behaviours for the sandbox tests, chosen by the first argument.
//! Probes print `ok:<detail>` or `err:<detail>` and exit 0, so the test reads what the
//! guest could do.
use std::hint::black_box;
use std::io::{Read, Write};

fn probe<T, E: std::fmt::Display>(r: Result<T, E>, show: impl Fn(T) -> String) {
    match r {
        Ok(v) => println!("ok:{}", show(v)),
        Err(e) => println!("err:{e}"),
    }
}

fn recurse(n: u64) -> u64 {
    let big = black_box([n; 64]);
    if black_box(n) == u64::MAX {
        return big[0];
    }
    recurse(n + 1) + big[1]
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mode = args.get(1).map(String::as_str).unwrap_or("");
    let arg = args.get(2).cloned().unwrap_or_default();
    match mode {
        "loop" => {
            let mut i: u64 = 0;
            loop {
                i = black_box(i.wrapping_add(1));
            }
        }
        "spin" => {
            // Burn `arg` iterations, then exit 0: for fuel accounting.
            let n: u64 = arg.parse().unwrap_or(1_000_000);
            let mut acc: u64 = 0;
            for i in 0..n {
                acc = black_box(acc.wrapping_add(i));
            }
            println!("{acc}");
        }
        "membomb" => {
            let mut hoard: Vec<Vec<u8>> = Vec::new();
            loop {
                hoard.push(vec![1u8; 16 << 20]);
                black_box(&hoard);
            }
        }
        "recurse" => {
            println!("{}", recurse(0));
        }
        "flood" => {
            let chunk = vec![b'x'; 64 * 1024];
            let mut out = std::io::stdout();
            for _ in 0..128 {
                if out.write_all(&chunk).is_err() {
                    break;
                }
            }
        }
        "sleep" => std::thread::sleep(std::time::Duration::from_secs(60)),
        "read" => probe(std::fs::read_to_string(&arg), |s| s.trim().to_string()),
        "write" => probe(std::fs::write(&arg, "written by a guest"), |_| "written".into()),
        "list" => probe(std::fs::read_dir(&arg), |d| {
            d.filter_map(|e| e.ok()).map(|e| e.file_name().to_string_lossy().into_owned()).collect::<Vec<_>>().join(",")
        }),
        "env" => {
            for (k, v) in std::env::vars() {
                println!("{k}={v}");
            }
        }
        "args" => println!("{}", args.join("|")),
        "echo" => {
            let mut s = String::new();
            let _ = std::io::stdin().read_to_string(&mut s);
            print!("{s}");
        }
        "exit" => hookhost_guest::exit(arg.parse().unwrap_or(1)),
        "rewrite" => hookhost_guest::update_input(hookhost_guest::serde_json::json!({ "command": arg })),
        "force" => hookhost_guest::force(&arg),
        "context" => hookhost_guest::add_context(&arg),
        "stderr-exit" => hookhost_guest::block(&arg),
        "trap" => {
            #[allow(unconditional_panic)]
            let v: Vec<u8> = Vec::new();
            println!("{}", black_box(&v)[black_box(3)]);
        }
        "symlink" => {
            // symlink(target = arg, link = "escape"), straight to wasi-libc: std's is unstable.
            extern "C" {
                fn symlink(target: *const std::ffi::c_char, link: *const std::ffi::c_char) -> i32;
            }
            let target = std::ffi::CString::new(arg).unwrap_or_default();
            let rc = unsafe { symlink(target.as_ptr(), c"escape".as_ptr()) };
            if rc == 0 {
                println!("ok:linked");
            } else {
                println!("err:{}", std::io::Error::last_os_error());
            }
        }
        "net" => probe(std::net::TcpStream::connect("127.0.0.1:9"), |_| "connected".into()),
        _ => {
            hookhost_guest::fail(&format!("hostile: unknown mode {mode:?}"));
        }
    }
}
