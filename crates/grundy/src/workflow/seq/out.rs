//! The file a run writes its values to ([`Request::out`]): its lock, its
//! values checked and resumed from, why it cannot be used; and the values
//! of a scripted rule, written whole.

use std::io;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

#[cfg(feature = "script")]
use super::{Finish, Sequence, words};
use super::{Request, Watcher};
use crate::rules::HeapRule;
use crate::sequence::{
    FileError, FileFormat, GrundyValues, SequenceFile, check_file_path, read_values,
};
use crate::theory::limits::Limit;
use crate::workflow::{Door, Failure};

/// Why the values in `path` cannot be used, said of its line (text) or value
/// number.
pub(super) fn file_failure(
    error: &FileError,
    path: &Path,
    format: FileFormat,
    rule: &str,
    door: Door,
) -> Failure {
    if let FileError::OutOfMemory { .. } = error {
        return Failure::Limit {
            message: format!(
                "error: `{}`: {error}; the system gives less memory than the estimate: lower {} to the memory free, so that such ranges are refused before they start",
                path.display(),
                door.setting(Limit::Memory)
            ),
            raised_by: Some(Limit::Memory),
        };
    }
    if let FileError::Io(error) = error
        && is_write_failure(error)
    {
        return Failure::unwritten(path, error);
    }
    let FileError::WrongValue(wrong) = error else {
        return Failure::input(format!("error: `{}`: {error}", path.display()));
    };
    let heap = wrong.heap;
    let expected = wrong.computed.map_or_else(
        || "too large for 32 bits".to_owned(),
        |value| value.to_string(),
    );
    let stored = wrong.stored;
    Failure::input(match format {
        FileFormat::Text => format!(
            "error: `{}` line {}: {stored} is not the value of heap {heap} of {rule}, which is {expected} (from the lines before it, which are right); cut the file to its first {heap} lines, or remove it, and run again",
            path.display(),
            heap + 1,
        ),
        FileFormat::Binary => format!(
            "error: `{}`: value number {} is {stored}, not the value of heap {heap} of {rule}, which is {expected} (from the values before it, which are right); remove the file and run again",
            path.display(),
            heap + 1,
        ),
    })
}

/// Whether `error` is a failure to write what was asked rather than a wrong
/// file: a full disk or quota, a file too large, an input/output error
/// ([`Failure::Output`], as for the answer itself).
fn is_write_failure(error: &io::Error) -> bool {
    // EIO, EFBIG, ENOSPC and EDQUOT on Linux and the BSDs alike, but for EDQUOT.
    const WRITE_ERRORS: [i32; 4] = [5, 27, 28, 122];
    matches!(
        error.kind(),
        io::ErrorKind::StorageFull | io::ErrorKind::FileTooLarge | io::ErrorKind::QuotaExceeded
    ) || error
        .raw_os_error()
        .is_some_and(|code| WRITE_ERRORS.contains(&code))
}

/// The advisory lock on the file of a run, held for the whole run (`flock`
/// on the file itself), so that two runs writing the same file at once
/// cannot mix their values: the second is refused, naming the rule of the
/// run holding it (from its check file). A file this run created and left
/// empty (the run failed before writing it) is removed.
pub(super) struct OutLock {
    file: std::fs::File,
    path: PathBuf,
    created: bool,
}

impl OutLock {
    /// Takes the lock on `path`, creating the file when it is missing.
    pub(super) fn take(path: &Path, door: Door) -> Result<Self, Failure> {
        let cannot = |error: io::Error| {
            Failure::input(format!(
                "error: `{}`: cannot open it: {error}",
                path.display()
            ))
        };
        // A run that failed may remove a file it created between another
        // run's open and its lock: the lock taken is checked to be on the
        // file the path names.
        for _ in 0..3 {
            let (file, created) = match std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(path)
            {
                Ok(file) => (file, true),
                Err(error) if error.kind() == io::ErrorKind::AlreadyExists => (
                    std::fs::OpenOptions::new()
                        .write(true)
                        .open(path)
                        .map_err(cannot)?,
                    false,
                ),
                Err(error) => return Err(cannot(error)),
            };
            match file.try_lock() {
                Ok(()) => {}
                Err(std::fs::TryLockError::WouldBlock) => return Err(Self::held(path, door)),
                // A file system without locks (some network ones): written
                // unlocked, as before locks.
                Err(std::fs::TryLockError::Error(error))
                    if error.kind() == io::ErrorKind::Unsupported => {}
                Err(std::fs::TryLockError::Error(error)) => {
                    return Err(Failure::input(format!(
                        "error: `{}`: cannot lock it against other runs writing it: {error}",
                        path.display()
                    )));
                }
            }
            if Self::still_named(&file, path) {
                return Ok(Self {
                    file,
                    path: path.to_owned(),
                    created,
                });
            }
        }
        Err(Self::held(path, door))
    }

    /// Whether `file` is still the file at `path` (not removed or replaced
    /// since it was opened).
    fn still_named(file: &std::fs::File, path: &Path) -> bool {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            match (file.metadata(), std::fs::metadata(path)) {
                (Ok(held), Ok(named)) => held.dev() == named.dev() && held.ino() == named.ino(),
                _ => false,
            }
        }
        #[cfg(not(unix))]
        {
            let _ = (file, path);
            true
        }
    }

    /// The failure for a file another run holds: its rule is the one its
    /// check file names, once that run has written it (waited for a moment).
    fn held(path: &Path, door: Door) -> Failure {
        let check = check_file_path(path);
        let started = Instant::now();
        let rule = loop {
            let rule = std::fs::read(&check).ok().and_then(|text| {
                let text = String::from_utf8_lossy(&text).into_owned();
                let mut lines = text.lines();
                (lines.next() == Some("grundy-check 1"))
                    .then(|| lines.next())
                    .flatten()
                    .and_then(|line| line.strip_prefix("rule "))
                    .map(|rule| rule.chars().take(200).collect::<String>())
            });
            if rule.is_some() || started.elapsed() > Duration::from_secs(1) {
                break rule;
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        let whose = rule.map_or_else(
            || "another grundy seq".to_owned(),
            |rule| {
                format!(
                    "another grundy seq, of {rule} (as `{}` says)",
                    check.display()
                )
            },
        );
        Failure::input(format!(
            "error: `{}` is being written by {whose}: it holds the file's lock\nhelp: wait for that run to end (a rerun of the same rule then resumes from its values), or write to another {}",
            path.display(),
            super::words(door).out
        ))
    }
}

impl Drop for OutLock {
    fn drop(&mut self) {
        if self.created && self.file.metadata().is_ok_and(|meta| meta.len() == 0) {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// Opens the file of `request` at `path`, its values checked (see
/// [`SequenceFile::open`]), noting when they are checked by recomputing
/// them, and when they are more than asked.
pub(super) fn open(
    request: &Request,
    path: &Path,
    rule: &HeapRule,
    rule_text: &str,
    door: Door,
    watcher: &mut dyn Watcher,
) -> Result<SequenceFile, Failure> {
    let check = check_file_path(path);
    if std::fs::metadata(path).is_ok_and(|file| file.len() > 0) && !check.exists() {
        watcher.note(&format!(
            "`{}` has no check file (`{}`): each of its values is checked by recomputing it, as long as computing it",
            path.display(),
            check.display()
        ));
    }
    let file = SequenceFile::open(
        rule,
        request.method,
        request.kernel,
        path,
        request.format,
        &mut |report| watcher.progress(report),
    )
    .map_err(|error| file_failure(&error, path, request.format, rule_text, door))?;
    note_more_values(watcher, path, file.values().len(), request.last_heap);
    Ok(file)
}

/// Notes that the file at `path` holds `held` values, when that is more than
/// the heaps `0..=last_heap` asked.
pub(super) fn note_more_values(
    watcher: &mut dyn Watcher,
    path: &Path,
    held: usize,
    last_heap: usize,
) {
    let asked = last_heap.saturating_add(1);
    if held > asked {
        watcher.note(&format!(
            "`{}` already holds {held} values (heaps 0..={}), more than the {asked} asked; all were checked and are kept",
            path.display(),
            held - 1,
        ));
    }
}

/// The values in the file at `path`, if there is one (none when it is
/// missing or empty).
pub(super) fn read(
    path: &Path,
    format: FileFormat,
    rule: &str,
    door: Door,
) -> Result<GrundyValues, Failure> {
    match std::fs::File::open(path) {
        Ok(mut file) if file.metadata().is_ok_and(|meta| meta.len() > 0) => {
            read_values(&mut file, format)
                .map_err(|error| file_failure(&error, path, format, rule, door))
        }
        Ok(_) => Ok(GrundyValues::new()),
        Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(GrundyValues::new()),
        Err(error) => Err(Failure::input(format!(
            "error: `{}`: {error}",
            path.display()
        ))),
    }
}

/// The values of `0..=N` of a scripted rule, by mex over the script's moves
/// ([`crate::games::script::Script::sequence`]), one by one. No theorem
/// covers a script, so a period found is unproven; a run until proven is
/// refused, and a file is written whole, without a check file (nor resuming).
#[cfg(feature = "script")]
pub(super) fn script_sequence(
    request: &Request,
    script: &crate::games::script::Script,
    rule: String,
    door: Door,
    watcher: &mut dyn Watcher,
) -> Result<Sequence, Failure> {
    use crate::sequence::{find_unproven_periodicity, write_values};
    use crate::theory::limits::SearchError;

    let words = words(door);
    if request.until_proven {
        return Err(Failure::input(format!(
            "error: {} needs a theorem to prove a period, and none covers a script: drop it to see the period of the values of {rule} up to {}",
            words.until_proven, words.n
        )));
    }
    let dropped = |rule| Sequence {
        rule,
        values: GrundyValues::new(),
        last_heap: 0,
        periodicity: None,
        out: None,
        finish: Finish::Dropped,
    };
    let values = match script.sequence(request.last_heap, &mut |report| watcher.progress(report)) {
        Ok(Some(values)) => values,
        Ok(None) | Err(SearchError::Cancelled) => return Ok(dropped(rule)),
        Err(error) => return Err(Failure::search(&error, door)),
    };
    let periodicity = find_unproven_periodicity(&values);
    if let Some(path) = &request.out {
        let _lock = OutLock::take(path, door)?;
        let failed = |error: io::Error| {
            if is_write_failure(&error) {
                Failure::unwritten(path, &error)
            } else {
                Failure::input(format!("error: `{}`: {error}", path.display()))
            }
        };
        // A check file beside the file vouches for values no longer there: it goes.
        let check = check_file_path(path);
        if std::fs::read(&check).is_ok_and(|text| text.starts_with(b"grundy-check")) {
            std::fs::remove_file(&check).map_err(failed)?;
        }
        let mut file = std::fs::File::create(path).map_err(failed)?;
        write_values(&values, request.format, &mut file).map_err(failed)?;
    }
    Ok(Sequence {
        rule,
        values,
        last_heap: request.last_heap,
        periodicity,
        out: request.out.clone(),
        finish: Finish::Complete,
    })
}
