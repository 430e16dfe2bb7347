//! The Linux enforcement of a [`Spec`]: Landlock, seccomp, `no_new_privs`, dropped
//! capabilities, a session of its own and rlimits.
//!
//! [`prepare`] does everything that allocates or can fail in an interesting way (the Landlock
//! ruleset, an fd with the rules already added; the seccomp programs, built once per kind);
//! [`Prepared::enter`] then only makes system calls (`setsid`, `setrlimit`,
//! `prctl(PR_SET_NO_NEW_PRIVS)`, `landlock_restrict_self`, `close_range`, `capset`,
//! `seccomp`), so that it may run between `fork` and `exec`.
//!
//! **Landlock ABI 3 (Linux 6.2) is required**: ABI 1 and 2 cannot stop a read-only hook
//! from truncating a project file (`LANDLOCK_ACCESS_FS_TRUNCATE` came with 3). On an older
//! kernel, or one without Landlock enabled, [`support`] says so. With ABI 4 (Linux 6.7) TCP
//! connections are limited to the granted ports; a network grant on an older kernel is
//! refused rather than left open. With ABI 6 (Linux 6.12) a confined process cannot signal
//! processes outside its sandbox (the agent, say); before that it can signal the user's other
//! processes, as any process of theirs can.

use super::{Access, Limits, Spec};
use landlock::{
    ABI, Access as _, AccessFs, AccessNet, BitFlags, CompatLevel, Compatible, NetPort, PathBeneath,
    PathFd, Ruleset, RulesetAttr, RulesetCreatedAttr, Scope,
};
use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule, TargetArch,
};
use std::collections::BTreeMap;
use std::os::fd::{AsRawFd, OwnedFd};
use std::sync::{Arc, OnceLock};

/// The oldest Landlock ABI the sandbox runs on (see the module's docs).
const MIN_ABI: i64 = 3;
/// The Landlock ABI that filters TCP ports.
const NET_ABI: i64 = 4;
/// The Landlock ABI that scopes signals and abstract UNIX sockets.
const SCOPE_ABI: i64 = 6;

/// Calls no hook needs and a confined one must not make: tracing or reading other
/// processes, namespaces and mounts, kernel modules and keys, BPF and perf, io_uring (whose
/// operations seccomp cannot see), file handles (which bypass path checks), the clock, and
/// `setsid` (a new session would escape the kill on timeout).
const DENIED: &[libc::c_long] = &[
    libc::SYS_ptrace,
    libc::SYS_process_vm_readv,
    libc::SYS_process_vm_writev,
    libc::SYS_mount,
    libc::SYS_umount2,
    libc::SYS_pivot_root,
    libc::SYS_chroot,
    libc::SYS_setns,
    libc::SYS_unshare,
    libc::SYS_keyctl,
    libc::SYS_add_key,
    libc::SYS_request_key,
    libc::SYS_bpf,
    libc::SYS_perf_event_open,
    libc::SYS_kexec_load,
    libc::SYS_kexec_file_load,
    libc::SYS_init_module,
    libc::SYS_finit_module,
    libc::SYS_delete_module,
    libc::SYS_reboot,
    libc::SYS_swapon,
    libc::SYS_swapoff,
    libc::SYS_io_uring_setup,
    libc::SYS_io_uring_enter,
    libc::SYS_io_uring_register,
    libc::SYS_userfaultfd,
    libc::SYS_open_by_handle_at,
    libc::SYS_name_to_handle_at,
    libc::SYS_acct,
    libc::SYS_quotactl,
    libc::SYS_settimeofday,
    libc::SYS_clock_settime,
    libc::SYS_clock_adjtime,
    libc::SYS_adjtimex,
    libc::SYS_syslog,
    libc::SYS_vhangup,
    libc::SYS_setsid,
    // Leaving the process group would escape the kill on timeout and at exit.
    libc::SYS_setpgid,
    libc::SYS_sethostname,
    libc::SYS_setdomainname,
    // Extended attributes: `security.capability` would give a binary capabilities; Landlock
    // does not cover them.
    libc::SYS_setxattr,
    libc::SYS_lsetxattr,
    libc::SYS_fsetxattr,
    libc::SYS_removexattr,
    libc::SYS_lremovexattr,
    libc::SYS_fremovexattr,
    libc::SYS_fanotify_init,
    libc::SYS_open_tree,
    libc::SYS_move_mount,
    libc::SYS_fsopen,
    libc::SYS_fsconfig,
    libc::SYS_fsmount,
    libc::SYS_fspick,
    libc::SYS_mount_setattr,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_iopl,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_ioperm,
];

/// Calls that change a file's mode, owner or times, which Landlock does not cover: denied to a
/// hook without `fs: "write"` (else it could `chmod 644 ~/.ssh/id_ed25519`, or mark any file
/// it can name). With a write grant they stay (tools that write files set modes and times),
/// on files of the user's only: the sandbox drops every capability.
const METADATA: &[libc::c_long] = &[
    libc::SYS_chmod,
    libc::SYS_fchmod,
    libc::SYS_fchmodat,
    libc::SYS_chown,
    libc::SYS_fchown,
    libc::SYS_lchown,
    libc::SYS_fchownat,
    libc::SYS_utime,
    libc::SYS_utimes,
    libc::SYS_futimesat,
    libc::SYS_utimensat,
];

/// `fchmodat2` (Linux 6.6), not in every libc's table.
const SYS_FCHMODAT2: libc::c_long = 452;

/// `ioctl` requests that set a file's flags (`chattr +i`, `+a`) or project attributes.
const SET_FLAGS_IOCTLS: &[u64] = &[
    0x4008_6602, // FS_IOC_SETFLAGS
    0x4004_6602, // FS_IOC32_SETFLAGS
    0x401c_5820, // FS_IOC_FSSETXATTR
];

/// `clone` flags that make a new namespace.
const NAMESPACE_FLAGS: &[u64] = &[
    libc::CLONE_NEWUSER as u64,
    libc::CLONE_NEWNS as u64,
    libc::CLONE_NEWPID as u64,
    libc::CLONE_NEWNET as u64,
    libc::CLONE_NEWIPC as u64,
    libc::CLONE_NEWUTS as u64,
    libc::CLONE_NEWCGROUP as u64,
];

/// The kernel's Landlock ABI (0: none).
#[allow(unsafe_code)]
fn landlock_abi() -> i64 {
    const LANDLOCK_CREATE_RULESET_VERSION: libc::c_uint = 1;
    // SAFETY: with the VERSION flag, landlock_create_ruleset reads no memory (attr NULL,
    // size 0) and returns the ABI version or -1; it creates nothing.
    let abi = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<u8>(),
            0usize,
            LANDLOCK_CREATE_RULESET_VERSION,
        )
    };
    abi.max(0)
}

/// Whether this kernel can sandbox a hook: `Ok` names what it has.
pub fn support() -> Result<String, String> {
    let abi = landlock_abi();
    if abi < MIN_ABI {
        return Err(if abi == 0 {
            "this kernel has no Landlock (Linux 6.2 or later with Landlock enabled: `lsm=landlock,...` on the kernel command line), so command hooks cannot run sandboxed here".to_string()
        } else {
            format!(
                "this kernel's Landlock is ABI {abi}; sandboxed command hooks need ABI {MIN_ABI} (Linux 6.2 or later), which can keep a read-only hook from truncating files"
            )
        });
    }
    filters(FilterKind {
        net: false,
        write: false,
    })?;
    Ok(format!("Landlock ABI {abi}, seccomp"))
}

fn abi_of(version: i64) -> ABI {
    match version {
        ..=3 => ABI::V3,
        4 => ABI::V4,
        5 => ABI::V5,
        6 => ABI::V6,
        _ => ABI::V7,
    }
}

/// What the seccomp filter depends on: a network grant, a write grant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct FilterKind {
    net: bool,
    write: bool,
}

/// The seccomp program for a hook of `kind`: the denied calls, every call of the x32 ABI
/// (x86-64), and `clone3` answered with ENOSYS (its flags are behind a pointer seccomp
/// cannot read; libc then falls back to `clone`, whose flags it can). Built once per kind.
fn filters(kind: FilterKind) -> Result<Arc<[BpfProgram]>, String> {
    type Cell = OnceLock<Result<Arc<[BpfProgram]>, String>>;
    static CELLS: [Cell; 4] = [const { OnceLock::new() }; 4];
    let cell = &CELLS[usize::from(kind.net) * 2 + usize::from(kind.write)];
    cell.get_or_init(|| {
        build_filters(kind).map_err(|e| format!("cannot build the seccomp filter: {e}"))
    })
    .clone()
}

fn build_filters(kind: FilterKind) -> Result<Arc<[BpfProgram]>, String> {
    let arch = TargetArch::try_from(std::env::consts::ARCH).map_err(|e| e.to_string())?;
    // Denied outright: the head's binary search (bpf.rs).
    let mut denied: Vec<i64> = DENIED.to_vec();
    if !kind.write {
        denied.extend(METADATA.iter().chain([&SYS_FCHMODAT2]));
    }
    // No network: no socket at all (a UNIX socket reaches the agent's, Docker's, the
    // desktop's services). With a grant: TCP/UDP over IPv4 and IPv6 only (below); Landlock
    // limits the TCP ports.
    if !kind.net {
        denied.push(libc::SYS_socket);
    }
    let head = super::bpf::head(&denied, &[libc::SYS_clone3])?;
    let rest: BpfProgram = SeccompFilter::new(
        argument_rules(kind.net).map_err(|e| e.to_string())?,
        SeccompAction::Allow,
        SeccompAction::Errno(libc::EPERM as u32),
        arch,
    )
    .and_then(TryInto::try_into)
    .map_err(|e| e.to_string())?;
    let program: BpfProgram = head.into_iter().chain(rest).collect();
    Ok(Arc::from(vec![program]))
}

/// The calls denied for some arguments only: `clone` making a namespace, the `ioctl`s that
/// type into a terminal or set a file's flags, and with a network grant the sockets that
/// are not plain TCP or UDP.
fn argument_rules(net: bool) -> Result<BTreeMap<i64, Vec<SeccompRule>>, seccompiler::Error> {
    let cond = |arg, op, value| SeccompCondition::new(arg, SeccompCmpArgLen::Dword, op, value);
    let mut rules: BTreeMap<i64, Vec<SeccompRule>> = BTreeMap::new();
    if net {
        rules.insert(libc::SYS_socket, socket_rules()?);
    }
    let namespaces = NAMESPACE_FLAGS
        .iter()
        .map(|flag| {
            SeccompRule::new(vec![SeccompCondition::new(
                0,
                SeccompCmpArgLen::Qword,
                SeccompCmpOp::MaskedEq(*flag),
                *flag,
            )?])
        })
        .collect::<Result<Vec<_>, _>>()?;
    rules.insert(libc::SYS_clone, namespaces);
    // Typing into the terminal of the agent's user; `chattr`.
    let ioctls = std::iter::once(libc::TIOCSTI)
        .chain(SET_FLAGS_IOCTLS.iter().copied())
        .map(|request| SeccompRule::new(vec![cond(1, SeccompCmpOp::Eq, request)?]))
        .collect::<Result<Vec<_>, _>>()?;
    rules.insert(libc::SYS_ioctl, ioctls);
    Ok(rules)
}

/// With a network grant, the sockets that are not plain TCP or UDP over IPv4 or IPv6: another
/// family, a raw, packet or sequenced socket, or a protocol other than the default, TCP and
/// UDP (MPTCP would step around Landlock's TCP port rules).
fn socket_rules() -> Result<Vec<SeccompRule>, seccompiler::Error> {
    let cond = |arg, op, value| SeccompCondition::new(arg, SeccompCmpArgLen::Dword, op, value);
    let mut rules = vec![
        SeccompRule::new(vec![
            cond(0, SeccompCmpOp::Ne, libc::AF_INET as u64)?,
            cond(0, SeccompCmpOp::Ne, libc::AF_INET6 as u64)?,
        ])?,
        SeccompRule::new(vec![
            cond(2, SeccompCmpOp::Ne, 0)?,
            cond(2, SeccompCmpOp::Ne, libc::IPPROTO_TCP as u64)?,
            cond(2, SeccompCmpOp::Ne, libc::IPPROTO_UDP as u64)?,
        ])?,
    ];
    // The type's low bits (its flags, SOCK_NONBLOCK and SOCK_CLOEXEC, are above them): only
    // a stream or a datagram socket.
    let stream = libc::SOCK_STREAM as u64;
    let datagram = libc::SOCK_DGRAM as u64;
    for ty in (0..16u64).filter(|t| *t != stream && *t != datagram) {
        rules.push(SeccompRule::new(vec![cond(
            1,
            SeccompCmpOp::MaskedEq(0xf),
            ty,
        )?])?);
    }
    Ok(rules)
}

/// The rights `access` stands for under `abi`.
fn rights(access: Access, abi: ABI) -> BitFlags<AccessFs> {
    let all = AccessFs::from_all(abi);
    match access {
        Access::ReadExec => AccessFs::from_read(abi),
        Access::ReadOnly => AccessFs::ReadFile | AccessFs::ReadDir,
        Access::Device => AccessFs::ReadFile | AccessFs::WriteFile,
        Access::Private => all & !(AccessFs::MakeChar | AccessFs::MakeBlock | AccessFs::IoctlDev),
        Access::All => all,
    }
}

/// The Landlock ruleset for `spec`, rules added: an fd to restrict a process with.
fn ruleset(spec: &Spec) -> Result<OwnedFd, String> {
    let version = landlock_abi();
    let abi = abi_of(version);
    if spec.net && version < NET_ABI {
        return Err(format!(
            "a `net` grant needs Landlock ABI {NET_ABI} (Linux 6.7) to limit connections to the granted ports; this kernel has ABI {version}, so the hook does not run (remove `net`, or run it on a newer kernel)"
        ));
    }
    let err = |e: landlock::RulesetError| format!("cannot set up the Landlock sandbox: {e}");
    let mut rs = Ruleset::default()
        .set_compatibility(CompatLevel::HardRequirement)
        .handle_access(AccessFs::from_all(abi))
        .map_err(err)?;
    if version >= NET_ABI {
        rs = rs
            .handle_access(AccessNet::BindTcp | AccessNet::ConnectTcp)
            .map_err(err)?;
    }
    if version >= SCOPE_ABI {
        rs = rs.scope(Scope::from_all(abi)).map_err(err)?;
    }
    let mut created = rs.create().map_err(err)?;
    for (path, access) in &spec.paths {
        let Ok(fd) = PathFd::new(path) else {
            continue; // gone, or never there: nothing to grant
        };
        let mut access = rights(*access, abi);
        if !path.is_dir() {
            access &= AccessFs::from_file(abi);
        }
        (&mut created)
            .add_rule(PathBeneath::new(fd, access))
            .map_err(|e| format!("cannot grant {} to the sandbox: {e}", path.display()))?;
    }
    let mut ports = spec.ports.clone();
    ports.sort_unstable();
    ports.dedup();
    for port in ports {
        (&mut created)
            .add_rule(NetPort::new(port, AccessNet::ConnectTcp))
            .map_err(err)?;
    }
    Option::<OwnedFd>::from(created)
        .ok_or_else(|| "Landlock did not enforce the ruleset on this kernel".to_string())
}

/// A [`Spec`] made ready to enter: what [`Prepared::enter`] needs, built beforehand.
#[derive(Debug)]
pub struct Prepared {
    ruleset: OwnedFd,
    filters: Arc<[BpfProgram]>,
    limits: Limits,
}

/// Builds what confining a process to `spec` takes. `Err` says why it cannot be done here
/// (the kernel, a path that cannot be granted).
pub fn prepare(spec: &Spec) -> Result<Prepared, String> {
    support()?;
    Ok(Prepared {
        ruleset: ruleset(spec)?,
        filters: filters(FilterKind {
            net: spec.net,
            write: spec.metadata,
        })?,
        limits: spec.limits,
    })
}

/// `close_range`'s flag: mark close-on-exec rather than close.
const CLOSE_RANGE_CLOEXEC: libc::c_uint = 1 << 2;

/// Every capability gone, for good: root's hook can then read another's secrets in
/// `/proc`, make device nodes or change any file's owner no more than a user's can. Root
/// keeps no capability across exec (`SECBIT_NOROOT`, locked; an empty bounding set).
#[allow(unsafe_code)]
fn drop_capabilities() -> std::io::Result<()> {
    const SECBITS: libc::c_ulong = (1 << 0) // SECBIT_NOROOT
        | (1 << 1) // SECBIT_NOROOT_LOCKED
        | (1 << 2) // SECBIT_NO_SETUID_FIXUP
        | (1 << 3) // SECBIT_NO_SETUID_FIXUP_LOCKED
        | (1 << 5) // SECBIT_KEEP_CAPS_LOCKED
        | (1 << 6) // SECBIT_NO_CAP_AMBIENT_RAISE
        | (1 << 7); // SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED
    const LINUX_CAPABILITY_VERSION_3: u32 = 0x2008_0522;
    #[repr(C)]
    struct Header {
        version: u32,
        pid: i32,
    }
    #[repr(C)]
    #[derive(Clone, Copy)]
    struct Data {
        effective: u32,
        permitted: u32,
        inheritable: u32,
    }
    let mut header = Header {
        version: LINUX_CAPABILITY_VERSION_3,
        pid: 0,
    };
    let data = [Data {
        effective: 0,
        permitted: 0,
        inheritable: 0,
    }; 2];
    // SAFETY: prctl and capset on values and structs owned here; all async-signal-safe.
    unsafe {
        // These need CAP_SETPCAP: a process without it (an ordinary user's) has no
        // capability to keep, so a refusal is not an error; past the last capability
        // PR_CAPBSET_DROP says EINVAL.
        let _ = libc::prctl(libc::PR_SET_SECUREBITS, SECBITS, 0, 0, 0);
        for cap in 0..64 {
            let _ = libc::prctl(libc::PR_CAPBSET_DROP, cap, 0, 0, 0);
        }
        let clear = libc::PR_CAP_AMBIENT_CLEAR_ALL as libc::c_ulong;
        let _ = libc::prctl(libc::PR_CAP_AMBIENT, clear, 0, 0, 0);
        if libc::syscall(libc::SYS_capset, &mut header, data.as_ptr()) != 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(())
}

impl Prepared {
    /// Confines the calling process, for good: its own session, the limits, no new
    /// privileges, the Landlock ruleset, every descriptor above stderr closed at exec, no
    /// capability, the seccomp filters. Only system calls, nothing that allocates: it may run
    /// between `fork` and `exec`.
    #[allow(unsafe_code)]
    pub fn enter(&self) -> std::io::Result<()> {
        let fail = || Err(std::io::Error::last_os_error());
        let limits = self.limits;
        // SAFETY: each call below is a plain system call on values owned by `self` (the
        // ruleset fd, the filter programs, which outlive the call) and is async-signal-safe;
        // nothing allocates.
        unsafe {
            // Its own session and process group: a timeout kills the group, and setsid is
            // denied below so nothing in it can leave the session.
            if libc::setsid() < 0 {
                return fail();
            }
            for (resource, value) in [
                (libc::RLIMIT_NPROC, limits.processes),
                (libc::RLIMIT_CPU, limits.cpu_seconds),
                (libc::RLIMIT_DATA, limits.data_bytes),
                (libc::RLIMIT_FSIZE, limits.file_bytes),
                (libc::RLIMIT_CORE, 0),
            ] {
                let limit = libc::rlimit {
                    rlim_cur: value as libc::rlim_t,
                    rlim_max: value as libc::rlim_t,
                };
                if libc::setrlimit(resource, &limit) != 0 {
                    return fail();
                }
            }
            if libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 {
                return fail();
            }
            if libc::syscall(
                libc::SYS_landlock_restrict_self,
                self.ruleset.as_raw_fd(),
                0,
            ) != 0
            {
                return fail();
            }
            // No descriptor the caller left open (a file, a terminal, a socket) reaches the
            // program: every one above stderr closes at exec.
            if libc::syscall(libc::SYS_close_range, 3u32, u32::MAX, CLOSE_RANGE_CLOEXEC) != 0 {
                return fail();
            }
        }
        drop_capabilities()?;
        for program in self.filters.iter() {
            seccompiler::apply_filter(program).map_err(std::io::Error::other)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_filter_builds() {
        for net in [false, true] {
            for write in [false, true] {
                assert_eq!(filters(FilterKind { net, write }).unwrap().len(), 1);
            }
        }
    }
}
