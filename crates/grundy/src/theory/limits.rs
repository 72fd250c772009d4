//! What a search may take and why it stops: the budgets ([`Limit`], [`Budget`])
//! and the errors of a search ([`SearchError`], [`Refusal`]).
//!
//! They sit below the game and the solver, which both speak of them: a game's
//! moves may refuse (`ImpartialGame::try_moves`), and the
//! solver stops at its budget.

/// A budget an answer can run out of. The library names the budget; the
/// command line names the flag that raises it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Limit {
    /// The positions a search may store.
    States,
    /// The estimated steps the values of a heap rule may take to compute.
    Work,
    /// The estimated bytes those values may take.
    Memory,
    /// The largest heap whose values are computed when no period is proven.
    LargestHeap,
    /// The decimal digits an integer of the input may have.
    Digits,
    /// The wall-clock time a computation may take.
    Time,
    /// The elements a misère quotient may have (Plambeck-Siegel): one may be
    /// infinite, so its construction gives up at this order.
    Order,
    /// The cells a table may have.
    Cells,
}

/// The front end a workflow is asked through: it decides how a limit's
/// setting is named in a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Door {
    /// The command line, and the playground's server (whose limits are its
    /// flags): `--max-states N`.
    #[default]
    CommandLine,
    /// The Python package: `max_states=N`.
    Python,
}

impl Door {
    /// The setting that raises `limit`, with its value's form: `--max-states N`
    /// or `max_states=N`.
    pub const fn setting(self, limit: Limit) -> &'static str {
        match (self, limit) {
            (Self::CommandLine, Limit::States) => "--max-states N",
            (Self::CommandLine, Limit::Work) => "--max-work STEPS",
            (Self::CommandLine, Limit::Memory) => "--max-memory BYTES",
            (Self::CommandLine, Limit::LargestHeap) => "--max-heap N",
            (Self::CommandLine, Limit::Digits) => "--max-digits N",
            (Self::CommandLine, Limit::Time) => "--max-time SECONDS",
            (Self::CommandLine, Limit::Order) => "--max-order N",
            (Self::CommandLine, Limit::Cells) => "--max-cells N",
            (Self::Python, Limit::States) => "max_states=N",
            (Self::Python, Limit::Work) => "max_work=STEPS",
            (Self::Python, Limit::Memory) => "max_memory=BYTES",
            (Self::Python, Limit::LargestHeap) => "max_heap=N",
            (Self::Python, Limit::Digits) => "max_digits=N",
            (Self::Python, Limit::Time) => "max_time=SECONDS",
            (Self::Python, Limit::Order) => "max_order=N",
            (Self::Python, Limit::Cells) => "max_cells=N",
        }
    }

    /// The setting's name alone: `max-states` or `max_states`.
    pub fn setting_name(self, limit: Limit) -> &'static str {
        let form = self.setting(limit);
        let name = form.split([' ', '=']).next().unwrap_or(form);
        name.trim_start_matches("--")
    }

    /// "; raise it with --max-work STEPS and --max-memory BYTES", or nothing
    /// when no setting raises the limit.
    pub fn raise_with(self, limits: &[Limit]) -> String {
        let settings: Vec<&str> = limits.iter().map(|&limit| self.setting(limit)).collect();
        match settings.as_slice() {
            [] => String::new(),
            [one] => format!("; raise it with {one}"),
            [rest @ .., last] => format!("; raise them with {} and {last}", rest.join(", ")),
        }
    }
}

/// Why some part of an answer is out of reach, in words, and which budgets
/// would bring it in reach (none when no budget does: a fixed limit).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// What is refused and why, in words (no flag names).
    pub reason: String,
    /// The budgets that raise the limit reached, if any.
    pub raised_by: Vec<Limit>,
}

impl Refusal {
    /// A refusal that `raised_by` would lift.
    pub fn new(reason: impl Into<String>, raised_by: &[Limit]) -> Self {
        Self {
            reason: reason.into(),
            raised_by: raised_by.to_vec(),
        }
    }
}

/// Why a search stopped without an answer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SearchError {
    /// The transposition table reached its size limit (or an explored game
    /// graph its limit of moves, four per position allowed).
    #[error("the search reached its limit of {limit} stored positions")]
    StateLimit {
        /// The limit that was reached.
        limit: usize,
    },
    /// The search's tables, keys and pending moves reached its memory budget
    /// (bytes, counted as the search grows; see the solver's `with_memory_limit`).
    #[error("the search reached its memory limit of {limit} bytes")]
    MemoryLimit {
        /// The limit that was reached, in bytes.
        limit: u64,
    },
    /// A position can be reached from itself, so the game is not finite and has
    /// no nimber in the ordinary sense.
    #[error("a position can be reached from itself: the game is not finite (loopy)")]
    Cycle,
    /// The winning moves of a position cannot be counted: a component has too
    /// many moves to enumerate and grundy's theory for it counts only up to a
    /// fixed size (Rest Nim beyond 1024 tokens). No budget raises it.
    #[error("the winning moves cannot be counted: {}", refusal.reason)]
    CountLimit {
        /// Which component, the limit, and what raises it.
        refusal: Refusal,
        /// The nimber of the whole position, when it was known before counting.
        nimber: Option<num_bigint::BigUint>,
    },
    /// A component's nimber needs more work than grundy does while building a
    /// position (the Grundy values of a costly heap rule up to a large heap), and a
    /// search could not replace it.
    #[error("{}", refusal.reason)]
    TheoryLimit {
        /// Which component, the work it needs, the limit, and what raises it.
        refusal: Refusal,
    },
    /// A game's script (a `script[...]` term) failed: it raised an error, returned
    /// something that is not a position, or broke a rule its use needs. The message
    /// names the script, its line and the position it was called with.
    #[error("{message}")]
    Script {
        /// What went wrong, in words.
        message: String,
    },
    /// The computation was asked to stop, or its deadline passed, before it
    /// finished (see [`crate::theory::cancel`]).
    #[error("the computation was stopped before it finished (cancelled, or out of time)")]
    Cancelled,
    /// A checkpoint file (`solve --checkpoint FILE`) could not be used: read,
    /// written, or trusted (see [`crate::theory::checkpoint`]).
    #[error("{0}")]
    Checkpoint(crate::theory::checkpoint::CheckpointError),
}

/// The default budget of stored positions: about 1 GiB for small positions.
pub const DEFAULT_STATE_LIMIT: usize = 20_000_000;

/// What one search may use: positions stored and bytes held. Searches check
/// both as they grow and stop with [`SearchError::StateLimit`] or
/// [`SearchError::MemoryLimit`], so a limit stops the work, not only the answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Budget {
    /// The most positions a search may store.
    pub states: usize,
    /// The most bytes a search may hold.
    pub bytes: u64,
}

impl Budget {
    /// No limit at all: for tests and for callers that bound the work otherwise.
    pub const UNLIMITED: Self = Self {
        states: usize::MAX,
        bytes: u64::MAX,
    };

    /// A budget of `states` positions and no byte limit.
    #[must_use]
    pub const fn states(states: usize) -> Self {
        Self {
            states,
            bytes: u64::MAX,
        }
    }

    /// The positions a search storing `bytes_per_position` bytes for each may
    /// keep: the state limit, or fewer when the bytes run out first.
    #[must_use]
    pub fn positions(self, bytes_per_position: usize) -> usize {
        let by_bytes = self.bytes / (bytes_per_position.max(1) as u64);
        self.states
            .min(usize::try_from(by_bytes).unwrap_or(usize::MAX))
    }

    /// Runs a search that counts positions, not bytes, with the positions
    /// this budget allows at `bytes_per_position` each ([`Budget::positions`]);
    /// when it stops at that limit and the bytes were what set it, the error
    /// is the memory limit's.
    ///
    /// # Errors
    /// The search's, with the state limit turned into the memory limit when
    /// the bytes bound it.
    pub fn search_positions<T>(
        self,
        bytes_per_position: usize,
        search: impl FnOnce(usize) -> Result<T, SearchError>,
    ) -> Result<T, SearchError> {
        let positions = self.positions(bytes_per_position);
        search(positions).map_err(|error| match error {
            SearchError::StateLimit { .. } if positions < self.states => {
                SearchError::MemoryLimit { limit: self.bytes }
            }
            other => other,
        })
    }

    /// `Ok` when `bytes` fit the budget, else [`SearchError::MemoryLimit`]:
    /// for searches that know their size before they allocate it.
    ///
    /// # Errors
    /// [`SearchError::MemoryLimit`] when `bytes` exceed the budget.
    pub const fn check_bytes(self, bytes: u64) -> Result<(), SearchError> {
        if bytes > self.bytes {
            Err(SearchError::MemoryLimit { limit: self.bytes })
        } else {
            Ok(())
        }
    }

    /// The error for a search that needs more than this budget allows: the
    /// memory limit when `bytes` exceed it, the state limit otherwise.
    #[must_use]
    pub const fn exceeded(self, bytes: u64) -> SearchError {
        if bytes > self.bytes {
            SearchError::MemoryLimit { limit: self.bytes }
        } else {
            SearchError::StateLimit { limit: self.states }
        }
    }
}

impl Default for Budget {
    fn default() -> Self {
        Self::states(DEFAULT_STATE_LIMIT)
    }
}

/// Reads a number of bytes: `1048576`, `512K`, `64M`, `4G`, `1T` (powers of
/// 1024; `KiB`, `MB`, ... are read the same).
///
/// ```
/// use grundy::theory::limits::parse_bytes;
///
/// assert_eq!(parse_bytes("512M"), Ok(512 << 20));
/// assert!(parse_bytes("lots").is_err());
/// ```
///
/// # Errors
/// The text is not a size, or is more than 2^64 bytes: the reason, in words.
pub fn parse_bytes(text: &str) -> Result<u64, String> {
    let trimmed = text.trim();
    let digits_end = trimmed
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(trimmed.len());
    let (digits, suffix) = trimmed.split_at(digits_end);
    let shift = match suffix.trim().to_ascii_uppercase().as_str() {
        "" | "B" => 0,
        "K" | "KB" | "KIB" => 10,
        "M" | "MB" | "MIB" => 20,
        "G" | "GB" | "GIB" => 30,
        "T" | "TB" | "TIB" => 40,
        _ => {
            return Err(format!(
                "`{text}` is not a size: write bytes, or e.g. 512M, 4G, 1T"
            ));
        }
    };
    let number: u64 = digits
        .parse()
        .map_err(|_| format!("`{text}` is not a size: write bytes, or e.g. 512M, 4G, 1T"))?;
    number
        .checked_mul(1 << shift)
        .ok_or_else(|| format!("`{text}` is more than 2^64 bytes"))
}
