//! Where `extends: NAME` is looked for: the strategy search path.
//!
//! A relative `NAME` is looked for, in order, in
//! 1. the folder of the file that says `extends:`;
//! 2. the folders of the global `--strategies-path DIR[:DIR…]` option;
//! 3. the folders of the `DOMSIM_STRATEGIES` environment variable (the
//!    same `:`-separated form);
//! 4. the shipped strategy folder: `strategies/` of the current directory
//!    if there is one, else the `strategies/` of the source tree this
//!    binary was built from (compiled in).
//!
//! The first folder holding `NAME` wins. The command line and the
//! workbench (`domsim serve`, [`super::parse_within`]) use this one path;
//! the workbench in addition refuses an absolute name, a `..` and a file
//! that leads (through a link) out of the folders of the path.

use std::path::{Path, PathBuf};
use std::sync::RwLock;

/// One folder of the search path and where it comes from (named in the
/// "searched …" list of an error).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Folder {
    pub dir: PathBuf,
    /// `--strategies-path`, `DOMSIM_STRATEGIES` or `shipped`.
    pub from: &'static str,
}

/// The environment variable of the search path.
pub const ENV: &str = "DOMSIM_STRATEGIES";

/// The folders of `--strategies-path` and `DOMSIM_STRATEGIES`, once the
/// command line set them ([`set`]); `None`: not set (a library user, a
/// test), when the environment variable is read at each look-up.
static GIVEN: RwLock<Option<Vec<Folder>>> = RwLock::new(None);

/// The folders of a `DIR[:DIR…]` value (empty parts skipped).
fn split(value: &std::ffi::OsStr, from: &'static str) -> Vec<Folder> {
    std::env::split_paths(value)
        .filter(|d| !d.as_os_str().is_empty())
        .map(|dir| Folder { dir, from })
        .collect()
}

/// Set the search path of this process from the `--strategies-path`
/// values and the `DOMSIM_STRATEGIES` environment variable; every folder
/// named must be a folder (the message names the option or variable and
/// the value).
pub fn set(option: &[std::ffi::OsString]) -> Result<(), String> {
    let mut given: Vec<Folder> = option
        .iter()
        .flat_map(|v| split(v, "--strategies-path"))
        .collect();
    if let Some(v) = std::env::var_os(ENV) {
        given.extend(split(&v, ENV));
    }
    for f in &given {
        if !f.dir.is_dir() {
            return Err(format!(
                "{}: '{}' is not a folder (the strategy search path names folders, separated by ':')",
                f.from,
                f.dir.display()
            ));
        }
    }
    *GIVEN.write().unwrap_or_else(|e| e.into_inner()) = Some(given);
    Ok(())
}

/// The shipped strategy folder: `strategies/` here if it is a folder, else
/// the `strategies/` of the source tree this binary was built from (if it
/// still is one).
pub fn shipped() -> Option<PathBuf> {
    crate::output::shipped_folder("strategies")
}

/// The search path after the extending file's own folder: the given
/// folders, then the shipped one.
pub fn folders() -> Vec<Folder> {
    let set = GIVEN.read().unwrap_or_else(|e| e.into_inner()).clone();
    let mut out = set.unwrap_or_else(|| {
        std::env::var_os(ENV)
            .map(|v| split(&v, ENV))
            .unwrap_or_default()
            .into_iter()
            .filter(|f| f.dir.is_dir())
            .collect()
    });
    if let Some(dir) = shipped() {
        out.push(Folder {
            dir,
            from: "shipped",
        });
    }
    out
}

/// The file `extends: name` of a file in the folder `own` names: the first
/// of `own`, then [`folders`], that holds it; `Err` lists the folders
/// searched. An absolute `name` is itself. `own: None` searches the
/// path alone.
pub fn find(name: &str, own: Option<&Path>) -> Result<PathBuf, String> {
    let rel = Path::new(name);
    if rel.is_absolute() {
        return if rel.exists() {
            Ok(rel.to_path_buf())
        } else {
            Err(format!("cannot find '{name}' (an absolute path)"))
        };
    }
    let mut candidates: Vec<(PathBuf, &str)> = own
        .map(|o| (o.to_path_buf(), "this file's folder"))
        .into_iter()
        .collect();
    candidates.extend(folders().into_iter().map(|f| (f.dir, f.from)));
    let mut searched: Vec<(PathBuf, &str, PathBuf)> = Vec::new();
    for (dir, from) in candidates {
        // A folder met twice (the bot's folder is the shipped one) is
        // searched and listed once.
        let canon = std::fs::canonicalize(&dir).unwrap_or_else(|_| dir.clone());
        if searched.iter().any(|(_, _, c)| *c == canon) {
            continue;
        }
        let path = dir.join(rel);
        // `exists` follows links: a dangling one is not the file.
        if path.exists() {
            return Ok(path);
        }
        searched.push((dir, from, canon));
    }
    let list: Vec<String> = searched
        .iter()
        .map(|(d, from, _)| {
            let d = if d.as_os_str().is_empty() {
                Path::new(".")
            } else {
                d
            };
            format!("{} ({from})", d.display())
        })
        .collect();
    Err(format!(
        "cannot find '{name}': searched {} (the strategy search path, docs/STRATEGIES.md)",
        list.join(", ")
    ))
}

/// The folders a typed strategy's files may come from ([`super::parse_within`]):
/// its own folder `root` and the [`folders`], canonical.
pub fn roots(root: &Path) -> Vec<PathBuf> {
    let mut out = vec![root.to_path_buf()];
    for f in folders() {
        if let Ok(c) = std::fs::canonicalize(&f.dir) {
            if !out.contains(&c) {
                out.push(c);
            }
        }
    }
    out
}

/// The name a bot in each folder of `out_dirs` can write in `extends:` to
/// reach the file `target` through the search path: the shortest
/// path of `target` below a folder of the path that, looked up from every
/// folder of `out_dirs` (from none: the path alone), finds `target`
/// itself. `None` when no such name exists.
pub fn name_for(target: &Path, out_dirs: &[&Path]) -> Option<String> {
    let t = std::fs::canonicalize(target).ok()?;
    let mut names: Vec<PathBuf> = folders()
        .iter()
        .filter_map(|f| std::fs::canonicalize(&f.dir).ok())
        .filter_map(|d| t.strip_prefix(&d).ok().map(Path::to_path_buf))
        .collect();
    names.sort_by_key(|n| n.components().count());
    let finds = |name: &str, own: Option<&Path>| {
        find(name, own)
            .ok()
            .and_then(|p| std::fs::canonicalize(p).ok())
            .is_some_and(|p| p == t)
    };
    names.into_iter().find_map(|n| {
        let name = n.to_str()?.to_string();
        let ok = if out_dirs.is_empty() {
            finds(&name, None)
        } else {
            out_dirs.iter().all(|o| finds(&name, Some(o)))
        };
        ok.then_some(name)
    })
}
