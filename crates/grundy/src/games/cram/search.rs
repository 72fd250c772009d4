//! The search: Beling and Rogalski's pruning of nimber searches, over regions.
//!
//! # Theorems used
//! * **Bound.** A position of nimber `g > 0` has an option of nimber `g - 1`,
//!   so some play lasts `g` moves: a region of `n` cells has nimber at most
//!   `n / 2`, and at most its number of moves `m`.
//! * **Nimber in a set** (P. Beling, M. Rogalski, *On pruning search trees of
//!   impartial games*, Artificial Intelligence 283, 2020, algorithm BR).
//!   [`Search::in_set`] answers "the nimber, if it lies in the requested set
//!   `R`", else nothing, without valuing every option. It keeps a set `P` of
//!   `m + 1` candidates, `{0, ..., m}` at first, and removes one per option:
//!   the option's nimber if it is in `P`, else the largest of `P`. With the
//!   exact nimbers of all options this leaves exactly the mex, which is never
//!   removed (it is no option's nimber, and were it removed as the largest,
//!   the last candidate would be a smaller non-option nimber). The option is
//!   asked only for `P` without its largest, cut at `T = max R`; when it
//!   answers "not in that set" the largest is removed. Were the mex `g <= T`
//!   then removed as the largest, the other candidates, all below `g`, would
//!   each be the nimber of a distinct option not yet seen (a seen one would
//!   have removed its own), this option among them, which would then have
//!   answered. So when `g <= T`, `g` stays in `P`: the search stops as soon
//!   as `P` and `R` are disjoint, and the last candidate `p` is the nimber
//!   when `p <= T` or every answer was exact; otherwise `g` is not in `R`.
//!   Candidates above the bound `n / 2` are counted, not stored.
//! * **What a search that finds no nimber proves.** When it stops, every
//!   candidate up to `T` that left `P` is not the nimber (were it the mex `g
//!   <= T` it would still be in `P`): the set `{0, ..., T} \ P`, which holds
//!   `R`. It is kept in a cache beside the table ([`super::transposition::Table::exclude`]), and a
//!   later question about the region asks only for the nimbers not excluded,
//!   or is answered "not in the set" at once when none is left (`cram(5, 8)`:
//!   a fifth fewer regions searched).
//! * **Sums.** An option that splits into regions `A + B + ...` has nimber
//!   `a ^ b ^ ...`: all regions but the largest are valued exactly and the
//!   largest is asked for the set xored with their nimbers. Equal regions
//!   cancel. Options are tried smallest first (the sum of the squares of their
//!   regions' cells), as in Beling's `SmallerComponentsFirst`.
//! * **Aspiration** (Beling and Rogalski, *ibid.*): the nimber of a whole
//!   region is the least `r` that no option has, so for `r = 0, 1, ...` each
//!   option not yet known is asked whether its nimber is `r`. What these
//!   questions teach is kept per option, so that the moves to a given nimber
//!   are then found with few new questions ([`BoardSearch`]).

use super::checkpoint::{Fact, Progress};
use super::region::{
    Bits, Shape, dominoes, each_region, each_region_cut, each_region_seeded, fits_u64,
    reduce_and_cut, row_of, spread,
};
use super::transposition::Store;
use crate::theory::cancel::{checkpoint, run_under};
use crate::theory::checkpoint::CheckpointFile;
use crate::theory::solver::{Budget, SearchError};
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

/// A connected region of at least four cells, as its canonical image.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Region {
    image: u128,
    w: u8,
    cells: u8,
}

impl Region {
    const fn cost(&self) -> u32 {
        let n = self.cells as u32;
        n * n
    }
}

/// An option being searched: regions `first .. first + len` of the stack of
/// regions (the largest first), and the xor `x` of the other regions' nimbers.
#[derive(Clone, Copy, Debug)]
struct Pending {
    first: u32,
    len: u32,
    x: u8,
    /// The cost, then the move (horizontal ones first, by cell) to break ties.
    cost: u64,
}

/// The candidates of [`Search::in_set`]: a set of small nimbers and a count of
/// candidates above the bound, which are larger than all of them.
#[derive(Clone, Copy, Debug)]
struct Candidates {
    set: u64,
    above: u32,
}

impl Candidates {
    const fn without_largest(self) -> u64 {
        if self.above > 0 {
            self.set
        } else {
            self.set & !top_bit(self.set)
        }
    }

    fn remove_largest(&mut self) {
        if self.above > 0 {
            self.above -= 1;
        } else {
            self.set &= !top_bit(self.set);
        }
    }

    fn remove(&mut self, nimber: u8) {
        if nimber < 64 && self.set >> nimber & 1 == 1 {
            self.set &= !(1 << nimber);
        } else {
            self.remove_largest();
        }
    }
}

/// How far the domino on cells `p` and `p + step` of an `h x w` frame lies
/// from the frame's centre (in half cells, at most 255): central moves are
/// tried first among options of equal cost, as in Beling's move iterators.
fn off_centre(p: usize, step: usize, h: usize, w: usize) -> u32 {
    let i = row_of(p, w);
    let j = p - i * w;
    let (di, dj) = if step == 1 { (0, 1) } else { (1, 0) };
    let rows = (2 * i + di).abs_diff(h - 1);
    let cols = (2 * j + dj).abs_diff(w - 1);
    let d = rows + cols;
    if d > 255 { 255 } else { d as u32 }
}

/// The highest bit of `set` alone (0 for the empty set).
const fn top_bit(set: u64) -> u64 {
    if set == 0 {
        0
    } else {
        1 << (63 - set.leading_zeros())
    }
}

/// `{v ^ x : v in set}`, for nimbers below 64.
fn xored(mut set: u64, x: u8) -> u64 {
    if x == 0 {
        return set;
    }
    let mut out = 0u64;
    while set != 0 {
        let v = set.trailing_zeros() as u8;
        set &= set - 1;
        out |= 1 << (v ^ x);
    }
    out
}

/// The set `{0, ..., n - 1}` (`n <= 64`).
const fn first(n: u32) -> u64 {
    if n >= 64 { u64::MAX } else { (1 << n) - 1 }
}

/// A region's part of an option: known, or still to search.
enum Part {
    Known(u8),
    Unknown(Region),
}

/// The search over canonical regions, with its transposition table.
#[derive(Debug)]
pub(super) struct Search {
    table: Store,
    /// The regions of the options being searched, frame above frame.
    regions: Vec<Region>,
    pending: Vec<Pending>,
    /// Whether regions are answered 0 by the symmetry strategy (tests turn
    /// it off to check the search alone).
    pub(super) symmetry: bool,
    /// Whether options are reduced by the pendant rule (likewise).
    pub(super) reduction: bool,
    /// Regions searched so far, answered or not: a search whose answers are
    /// mostly "not in the set" stores little, so the table's limit alone
    /// would not bound its time.
    visits: u64,
    /// The most regions searched, [`VISITS_PER_STATE`] times the table's limit
    /// (a state limit too: both are positions of the search).
    most_visits: u64,
    /// The nimbers of small shapes by their cells as they lie (not their
    /// canonical image), shared with the other threads' searches.
    small: Arc<SmallShapes>,
    /// The moves of each frame, centre first ([`Self::centre_out`]).
    orders: Vec<Vec<u16>>,
    /// The checkpoint the search saves to as it goes, if any (shared with
    /// the other threads' searches).
    progress: Option<Arc<Progress>>,
}

/// How many regions may be searched per region the table may store. A
/// search visits about ten regions for each it stores (13 for 7 x 5 at 20,000
/// stored, 10 for 5 x 6), so that the table's limit alone let `cram(7, 5)`
/// with `--max-states 20000` run four times longer before refusing than four
/// visits a region allow (docs/BENCHMARKS.md, "Figures behind the code's
/// constants").
const VISITS_PER_STATE: u64 = 4;

/// Shapes whose box has at most this many cells have their nimbers kept by
/// their cells as they lie (up to 64 KiB a box, 2^16 bytes), sparing the
/// canonical image and the table's lookup.
const SMALL_CELLS: usize = 16;

/// The nimbers of shapes of at most [`SMALL_CELLS`] cells, by their cropped
/// cells, plus one (0 unknown): one array per box `h x w`, index `(h - 1) *
/// SMALL_CELLS + w - 1`, made when first needed. The threads of one search
/// share them: each entry is written whole, once known.
#[derive(Debug)]
struct SmallShapes {
    boxes: Vec<OnceLock<Box<[AtomicU8]>>>,
}

impl Default for SmallShapes {
    fn default() -> Self {
        Self {
            boxes: (0..SMALL_CELLS * SMALL_CELLS)
                .map(|_| OnceLock::new())
                .collect(),
        }
    }
}

impl SmallShapes {
    fn get(&self, at: usize, bits: usize) -> Option<u8> {
        let g = self.boxes[at].get()?[bits].load(Ordering::Relaxed);
        g.checked_sub(1)
    }

    fn set(&self, at: usize, cells: usize, bits: usize, g: u8) {
        // Zeroed by the allocator: the pages never written stay unmapped.
        let nimbers = self.boxes[at].get_or_init(|| bytemuck::zeroed_slice_box(1 << cells));
        nimbers[bits].store(g + 1, Ordering::Relaxed);
    }
}

/// Regions of at most this many cells are always asked for their exact
/// nimber: their searches are short, and the nimber, once stored, answers
/// every later question about them and the options of larger regions that
/// contain them (on `cram(4, 9)` a quarter fewer regions searched; `cram(5,
/// 8)` about the same).
const ALWAYS_EXACT: u8 = 12;

impl Search {
    /// A search of one thread, with its own table.
    #[cfg(test)]
    pub(super) fn new(limit: usize) -> Self {
        Self::with_store(Store::new(limit, false), limit)
    }

    /// A search whose table the threads of the current pool will share when
    /// there are several (see [`BoardSearch`]).
    pub(super) fn for_threads(limit: usize) -> Self {
        Self::with_store(Store::new(limit, rayon::current_num_threads() > 1), limit)
    }

    /// Another search on the same shared table, for another thread (`None`
    /// when the table is this search's own).
    fn helper(&self) -> Option<Self> {
        let table = self.table.share()?;
        let mut helper = Self::with_store(table, self.table.limit());
        helper.small = Arc::clone(&self.small);
        helper.progress.clone_from(&self.progress);
        helper.symmetry = self.symmetry;
        helper.reduction = self.reduction;
        Some(helper)
    }

    fn with_store(table: Store, limit: usize) -> Self {
        Self {
            table,
            regions: Vec::new(),
            pending: Vec::new(),
            symmetry: true,
            reduction: true,
            visits: 0,
            most_visits: (limit as u64).saturating_mul(VISITS_PER_STATE),
            orders: Vec::new(),
            small: Arc::default(),
            progress: None,
        }
    }

    /// Regions searched so far.
    #[cfg(test)]
    pub(super) const fn visits(&self) -> u64 {
        self.visits
    }

    /// The excluded-nimber cache's entries: image, width, excluded set.
    #[cfg(test)]
    pub(super) fn excluded_entries(&self) -> Vec<(u128, usize, u64)> {
        self.table.excluded_entries()
    }

    /// The small shapes' nimbers kept: cells, width, nimber.
    #[cfg(test)]
    pub(super) fn small_entries(&self) -> Vec<(u128, usize, u8)> {
        let mut all = Vec::new();
        for (at, nimbers) in self.small.boxes.iter().enumerate() {
            let w = at % SMALL_CELLS + 1;
            for (bits, g) in nimbers.get().into_iter().flatten().enumerate() {
                let g = g.load(Ordering::Relaxed);
                if g != 0 {
                    all.push((bits as u128, w, g - 1));
                }
            }
        }
        all
    }

    /// How many regions the table holds.
    pub(super) fn stored(&self) -> usize {
        self.table.len()
    }

    /// Saves the checkpoint, if the search keeps one: after waiting for the
    /// turn (`wait`), or only if no other thread is saving. `searched` is the
    /// regions searched by this run, when known; else this thread's count,
    /// or the threads' count together.
    fn save_progress(&self, wait: bool, searched: Option<u64>) -> Result<(), SearchError> {
        let Some(progress) = &self.progress else {
            return Ok(());
        };
        let Some(_turn) = progress.turn(wait) else {
            return Ok(());
        };
        match &self.table {
            Store::Own(table) => progress.write(table, searched.unwrap_or(self.visits)),
            Store::Shared { shared, .. } => {
                let searched = searched.unwrap_or_else(|| shared.visits.load(Ordering::Relaxed));
                progress.write(&shared.table(), searched)
            }
        }
    }

    /// What is known of the connected set `m` of a frame of stride `w`.
    fn part<B: Bits>(&mut self, m: B, w: usize) -> Part {
        let cells = m.count();
        if cells <= 3 {
            // A domino, a line of three or an L: every move leaves at most one cell.
            return Part::Known(1);
        }
        let shape = Shape::crop(m, w);
        // Small shapes: their nimber by their cells as they lie, once known.
        let small = if shape.h * shape.w <= SMALL_CELLS {
            let at = (shape.h - 1) * SMALL_CELLS + shape.w - 1;
            let bits = shape.bits.wide() as usize;
            match self.small.get(at, bits) {
                Some(g) => return Part::Known(g),
                None => Some((at, bits)),
            }
        } else {
            None
        };
        let canonical = shape.canonical();
        let known = if self.symmetry && canonical.zero {
            Some(0)
        } else {
            self.table.get(canonical.image, canonical.w)
        };
        if let Some(g) = known {
            if let Some((at, bits)) = small {
                self.small.set(at, shape.h * shape.w, bits, g);
            }
            return Part::Known(g);
        }
        Part::Unknown(Region {
            image: canonical.image,
            w: canonical.w as u8,
            cells: cells as u8,
        })
    }

    /// Splits the cells `s` of a frame of stride `w`, taken from the connected
    /// set `whole`, into regions: pushes the unknown ones on the stack (two
    /// equal ones cancel) and gives the xor of the known ones' nimbers.
    fn split(&mut self, whole: u128, s: u128, w: usize) -> u8 {
        let start = self.regions.len();
        if fits_u64(whole, w) {
            self.split_from(u64::narrow(whole), u64::narrow(s), w, start)
        } else {
            self.split_from(whole, s, w, start)
        }
    }

    /// [`Self::split`], the regions found since `start` cancelling the
    /// new ones equal to them.
    fn split_from<B: Bits>(&mut self, whole: B, s: B, w: usize, start: usize) -> u8 {
        let (s, cut) = if self.reduction {
            reduce_and_cut(s, w)
        } else {
            (s, B::ZERO)
        };
        let mut x = 0u8;
        if s == B::ZERO {
            return x;
        }
        if cut == B::ZERO {
            // Each region of `s` holds a cell next to one taken from `whole`
            // (or `s` is `whole`, connected).
            let removed = whole & !s;
            let seeds = if removed == B::ZERO {
                B::ONE << s.trailing()
            } else {
                spread(removed, w) & s
            };
            each_region_seeded(s, w, seeds, |m| x ^= self.add_part(m, w, start));
            return x;
        }
        // Cut where twins allow it, the set may fall apart: each part is
        // reduced and cut again.
        let mut parts = [B::ZERO; 64];
        let mut count = 0;
        each_region_cut(s, w, cut, |m| {
            parts[count] = m;
            count += 1;
        });
        for &m in &parts[..count] {
            x ^= if count == 1 {
                self.add_part(m, w, start)
            } else {
                self.split_from(m, m, w, start)
            };
        }
        x
    }

    /// The nimber of the connected set `m` if known (else 0), pushing it on
    /// the stack of regions if not, or cancelling it with an equal one
    /// pushed since `start`.
    fn add_part<B: Bits>(&mut self, m: B, w: usize, start: usize) -> u8 {
        match self.part(m, w) {
            Part::Known(g) => g,
            Part::Unknown(region) => {
                match self.regions[start..].iter().position(|r| *r == region) {
                    Some(i) => {
                        self.regions.swap_remove(start + i);
                    }
                    None => self.regions.push(region),
                }
                0
            }
        }
    }

    /// Every move of an `h x w` frame (`w <= 11`), the domino nearest the
    /// centre first: `p | 0` for cells `p, p + 1`, `p | 1 << 8` for `p, p + w`.
    /// Taken out of the search; [`Self::restore`] puts it back.
    fn centre_out(&mut self, h: usize, w: usize) -> Vec<u16> {
        let at = h * 12 + w;
        if self.orders.len() <= at {
            self.orders.resize(at + 1, Vec::new());
        }
        if self.orders[at].is_empty() {
            let mut all = Vec::new();
            for p in 0..h * w {
                if (p + 1) % w != 0 {
                    all.push((off_centre(p, 1, h, w), p as u16));
                }
                if p + w < h * w {
                    all.push((off_centre(p, w, h, w), p as u16 | 1 << 8));
                }
            }
            all.sort_unstable();
            self.orders[at] = all.into_iter().map(|(_, code)| code).collect();
        }
        std::mem::take(&mut self.orders[at])
    }

    fn restore(&mut self, h: usize, w: usize, order: Vec<u16>) {
        self.orders[h * 12 + w] = order;
    }

    /// Moves the largest of the regions `start..` to `start`, and gives the sum
    /// of their costs.
    fn largest_first(&mut self, start: usize) -> u32 {
        let parts = &mut self.regions[start..];
        let mut largest = 0;
        for i in 1..parts.len() {
            if parts[i].cells > parts[largest].cells {
                largest = i;
            }
        }
        parts.swap(0, largest);
        parts.iter().map(Region::cost).sum()
    }

    /// The exact nimber of `region`.
    fn exact(&mut self, region: Region) -> Result<u8, SearchError> {
        match self.in_set(region, u64::MAX)? {
            Some(g) => Ok(g),
            // Asked for every nimber up to the bound, the search answers.
            None => unreachable!("a search for every nimber answered none"),
        }
    }

    /// The nimber of `region` if it lies in `requested`, or if the search
    /// finds it exactly anyway; `None` only when it is not in `requested`.
    fn in_set(&mut self, region: Region, requested: u64) -> Result<Option<u8>, SearchError> {
        if let Some(g) = self.table.get(region.image, usize::from(region.w)) {
            return Ok(Some(g));
        }
        let excluded = self.table.excluded(region.image, usize::from(region.w));
        let requested = if region.cells <= ALWAYS_EXACT {
            u64::MAX
        } else {
            requested
        } & !excluded;
        if requested == 0 {
            return Ok(None);
        }
        let (regions, pending) = (self.regions.len(), self.pending.len());
        let found = self.in_set_searched(region, requested, pending);
        self.regions.truncate(regions);
        self.pending.truncate(pending);
        match found? {
            Answer::Exact(g) => Ok(Some(g)),
            Answer::Not(more) => {
                if more & !excluded != 0 {
                    self.table
                        .exclude(region.image, usize::from(region.w), more);
                }
                Ok(None)
            }
        }
    }

    fn in_set_searched(
        &mut self,
        region: Region,
        requested: u64,
        pending: usize,
    ) -> Result<Answer, SearchError> {
        self.visits += 1;
        if self.visits.is_multiple_of(256) {
            checkpoint()?;
            if let Some(shared) = self.table.shared() {
                if shared.stop.load(Ordering::Relaxed) {
                    return Err(SearchError::Cancelled);
                }
                // The threads of a shared table count their regions
                // searched together.
                if shared.visits.fetch_add(256, Ordering::Relaxed) > self.most_visits {
                    return Err(SearchError::StateLimit {
                        limit: shared.limit(),
                    });
                }
            }
            if self.progress.as_ref().is_some_and(|p| p.is_due()) {
                self.save_progress(false, None)?;
            }
        }
        if self.visits > self.most_visits {
            return Err(SearchError::StateLimit {
                limit: self.table.limit(),
            });
        }
        let (s, w) = (region.image, usize::from(region.w));
        let h = row_of(127 - s.leading_zeros() as usize, w) + 1;
        let (horizontal, vertical) = dominoes(s, w);
        let moves = horizontal.count_ones() + vertical.count_ones();
        let bound = moves.min(u32::from(region.cells) / 2);
        let requested = requested & first(bound + 1);
        if requested == 0 {
            return Ok(Answer::Not(0));
        }
        let most = 63 - requested.leading_zeros();
        let upto = first(most + 1);
        let mut candidates = Candidates {
            set: first(bound + 1),
            above: moves - bound,
        };
        // Options known from the table at once; the others wait.
        let order = self.centre_out(h, w);
        let mut next = 0;
        while let Some(&code) = order.get(next) {
            next += 1;
            let p = usize::from(code & 0x7f);
            let (p, step) = if code >> 8 == 0 {
                if horizontal >> p & 1 == 0 {
                    continue;
                }
                (p, 1)
            } else {
                if vertical >> p & 1 == 0 {
                    continue;
                }
                (p, w)
            };
            let start = self.regions.len();
            let x = self.split(s, s & !(1 << p | 1 << (p + step)), w);
            let len = self.regions.len() - start;
            if len == 0 {
                candidates.remove(x);
                if candidates.set & requested == 0 {
                    self.restore(h, w, order);
                    return Ok(Answer::Not(upto & !candidates.set));
                }
            } else {
                let cost = self.largest_first(start) << 8 | off_centre(p, step, h, w);
                self.pending.push(Pending {
                    first: start as u32,
                    len: len as u32,
                    x,
                    cost: u64::from(cost) << 16 | u64::from(code),
                });
            }
        }
        self.restore(h, w, order);
        self.pending[pending..].sort_unstable_by_key(|p| p.cost);
        let mut exact = true;
        for index in pending..self.pending.len() {
            if candidates.set & requested == 0 {
                return Ok(Answer::Not(upto & !candidates.set));
            }
            let option = self.pending[index];
            let mut x = option.x;
            let first = option.first as usize;
            for k in first + 1..first + option.len as usize {
                let other = self.regions[k];
                x ^= self.exact(other)?;
            }
            let ask = xored(candidates.without_largest() & upto, x);
            match self.in_set(self.regions[first], ask)? {
                Some(g) => candidates.remove(g ^ x),
                None => {
                    candidates.remove_largest();
                    exact = false;
                }
            }
        }
        if candidates.above > 0 || candidates.set == 0 {
            debug_assert!(!exact, "an exact search lost the mex");
            return Ok(Answer::Not(upto & !candidates.set));
        }
        let g = candidates.set.trailing_zeros();
        if exact || g <= most {
            self.table
                .insert(region.image, usize::from(region.w), g as u8)?;
            Ok(Answer::Exact(g as u8))
        } else {
            Ok(Answer::Not(upto & !candidates.set))
        }
    }
}

/// The nimber of the options of class `c` of `root` if it lies in `set` (or
/// is known anyway), by `search` if not yet known; with what is then known of
/// the class.
fn ask_class(
    search: &mut Search,
    root: &RootRegion,
    c: usize,
    set: u64,
) -> Result<(Option<u8>, Known), SearchError> {
    let known = root.classes[c].0;
    let (mut x, first, len, excluded) = match known {
        Known::Exact(g) => return Ok((Some(g), known)),
        Known::Unknown {
            x,
            first,
            len,
            excluded,
        } => (x, first as usize, len as usize, excluded),
    };
    let set = set & !excluded;
    if set == 0 {
        return Ok((None, known));
    }
    // Value all regions but the largest, once.
    for &region in &root.regions[first + 1..first + len] {
        x ^= search.exact(region)?;
    }
    let answer = search
        .in_set(root.regions[first], xored(set, x))?
        .map(|g| g ^ x);
    let known = match answer {
        Some(g) => Known::Exact(g),
        None => Known::Unknown {
            x,
            first: first as u32,
            len: 1,
            excluded: excluded | set,
        },
    };
    Ok((answer, known))
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// What a search of a region answers: its nimber, or nimbers it is not.
enum Answer {
    Exact(u8),
    Not(u64),
}

/// What the root search knows of one option of a region of the board.
#[derive(Clone, Copy, Debug)]
enum Known {
    Exact(u8),
    /// The option is `x` xor the nimber of regions `first .. first + len` of
    /// its root region's list, and its nimber is none of `excluded`.
    Unknown {
        x: u8,
        first: u32,
        len: u32,
        excluded: u64,
    },
}

/// A region of the board, as it stands (unreduced), with what the search
/// knows of its options.
#[derive(Debug)]
struct RootRegion {
    cells: u128,
    nimber: Option<u8>,
    /// Each move (the two cells as a mask), in the board's move order, with
    /// its class: moves whose results are congruent (images of one another
    /// under a symmetry of the square) are one class and have one nimber.
    options: Vec<(u128, u32)>,
    /// What is known of each class, and the first move of the class.
    classes: Vec<(Known, u128)>,
    regions: Vec<Region>,
}

/// A board searched region by region, keeping what the search learns between
/// the questions of [`crate::family::PositionSearch`].
#[derive(Debug)]
pub(super) struct BoardSearch {
    empty: u128,
    w: usize,
    search: Search,
    /// The searches of the pool's other threads, on the same shared table
    /// (none when the search's table is its own).
    helpers: Vec<Search>,
    regions: Vec<RootRegion>,
}

impl BoardSearch {
    /// The board of empty cells `empty` in a frame of stride `w`.
    pub(super) fn new(empty: u128, w: usize, search: Search) -> Self {
        let mut regions = Vec::new();
        each_region(empty, w, |cells| {
            regions.push(RootRegion {
                cells,
                nimber: None,
                options: Vec::new(),
                classes: Vec::new(),
                regions: Vec::new(),
            });
        });
        let helpers = (1..rayon::current_num_threads())
            .map_while(|_| search.helper())
            .collect();
        Self {
            empty,
            w,
            search,
            helpers,
            regions,
        }
    }

    /// Keeps the search's progress in `file`: reads what it holds into the
    /// table (the search's `budget` bounding it), or creates it; then the
    /// search saves as it goes, and [`Self::saved`] when it stops.
    ///
    /// # Errors
    /// [`SearchError::Checkpoint`] as [`Progress::open`].
    pub(super) fn keep_progress(
        &mut self,
        file: CheckpointFile,
        budget: Budget,
    ) -> Result<(), SearchError> {
        let (board, roots) = ((self.empty, self.w), self.regions.len());
        let progress = self
            .search
            .table
            .with_table(|table| Progress::open(file, board, roots, table, budget))?;
        let progress = Arc::new(progress);
        for search in std::iter::once(&mut self.search).chain(self.helpers.iter_mut()) {
            search.progress = Some(Arc::clone(&progress));
        }
        for k in 0..self.regions.len() {
            self.apply_facts(k);
        }
        Ok(())
    }

    /// Regions searched by this run, on every thread.
    pub(super) fn searched(&self) -> u64 {
        self.search.visits + self.helpers.iter().map(|h| h.visits).sum::<u64>()
    }

    /// `found`, after saving the checkpoint if the search keeps one: a
    /// search that stopped keeps its error; one that answered fails if the
    /// checkpoint cannot be written.
    ///
    /// # Errors
    /// `found`'s, or the checkpoint's.
    pub(super) fn saved<T>(&self, found: Result<T, SearchError>) -> Result<T, SearchError> {
        let saved = self.search.save_progress(true, Some(self.searched()));
        match (found, saved) {
            (Ok(value), Ok(())) => Ok(value),
            (Ok(_), Err(error)) | (Err(error), _) => Err(error),
        }
    }

    /// The answer's note on the checkpoint, if the search keeps one.
    pub(super) fn progress_note(&self) -> Option<String> {
        let progress = self.search.progress.as_ref()?;
        Some(progress.note(self.search.stored(), self.searched()))
    }

    /// Puts what the checkpoint knows of root region `k`'s classes of
    /// options into them (once they are listed).
    fn apply_facts(&mut self, k: usize) {
        let Some(progress) = &self.search.progress else {
            return;
        };
        let classes = &mut self.regions[k].classes;
        if classes.is_empty() {
            return;
        }
        for (c, fact) in progress.facts_of(k) {
            let Some((known, _)) = classes.get_mut(c) else {
                continue;
            };
            match (known, fact) {
                (known @ Known::Unknown { .. }, Fact::Exact(g)) => *known = Known::Exact(g),
                (Known::Unknown { excluded, .. }, Fact::Not(set)) => *excluded |= set,
                (Known::Exact(_), _) => {}
            }
        }
    }

    /// Sets what is known of class `c` of root region `k`, and records it
    /// for the checkpoint.
    fn learn(&mut self, k: usize, c: usize, known: Known) {
        self.regions[k].classes[c].0 = known;
        if let Some(progress) = &self.search.progress {
            match known {
                Known::Exact(g) => progress.record(k, c, Fact::Exact(g)),
                Known::Unknown { excluded, .. } if excluded != 0 => {
                    progress.record(k, c, Fact::Not(excluded));
                }
                Known::Unknown { .. } => {}
            }
        }
    }

    /// How many other threads search, and how many regions they searched.
    #[cfg(test)]
    pub(super) fn helpers(&self) -> (usize, u64) {
        (
            self.helpers.len(),
            self.helpers.iter().map(|h| h.visits).sum(),
        )
    }

    /// The search, with its table, for another board.
    #[cfg(test)]
    pub(super) fn into_search(self) -> Search {
        self.search
    }

    /// The nimber of the board: the xor of its regions'.
    ///
    /// # Errors
    /// [`SearchError::StateLimit`] when the table fills.
    pub(super) fn nimber(&mut self) -> Result<u8, SearchError> {
        let mut g = 0;
        for k in 0..self.regions.len() {
            g ^= self.region_nimber(k)?;
        }
        Ok(g)
    }

    /// Lists the options of root region `k` once.
    fn prepare(&mut self, k: usize) {
        if !self.regions[k].options.is_empty() {
            return;
        }
        let (cells, w) = (self.regions[k].cells, self.w);
        let (horizontal, vertical) = dominoes(cells, w);
        let mut both = horizontal | vertical;
        let mut options = Vec::new();
        let mut classes = Vec::new();
        let mut images: Vec<(u128, usize)> = Vec::new();
        let mut list = Vec::new();
        while both != 0 {
            let p = both.trailing_zeros() as usize;
            both &= both - 1;
            for (moves, step) in [(horizontal, 1), (vertical, w)] {
                if moves >> p & 1 == 0 {
                    continue;
                }
                let domino = 1 << p | 1 << (p + step);
                let after = cells & !domino;
                let image = if after == 0 {
                    (0, 0)
                } else {
                    let shape = Shape::crop(after, w).canonical();
                    (shape.image, shape.w)
                };
                if let Some(class) = images.iter().position(|&seen| seen == image) {
                    options.push((domino, class as u32));
                    continue;
                }
                images.push(image);
                let start = self.search.regions.len();
                let x = self.search.split(cells, cells & !domino, w);
                let known = if self.search.regions.len() == start {
                    Known::Exact(x)
                } else {
                    self.search.largest_first(start);
                    let first = list.len() as u32;
                    list.extend(self.search.regions.drain(start..));
                    Known::Unknown {
                        x,
                        first,
                        len: list.len() as u32 - first,
                        excluded: 0,
                    }
                };
                options.push((domino, classes.len() as u32));
                classes.push((known, domino));
            }
        }
        self.regions[k].options = options;
        self.regions[k].classes = classes;
        self.regions[k].regions = list;
        self.apply_facts(k);
    }

    /// The nimber of the options of class `c` of root region `k` if it lies
    /// in `set` (or is known anyway), by the search if not yet known; what
    /// the search answers is kept.
    fn ask(&mut self, k: usize, c: usize, set: u64) -> Result<Option<u8>, SearchError> {
        let (answer, known) = ask_class(&mut self.search, &self.regions[k], c, set)?;
        self.learn(k, c, known);
        Ok(answer)
    }

    /// Whether some class of options of root region `k` has nimber `r`,
    /// asking the classes in `order`: all of them, or until one has `r` when
    /// `until_found`. With helpers, every thread takes the next class not yet
    /// asked, and all stop once one of them finds `r` (if `until_found`):
    /// when none has it, every class must be asked anyway (the round that
    /// proves the nimber), and the classes share one table.
    fn ask_round(
        &mut self,
        k: usize,
        order: &[usize],
        r: u8,
        until_found: bool,
    ) -> Result<bool, SearchError> {
        let shared = self.search.table.shared().cloned();
        let Some(shared) = shared.filter(|_| !self.helpers.is_empty() && order.len() > 1) else {
            let mut some = false;
            for &c in order {
                if self.ask(k, c, 1 << r)? == Some(r) {
                    some = true;
                    if until_found {
                        break;
                    }
                }
            }
            return Ok(some);
        };
        shared.stop.store(false, Ordering::Relaxed);
        // The first thread takes the cheapest class left, the others the
        // dearest: a class that has `r` is most often among the cheap ones,
        // and when none has it the dear ones, begun early, end together with
        // the rest.
        let left = Mutex::new(order);
        let found = AtomicBool::new(false);
        let learnt = Mutex::new(Vec::new());
        let failure = Mutex::new(None);
        let signal = crate::theory::cancel::current();
        let root = &self.regions[k];
        let workers = std::iter::once(&mut self.search).chain(self.helpers.iter_mut());
        let (shared, left, found, learnt, failure, signal) =
            (&shared, &left, &found, &learnt, &failure, &signal);
        rayon::scope(|scope| {
            for (index, search) in workers.enumerate() {
                scope.spawn(move |_| {
                    run_under(signal.as_ref(), || {
                        while !shared.stop.load(Ordering::Relaxed) {
                            let taken = {
                                let mut left = lock(left);
                                let taken = if index == 0 {
                                    left.split_first()
                                } else {
                                    left.split_last()
                                };
                                taken.map(|(&c, rest)| {
                                    *left = rest;
                                    c
                                })
                            };
                            let Some(c) = taken else {
                                break;
                            };
                            match ask_class(search, root, c, 1 << r) {
                                Ok((answer, known)) => {
                                    lock(learnt).push((c, known));
                                    if answer == Some(r) {
                                        found.store(true, Ordering::Relaxed);
                                        if until_found {
                                            shared.stop.store(true, Ordering::Relaxed);
                                        }
                                    }
                                }
                                Err(error) => {
                                    // The first error is the one that stopped
                                    // the others (theirs say "cancelled").
                                    lock(failure).get_or_insert(error);
                                    shared.stop.store(true, Ordering::Relaxed);
                                }
                            }
                        }
                    });
                });
            }
        });
        shared.stop.store(false, Ordering::Relaxed);
        let learnt = std::mem::take(&mut *lock(learnt));
        for (c, known) in learnt {
            self.learn(k, c, known);
        }
        if until_found && found.load(Ordering::Relaxed) {
            // What the stopped threads met is of no consequence.
            return Ok(true);
        }
        match lock(failure).take() {
            Some(error) => Err(error),
            None => Ok(found.load(Ordering::Relaxed)),
        }
    }

    /// Whether option `i` of root region `k` has nimber `target` (below 64).
    fn has_nimber(&mut self, k: usize, i: usize, target: u8) -> Result<bool, SearchError> {
        let class = self.regions[k].options[i].1 as usize;
        Ok(self.ask(k, class, 1 << target)? == Some(target))
    }

    /// The nimber of root region `k`, by aspiration.
    fn region_nimber(&mut self, k: usize) -> Result<u8, SearchError> {
        if let Some(g) = self.regions[k].nimber {
            return Ok(g);
        }
        let (cells, w) = (self.regions[k].cells, self.w);
        if let Part::Known(g) = self.search.part(cells, w) {
            self.regions[k].nimber = Some(g);
            return Ok(g);
        }
        self.prepare(k);
        let count = self.regions[k].options.len() as u32;
        let bound = count.min(cells.count_ones() / 2) as u8;
        // The classes of options, cheapest first.
        let mut order: Vec<usize> = (0..self.regions[k].classes.len()).collect();
        let h = row_of(127 - cells.leading_zeros() as usize, w) + 1;
        let cost = |root: &RootRegion, i: usize| {
            let (known, domino) = root.classes[i];
            let regions: u32 = match known {
                Known::Exact(_) => 0,
                Known::Unknown { first, len, .. } => root.regions
                    [first as usize..(first + len) as usize]
                    .iter()
                    .map(Region::cost)
                    .sum(),
            };
            let p = domino.trailing_zeros() as usize;
            let step = 127 - domino.leading_zeros() as usize - p;
            regions << 8 | off_centre(p, step, h, w)
        };
        let root = &self.regions[k];
        order.sort_by_key(|&i| cost(root, i));
        let mut g = bound;
        'values: for r in 0..bound {
            let classes = &self.regions[k].classes;
            if classes
                .iter()
                .any(|c| matches!(c.0, Known::Exact(v) if v == r))
            {
                continue;
            }
            // Each option is asked for `r` alone: a one-nimber question
            // prunes most (asking for 0 along, to have the winning moves
            // ready, made `cram(5, 8)`'s nimber search twice as long).
            if self.ask_round(k, &order, r, true)? {
                continue 'values;
            }
            g = r;
            break;
        }
        let shape = Shape::crop(cells, w).canonical();
        self.search.table.insert(shape.image, shape.w, g)?;
        self.regions[k].nimber = Some(g);
        Ok(g)
    }

    /// The moves of the board to positions of nimber `target`, in the board's
    /// move order: each as its two cells.
    ///
    /// # Errors
    /// [`SearchError::StateLimit`] when the table fills.
    pub(super) fn moves_to(
        &mut self,
        target: u8,
        mut visit: impl FnMut(usize, usize),
    ) -> Result<(), SearchError> {
        let total = self.nimber()?;
        // Every class of options asked at once, on every thread; then the
        // moves in order, from what is known.
        for k in 0..self.regions.len() {
            let wanted = target ^ total ^ self.regions[k].nimber.unwrap_or(0);
            if wanted < 64 && !self.helpers.is_empty() {
                self.prepare(k);
                let all: Vec<usize> = (0..self.regions[k].classes.len()).collect();
                self.ask_round(k, &all, wanted, false)?;
            }
        }
        let (horizontal, vertical) = dominoes(self.empty, self.w);
        let mut both = horizontal | vertical;
        while both != 0 {
            let p = both.trailing_zeros() as usize;
            both &= both - 1;
            for (moves, step) in [(horizontal, 1), (vertical, self.w)] {
                if moves >> p & 1 == 0 {
                    continue;
                }
                let domino = 1u128 << p | 1 << (p + step);
                let Some(k) = self.regions.iter().position(|r| r.cells >> p & 1 == 1) else {
                    continue;
                };
                let wanted = target ^ total ^ self.regions[k].nimber.unwrap_or(0);
                self.prepare(k);
                let Some(i) = self.regions[k].options.iter().position(|o| o.0 == domino) else {
                    continue;
                };
                if wanted < 64 && self.has_nimber(k, i, wanted)? {
                    visit(p, p + step);
                }
            }
        }
        Ok(())
    }
}
