//! The bytes between a client and the warm engine: one [`Request`] (the whole invocation:
//! arguments, environment, working directory, umask, the payload) answered by one [`Reply`]
//! (the exit code and what the command wrote on stdout and stderr, or why the engine will not
//! run it). Every field is length-prefixed (u32, little-endian) and bounded: a peer that sends
//! more than [`MAX_FIELD`] bytes in one field or [`MAX_ITEMS`] items is refused, not believed.

use std::ffi::OsString;
use std::io::{self, Read, Write};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::PathBuf;

/// The first bytes of every request and reply; a new layout takes a new tag.
pub const MAGIC: &[u8; 4] = b"HHW1";
/// The most bytes one field may hold (the payload cap of `hookhost hook`, 64 MiB, plus one).
pub const MAX_FIELD: u32 = (64 << 20) + 1;
/// The most arguments, or environment variables, a request may hold.
pub const MAX_ITEMS: u32 = 65_536;

/// One invocation of `hookhost`, as the engine would have seen it as a fresh process.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// The arguments after the program name (`hook --for claude`).
    pub args: Vec<OsString>,
    /// The whole environment, `NAME=value` pairs, in the client's order.
    pub env: Vec<(OsString, OsString)>,
    /// The working directory.
    pub cwd: PathBuf,
    /// The file-mode creation mask.
    pub umask: u32,
    /// What came on stdin (`None`: the command does not read stdin).
    pub stdin: Option<Vec<u8>>,
}

/// The engine's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reply {
    /// The command ran: its exit code and output.
    Ran {
        /// The exit code a fresh process would have exited with.
        code: u8,
        /// What it wrote on stdout.
        stdout: Vec<u8>,
        /// What it wrote on stderr.
        stderr: Vec<u8>,
    },
    /// The engine did not run it (another environment, a busy engine, a command it does not
    /// serve): the client runs it in-process.
    Declined(String),
}

fn put(w: &mut Vec<u8>, bytes: &[u8]) -> io::Result<()> {
    let len = u32::try_from(bytes.len())
        .ok()
        .filter(|&l| l <= MAX_FIELD)
        .ok_or_else(|| bad("a field is too long to send"))?;
    w.extend_from_slice(&len.to_le_bytes());
    w.extend_from_slice(bytes);
    Ok(())
}

fn put_u32(w: &mut Vec<u8>, v: u32) {
    w.extend_from_slice(&v.to_le_bytes());
}

fn count(n: usize) -> io::Result<u32> {
    u32::try_from(n)
        .ok()
        .filter(|&n| n <= MAX_ITEMS)
        .ok_or_else(|| bad("too many items to send"))
}

fn bad(why: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, format!("warm engine: {why}"))
}

fn get_u32(r: &mut impl Read) -> io::Result<u32> {
    let mut b = [0u8; 4];
    r.read_exact(&mut b)?;
    Ok(u32::from_le_bytes(b))
}

fn get(r: &mut impl Read) -> io::Result<Vec<u8>> {
    let len = get_u32(r)?;
    if len > MAX_FIELD {
        return Err(bad("a field longer than the bound"));
    }
    let mut v = Vec::new();
    r.take(u64::from(len)).read_to_end(&mut v)?;
    if v.len() != len as usize {
        return Err(io::ErrorKind::UnexpectedEof.into());
    }
    Ok(v)
}

fn get_items(r: &mut impl Read) -> io::Result<u32> {
    let n = get_u32(r)?;
    if n > MAX_ITEMS {
        return Err(bad("more items than the bound"));
    }
    Ok(n)
}

fn expect_magic(r: &mut impl Read) -> io::Result<()> {
    let mut m = [0u8; 4];
    r.read_exact(&mut m)?;
    if &m != MAGIC {
        return Err(bad("not a warm-engine message (another version?)"));
    }
    Ok(())
}

impl Request {
    /// The request's bytes.
    pub fn encode(&self) -> io::Result<Vec<u8>> {
        let mut w = Vec::with_capacity(4096 + self.stdin.as_ref().map_or(0, Vec::len));
        w.extend_from_slice(MAGIC);
        put_u32(&mut w, count(self.args.len())?);
        for a in &self.args {
            put(&mut w, a.as_bytes())?;
        }
        put_u32(&mut w, count(self.env.len())?);
        for (k, v) in &self.env {
            put(&mut w, k.as_bytes())?;
            put(&mut w, v.as_bytes())?;
        }
        put(&mut w, self.cwd.as_os_str().as_bytes())?;
        put_u32(&mut w, self.umask);
        match &self.stdin {
            None => w.push(0),
            Some(bytes) => {
                w.push(1);
                put(&mut w, bytes)?;
            }
        }
        Ok(w)
    }

    /// Reads one request.
    pub fn decode(r: &mut impl Read) -> io::Result<Request> {
        expect_magic(r)?;
        let args = (0..get_items(r)?)
            .map(|_| get(r).map(OsString::from_vec))
            .collect::<io::Result<_>>()?;
        let env = (0..get_items(r)?)
            .map(|_| Ok((OsString::from_vec(get(r)?), OsString::from_vec(get(r)?))))
            .collect::<io::Result<_>>()?;
        let cwd = PathBuf::from(OsString::from_vec(get(r)?));
        let umask = get_u32(r)?;
        let mut flag = [0u8; 1];
        r.read_exact(&mut flag)?;
        let stdin = match flag[0] {
            0 => None,
            1 => Some(get(r)?),
            _ => return Err(bad("a stdin flag that is neither 0 nor 1")),
        };
        Ok(Request {
            args,
            env,
            cwd,
            umask,
            stdin,
        })
    }
}

impl Reply {
    /// Writes the reply.
    pub fn write(&self, w: &mut impl Write) -> io::Result<()> {
        let mut b = Vec::new();
        b.extend_from_slice(MAGIC);
        match self {
            Reply::Ran {
                code,
                stdout,
                stderr,
            } => {
                b.push(0);
                b.push(*code);
                put(&mut b, stdout)?;
                put(&mut b, stderr)?;
            }
            Reply::Declined(why) => {
                b.push(1);
                put(&mut b, why.as_bytes())?;
            }
        }
        w.write_all(&b)?;
        w.flush()
    }

    /// Reads one reply.
    pub fn read(r: &mut impl Read) -> io::Result<Reply> {
        expect_magic(r)?;
        let mut tag = [0u8; 2];
        r.read_exact(&mut tag[..1])?;
        match tag[0] {
            0 => {
                r.read_exact(&mut tag[1..])?;
                Ok(Reply::Ran {
                    code: tag[1],
                    stdout: get(r)?,
                    stderr: get(r)?,
                })
            }
            1 => Ok(Reply::Declined(
                String::from_utf8_lossy(&get(r)?).into_owned(),
            )),
            _ => Err(bad("a reply that is neither ran nor declined")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_and_a_reply_come_back_as_sent() {
        let req = Request {
            args: vec!["hook".into(), "--for".into(), "claude".into()],
            env: vec![("A".into(), "1".into()), ("B".into(), OsString::new())],
            cwd: "/p".into(),
            umask: 0o022,
            stdin: Some(b"{\"hook_event_name\":\"Stop\"}".to_vec()),
        };
        let bytes = req.encode().unwrap();
        assert_eq!(Request::decode(&mut &bytes[..]).unwrap(), req);
        for reply in [
            Reply::Ran {
                code: 2,
                stdout: b"{}".to_vec(),
                stderr: b"blocked".to_vec(),
            },
            Reply::Declined("busy".into()),
        ] {
            let mut b = Vec::new();
            reply.write(&mut b).unwrap();
            assert_eq!(Reply::read(&mut &b[..]).unwrap(), reply);
        }
    }

    #[test]
    fn hostile_lengths_and_truncation_are_errors_not_allocations() {
        let mut huge = MAGIC.to_vec();
        huge.extend_from_slice(&u32::MAX.to_le_bytes());
        assert!(Request::decode(&mut &huge[..]).is_err());
        let mut long = MAGIC.to_vec();
        long.extend_from_slice(&1u32.to_le_bytes());
        long.extend_from_slice(&(MAX_FIELD + 1).to_le_bytes());
        assert!(Request::decode(&mut &long[..]).is_err());
        let req = Request {
            args: vec!["run".into()],
            env: vec![],
            cwd: "/".into(),
            umask: 0,
            stdin: None,
        };
        let bytes = req.encode().unwrap();
        for cut in 0..bytes.len() {
            assert!(Request::decode(&mut &bytes[..cut]).is_err(), "cut at {cut}");
        }
        assert!(Request::decode(&mut &b"HHW0"[..]).is_err());
    }
}
