//! Every file domsim reads or writes goes through this module, so every verb
//! behaves like a Unix tool in the same way.
//!
//! **Writing** ([`Output`]): create it up front with [`Output::create`] (a bad
//! destination fails before any game is played), then [`Output::commit`] the
//! bytes once everything is computed.
//!
//! | destination | what happens |
//! |---|---|
//! | `-`, or this process's standard output by another name (`/dev/stdout`, `/dev/fd/1`, `/proc/self/fd/1`, the same pipe) | standard output, written through file descriptor 1 (so `>> FILE` appends) |
//! | a regular file, or a path that does not exist yet | written atomically: a temporary file `.NAME.domsim-tmp.PID` in the same directory, flushed and synced, renamed over the destination only when complete; the destination's permissions are kept, and a destination this process may not write (read-only) is refused, as `> FILE` refuses it |
//! | a symbolic link (to a file or dangling) | the link is followed and its **target** is replaced atomically; the link stays a link |
//! | a FIFO, a character or block device, a socket, anything under `/proc/`, or a device or link under `/dev/` (`/dev/null`, `/dev/full`, `/dev/fd/3`) | written through directly, never replaced (a regular file under `/dev/`, such as `/dev/shm/r.csv`, is a file like any other) |
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
//! **Several outputs of one run** ([`Commit`]): all or nothing, as far as
//! the file system allows. Every regular file is first written in full to
//! its temporary file (flushed and synced); then the outputs that cannot be
//! staged (standard output, FIFOs, devices) are written; only when all of
//! that succeeded are the temporary files renamed over their destinations.
//! A failure anywhere before the renames (`--report /dev/full`, a full disk)
//! leaves every existing file as it was. "wrote FILE" lines come after the
//! renames.
//!
//! **The console** (tables, notes, logs: [`out!`], [`outln!`],
//! [`console_write`]) goes to standard output, unless an output of the run
//! is standard output (`-o -`, `/dev/stdout`): then it goes to standard
//! error, so that standard output carries exactly the bytes `-o FILE`
//! would write. A write error is an error (exit status 2). A *closed pipe*
//! (`domsim log | head`) is not: when no output of the run is still to be
//! written, the process exits quietly with status 0, as `head` users expect
//! from Unix tools; otherwise the rest of the console text is dropped and
//! the run goes on, so that the files asked for are still written
//! (`domsim sim -o r.csv | head -3`). The same holds for an output that is
//! standard output (`-o - --report r.html | head -1`). A *closed* standard
//! output (`>&-`, which Rust's standard library would let swallow every
//! byte) is an error for an output `-` (refused when it is created, before
//! any game: exit status 2, "standard output is closed") and for console
//! text that is the result itself; when files of the run are still to be
//! written, the console text is dropped and the files are written.
//!
//! **Reading** ([`read_input`], [`read_capped`]): every file input is a
//! regular file (a FIFO, device or socket is refused before it is opened:
//! opening a FIFO for reading blocks until a writer comes, forever in a
//! server thread), and is read through a hard size cap, whatever size the
//! file reports.
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
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

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

/// An output of this run writes to standard output: the console goes to
/// standard error (see the module documentation).
static STDOUT_CLAIMED: AtomicBool = AtomicBool::new(false);

/// The console's reader is gone (closed pipe): further console text is dropped.
static CONSOLE_GONE: AtomicBool = AtomicBool::new(false);

/// Outputs created and not yet committed or dropped: while there are any,
/// a closed standard output does not end the process.
static OPEN_OUTPUTS: AtomicUsize = AtomicUsize::new(0);

/// The marker in every temporary file name: `.NAME.domsim-tmp.PID`.
const TMP_MARK: &str = ".domsim-tmp.";

enum Target {
    Stdout,
    /// Written through directly (FIFO, device, /dev/stdout): opened at commit.
    Direct(PathBuf),
    /// Written atomically: the resolved destination and its temporary file
    /// (open until the bytes are staged in it, `None` after).
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
    /// Bytes waiting in memory for a destination that cannot be staged
    /// (standard output, FIFO, device) until [`Commit::commit`].
    held: Option<Vec<u8>>,
}

/// The message of a write to a closed standard output.
const STDOUT_CLOSED: &str = "standard output is closed";

/// True when standard output was closed when domsim started
/// (`domsim … >&-`). Rust's runtime then opens `/dev/null` on file
/// descriptor 1 before `main` (so that no file opened later becomes
/// standard output), and every write to standard output "succeeds": a
/// result written to `-` would be lost with exit status 0. Outputs and
/// the console ask this first. The descriptor is looked at before that
/// runtime set-up (see [`STDOUT_AT_START`]); on other systems, and
/// without `/proc`, standard output is taken as open.
pub fn stdout_is_closed() -> bool {
    #[cfg(target_os = "linux")]
    {
        // Referenced here so that the check is linked into every binary.
        let _ = std::hint::black_box(&STDOUT_AT_START);
        STDOUT_CLOSED_AT_START.load(Ordering::SeqCst)
    }
    #[cfg(not(target_os = "linux"))]
    {
        false
    }
}

/// Whether file descriptor 1 was closed at start: set by
/// [`STDOUT_AT_START`].
#[cfg(target_os = "linux")]
static STDOUT_CLOSED_AT_START: AtomicBool = AtomicBool::new(false);

/// A function the C runtime calls before `main` (the ELF `.init_array`,
/// as constructors of C libraries are), hence before Rust's runtime puts
/// `/dev/null` on a closed standard descriptor: afterwards a closed
/// standard output cannot be told from `1<>/dev/null`, which scripts use
/// to discard output (Python's `subprocess.DEVNULL`). It only asks
/// whether `/proc/self/fd/1` exists.
#[cfg(target_os = "linux")]
#[used]
#[link_section = ".init_array"]
static STDOUT_AT_START: extern "C" fn() = {
    extern "C" fn check_stdout_at_start() {
        let proc_ok = std::fs::symlink_metadata("/proc/self/fd").is_ok();
        let closed = proc_ok && std::fs::symlink_metadata("/proc/self/fd/1").is_err();
        STDOUT_CLOSED_AT_START.store(closed, Ordering::SeqCst);
    }
    check_stdout_at_start
};

fn write_error(shown: &Path, e: std::io::Error) -> anyhow::Error {
    anyhow!("cannot write '{}': {e}", shown.display())
}

/// True when `path` (written through directly) is this process's standard
/// output: `/dev/stdout` and its aliases, or the same pipe or socket.
fn is_own_stdout(path: &Path) -> bool {
    if ["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"]
        .iter()
        .any(|s| path == Path::new(s))
    {
        return true;
    }
    match (std::fs::metadata(path), std::fs::metadata("/dev/stdout")) {
        (Ok(a), Ok(b)) => {
            let ft = a.file_type();
            (ft.is_fifo() || ft.is_socket()) && a.dev() == b.dev() && a.ino() == b.ino()
        }
        _ => false,
    }
}

/// True when `path` names this process's standard error (`/dev/stderr`
/// and its aliases): written through descriptor 2, as standard output is
/// through 1, so that `2>> log` appends and the notes that follow on
/// standard error do not overwrite it.
fn is_own_stderr(path: &Path) -> bool {
    ["/dev/stderr", "/dev/fd/2", "/proc/self/fd/2"]
        .iter()
        .any(|s| path == Path::new(s))
}

/// Follow a chain of symbolic links to the path a write should replace
/// (the final target, which may not exist yet). Fails on a loop. Stops at
/// `/dev/` and `/proc/`: their links (`/dev/stdout`, `/proc/self/fd/1`)
/// name open descriptors, whose files must not be replaced.
/// Where the bytes written to `path` land: `path` with its links followed
/// (so a file written there that names other files by relative paths
/// names them from this folder, not the link's).
pub fn written_path(path: &Path) -> PathBuf {
    resolve_links(path).unwrap_or_else(|_| path.to_path_buf())
}

fn resolve_links(path: &Path) -> Result<PathBuf> {
    let mut p = path.to_path_buf();
    for _ in 0..40 {
        match std::fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() && !is_special_prefix(&p) => {
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

/// A path that names an open descriptor or a device rather than a file:
/// anything under `/proc/`, and under `/dev/` a link (`/dev/stderr`,
/// `/dev/fd/3`) or a device. A regular file under `/dev/` (`/dev/shm/r.csv`,
/// a tmpfs), or a new one, is written like any other file.
fn is_descriptor_or_device(p: &Path) -> bool {
    p.starts_with("/proc/")
        || (p.starts_with("/dev/")
            && std::fs::symlink_metadata(p).is_ok_and(|m| !m.is_file() && !m.is_dir()))
}

fn pid_alive(pid: u32) -> bool {
    Path::new(&format!("/proc/{pid}")).exists()
}

/// The NAME of `.NAME.domsim-tmp.PID` for a destination named `name`:
/// `name` itself, or, when that would make the temporary file's name
/// longer than a file name may be (255 bytes), its start and a digest of
/// the whole (a destination name of 240 bytes is valid; its temporary
/// file must be too).
fn tmp_stem(name: &str) -> String {
    // ".", the mark and a process id (at most 10 digits).
    const ROOM: usize = 255 - 1 - TMP_MARK.len() - 10;
    if name.len() <= ROOM {
        return name.to_string();
    }
    let mut keep = ROOM - 17;
    while !name.is_char_boundary(keep) {
        keep -= 1;
    }
    let digest = crate::digest::Digest::default()
        .update(name.as_bytes())
        .value();
    format!("{}~{digest:016x}", &name[..keep])
}

/// Remove `.NAME.domsim-tmp.PID` files beside `dest` whose process is gone
/// (left by a run killed with `kill -9`).
fn clean_stale(dir: &Path, name: &str) {
    let prefix = format!(".{}{TMP_MARK}", tmp_stem(name));
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

/// Why the temporary file beside `path` (in `dir`) could not be created:
/// for a folder that refuses new files, say that the folder is the cause
/// (the file itself may well be writable) and why domsim needs it.
fn folder_error(path: &Path, dir: &Path, e: std::io::Error) -> anyhow::Error {
    use std::io::ErrorKind::{PermissionDenied, ReadOnlyFilesystem};
    if matches!(e.kind(), PermissionDenied | ReadOnlyFilesystem) {
        anyhow!(
            "cannot write '{}': folder '{}' does not let new files be made in it ({e}); domsim writes a temporary file there and renames it over the result, so that a run that fails or is interrupted never leaves half a file",
            path.display(),
            dir.display()
        )
    } else {
        anyhow!("cannot write '{}': {e}", path.display())
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
            if stdout_is_closed() {
                bail!("cannot write '-': {STDOUT_CLOSED}");
            }
            return Ok(Output::new(shown, Target::Stdout));
        }
        let dest = resolve_links(path)?;
        if is_own_stdout(path) || is_own_stdout(&dest) {
            if stdout_is_closed() {
                bail!("cannot write '{}': {STDOUT_CLOSED}", path.display());
            }
            // Written through this process's standard output, as `-` is:
            // opening `/dev/stdout` anew would start at offset 0 of a file
            // that standard output appends to (`>> log`) or has already
            // written to, and overwrite it.
            return Ok(Output::new(shown, Target::Stdout));
        }
        if is_descriptor_or_device(path) || is_descriptor_or_device(&dest) {
            return Ok(Output::new(shown, Target::Direct(path.to_path_buf())));
        }
        match std::fs::metadata(&dest) {
            Ok(m) if m.is_dir() => bail!(
                "output path '{}' is a directory; give a file name",
                path.display()
            ),
            Ok(m) if !m.is_file() => {
                let ft = m.file_type();
                if ft.is_fifo() || ft.is_char_device() || ft.is_block_device() || ft.is_socket() {
                    return Ok(Output::new(shown, Target::Direct(dest)));
                }
                bail!("cannot write '{}': not a regular file", path.display())
            }
            Ok(_) => {
                // The rename below needs only the folder's permission, and
                // would replace a file made read-only to keep it: refuse
                // what `> FILE` refuses. (Opened without truncating:
                // nothing is changed.)
                OpenOptions::new()
                    .write(true)
                    .open(&dest)
                    .map_err(|e| write_error(path, e))?;
            }
            Err(_) => {}
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
        let tmp = dir.join(format!(
            ".{}{TMP_MARK}{}",
            tmp_stem(&name),
            std::process::id()
        ));
        // Created and registered under the registry lock (see
        // `remove_pending_files_and_exit`).
        let mut reg = PENDING.lock().unwrap_or_else(|e| e.into_inner());
        let file = File::create(&tmp).map_err(|e| folder_error(path, &dir, e))?;
        if let Ok(m) = std::fs::metadata(&dest) {
            let _ = std::fs::set_permissions(&tmp, m.permissions());
        }
        reg.push(tmp.clone());
        drop(reg);
        Ok(Output::new(
            shown,
            Target::Atomic {
                dest,
                tmp,
                file: Some(file),
            },
        ))
    }

    fn new(shown: PathBuf, target: Target) -> Output {
        let stdout = match &target {
            Target::Stdout => true,
            Target::Direct(p) => is_own_stdout(&shown) || is_own_stdout(p),
            Target::Atomic { .. } => false,
        };
        if stdout {
            STDOUT_CLAIMED.store(true, Ordering::SeqCst);
        }
        OPEN_OUTPUTS.fetch_add(1, Ordering::SeqCst);
        Output {
            shown,
            target,
            held: None,
        }
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
        self.stage(f)?;
        self.write_held()?;
        self.finish()
    }

    fn error(&self, e: std::io::Error) -> anyhow::Error {
        write_error(&self.shown, e)
    }

    /// First step of a commit: a regular file gets every byte in its
    /// temporary file, flushed and synced (the destination is untouched);
    /// the bytes for any other destination are kept in memory.
    fn stage(&mut self, f: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) -> Result<()> {
        let shown = &self.shown;
        match &mut self.target {
            Target::Atomic { file, .. } => {
                let file = file.take().expect("an output is staged once");
                let mut w = std::io::BufWriter::new(file);
                f(&mut w)
                    .and_then(|_| w.flush())
                    .map_err(|e| write_error(shown, e))?;
                let file = w
                    .into_inner()
                    .map_err(|e| write_error(shown, e.into_error()))?;
                file.sync_all().map_err(|e| write_error(shown, e))?;
            }
            Target::Stdout | Target::Direct(_) => {
                let mut v = Vec::new();
                f(&mut v).map_err(|e| write_error(shown, e))?;
                self.held = Some(v);
            }
        }
        Ok(())
    }

    /// Second step: write the bytes held for standard output, a FIFO or a
    /// device. A closed standard output is not an error (see the module
    /// documentation).
    fn write_held(&mut self) -> Result<()> {
        let Some(bytes) = self.held.take() else {
            return Ok(());
        };
        match &self.target {
            Target::Stdout => {
                if stdout_is_closed() {
                    return Err(anyhow!(
                        "cannot write '{}': {STDOUT_CLOSED}",
                        self.shown.display()
                    ));
                }
                let out = std::io::stdout();
                let mut lock = out.lock();
                match lock.write_all(&bytes).and_then(|_| lock.flush()) {
                    Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
                        // This output is one of the open ones: others still
                        // to write mean going on without it.
                        if OPEN_OUTPUTS.load(Ordering::SeqCst) <= 1 {
                            remove_pending_files_and_exit(0)
                        }
                        Ok(())
                    }
                    r => r.map_err(|e| self.error(e)),
                }
            }
            Target::Direct(p) => {
                if is_own_stderr(&self.shown) || is_own_stderr(p) {
                    let mut e = std::io::stderr().lock();
                    return e
                        .write_all(&bytes)
                        .and_then(|_| e.flush())
                        .map_err(|e| self.error(e));
                }
                // Opened anew, a descriptor's file (`/dev/fd/3` of
                // `3>> log`) would be written from offset 0, over what it
                // holds: appended to instead (a device or FIFO ignores it).
                let file = OpenOptions::new()
                    .append(true)
                    .open(p)
                    .map_err(|e| self.error(e))?;
                let mut w = std::io::BufWriter::new(file);
                w.write_all(&bytes)
                    .and_then(|_| w.flush())
                    .map_err(|e| self.error(e))
            }
            Target::Atomic { .. } => Ok(()),
        }
    }

    /// Last step: rename a staged temporary file over its destination.
    fn finish(mut self) -> Result<()> {
        let shown = &self.shown;
        if let Target::Atomic { dest, tmp, .. } = &mut self.target {
            let mut reg = PENDING.lock().unwrap_or_else(|e| e.into_inner());
            std::fs::rename(&*tmp, &*dest).map_err(|e| write_error(shown, e))?;
            reg.retain(|x| x != tmp);
            drop(reg);
            *tmp = PathBuf::new();
        }
        Ok(())
    }

    /// "wrote FILE" on standard error, unless the output was standard output.
    pub fn announce(&self) {
        if !self.is_stdout() {
            note(&format!("wrote {}", self.shown.display()));
        }
    }
}

/// The outputs of one run, committed together: see the module
/// documentation. [`Commit::add`] each output as its bytes are ready, then
/// [`Commit::commit`]; dropped before that (an error, a signal), nothing
/// existing has been replaced.
#[derive(Default)]
pub struct Commit {
    staged: Vec<Output>,
}

impl Commit {
    pub fn new() -> Commit {
        Commit::default()
    }

    /// Stage `bytes` for `out`.
    pub fn add(&mut self, out: Output, bytes: impl AsRef<[u8]>) -> Result<()> {
        self.add_with(out, |w| w.write_all(bytes.as_ref()))
    }

    /// Stage what `f` writes for `out` (streamed into a regular file's
    /// temporary file; kept in memory for any other destination).
    pub fn add_with(
        &mut self,
        mut out: Output,
        f: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
    ) -> Result<()> {
        out.stage(f)?;
        self.staged.push(out);
        Ok(())
    }

    /// Write the outputs that cannot be staged (in the order added), then,
    /// if all succeeded, rename every staged file over its destination and
    /// say "wrote FILE" for each on standard error.
    pub fn commit(mut self) -> Result<()> {
        for o in &mut self.staged {
            o.write_held()?;
        }
        let mut shown = Vec::new();
        for o in std::mem::take(&mut self.staged) {
            if !o.is_stdout() {
                shown.push(o.shown.clone());
            }
            o.finish()?;
        }
        for p in shown {
            note(&format!("wrote {}", p.display()));
        }
        Ok(())
    }
}

impl Drop for Output {
    fn drop(&mut self) {
        OPEN_OUTPUTS.fetch_sub(1, Ordering::SeqCst);
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

/// `print!` for the verbs' console text (see the module documentation):
/// writes through [`console_write`] and returns the error (`?`) instead of
/// panicking when the write fails.
#[macro_export]
macro_rules! out {
    ($($t:tt)*) => {
        $crate::output::console_write(format!($($t)*).as_bytes())?
    };
}

/// `eprintln!` for warnings and notes on standard error, without its
/// panic when standard error is closed or full (`2>&1 | head`,
/// `2>/dev/full`): a message that cannot be shown is dropped and the run
/// goes on to write its files.
#[macro_export]
macro_rules! errln {
    () => {
        $crate::output::note("")
    };
    ($($t:tt)*) => {
        $crate::output::note(&format!($($t)*))
    };
}

/// `println!` for the verbs' console text (see [`out!`]).
#[macro_export]
macro_rules! outln {
    () => {
        $crate::output::console_write(b"\n")?
    };
    ($($t:tt)*) => {
        $crate::output::console_write(format!("{}\n", format_args!($($t)*)).as_bytes())?
    };
}

/// True when the console goes to standard error because an output of the
/// run is standard output (a warning that repeats a console line need not
/// be printed twice there).
pub fn console_is_stderr() -> bool {
    STDOUT_CLAIMED.load(Ordering::SeqCst)
}

/// Write console text: to standard output, or to standard error when an
/// output of the run is standard output. A closed pipe ends the process
/// quietly with status 0 when no output is still to be written, and is
/// otherwise ignored (the rest of the console text is dropped, the run goes
/// on); any other error is returned. A closed standard output (`>&-`) is
/// the same, except that with no output still to be written it is an
/// error: the console text was the result (`domsim presets >&-`).
pub fn console_write(bytes: &[u8]) -> Result<()> {
    if CONSOLE_GONE.load(Ordering::SeqCst) {
        return Ok(());
    }
    if !console_is_stderr() && stdout_is_closed() {
        if OPEN_OUTPUTS.load(Ordering::SeqCst) == 0 {
            bail!("cannot write to standard output: {STDOUT_CLOSED}");
        }
        CONSOLE_GONE.store(true, Ordering::SeqCst);
        return Ok(());
    }
    let (r, name) = if console_is_stderr() {
        let mut lock = std::io::stderr().lock();
        (
            lock.write_all(bytes).and_then(|_| lock.flush()),
            "standard error",
        )
    } else {
        let mut lock = std::io::stdout().lock();
        (
            lock.write_all(bytes).and_then(|_| lock.flush()),
            "standard output",
        )
    };
    match r {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
            if OPEN_OUTPUTS.load(Ordering::SeqCst) == 0 {
                remove_pending_files_and_exit(0)
            }
            CONSOLE_GONE.store(true, Ordering::SeqCst);
            Ok(())
        }
        r => r.map_err(|e| anyhow!("cannot write to {name}: {e}")),
    }
}

/// A warning the console text also carries: repeated on standard error
/// so that it is seen when standard output is redirected, unless the
/// console is standard error already (`-o -`), where it would show twice.
pub fn warn_beside_console(line: &str) {
    if !console_is_stderr() {
        note(line);
    }
}

/// A line on standard error for the user ("wrote FILE", a warning). A
/// failure to write it is ignored: the diagnostics stream is the last place
/// to report anything.
pub fn note(line: &str) {
    let mut e = std::io::stderr().lock();
    let _ = writeln!(e, "{}", shorten(line));
}

/// Refuse a name read from a data file (a card, a building, a character,
/// an event, a set, a category) that holds a control character (ESC, BEL,
/// NUL, a line break…): names are printed, to terminals, CSV comment lines
/// and logs, where such a character would act rather than show. The
/// message shows the name escaped. One rule for every data format.
pub fn check_name(name: &str) -> std::result::Result<(), String> {
    match name.chars().find(|c| c.is_control()) {
        Some(c) => Err(format!(
            "{} holds the control character U+{:04X}: a name is printed (terminal, logs, CSV) and may hold none",
            quoted(name),
            c as u32
        )),
        None => Ok(()),
    }
}

/// `s` in double quotes with every control character escaped (`\u{1b}`,
/// `\n`): how a message quotes a value read from a file.
pub fn quoted(s: &str) -> String {
    format!("{s:?}")
}

/// `msg` with every control character but line breaks and tabs escaped
/// (`\u{1b}`): what every message to the terminal goes through
/// ([`shorten`]), so that a value quoted raw from a file cannot act on the
/// terminal (ESC sequences, BEL, carriage returns over the line).
pub fn escape_controls(msg: &str) -> std::borrow::Cow<'_, str> {
    let bad = |c: char| c.is_control() && c != '\n' && c != '\t';
    if !msg.chars().any(bad) {
        return msg.into();
    }
    let mut out = String::with_capacity(msg.len() + 8);
    for c in msg.chars() {
        if bad(c) {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out.into()
}

/// A message quotes what it is about, and that can be a whole megabyte-long
/// line of a bad file: lines past 2,000 characters keep their first 1,000
/// and last 200, with how many were left out. Control characters but line
/// breaks and tabs are escaped ([`escape_controls`]).
pub fn shorten(msg: &str) -> std::borrow::Cow<'_, str> {
    const KEEP: usize = 1000;
    const TAIL: usize = 200;
    let msg = match escape_controls(msg) {
        std::borrow::Cow::Borrowed(m) => m,
        std::borrow::Cow::Owned(m) => return shorten(&m).into_owned().into(),
    };
    if msg.len() <= 2 * KEEP {
        return msg.into();
    }
    msg.split('\n')
        .map(|l| {
            let n = l.chars().count();
            if n <= 2 * KEEP {
                return l.to_string();
            }
            let head: String = l.chars().take(KEEP).collect();
            let tail: String = l.chars().skip(n - TAIL).collect();
            format!("{head}… ({} characters left out) …{tail}", n - KEEP - TAIL)
        })
        .collect::<Vec<_>>()
        .join("\n")
        .into()
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

/// Open `path` for reading only if it is a regular file (links followed):
/// a directory is an error of kind `IsADirectory`, a FIFO, device or
/// socket one of kind `InvalidInput` ("not a regular file"), both before
/// anything is opened, so that a FIFO never blocks the open. The open itself
/// does not block either (`O_NONBLOCK`: a FIFO put in place between the
/// look and the open is refused by the second look, on the open file).
/// Every file input goes through here ([`read_capped`]).
pub fn open_regular(path: &Path) -> std::io::Result<File> {
    fn kind_of(m: &std::fs::Metadata) -> std::io::Result<()> {
        let t = m.file_type();
        if t.is_file() {
            return Ok(());
        }
        if t.is_dir() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::IsADirectory,
                "is a directory",
            ));
        }
        let what = if t.is_fifo() {
            "a FIFO"
        } else if t.is_char_device() || t.is_block_device() {
            "a device"
        } else if t.is_socket() {
            "a socket"
        } else {
            "not a file"
        };
        Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("not a regular file ({what}): give a file"),
        ))
    }
    kind_of(&std::fs::metadata(path)?)?;
    #[cfg(target_os = "linux")]
    let f = {
        use std::os::unix::fs::OpenOptionsExt;
        /// `O_NONBLOCK` of Linux (every architecture but Alpha, SPARC
        /// and PA-RISC, which Rust's Linux targets do not include).
        const O_NONBLOCK: i32 = 0o4000;
        OpenOptions::new()
            .read(true)
            .custom_flags(O_NONBLOCK)
            .open(path)?
    };
    #[cfg(not(target_os = "linux"))]
    let f = File::open(path)?;
    kind_of(&f.metadata()?)?;
    Ok(f)
}

/// Read at most `cap` bytes of regular file `path` ([`open_regular`]): a
/// longer input (or one that grows while read) is an error of kind
/// `FileTooLarge`; a directory is an error of kind `IsADirectory`, a FIFO,
/// device or socket of kind `InvalidInput`.
pub fn read_capped(path: &Path, cap: u64) -> std::io::Result<Vec<u8>> {
    let f = open_regular(path)?;
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
    if is_descriptor_or_device(p) {
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
/// output (`-`, `/dev/stdout` and its aliases) takes one output at most,
/// since two would interleave.
pub fn check_distinct(inputs: &[(&str, &Path)], outputs: &[(&str, &Path)]) -> Result<()> {
    let ins: Vec<_> = inputs.iter().map(|(o, p)| (o, p, ident(p))).collect();
    let outs: Vec<_> = outputs.iter().map(|(o, p)| (o, p, ident(p))).collect();
    // `-` and its other names (`/dev/stdout`, `/dev/fd/1`…): two of them
    // would write one stream after the other, or over each other in a file.
    let stdout: Vec<&str> = outputs
        .iter()
        .filter(|(_, p)| p.as_os_str() == "-" || is_own_stdout(p))
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

/// `s` as one word of a POSIX shell command: as it is when it holds only
/// characters no shell treats specially, else in single quotes.
pub fn shell_word(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-:,+=@%".contains(c))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

/// A folder shipped with the source tree (`strategies`, `cards`):
/// `NAME/` under the current directory if it is a folder, else the one of
/// the source tree this binary was built from, if it still is one. The one
/// rule for the strategy search path, the workbench's default folder and
/// the unknown-card hint.
pub fn shipped_folder(name: &str) -> Option<std::path::PathBuf> {
    let here = std::path::PathBuf::from(name);
    if here.is_dir() {
        return Some(here);
    }
    let built = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(name);
    built.is_dir().then_some(built)
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
    fn commit_is_all_or_nothing() {
        let d = tempfile::tempdir().unwrap();
        let a = d.path().join("a.csv");
        let b = d.path().join("b.csv");
        std::fs::write(&a, "old").unwrap();
        if Path::new("/dev/full").exists() {
            // A stream that fails after a staged file: nothing replaced.
            let mut c = Commit::new();
            c.add(Output::create(&a).unwrap(), b"new").unwrap();
            c.add(Output::create(&b).unwrap(), b"new").unwrap();
            c.add(Output::create(Path::new("/dev/full")).unwrap(), b"x")
                .unwrap();
            let e = c.commit().unwrap_err();
            assert!(format!("{e:#}").contains("/dev/full"), "{e:#}");
            assert_eq!(std::fs::read_to_string(&a).unwrap(), "old");
            assert!(!b.exists());
            assert_eq!(std::fs::read_dir(d.path()).unwrap().count(), 1);
        }
        // Dropped before commit: nothing replaced either.
        let mut c = Commit::new();
        c.add(Output::create(&a).unwrap(), b"new").unwrap();
        drop(c);
        assert_eq!(std::fs::read_to_string(&a).unwrap(), "old");
        assert_eq!(std::fs::read_dir(d.path()).unwrap().count(), 1);
        // All good: every output written.
        let mut c = Commit::new();
        c.add(Output::create(&a).unwrap(), b"A").unwrap();
        c.add_with(Output::create(&b).unwrap(), |w| w.write_all(b"B"))
            .unwrap();
        c.add(Output::create(Path::new("/dev/null")).unwrap(), b"x")
            .unwrap();
        c.commit().unwrap();
        assert_eq!(std::fs::read_to_string(&a).unwrap(), "A");
        assert_eq!(std::fs::read_to_string(&b).unwrap(), "B");
        assert_eq!(std::fs::read_dir(d.path()).unwrap().count(), 2);
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
    fn long_names_get_a_temporary_file_that_fits_and_is_cleaned() {
        let d = tempfile::tempdir().unwrap();
        let name = format!("{}é.csv", "x".repeat(234));
        let stem = tmp_stem(&name);
        assert!(format!(".{stem}{TMP_MARK}4294967295").len() <= 255);
        assert_ne!(tmp_stem(&format!("{name}2")), stem, "digest of the whole");
        assert_eq!(tmp_stem("a.csv"), "a.csv");
        // A dead process's leftover of a long name is found and removed.
        let stale = d.path().join(format!(".{stem}{TMP_MARK}4194304"));
        std::fs::write(&stale, "").unwrap();
        write_file(&d.path().join(&name), b"ok").unwrap();
        assert!(!stale.exists());
        assert_eq!(std::fs::read_dir(d.path()).unwrap().count(), 1);
    }

    #[test]
    fn bounded_read_refuses_endless_input() {
        if Path::new("/dev/zero").exists() {
            // A device is not read at all (it used to be read up to the cap).
            let e = read_input(Path::new("/dev/zero"), "strategy file").unwrap_err();
            assert!(
                format!("{e}").contains("not a regular file (a device)"),
                "{e}"
            );
        }
        let d = tempfile::tempdir().unwrap();
        let big = d.path().join("big");
        std::fs::write(&big, vec![b'x'; 100]).unwrap();
        let e = read_capped(&big, 99).unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::FileTooLarge);
        assert_eq!(read_capped(&big, 100).unwrap().len(), 100);
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
