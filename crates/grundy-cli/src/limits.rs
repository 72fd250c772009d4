//! The limit flags, declared once and shared by the subcommands that take them:
//! [`ComputeLimits`] (memory and work: `seq`, and through [`SearchLimits`] `solve`,
//! `table` and `serve`) and [`SearchLimits`] (a search's positions, the digits
//! of an integer, the largest heap computed without a proven period).
//! A limit reached is exit 3, its message naming the flag that raises it.

use grundy::registry::BuildLimits;
use grundy::sums::analysis::{DEFAULT_MAX_STATES, SolveOptions};

/// What computing may take: memory and work.
#[derive(Debug, Clone, clap::Args)]
pub struct ComputeLimits {
    /// The most memory: bytes, or with a suffix K, M, G or T (powers of 1024), e.g. 512M or 16G.
    ///
    /// It bounds the values computed and every search (its tables and pending
    /// moves, counted as they grow); `seq` estimates its whole need before it
    /// starts, about 6 MiB for the program itself included.
    #[arg(long, value_name = "BYTES", default_value = "4G", value_parser = parse_bytes)]
    pub max_memory: u64,
    /// The most work for the values of heap games without a proven period, in steps (10^8 take about a second).
    ///
    /// The steps are estimated before the work starts: a split looked at, or a
    /// 64-bit word of a value set read. Only work beyond linear is counted:
    /// codes leaving three heaps, and Rest Nim and splits under `seq --method plain`.
    #[arg(long, value_name = "STEPS", default_value_t = BuildLimits::default().work)]
    pub max_work: u64,
}

/// How many threads computing may use (`seq`, `solve`, `table`).
#[derive(Debug, Clone, clap::Args)]
pub struct Threads {
    /// Compute on N threads (default: one per core; 1 computes on one thread).
    ///
    /// The answers and files are the same whatever N: the threads share the work of
    /// one computation (the values of heap games, the cells of a table, the searches
    /// of boards) and never change its result.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: Option<u16>,
}

impl Threads {
    /// Sets the number of threads of the whole process (the global rayon pool, which
    /// the library reads); a second call keeps the first pool.
    pub fn install(&self) {
        let mut pool = rayon::ThreadPoolBuilder::new();
        if let Some(threads) = self.threads {
            pool = pool.num_threads(usize::from(threads));
        }
        // Fails only when a pool exists already: it is then kept.
        let _ = pool.build_global();
    }
}

/// What one answer's search and its input may take.
#[derive(Debug, Clone, clap::Args)]
pub struct SearchLimits {
    /// Store at most N positions in a search.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_STATES)]
    pub max_states: usize,
    /// Accept integers of at most N decimal digits.
    #[arg(long, value_name = "N", default_value_t = grundy::lang::DEFAULT_MAX_DIGITS)]
    pub max_digits: usize,
    /// Largest heap whose values are computed when no period is proven.
    #[arg(long, value_name = "N", default_value_t = BuildLimits::default().largest_heap)]
    pub max_heap: u64,
    #[command(flatten)]
    pub budget: ComputeLimits,
}

impl SearchLimits {
    /// What building a position may take.
    pub const fn build(&self) -> BuildLimits {
        BuildLimits {
            work: self.budget.max_work,
            bytes: self.budget.max_memory,
            largest_heap: self.max_heap,
        }
    }

    /// The options of one answer listing at most `max_moves` winning moves.
    pub fn solve_options(&self, max_moves: usize) -> SolveOptions {
        SolveOptions {
            max_moves,
            max_states: self.max_states,
            max_memory: self.budget.max_memory,
            ..SolveOptions::default()
        }
    }

    /// The library's limits of a workflow: the threads are those of the pool
    /// in force ([`Threads::install`]), the time limit the cancellation
    /// signal's (`--max-time`, a request's deadline).
    pub const fn workflow(&self) -> grundy::workflow::Limits {
        grundy::workflow::Limits {
            states: self.max_states,
            digits: self.max_digits,
            largest_heap: self.max_heap,
            bytes: self.budget.max_memory,
            work: self.budget.max_work,
            time: None,
            threads: None,
        }
    }
}

/// Reads a number of bytes: `1048576`, `512K`, `64M`, `4G`, `1T` (powers of
/// 1024; `KiB`, `MB`, ... are read the same).
fn parse_bytes(text: &str) -> Result<u64, String> {
    grundy::theory::limits::parse_bytes(text)
}
