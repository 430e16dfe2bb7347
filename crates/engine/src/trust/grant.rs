//! What approving a hook package covers ([`PackageGrant`]): the grants and the argument lists
//! a digest was approved with, so a digest approved once runs in any project that asks no
//! more of it.

use crate::config::FsAccess;
use serde::{Deserialize, Serialize};

/// The grants a hook package was approved with.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PackageGrant {
    /// The widest filesystem access approved.
    pub fs: FsAccess,
    /// The environment variables approved.
    #[serde(default)]
    pub env: Vec<String>,
    /// The argument lists (`package.args`) approved, each exactly: a package's arguments
    /// steer what it does with its grants (`write .git/config`), so a digest approved with
    /// one list does not cover another. `hookhost add` approves none (`[]`); `hookhost
    /// trust` approves the ones the project's entries pass. Absent in files written before
    /// this field: none.
    #[serde(default = "no_args")]
    pub args: Vec<Vec<String>>,
}

fn no_args() -> Vec<Vec<String>> {
    vec![Vec::new()]
}

impl Default for PackageGrant {
    fn default() -> Self {
        PackageGrant {
            fs: FsAccess::default(),
            env: Vec::new(),
            args: no_args(),
        }
    }
}

impl PackageGrant {
    /// Whether `fs` and `env` stay within this grant and `args` is an approved list.
    pub(super) fn covers(&self, fs: FsAccess, env: &[String], args: &[String]) -> bool {
        self.covers_grants(fs, env) && self.args.iter().any(|a| a == args)
    }

    fn covers_grants(&self, fs: FsAccess, env: &[String]) -> bool {
        use FsAccess::{None as NoFs, Read, Write};
        let rank = |f| match f {
            NoFs => 0,
            Read => 1,
            Write => 2,
        };
        rank(fs) <= rank(self.fs) && env.iter().all(|e| self.env.contains(e))
    }

    /// The wider of two grants.
    pub(super) fn union(&self, other: &PackageGrant) -> PackageGrant {
        let mut env = self.env.clone();
        env.extend(other.env.iter().filter(|e| !self.env.contains(e)).cloned());
        let mut args = self.args.clone();
        args.extend(
            other
                .args
                .iter()
                .filter(|a| !self.args.contains(a))
                .cloned(),
        );
        PackageGrant {
            fs: if self.covers_grants(other.fs, &[]) {
                self.fs
            } else {
                other.fs
            },
            env,
            args,
        }
    }
}

/// A package hook's arguments: its argv past argv[0] (the reference).
pub(super) fn package_args(argv: &[String]) -> &[String] {
    argv.get(1..).unwrap_or_default()
}
