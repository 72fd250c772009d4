//! Checkpoint files: a long search's progress, saved as it goes and read back
//! by the same question (`grundy solve --checkpoint FILE`).
//!
//! A search that keeps one (Cram's, module `games::cram`) writes what it has
//! proved so far, never a guess: a snapshot taken at any moment is a set of
//! true facts about the game, so a search resumed from it gives the answer of
//! an uninterrupted one. This module owns the file's frame, the same for any
//! search: a header naming what the file is for, the search's own body, and a
//! checksum; the search writes and reads its body through [`Writer`] and
//! [`Reader`].
//!
//! # The file (little-endian)
//! | bytes | what |
//! |---|---|
//! | 8 | the magic `GRUNDYCP` |
//! | 4 | the format version ([`FORMAT_VERSION`]) |
//! | 2 + n | grundy's version (`0.1.0`): its length, then its UTF-8 bytes |
//! | 4 + n | the position's canonical text (`cram("...../.....")`), likewise |
//! | ... | the search's body |
//! | 8 | the checksum of every byte before it ([`Checksum`]) |
//!
//! A file is refused (never half read) when its magic, format, grundy version
//! or position differ from the question's, when it ends early, has bytes past
//! its checksum, or its checksum differs. A file is written whole to
//! `FILE.tmp.PID` beside it, flushed to the disk, then renamed over `FILE`,
//! so that a search stopped while it saves (a crash, a second Ctrl-C) leaves
//! the previous checkpoint as it was.

use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// The magic bytes a checkpoint starts with.
pub const MAGIC: &[u8; 8] = b"GRUNDYCP";

/// The version of the frame and of the bodies written in it; a file of another
/// version is refused.
pub const FORMAT_VERSION: u32 = 1;

/// grundy's version, which a checkpoint must have been written by.
pub const GRUNDY_VERSION: &str = env!("CARGO_PKG_VERSION");

/// How often a search saves by default: every ten seconds of search, or less
/// often when saving takes more than a twentieth of that (see
/// [`Checkpoint::every`]).
pub const DEFAULT_EVERY: Duration = Duration::from_secs(10);

/// Where a search keeps its progress, and how often it saves it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checkpoint {
    /// The file.
    pub path: PathBuf,
    /// The least time between two saves during the search; a save that takes
    /// long puts the next one off by twenty times its duration, so that
    /// saving takes at most about a twentieth of the search. The search also
    /// saves when it stops, answered or not.
    pub every: Duration,
}

impl Checkpoint {
    /// A checkpoint kept in `path`, saved every [`DEFAULT_EVERY`].
    #[must_use]
    pub fn new(path: impl Into<PathBuf>) -> Self {
        Self {
            path: path.into(),
            every: DEFAULT_EVERY,
        }
    }

    /// The same, saved at least `every` apart.
    #[must_use]
    pub fn every(self, every: Duration) -> Self {
        Self { every, ..self }
    }

    /// The checkpoint of the position whose canonical text is `position`.
    #[must_use]
    pub fn of(&self, position: &str) -> CheckpointFile {
        CheckpointFile {
            checkpoint: self.clone(),
            position: position.to_owned(),
        }
    }

    fn name(&self) -> String {
        self.path.display().to_string()
    }
}

/// A checkpoint of one position: what its file's header must say.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckpointFile {
    /// The file and how often it is saved.
    pub checkpoint: Checkpoint,
    /// The position's canonical text.
    pub position: String,
}

impl CheckpointFile {
    /// Reads the header of the file, if there is one, to check that it is a
    /// checkpoint of this position by this grundy; nothing more is read.
    ///
    /// # Errors
    /// As [`Reader::open`].
    pub fn check(&self) -> Result<(), CheckpointError> {
        Reader::open(self).map(drop)
    }

    fn refused(&self, reason: impl Into<String>) -> CheckpointError {
        CheckpointError::Refused {
            path: self.checkpoint.name(),
            reason: reason.into(),
        }
    }

    fn io(&self, doing: &'static str, error: &io::Error) -> CheckpointError {
        CheckpointError::Io {
            path: self.checkpoint.name(),
            doing,
            reason: error.to_string(),
        }
    }
}

/// Why a checkpoint could not be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CheckpointError {
    /// The file could not be read, written or renamed.
    #[error("cannot {doing} the checkpoint `{path}`: {reason}")]
    Io {
        /// The file.
        path: String,
        /// What was being done: `read`, `write`.
        doing: &'static str,
        /// The system's reason.
        reason: String,
    },
    /// The file is not a checkpoint of this question by this grundy, or it is
    /// damaged: another position, another version, not a checkpoint at all,
    /// cut short, or a checksum that differs.
    #[error("the checkpoint `{path}` is refused: {reason}")]
    Refused {
        /// The file.
        path: String,
        /// Why, in words.
        reason: String,
    },
    /// The file holds more positions than the search may store.
    #[error(
        "the checkpoint `{path}` holds {positions} positions, more than the search may store ({limit})"
    )]
    TooLarge {
        /// The file.
        path: String,
        /// The positions it holds.
        positions: u64,
        /// The limit: a number of positions, or of bytes when `by_memory`.
        limit: u64,
        /// Whether the memory limit (rather than the state limit) bounds the search.
        by_memory: bool,
        /// The bytes each stored position counts against the memory limit.
        bytes_each: u64,
    },
    /// The question's search keeps no checkpoint.
    #[error("{reason}")]
    NotApplicable {
        /// Why, in words, and what does.
        reason: String,
    },
}

/// Saves under way in this process: a watchdog that ends the process (the
/// command line's `--max-time`) waits for them, so that a stopped search's
/// last save is not cut short.
static SAVING: AtomicUsize = AtomicUsize::new(0);

/// Whether a checkpoint is being written by this process now.
#[must_use]
pub fn saving() -> bool {
    SAVING.load(Ordering::SeqCst) > 0
}

/// The checksum of a checkpoint: the bytes taken as 8-byte little-endian
/// words (the last one padded with zeros), each mixed in by `state = (state
/// ^ word) * K` rotated left by 29 (`K` = 0x9E3779B97F4A7C15, odd), then the
/// byte count mixed in the same way. Each step is a bijection of the state
/// for a given word, so a file that differs in one word always has another
/// sum; it is a guard against damage, not against forgery.
#[derive(Clone, Debug)]
pub struct Checksum {
    state: u64,
    pending: [u8; 8],
    filled: usize,
    bytes: u64,
}

const MIX: u64 = 0x9E37_79B9_7F4A_7C15;

impl Default for Checksum {
    fn default() -> Self {
        Self {
            state: MIX,
            pending: [0; 8],
            filled: 0,
            bytes: 0,
        }
    }
}

impl Checksum {
    const fn mix(&mut self, word: u64) {
        self.state = (self.state ^ word).wrapping_mul(MIX).rotate_left(29);
    }

    /// Adds `bytes`.
    pub fn update(&mut self, mut bytes: &[u8]) {
        self.bytes += bytes.len() as u64;
        while !bytes.is_empty() {
            if self.filled == 0 && bytes.len() >= 8 {
                let (word, rest) = bytes.split_at(8);
                self.mix(u64::from_le_bytes(word.try_into().unwrap_or([0; 8])));
                bytes = rest;
                continue;
            }
            let take = (8 - self.filled).min(bytes.len());
            self.pending[self.filled..self.filled + take].copy_from_slice(&bytes[..take]);
            self.filled += take;
            bytes = &bytes[take..];
            if self.filled == 8 {
                self.mix(u64::from_le_bytes(self.pending));
                self.filled = 0;
            }
        }
    }

    /// The sum of the bytes added.
    #[must_use]
    pub fn finish(&self) -> u64 {
        let mut done = self.clone();
        if done.filled > 0 {
            done.pending[done.filled..].fill(0);
            done.mix(u64::from_le_bytes(done.pending));
        }
        done.mix(done.bytes);
        done.state
    }
}

/// Writes a checkpoint: the header at once, then the body, then the checksum
/// and the rename ([`Writer::finish`]). Dropped unfinished, it removes its
/// temporary file and the checkpoint stays as it was.
#[derive(Debug)]
pub struct Writer {
    out: Option<BufWriter<File>>,
    temp: PathBuf,
    file: CheckpointFile,
    sum: Checksum,
}

impl Writer {
    /// Starts the file of `file` (in a temporary file beside it).
    ///
    /// # Errors
    /// [`CheckpointError::Io`] when it cannot be created or written.
    pub fn create(file: &CheckpointFile) -> Result<Self, CheckpointError> {
        SAVING.fetch_add(1, Ordering::SeqCst);
        let mut temp = file.checkpoint.path.clone().into_os_string();
        temp.push(format!(".tmp.{}", std::process::id()));
        let temp = PathBuf::from(temp);
        let created = File::create(&temp);
        let mut writer = Self {
            out: None,
            temp,
            file: file.clone(),
            sum: Checksum::default(),
        };
        writer.out = Some(BufWriter::with_capacity(
            1 << 20,
            created.map_err(|e| file.io("write", &e))?,
        ));
        writer.bytes(MAGIC)?;
        writer.u32(FORMAT_VERSION)?;
        writer.text16(GRUNDY_VERSION)?;
        writer.text32(&file.position)?;
        Ok(writer)
    }

    /// Writes `bytes` as they are.
    ///
    /// # Errors
    /// [`CheckpointError::Io`] when they cannot be written.
    pub fn bytes(&mut self, bytes: &[u8]) -> Result<(), CheckpointError> {
        self.sum.update(bytes);
        let Some(out) = self.out.as_mut() else {
            return Ok(());
        };
        out.write_all(bytes).map_err(|e| self.file.io("write", &e))
    }

    /// Writes a byte.
    ///
    /// # Errors
    /// As [`Writer::bytes`].
    pub fn u8(&mut self, value: u8) -> Result<(), CheckpointError> {
        self.bytes(&[value])
    }

    /// Writes a 32-bit integer.
    ///
    /// # Errors
    /// As [`Writer::bytes`].
    pub fn u32(&mut self, value: u32) -> Result<(), CheckpointError> {
        self.bytes(&value.to_le_bytes())
    }

    /// Writes a 64-bit integer.
    ///
    /// # Errors
    /// As [`Writer::bytes`].
    pub fn u64(&mut self, value: u64) -> Result<(), CheckpointError> {
        self.bytes(&value.to_le_bytes())
    }

    /// Writes a 128-bit integer.
    ///
    /// # Errors
    /// As [`Writer::bytes`].
    pub fn u128(&mut self, value: u128) -> Result<(), CheckpointError> {
        self.bytes(&value.to_le_bytes())
    }

    fn text16(&mut self, text: &str) -> Result<(), CheckpointError> {
        let len = u16::try_from(text.len()).unwrap_or(u16::MAX);
        self.bytes(&len.to_le_bytes())?;
        self.bytes(&text.as_bytes()[..usize::from(len)])
    }

    fn text32(&mut self, text: &str) -> Result<(), CheckpointError> {
        let len = u32::try_from(text.len()).unwrap_or(u32::MAX);
        self.bytes(&len.to_le_bytes())?;
        self.bytes(&text.as_bytes()[..len as usize])
    }

    /// Writes the checksum, flushes the file to the disk and puts it in place
    /// of the previous checkpoint. Gives the file's size in bytes.
    ///
    /// # Errors
    /// [`CheckpointError::Io`] when any of it fails (the previous checkpoint
    /// then stays).
    pub fn finish(mut self) -> Result<u64, CheckpointError> {
        let sum = self.sum.finish();
        self.bytes(&sum.to_le_bytes())?;
        let size = self.sum.bytes;
        let Some(out) = self.out.take() else {
            return Ok(size);
        };
        let file = out
            .into_inner()
            .map_err(|e| self.file.io("write", e.error()))?;
        file.sync_all().map_err(|e| self.file.io("write", &e))?;
        drop(file);
        std::fs::rename(&self.temp, &self.file.checkpoint.path)
            .map_err(|e| self.file.io("write", &e))?;
        Ok(size)
    }
}

impl Drop for Writer {
    fn drop(&mut self) {
        if self.out.take().is_some() || self.temp.exists() {
            let _ = std::fs::remove_file(&self.temp);
        }
        SAVING.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Reads a checkpoint: the header is checked when it is opened, the body is
/// read by the search, and [`Reader::finish`] checks the checksum and the end.
#[derive(Debug)]
pub struct Reader {
    input: BufReader<File>,
    file: CheckpointFile,
    sum: Checksum,
    /// Bytes of the file not yet read, the checksum included.
    left: u64,
}

impl Reader {
    /// Opens the file of `file` and checks its header: `None` when there is
    /// no file yet.
    ///
    /// # Errors
    /// [`CheckpointError::Io`] when it cannot be read;
    /// [`CheckpointError::Refused`] when it is not a checkpoint of this
    /// position by this grundy.
    pub fn open(file: &CheckpointFile) -> Result<Option<Self>, CheckpointError> {
        let path: &Path = &file.checkpoint.path;
        let opened = match File::open(path) {
            Ok(opened) => opened,
            Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(error) => return Err(file.io("read", &error)),
        };
        let metadata = opened.metadata().map_err(|e| file.io("read", &e))?;
        if !metadata.is_file() {
            return Err(file.refused("it is not a regular file"));
        }
        let mut reader = Self {
            input: BufReader::with_capacity(1 << 20, opened),
            file: file.clone(),
            sum: Checksum::default(),
            left: metadata.len(),
        };
        let mut magic = [0u8; 8];
        if reader.left < 8 || reader.read(&mut magic).is_err() || &magic != MAGIC {
            return Err(file.refused(format!(
                "it is not a grundy checkpoint (it does not start with `{}`)",
                String::from_utf8_lossy(MAGIC)
            )));
        }
        let format = reader.u32()?;
        if format != FORMAT_VERSION {
            return Err(file.refused(format!(
                "it is of format {format}, this grundy reads format {FORMAT_VERSION}"
            )));
        }
        let version = reader.text16()?;
        if version != GRUNDY_VERSION {
            return Err(file.refused(format!(
                "it was written by grundy {}, this is grundy {GRUNDY_VERSION}: the search may have changed; remove the file to start again",
                shortened(&version)
            )));
        }
        let position = reader.text32()?;
        if position != file.position {
            return Err(file.refused(format!(
                "it is the checkpoint of another position, `{}`, not of `{}`",
                shortened(&position),
                shortened(&file.position)
            )));
        }
        Ok(Some(reader))
    }

    /// The bytes of the body not yet read (the checksum not counted).
    #[must_use]
    pub const fn left(&self) -> u64 {
        self.left.saturating_sub(8)
    }

    /// Refuses the file as damaged, saying `why`.
    #[must_use]
    pub fn damaged(&self, why: &str) -> CheckpointError {
        self.file.refused(format!("it is damaged: {why}"))
    }

    fn read(&mut self, buffer: &mut [u8]) -> Result<(), CheckpointError> {
        if (buffer.len() as u64) > self.left.saturating_sub(8) {
            return Err(self.damaged("it ends early (cut short?)"));
        }
        match self.input.read_exact(buffer) {
            Ok(()) => {}
            Err(error) if error.kind() == io::ErrorKind::UnexpectedEof => {
                return Err(self.damaged("it ends early (cut short?)"));
            }
            Err(error) => return Err(self.file.io("read", &error)),
        }
        self.left -= buffer.len() as u64;
        self.sum.update(buffer);
        Ok(())
    }

    /// Reads a byte.
    ///
    /// # Errors
    /// [`CheckpointError::Refused`] when the file ends before it.
    pub fn u8(&mut self) -> Result<u8, CheckpointError> {
        let mut bytes = [0u8; 1];
        self.read(&mut bytes)?;
        Ok(bytes[0])
    }

    /// Reads a 32-bit integer.
    ///
    /// # Errors
    /// As [`Reader::u8`].
    pub fn u32(&mut self) -> Result<u32, CheckpointError> {
        let mut bytes = [0u8; 4];
        self.read(&mut bytes)?;
        Ok(u32::from_le_bytes(bytes))
    }

    /// Reads a 64-bit integer.
    ///
    /// # Errors
    /// As [`Reader::u8`].
    pub fn u64(&mut self) -> Result<u64, CheckpointError> {
        let mut bytes = [0u8; 8];
        self.read(&mut bytes)?;
        Ok(u64::from_le_bytes(bytes))
    }

    /// Reads a 128-bit integer.
    ///
    /// # Errors
    /// As [`Reader::u8`].
    pub fn u128(&mut self) -> Result<u128, CheckpointError> {
        let mut bytes = [0u8; 16];
        self.read(&mut bytes)?;
        Ok(u128::from_le_bytes(bytes))
    }

    /// Reads a count of entries of `entry_bytes` bytes each, refused when the
    /// rest of the file cannot hold that many (so that a damaged count never
    /// makes the reader allocate or loop for nothing).
    ///
    /// # Errors
    /// As [`Reader::u8`].
    pub fn count(&mut self, entry_bytes: u64) -> Result<u64, CheckpointError> {
        let count = self.u64()?;
        if count.saturating_mul(entry_bytes) > self.left.saturating_sub(8) {
            return Err(self.damaged(&format!(
                "it counts {count} entries, more than its size can hold"
            )));
        }
        Ok(count)
    }

    fn text16(&mut self) -> Result<String, CheckpointError> {
        let mut len = [0u8; 2];
        self.read(&mut len)?;
        self.text(usize::from(u16::from_le_bytes(len)))
    }

    fn text32(&mut self) -> Result<String, CheckpointError> {
        let len = self.u32()?;
        if u64::from(len) > self.left.saturating_sub(8) {
            return Err(self.damaged("it ends early (cut short?)"));
        }
        self.text(len as usize)
    }

    fn text(&mut self, len: usize) -> Result<String, CheckpointError> {
        let mut bytes = vec![0u8; len];
        self.read(&mut bytes)?;
        String::from_utf8(bytes).map_err(|_| self.damaged("a text in its header is not UTF-8"))
    }

    /// Checks the checksum, and that nothing follows it.
    ///
    /// # Errors
    /// [`CheckpointError::Refused`] when the sum differs or bytes are left.
    pub fn finish(mut self) -> Result<(), CheckpointError> {
        if self.left != 8 {
            return Err(self.damaged(&format!(
                "{} bytes follow what it holds",
                self.left.saturating_sub(8)
            )));
        }
        let expected = self.sum.finish();
        let mut bytes = [0u8; 8];
        self.input
            .read_exact(&mut bytes)
            .map_err(|_| self.damaged("it ends early (cut short?)"))?;
        if u64::from_le_bytes(bytes) != expected {
            return Err(self.damaged("its checksum differs from its contents"));
        }
        Ok(())
    }
}

/// `text` as an error message quotes it: at most 80 characters.
fn shortened(text: &str) -> String {
    let shown = |text: &str| -> String {
        text.chars()
            .map(|c| {
                if c.is_control() {
                    c.escape_debug().to_string()
                } else {
                    c.to_string()
                }
            })
            .collect()
    };
    if text.chars().count() <= 80 {
        return shown(text);
    }
    let head: String = text.chars().take(77).collect();
    format!("{}...", shown(&head))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("grundy-checkpoint-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir.join("file.ckpt")
    }

    fn write(file: &CheckpointFile, values: &[u64]) -> u64 {
        let mut out = Writer::create(file).unwrap();
        out.u64(values.len() as u64).unwrap();
        for &value in values {
            out.u64(value).unwrap();
        }
        out.u8(7).unwrap();
        out.u128(u128::MAX - 5).unwrap();
        out.finish().unwrap()
    }

    fn read(file: &CheckpointFile) -> Result<Option<(Vec<u64>, u8, u128)>, CheckpointError> {
        let Some(mut input) = Reader::open(file)? else {
            return Ok(None);
        };
        let count = input.count(8)?;
        let values = (0..count)
            .map(|_| input.u64())
            .collect::<Result<Vec<_>, _>>()?;
        let (byte, wide) = (input.u8()?, input.u128()?);
        input.finish()?;
        Ok(Some((values, byte, wide)))
    }

    #[test]
    fn a_file_is_read_back_as_written_and_refused_otherwise() {
        let path = scratch("round");
        let file = Checkpoint::new(&path).of("cram(\"..../....\")");
        assert_eq!(read(&file), Ok(None));
        let size = write(&file, &[1, 2, 3]);
        assert_eq!(std::fs::metadata(&path).unwrap().len(), size);
        assert_eq!(read(&file), Ok(Some((vec![1, 2, 3], 7, u128::MAX - 5))));
        // (Other tests save at the same time: only a save under way is sure.)
        let under_way = Writer::create(&file).unwrap();
        assert!(saving());
        drop(under_way);
        // Another position.
        let other = Checkpoint::new(&path).of("cram(\"...../.....\")");
        let Err(CheckpointError::Refused { reason, .. }) = read(&other) else {
            panic!("another position read");
        };
        assert!(reason.contains("another position"), "{reason}");
        // Every cut and every byte changed is refused, never a panic.
        let bytes = std::fs::read(&path).unwrap();
        for cut in 0..bytes.len() {
            std::fs::write(&path, &bytes[..cut]).unwrap();
            assert!(
                matches!(read(&file), Err(CheckpointError::Refused { .. })),
                "cut at {cut}"
            );
        }
        for at in 0..bytes.len() {
            let mut changed = bytes.clone();
            changed[at] ^= 0x10;
            std::fs::write(&path, &changed).unwrap();
            assert!(
                matches!(read(&file), Err(CheckpointError::Refused { .. })),
                "byte {at} changed"
            );
        }
        let mut longer = bytes.clone();
        longer.push(0);
        std::fs::write(&path, &longer).unwrap();
        assert!(matches!(read(&file), Err(CheckpointError::Refused { .. })));
        // Another version of grundy.
        let mut version = bytes;
        let at = 8 + 4 + 2;
        version[at] = b'9';
        std::fs::write(&path, &version).unwrap();
        let Err(CheckpointError::Refused { reason, .. }) = read(&file) else {
            panic!("another version read");
        };
        assert!(reason.contains("written by grundy 9"), "{reason}");
        // A directory is no file to read or write.
        let dir = path.parent().unwrap().to_path_buf();
        let there = Checkpoint::new(&dir).of("x");
        assert!(matches!(
            Reader::open(&there),
            Err(CheckpointError::Refused { .. } | CheckpointError::Io { .. })
        ));
        let missing = Checkpoint::new(dir.join("no/such/dir/f")).of("x");
        assert!(matches!(
            Writer::create(&missing).map(drop),
            Err(CheckpointError::Io { .. })
        ));
    }

    #[test]
    fn an_unfinished_file_leaves_the_checkpoint_as_it_was() {
        let path = scratch("unfinished");
        let file = Checkpoint::new(&path).of("p");
        write(&file, &[5]);
        let mut out = Writer::create(&file).unwrap();
        out.u64(99).unwrap();
        drop(out);
        assert_eq!(read(&file), Ok(Some((vec![5], 7, u128::MAX - 5))));
        let leftovers = std::fs::read_dir(path.parent().unwrap()).unwrap().count();
        assert_eq!(leftovers, 1, "the temporary file stayed");
    }

    #[test]
    fn the_checksum_sees_any_change_of_one_word() {
        let data: Vec<u8> = (0..100u8).collect();
        let sum = |bytes: &[u8]| {
            let mut checksum = Checksum::default();
            checksum.update(bytes);
            checksum.finish()
        };
        // Split anywhere, the sum is the same.
        for split in 0..data.len() {
            let mut checksum = Checksum::default();
            checksum.update(&data[..split]);
            checksum.update(&data[split..]);
            assert_eq!(checksum.finish(), sum(&data));
        }
        for at in 0..data.len() {
            for bit in 0..8 {
                let mut changed = data.clone();
                changed[at] ^= 1 << bit;
                assert_ne!(sum(&changed), sum(&data));
            }
        }
        // Zeros added at the end change the length, hence the sum.
        assert_ne!(sum(&[1, 2, 3]), sum(&[1, 2, 3, 0]));
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(400))]

        /// Random bytes, and a valid file with random bytes written over
        /// part of it, are refused or read, never a panic; a file read
        /// whole is only ever the one written.
        #[test]
        fn random_bytes_are_refused_without_a_panic(
            noise in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..200),
            at in 0usize..120,
            valid in proptest::prelude::any::<bool>(),
        ) {
            let path = scratch(&format!("fuzz-{}", at % 4));
            let file = Checkpoint::new(&path).of("cram(\"...\")");
            let bytes = if valid {
                write(&file, &[11, 12]);
                let mut bytes = std::fs::read(&path).unwrap();
                let at = at.min(bytes.len());
                let end = (at + noise.len()).min(bytes.len());
                bytes[at..end].copy_from_slice(&noise[..end - at]);
                bytes
            } else {
                let mut bytes = MAGIC.to_vec();
                bytes.extend_from_slice(&noise);
                bytes
            };
            std::fs::write(&path, &bytes).unwrap();
            match read(&file) {
                Ok(Some(found)) => proptest::prop_assert_eq!(found, (vec![11, 12], 7, u128::MAX - 5)),
                Ok(None) => proptest::prop_assert!(false, "the file vanished"),
                Err(CheckpointError::Refused { .. }) => {}
                Err(other) => proptest::prop_assert!(false, "{other}"),
            }
        }
    }
}
