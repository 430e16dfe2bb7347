//! The `hookhost:manifest` custom section of a `.wasm` file: found, read, and replaced.
//!
//! Only the top level of the binary is walked (the section list of a core module or of a
//! component: both are `\0asm`, a 4-byte version/layer, then `id, size, payload` sections),
//! so one function serves both shapes. Nothing is validated beyond the framing: whether the
//! module is a working hook is the wasm engine's question. What this module does not do:
//! interpret the manifest's JSON (`manifest.rs`).

/// The custom section that carries a hook's manifest.
pub const SECTION_NAME: &str = "hookhost:manifest";

/// Why the bytes are not a wasm binary we can read sections of.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct SectionError(pub String);

/// What the header says the binary is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinaryKind {
    /// A core module (version 1).
    Module,
    /// A component (version 0x0d, layer 1).
    Component,
}

/// One top-level section: its id and where its payload lies.
struct Section {
    id: u8,
    /// Start of the section (its id byte).
    start: usize,
    /// Start of the payload.
    payload: usize,
    /// End of the payload (exclusive).
    end: usize,
}

/// Reads an unsigned LEB128 u32 at `*pos`, advancing it.
fn read_u32(bytes: &[u8], pos: &mut usize) -> Result<u32, SectionError> {
    let mut result: u64 = 0;
    for i in 0..5 {
        let b = *bytes.get(*pos).ok_or_else(|| {
            SectionError("truncated wasm binary (a section size runs past the end)".into())
        })?;
        *pos += 1;
        result |= u64::from(b & 0x7f) << (7 * i);
        if b & 0x80 == 0 {
            return u32::try_from(result).map_err(|_| {
                SectionError("malformed wasm binary (a size larger than 4 GiB)".into())
            });
        }
    }
    Err(SectionError(
        "malformed wasm binary (a size encoded in more than 5 bytes)".into(),
    ))
}

fn write_u32(out: &mut Vec<u8>, mut v: u32) {
    loop {
        let byte = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

/// The binary's kind, from its 8-byte header.
pub fn kind(bytes: &[u8]) -> Result<BinaryKind, SectionError> {
    if bytes.len() < 8 || &bytes[..4] != b"\0asm" {
        return Err(SectionError(
            "not a WebAssembly binary (it does not start with \\0asm); pack the .wasm your build produced".into(),
        ));
    }
    match &bytes[4..8] {
        [1, 0, 0, 0] => Ok(BinaryKind::Module),
        [0x0d, 0, 1, 0] => Ok(BinaryKind::Component),
        v => Err(SectionError(format!(
            "unknown WebAssembly version {v:02x?}; hookhost reads core modules (version 1) and components (0x0d, layer 1)"
        ))),
    }
}

fn sections(bytes: &[u8]) -> Result<Vec<Section>, SectionError> {
    kind(bytes)?;
    let mut pos = 8;
    let mut out = Vec::new();
    while pos < bytes.len() {
        let start = pos;
        let id = bytes[pos];
        pos += 1;
        let size = read_u32(bytes, &mut pos)? as usize;
        let end = pos
            .checked_add(size)
            .filter(|e| *e <= bytes.len())
            .ok_or_else(|| {
                SectionError(format!(
                    "truncated wasm binary (section {id} at byte {start} runs past the end)"
                ))
            })?;
        out.push(Section {
            id,
            start,
            payload: pos,
            end,
        });
        pos = end;
    }
    Ok(out)
}

/// The name of a custom section and where its data starts, or `None` if malformed.
fn custom_name<'a>(bytes: &'a [u8], s: &Section) -> Option<(&'a str, usize)> {
    let mut pos = s.payload;
    let len = read_u32(&bytes[..s.end], &mut pos).ok()? as usize;
    let name_end = pos.checked_add(len).filter(|e| *e <= s.end)?;
    let name = std::str::from_utf8(&bytes[pos..name_end]).ok()?;
    Some((name, name_end))
}

/// The data of the `hookhost:manifest` section, if there is exactly one. Two of them are an
/// error: which one a reader picks must never be a question.
pub fn read(bytes: &[u8]) -> Result<Option<&[u8]>, SectionError> {
    let mut found = None;
    for s in sections(bytes)?.iter().filter(|s| s.id == 0) {
        if let Some((SECTION_NAME, data)) = custom_name(bytes, s) {
            if found.is_some() {
                return Err(SectionError(format!(
                    "the binary has more than one `{SECTION_NAME}` section; run `hookhost pack` on it again to keep one"
                )));
            }
            found = Some(&bytes[data..s.end]);
        }
    }
    Ok(found)
}

/// `bytes` without any `hookhost:manifest` section, with one holding `data` appended at the
/// end (valid for modules and components alike: custom sections may appear anywhere).
pub fn replace(bytes: &[u8], data: &[u8]) -> Result<Vec<u8>, SectionError> {
    let secs = sections(bytes)?;
    let mut out = Vec::with_capacity(bytes.len() + data.len() + 32);
    out.extend_from_slice(&bytes[..8]);
    for s in &secs {
        let ours = s.id == 0 && matches!(custom_name(bytes, s), Some((SECTION_NAME, _)));
        if !ours {
            out.extend_from_slice(&bytes[s.start..s.end]);
        }
    }
    let mut payload = Vec::with_capacity(data.len() + SECTION_NAME.len() + 5);
    let too_big = || SectionError("the manifest is larger than 4 GiB".into());
    write_u32(
        &mut payload,
        u32::try_from(SECTION_NAME.len()).map_err(|_| too_big())?,
    );
    payload.extend_from_slice(SECTION_NAME.as_bytes());
    payload.extend_from_slice(data);
    out.push(0);
    write_u32(
        &mut out,
        u32::try_from(payload.len()).map_err(|_| too_big())?,
    );
    out.extend_from_slice(&payload);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const EMPTY_MODULE: &[u8] = b"\0asm\x01\0\0\0";
    const EMPTY_COMPONENT: &[u8] = b"\0asm\x0d\0\x01\0";

    #[test]
    fn a_section_is_appended_then_replaced_not_duplicated() {
        for base in [EMPTY_MODULE, EMPTY_COMPONENT] {
            assert_eq!(read(base).unwrap(), None);
            let once = replace(base, b"{\"a\":1}").unwrap();
            assert_eq!(read(&once).unwrap(), Some(&b"{\"a\":1}"[..]));
            let twice = replace(&once, &[b'x'; 300]).unwrap();
            assert_eq!(read(&twice).unwrap(), Some(&[b'x'; 300][..]));
            assert_eq!(
                twice.len(),
                once.len() - 7 + 300 + 1,
                "one section, its size in 2 bytes"
            );
        }
    }

    #[test]
    fn other_sections_are_kept_byte_for_byte() {
        // A type section (id 1) and a foreign custom section.
        let mut m = EMPTY_MODULE.to_vec();
        m.extend_from_slice(&[1, 4, 1, 0x60, 0, 0]);
        m.extend_from_slice(&[0, 4, 3, b'a', b'b', b'c']);
        let packed = replace(&m, b"{}").unwrap();
        assert!(packed.starts_with(&m));
    }

    #[test]
    fn two_manifests_and_garbage_are_refused() {
        let once = replace(EMPTY_MODULE, b"{}").unwrap();
        let mut two = once.clone();
        two.extend_from_slice(&once[8..]);
        assert!(read(&two).unwrap_err().0.contains("more than one"));
        assert!(read(b"hello world").is_err());
        let mut truncated = once.clone();
        truncated.pop();
        assert!(read(&truncated).unwrap_err().0.contains("truncated"));
        assert!(read(b"\0asm\x02\0\0\0").unwrap_err().0.contains("version"));
    }
}
