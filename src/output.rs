//! Every file domsim reads or writes goes through this module, so every verb
//! behaves like a Unix tool in the same way.
//!
//! **Writing** ([`Output`]): create it up front with [`Output::create`] (a bad
//! destination fails before any game is played), then [`Output::commit`] the
//! bytes once everything is computed.
//!
//! | destination | what happens |
//! |---|---|
//! | `-` | standard output |
//! | a regular file, or a path that does not exist yet | written atomically: a temporary file `.NAME.domsim-tmp.PID` in the same directory, flushed and synced, renamed over the destination only when complete; the destination's permissions are kept |
//! | a symbolic link (to a file or dangling) | the link is followed and its **target** is replaced atomically; the link stays a link |
//! | a FIFO, a character or block device, a socket, or anything under `/dev/` or `/proc/` (`/dev/stdout`, `/dev/null`, `/dev/full`) | written through directly, never replaced |
//! | a directory | refused |
//!
//! A write error (`ENOSPC` on `/dev/full`, a full disk, an unwritable
//! directory) is an error: exit status 2, and a regular destination is left
//! untouched. A temporary file is removed when its output is dropped
//! uncommitted, when the process is interrupted (see
//! [`remove_pending_files_and_exit`]) and — for one left behind by a process
//! that was killed with `kill -9` — by the next run that writes the same
//! destination (its process id is no longer alive).
//!
//! **Standard output** of the verbs (tables, logs): [`stdout_write`] and
//! [`stdout_flush`]. A write error is an error (exit status 2); a *closed
//! pipe* (`domsim log | head`) is not: the process exits quietly with status
//! 0, as `head` users expect from Unix tools.
//!
//! **Reading** ([`read_input`]): every file input is read through a hard size
//! cap, whatever size the file reports (`/dev/zero` is refused after the cap,
//! not read forever).
//!
//! **Inputs are never outputs** ([`check_distinct`]): before anything runs,
//! each verb compares every output path with every input and every other
//! output (symbolic links resolved; by device and inode where the file
//! exists) and refuses a clash with exit status 2.

use anyhow::{anyhow, bail, Context, Result};
use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::os::unix::fs::{FileTypeExt, MetadataExt};
use std::path::{Path, PathBuf};

/// Largest file any verb reads (strategy files, scenarios, statistics,
/// checkpoints, card and New Salem data): 64 MiB.
pub const MAX_INPUT_BYTES: u64 = 64 << 20;

/// Temporary files of uncommitted [`Output`]s, so that a forced exit
/// (second Ctrl-C) can still remove them.
static PENDING: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());

/// Remove the temporary files of every uncommitted [`Output`] and exit
/// with `code`. The registry lock is held until the process ends, so no
/// temporary file can be created or renamed in between.
pub fn remove_pending_files_and_exit(code: i32) -> ! {
    let guard = PENDING.lock();
    if let Ok(v) = &guard {
        for p in v.iter() {
            let _ = std::fs::remove_file(p);
        }
    }
    std::process::exit(code)
}

/// The marker in every temporary file name: `.NAME.domsim-tmp.PID`.
const TMP_MARK: &str = ".domsim-tmp.";

enum Target {
    Stdout,
    /// Written through directly (FIFO, device, /dev/stdout): opened at commit.
    Direct(PathBuf),
    /// Written atomically: the resolved destination and its open temporary file.
    Atomic {
        dest: PathBuf,
        tmp: PathBuf,
        file: Option<File>,
    },
}

/// One output of a verb. See the module documentation.
pub struct Output {
    shown: PathBuf,
    target: Target,
}

/// Follow a chain of symbolic links to the path a write should replace
/// (the final target, which may not exist yet). Fails on a loop.
fn resolve_links(path: &Path) -> Result<PathBuf> {
    let mut p = path.to_path_buf();
    for _ in 0..40 {
        match std::fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => {
                let t = std::fs::read_link(&p)
                    .with_context(|| format!("cannot read the link '{}'", p.display()))?;
                p = if t.is_absolute() {
                    t
                } else {
                    p.parent().unwrap_or(Path::new(".")).join(t)
                };
            }
            _ => return Ok(p),
        }
    }
    bail!("'{}': too many levels of symbolic links", path.display())
}

fn is_special_prefix(p: &Path) -> bool {
    p.starts_with("/dev/") || p.starts_with("/proc/")
}

fn pid_alive(pid: u32) -> bool {
    Path::new(&format!("/proc/{pid}")).exists()
}

/// Remove `.NAME.domsim-tmp.PID` files beside `dest` whose process is gone
/// (left by a run killed with `kill -9`).
fn clean_stale(dir: &Path, name: &str) {
    let prefix = format!(".{name}{TMP_MARK}");
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let f = e.file_name();
        let Some(f) = f.to_str() else { continue };
        let Some(pid) = f.strip_prefix(&prefix) else {
            continue;
        };
        if let Ok(pid) = pid.parse::<u32>() {
            if pid != std::process::id() && !pid_alive(pid) {
                let _ = std::fs::remove_file(e.path());
            }
        }
    }
}

impl Output {
    /// Check the destination and prepare the write now, so that an unusable
    /// destination is reported before any work is done.
    pub fn create(path: &Path) -> Result<Output> {
        let shown = path.to_path_buf();
        if path.as_os_str().is_empty() {
            bail!("output path is empty");
        }
        if path.as_os_str() == "-" {
            return Ok(Output {
                shown,
                target: Target::Stdout,
            });
        }
        let dest = resolve_links(path)?;
        if is_special_prefix(path) || is_special_prefix(&dest) {
            return Ok(Output {
                shown,
                target: Target::Direct(path.to_path_buf()),
            });
        }
        match std::fs::metadata(&dest) {
            Ok(m) if m.is_dir() => bail!(
                "output path '{}' is a directory; give a file name",
                path.display()
            ),
            Ok(m) if !m.is_file() => {
                let ft = m.file_type();
                if ft.is_fifo() || ft.is_char_device() || ft.is_block_device() || ft.is_socket() {
                    return Ok(Output {
                        shown,
                        target: Target::Direct(dest),
                    });
                }
                bail!("cannot write '{}': not a regular file", path.display())
            }
            _ => {}
        }
        let name = dest
            .file_name()
            .ok_or_else(|| anyhow!("output path '{}' has no file name", path.display()))?
            .to_string_lossy()
            .into_owned();
        let dir = match dest.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        if !dir.is_dir() {
            bail!(
                "cannot write '{}': directory '{}' does not exist",
                path.display(),
                dir.display()
            );
        }
        clean_stale(&dir, &name);
        let tmp = dir.join(format!(".{name}{TMP_MARK}{}", std::process::id()));
        // Created and registered under the registry lock (see
        // `remove_pending_files_and_exit`).
        let mut reg = PENDING.lock().unwrap_or_else(|e| e.into_inner());
        let file =
            File::create(&tmp).with_context(|| format!("cannot write '{}'", path.display()))?;
        if let Ok(m) = std::fs::metadata(&dest) {
            let _ = std::fs::set_permissions(&tmp, m.permissions());
        }
        reg.push(tmp.clone());
        drop(reg);
        Ok(Output {
            shown,
            target: Target::Atomic {
                dest,
                tmp,
                file: Some(file),
            },
        })
    }

    /// The path as the user gave it (for messages).
    pub fn dest(&self) -> &Path {
        &self.shown
    }

    /// True when the output is standard output (callers then print nothing
    /// else there, e.g. no "wrote FILE" line on stdout).
    pub fn is_stdout(&self) -> bool {
        matches!(self.target, Target::Stdout)
    }

    /// Write `bytes` and finish: see the module documentation.
    pub fn commit(self, bytes: &[u8]) -> Result<()> {
        self.commit_with(|w| w.write_all(bytes))
    }

    /// Write through `f` and finish (for writers that stream, e.g. CSV).
    pub fn commit_with(
        mut self,
        f: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
    ) -> Result<()> {
        let shown = self.shown.clone();
        let err = |e: std::io::Error| anyhow!("cannot write '{}': {e}", shown.display());
        match &mut self.target {
            Target::Stdout => {
                let out = std::io::stdout();
                let mut lock = out.lock();
                let r = f(&mut lock).and_then(|_| lock.flush());
                match r {
                    Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
                        remove_pending_files_and_exit(0)
                    }
                    r => r.map_err(err),
                }
            }
            Target::Direct(p) => {
                let file = OpenOptions::new().write(true).open(&*p).map_err(err)?;
                let mut w = std::io::BufWriter::new(file);
                f(&mut w).and_then(|_| w.flush()).map_err(err)
            }
            Target::Atomic { dest, tmp, file } => {
                let file = file.take().expect("an uncommitted output is open");
                let mut w = std::io::BufWriter::new(file);
                f(&mut w).and_then(|_| w.flush()).map_err(err)?;
                let file = w.into_inner().map_err(|e| err(e.into_error()))?;
                file.sync_all().map_err(err)?;
                drop(file);
                let mut reg = PENDING.lock().unwrap_or_else(|e| e.into_inner());
                std::fs::rename(&*tmp, &*dest).map_err(err)?;
                reg.retain(|x| x != tmp);
                drop(reg);
                *tmp = PathBuf::new();
                Ok(())
            }
        }
    }

    /// "wrote FILE" on standard error, unless the output was standard output.
    pub fn announce(&self) {
        if !self.is_stdout() {
            eprintln!("wrote {}", self.shown.display());
        }
    }
}

impl Drop for Output {
    fn drop(&mut self) {
        if let Target::Atomic { tmp, file, .. } = &mut self.target {
            if !tmp.as_os_str().is_empty() {
                file.take();
                let mut reg = PENDING.lock().unwrap_or_else(|e| e.into_inner());
                let _ = std::fs::remove_file(&*tmp);
                reg.retain(|x| x != tmp);
            }
        }
    }
}

/// Write `bytes` to `path` (see [`Output`]) in one step.
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<()> {
    Output::create(path)?.commit(bytes)
}

/// `print!` for the verbs: writes through [`stdout_write`] and returns the
/// error (`?`) instead of panicking when standard output fails.
#[macro_export]
macro_rules! out {
    ($($t:tt)*) => {
        $crate::output::stdout_write(format!($($t)*).as_bytes())?
    };
}

/// `println!` for the verbs (see [`out!`]).
#[macro_export]
macro_rules! outln {
    () => {
        $crate::output::stdout_write(b"\n")?
    };
    ($($t:tt)*) => {
        $crate::output::stdout_write(format!("{}\n", format_args!($($t)*)).as_bytes())?
    };
}

/// Write to standard output. A closed pipe ends the process quietly with
/// status 0 (`domsim log | head`); any other error is returned.
pub fn stdout_write(bytes: &[u8]) -> Result<()> {
    let out = std::io::stdout();
    let mut lock = out.lock();
    match lock.write_all(bytes).and_then(|_| lock.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => remove_pending_files_and_exit(0),
        r => r.map_err(|e| anyhow!("cannot write to standard output: {e}")),
    }
}

/// Flush standard output, with the same rules as [`stdout_write`]. Called
/// once before a verb returns, so that a failed write of buffered `print!`
/// output (e.g. to `/dev/full`) is an error, not a panic or a silent loss.
pub fn stdout_flush() -> Result<()> {
    stdout_write(&[])
}

/// Read a whole input file as text, through a hard cap of
/// [`MAX_INPUT_BYTES`] whatever size the file reports. `what` names the
/// kind of input in messages ("strategy file", "statistics file"…).
pub fn read_input(path: &Path, what: &str) -> Result<String> {
    let bytes = read_input_bytes(path, what)?;
    String::from_utf8(bytes).map_err(|e| {
        anyhow!(
            "{what} '{}' is not UTF-8 text (invalid byte at offset {})",
            path.display(),
            e.utf8_error().valid_up_to()
        )
    })
}

/// [`read_input`] without the UTF-8 check.
pub fn read_input_bytes(path: &Path, what: &str) -> Result<Vec<u8>> {
    read_capped(path, MAX_INPUT_BYTES).map_err(|e| {
        if e.kind() == std::io::ErrorKind::FileTooLarge {
            anyhow!(
                "{what} '{}' is larger than {} MiB; refusing to read it",
                path.display(),
                MAX_INPUT_BYTES >> 20
            )
        } else {
            anyhow!("cannot read {what} '{}': {e}", path.display())
        }
    })
}

/// Read at most `cap` bytes of `path`: a longer input (or an endless one,
/// like `/dev/zero`, whatever size it reports) is an error of kind
/// `FileTooLarge`; a directory is an error of kind `IsADirectory`.
pub fn read_capped(path: &Path, cap: u64) -> std::io::Result<Vec<u8>> {
    let f = File::open(path)?;
    if f.metadata()?.is_dir() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::IsADirectory,
            "is a directory",
        ));
    }
    let mut buf = Vec::new();
    f.take(cap + 1).read_to_end(&mut buf)?;
    if buf.len() as u64 > cap {
        return Err(std::io::Error::new(
            std::io::ErrorKind::FileTooLarge,
            format!("larger than {cap} bytes"),
        ));
    }
    Ok(buf)
}

/// Identity of a path for clash detection: device and inode when the file
/// exists, else its absolute, link-resolved path.
#[derive(PartialEq, Eq, Debug)]
enum Ident {
    Inode(u64, u64),
    Path(PathBuf),
}

fn ident(p: &Path) -> Option<Ident> {
    if p.as_os_str() == "-" {
        return None;
    }
    if is_special_prefix(p) {
        // Devices and /proc entries may be written by several outputs
        // (`/dev/null` twice is fine).
        return None;
    }
    if let Ok(m) = std::fs::metadata(p) {
        if !m.is_file() {
            return None;
        }
        return Some(Ident::Inode(m.dev(), m.ino()));
    }
    let r = resolve_links(p).ok()?;
    let abs = if r.is_absolute() {
        r
    } else {
        std::env::current_dir().ok()?.join(r)
    };
    // Normalise the existing parent (the file itself does not exist).
    let parent = abs.parent().and_then(|d| std::fs::canonicalize(d).ok());
    Some(Ident::Path(match (parent, abs.file_name()) {
        (Some(d), Some(n)) => d.join(n),
        _ => abs,
    }))
}

/// Refuse an output that is also an input or another output (after
/// resolving symbolic links, by device and inode where the file exists).
/// `inputs` and `outputs` pair a path with the option that named it, for
/// the message. Devices never clash (`/dev/null` twice is fine); standard
/// output (`-`) takes one output at most, since two would interleave.
pub fn check_distinct(inputs: &[(&str, &Path)], outputs: &[(&str, &Path)]) -> Result<()> {
    let ins: Vec<_> = inputs.iter().map(|(o, p)| (o, p, ident(p))).collect();
    let outs: Vec<_> = outputs.iter().map(|(o, p)| (o, p, ident(p))).collect();
    let stdout: Vec<&str> = outputs
        .iter()
        .filter(|(_, p)| p.as_os_str() == "-")
        .map(|(o, _)| *o)
        .collect();
    if let [first, second, ..] = stdout[..] {
        bail!("{first} and {second} both write to standard output ('-'): give one of them a file");
    }
    for (i, (oo, op, oid)) in outs.iter().enumerate() {
        let Some(oid) = oid else { continue };
        for (io, ip, iid) in &ins {
            if iid.as_ref() == Some(oid) {
                bail!(
                    "{oo} '{}' is the same file as the input {io} '{}': refusing to overwrite an input",
                    op.display(),
                    ip.display()
                );
            }
        }
        for (po, pp, pid) in &outs[..i] {
            if pid.as_ref() == Some(oid) {
                bail!(
                    "{po} '{}' and {oo} '{}' are the same file: give each output its own path",
                    pp.display(),
                    op.display()
                );
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regular_file_is_replaced_atomically_and_temp_removed() {
        let d = tempfile::tempdir().unwrap();
        let dest = d.path().join("a.csv");
        std::fs::write(&dest, "old").unwrap();
        let o = Output::create(&dest).unwrap();
        // The old content is intact until commit.
        assert_eq!(std::fs::read_to_string(&dest).unwrap(), "old");
        o.commit(b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&dest).unwrap(), "new");
        assert_eq!(std::fs::read_dir(d.path()).unwrap().count(), 1);
        // Dropped uncommitted: nothing left behind, destination untouched.
        drop(Output::create(&dest).unwrap());
        assert_eq!(std::fs::read_to_string(&dest).unwrap(), "new");
        assert_eq!(std::fs::read_dir(d.path()).unwrap().count(), 1);
    }

    #[test]
    fn symlink_target_is_replaced_and_link_kept() {
        let d = tempfile::tempdir().unwrap();
        let target = d.path().join("real.csv");
        std::fs::write(&target, "old").unwrap();
        let link = d.path().join("link.csv");
        std::os::unix::fs::symlink("real.csv", &link).unwrap();
        write_file(&link, b"new").unwrap();
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "new");
        // A dangling link creates its target.
        let dangling = d.path().join("d.csv");
        std::os::unix::fs::symlink("made.csv", &dangling).unwrap();
        write_file(&dangling, b"x").unwrap();
        assert_eq!(
            std::fs::read_to_string(d.path().join("made.csv")).unwrap(),
            "x"
        );
    }

    #[test]
    fn dev_full_is_an_error_and_dev_null_works() {
        if Path::new("/dev/full").exists() {
            let e = write_file(Path::new("/dev/full"), b"x").unwrap_err();
            assert!(format!("{e:#}").contains("/dev/full"), "{e:#}");
            // Still a device.
            let m = std::fs::metadata("/dev/full").unwrap();
            assert!(m.file_type().is_char_device());
        }
        write_file(Path::new("/dev/null"), b"x").unwrap();
        assert!(std::fs::metadata("/dev/null")
            .unwrap()
            .file_type()
            .is_char_device());
    }

    #[test]
    fn stale_temp_of_a_dead_process_is_cleaned() {
        let d = tempfile::tempdir().unwrap();
        let dest = d.path().join("out.csv");
        // PID 4194304 is above the kernel's maximum: never alive.
        let stale = d.path().join(format!(".out.csv{TMP_MARK}4194304"));
        std::fs::write(&stale, "").unwrap();
        let other = d.path().join(format!(".other.csv{TMP_MARK}4194304"));
        std::fs::write(&other, "").unwrap();
        write_file(&dest, b"ok").unwrap();
        assert!(!stale.exists());
        assert!(other.exists(), "only this destination's leftovers go");
    }

    #[test]
    fn bounded_read_refuses_endless_input() {
        if Path::new("/dev/zero").exists() {
            let e = read_input(Path::new("/dev/zero"), "strategy file").unwrap_err();
            assert!(format!("{e}").contains("larger than"), "{e}");
        }
        let d = tempfile::tempdir().unwrap();
        let e = read_input(d.path(), "strategy file").unwrap_err();
        assert!(format!("{e}").contains("directory"), "{e}");
    }

    #[test]
    fn clashes_are_found_through_links() {
        let d = tempfile::tempdir().unwrap();
        let a = d.path().join("a.dom");
        std::fs::write(&a, "x").unwrap();
        let link = d.path().join("l.dom");
        std::os::unix::fs::symlink(&a, &link).unwrap();
        let e = check_distinct(&[("strategy", &a)], &[("-o", &link)]).unwrap_err();
        assert!(format!("{e}").contains("same file as the input"), "{e}");
        let n = d.path().join("new.csv");
        let rel = d.path().join(".").join("new.csv");
        let e = check_distinct(&[], &[("-o", &n), ("--report", &rel)]).unwrap_err();
        assert!(format!("{e}").contains("are the same file"), "{e}");
        check_distinct(&[("strategy", &a)], &[("-o", &n), ("--x", Path::new("-"))]).unwrap();
        let e = check_distinct(&[], &[("-o", Path::new("-")), ("--report", Path::new("-"))])
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "-o and --report both write to standard output ('-'): give one of them a file"
        );
        check_distinct(
            &[],
            &[
                ("-o", Path::new("/dev/null")),
                ("--r", Path::new("/dev/null")),
            ],
        )
        .unwrap();
    }
}
