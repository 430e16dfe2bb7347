//! Hook packages: a `.wasm` that says what it is (its manifest, in a custom section), pinned
//! by digest in `hooks.json`, kept in a content-addressed store, and published to or fetched
//! from an OCI registry (or an HTTPS URL).
//!
//! Where to look:
//! - what a manifest says and how its requests compare with a config's grants: [`manifest`]
//! - the `hookhost:manifest` section of a module or component: [`section`]
//! - where package bytes are kept and how they are checked: the engine's [`hookhost::store`]
//!   (running a pinned hook is the engine's job)
//! - what `check` says about a package's requests against the config's grants: [`check`]
//! - what a reference (`oci://`, `https://…#sha256=`, a file) names: [`reference`](mod@reference)
//! - the pinned entries `add`/`update`/`remove` write into `hooks.json`: [`pins`]
//! - talking to registries (feature `registry`): `registry` (push/pull over OCI),
//!   `credentials` (docker `config.json`, environment), `download` (HTTPS)
//!
//! Running a pinned hook never touches the network: config resolution points the hook at its
//! store file, and the runner pins the bytes it runs to the digest in the file's name.

#![warn(missing_docs)]

mod check;
mod hooks_file;
pub mod manifest;
pub mod pins;
pub mod reference;
pub mod section;

#[cfg(feature = "registry")]
pub mod credentials;
#[cfg(feature = "registry")]
pub mod download;
#[cfg(feature = "registry")]
pub mod registry;

pub use check::check;
pub use hookhost::store::{Digest, PACKAGE_LIMIT, Store, StoreError};
pub use manifest::{Capabilities, Manifest, ManifestError};
pub use reference::{OciRef, PackageRef, RefError};

/// The manifest of a packed `.wasm`: `Ok(None)` when it has none.
pub fn manifest_of(bytes: &[u8]) -> Result<Option<Manifest>, ManifestError> {
    match section::read(bytes).map_err(|e| ManifestError(e.0))? {
        None => Ok(None),
        Some(data) => Manifest::from_json(data).map(Some),
    }
}

/// `bytes` with `manifest` embedded (any earlier manifest replaced).
pub fn pack(bytes: &[u8], manifest: &Manifest) -> Result<Vec<u8>, ManifestError> {
    manifest.validate()?;
    section::replace(bytes, &manifest.to_json()).map_err(|e| ManifestError(e.0))
}
