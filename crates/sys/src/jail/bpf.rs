//! The head of the seccomp program: the calls denied outright, found by a binary search over
//! their numbers rather than `seccompiler`'s linear chain.
//!
//! Why: the kernel runs a new filter once for every system call number when it is loaded
//! (to cache the calls it always allows), so a chain of 800 instructions made every
//! sandboxed hook's start half a millisecond slower. The search is a few comparisons deep;
//! what it does not decide (the calls whose arguments matter: `socket`, `clone`, `ioctl`)
//! falls through to the `seccompiler` program after it, which also checks the architecture.

use seccompiler::sock_filter;

// Classic BPF opcodes (linux/bpf_common.h): class | size/operation | source.
/// `BPF_LD | BPF_W | BPF_ABS` (0x00 | 0x00 | 0x20).
const BPF_LD_W_ABS: u16 = 0x20;
/// `BPF_JMP | BPF_JA`.
const BPF_JMP_JA: u16 = 0x05;
/// `BPF_JMP | BPF_JEQ | BPF_K`.
const BPF_JEQ_K: u16 = 0x15;
/// `BPF_JMP | BPF_JGE | BPF_K`.
const BPF_JGE_K: u16 = 0x35;
/// `BPF_RET | BPF_K`.
const BPF_RET_K: u16 = 0x06;

/// On x86-64, calls of the x32 ABI (numbered from here up) are all denied: no hook needs them,
/// and each would otherwise need every rule again under its number.
const X32_FIRST: u32 = 0x4000_0000;

/// Where a jump goes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Target {
    /// `return EPERM`.
    Deny,
    /// `return ENOSYS`.
    NoSys,
    /// The first instruction after the head.
    Rest,
    /// A place inside the search.
    Label(usize),
}

enum Ins {
    LoadNr,
    /// If the number is `k`, to the target; else the next instruction.
    JumpIfEq(u32, Target),
    /// If the number is at least `k`, to the target; else the next instruction.
    JumpIfGe(u32, Target),
    Jump(Target),
    Here(usize),
    Return(u32),
}

/// The head for `denied` (answered EPERM) and `no_sys` (answered ENOSYS). `Err`: a jump too
/// far for classic BPF (more numbers than it was made for).
pub(super) fn head(denied: &[i64], no_sys: &[i64]) -> Result<Vec<sock_filter>, String> {
    let mut denied: Vec<u32> = denied
        .iter()
        .filter_map(|n| u32::try_from(*n).ok())
        .collect();
    denied.sort_unstable();
    denied.dedup();
    let mut code = vec![Ins::LoadNr];
    for n in no_sys.iter().filter_map(|n| u32::try_from(*n).ok()) {
        code.push(Ins::JumpIfEq(n, Target::NoSys));
    }
    if cfg!(target_arch = "x86_64") {
        code.push(Ins::JumpIfGe(X32_FIRST, Target::Deny));
    }
    let mut labels = 0;
    search(&denied, &mut code, &mut labels);
    code.push(Ins::Jump(Target::Rest));
    code.push(Ins::Return(libc::SECCOMP_RET_ERRNO | libc::EPERM as u32));
    code.push(Ins::Return(libc::SECCOMP_RET_ERRNO | libc::ENOSYS as u32));
    assemble(&code)
}

/// A binary search over the sorted `numbers`: each found one jumps to [`Target::Deny`], the
/// others to [`Target::Rest`].
fn search(numbers: &[u32], code: &mut Vec<Ins>, labels: &mut usize) {
    if numbers.len() <= 4 {
        code.extend(numbers.iter().map(|n| Ins::JumpIfEq(*n, Target::Deny)));
        code.push(Ins::Jump(Target::Rest));
        return;
    }
    let mid = numbers.len() / 2;
    let upper = *labels;
    *labels += 1;
    code.push(Ins::JumpIfGe(numbers[mid], Target::Label(upper)));
    search(&numbers[..mid], code, labels);
    code.push(Ins::Here(upper));
    search(&numbers[mid..], code, labels);
}

/// The instructions with every jump resolved to an offset.
fn assemble(code: &[Ins]) -> Result<Vec<sock_filter>, String> {
    // Where each instruction lands (labels take no place), and where each target is.
    let mut at = Vec::with_capacity(code.len());
    let mut here = std::collections::HashMap::new();
    let mut n = 0usize;
    for ins in code {
        at.push(n);
        match ins {
            Ins::Here(l) => {
                here.insert(*l, n);
            }
            _ => n += 1,
        }
    }
    let len = n;
    let place = |t: Target| match t {
        Target::Deny => Some(len - 2),
        Target::NoSys => Some(len - 1),
        Target::Rest => Some(len),
        Target::Label(l) => here.get(&l).copied(),
    };
    let offset = |from: usize, t: Target| -> Result<u32, String> {
        let to = place(t).ok_or("a jump to a label that is not placed")?;
        u32::try_from(to - from - 1).map_err(|_| "a jump too far".to_string())
    };
    let short = |from: usize, t: Target| -> Result<u8, String> {
        u8::try_from(offset(from, t)?).map_err(|_| "a conditional jump too far".to_string())
    };
    let mut out = Vec::with_capacity(len);
    for (ins, &pos) in code.iter().zip(&at) {
        let f = |code, jt, jf, k| sock_filter { code, jt, jf, k };
        out.push(match ins {
            Ins::Here(_) => continue,
            Ins::LoadNr => f(BPF_LD_W_ABS, 0, 0, 0),
            Ins::JumpIfEq(k, t) => f(BPF_JEQ_K, short(pos, *t)?, 0, *k),
            Ins::JumpIfGe(k, t) => f(BPF_JGE_K, short(pos, *t)?, 0, *k),
            Ins::Jump(t) => f(BPF_JMP_JA, 0, 0, offset(pos, *t)?),
            Ins::Return(k) => f(BPF_RET_K, 0, 0, *k),
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs `prog` (the head, then "allow") on call number `nr` as the kernel would.
    fn run(prog: &[sock_filter], nr: u32) -> u32 {
        let mut pc = 0usize;
        let mut acc = 0u32;
        loop {
            let Some(i) = prog.get(pc) else {
                return libc::SECCOMP_RET_ALLOW;
            };
            pc += 1;
            match i.code {
                BPF_LD_W_ABS => acc = nr,
                BPF_JEQ_K => pc += usize::from(if acc == i.k { i.jt } else { i.jf }),
                BPF_JGE_K => pc += usize::from(if acc >= i.k { i.jt } else { i.jf }),
                BPF_JMP_JA => pc += i.k as usize,
                BPF_RET_K => return i.k,
                other => panic!("unexpected instruction {other:#x}"),
            }
        }
    }

    #[test]
    fn the_search_denies_exactly_the_listed_calls() {
        let denied: Vec<i64> = (0..90).map(|i| i * 7 + 3).collect();
        let prog = head(&denied, &[435]).unwrap();
        assert!(prog.len() < 200, "{}", prog.len());
        let eperm = libc::SECCOMP_RET_ERRNO | libc::EPERM as u32;
        for nr in 0..700u32 {
            let want = if nr == 435 {
                libc::SECCOMP_RET_ERRNO | libc::ENOSYS as u32
            } else if denied.contains(&i64::from(nr)) {
                eperm
            } else {
                libc::SECCOMP_RET_ALLOW
            };
            assert_eq!(run(&prog, nr), want, "call {nr}");
        }
        if cfg!(target_arch = "x86_64") {
            assert_eq!(run(&prog, X32_FIRST | 59), eperm);
        }
    }
}
