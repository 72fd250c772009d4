//! Compact storage of a Grundy sequence: one byte per value while every value is below
//! 256, two bytes below 65536, four bytes beyond; the storage widens itself when a
//! larger value arrives.

/// A value type the engine's inner loops are specialised for.
pub(crate) trait StoredValue:
    Copy + Eq + std::ops::BitXor<Output = Self> + Send + Sync + 'static
{
    /// The value as a `u32`.
    fn get(self) -> u32;
    /// The value `v`, which the caller guarantees fits.
    fn narrow(v: u32) -> Self;
    /// The mirror, when it holds this type.
    fn mirror_of(mirror: &Mirror) -> Option<Reversed<'_, Self>>;
    /// Stores the last value of `g` in the mirror, rebuilding it (with the last
    /// `window` values at least) when it is full or of another type.
    fn mirror_push(mirror: &mut Mirror, g: &[Self], window: usize);
    /// The slice as bytes, when the cells are bytes.
    fn as_u8(values: &[Self]) -> Option<&[u8]>;
    /// The slice as 16-bit values, when the cells are.
    fn as_u16(values: &[Self]) -> Option<&[u16]>;
}

/// The last values in reverse order, so that `G(m - a)` for increasing `a` is read
/// forwards: a buffer of capacity `c` holding `G(i)` at index `lo + c - 1 - i` for the
/// heaps `i` from `lo` on. Once the sequence is long the buffer keeps only the last
/// [`MIRROR_WINDOW`] to `2 MIRROR_WINDOW` values (a fixed few hundred kilobytes, not a
/// second copy of the sequence); reads further back go to the values themselves.
#[derive(Debug, Clone, Default)]
pub(crate) enum Mirror {
    #[default]
    Empty,
    Narrow(Vec<u8>, usize),
    Medium(Vec<u16>, usize),
    Wide(Vec<u32>, usize),
}

/// Heaps of the mirror kept when it is rebuilt (at least this many are always there).
pub(crate) const MIRROR_WINDOW: usize = 1 << 16;

impl Mirror {
    /// Bytes the mirror holds.
    #[cfg(test)]
    pub(crate) fn allocated_bytes(&self) -> usize {
        match self {
            Self::Empty => 0,
            Self::Narrow(cells, _) => cells.capacity(),
            Self::Medium(cells, _) => 2 * cells.capacity(),
            Self::Wide(cells, _) => 4 * cells.capacity(),
        }
    }
}

/// A borrowed [`Mirror`] of one cell type.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Reversed<'a, T> {
    cells: &'a [T],
    lo: usize,
}

impl<'a, T> Reversed<'a, T> {
    /// `G(m - a)` for `a` in `from..=to`, in that order, when the mirror holds them
    /// (`m - to` from `lo` on, and `m` at most one past the last heap pushed).
    pub(crate) fn run(&self, m: usize, from: usize, to: usize) -> Option<&'a [T]> {
        if from > to || to > m || m - to < self.lo {
            return None;
        }
        let base = (self.lo + self.cells.len()).checked_sub(m + 1)?;
        self.cells.get(base + from..=base + to)
    }

    /// The largest `a` whose `G(m - a)` the mirror holds.
    pub(crate) fn reach(&self, m: usize) -> usize {
        m.saturating_sub(self.lo)
    }
}

/// Pushes the last of the values `g` (as `cell` makes them) into a reversed buffer of
/// the last heaps (see [`Mirror`]): `cells[lo + cells.len() - 1 - i]` holds heap `i`.
fn push_reversed<T: Copy, C: Copy>(
    cells: &mut Vec<C>,
    lo: &mut usize,
    g: &[T],
    window: usize,
    cell: impl Fn(T) -> C,
) {
    let n = g.len() - 1;
    // Room for one more heap: the next search reads G(m) with m = g.len().
    if !cells.is_empty() && *lo + cells.len() > n + 1 {
        let at = *lo + cells.len() - 1 - n;
        cells[at] = cell(g[n]);
        return;
    }
    // Rebuilt with the last values (all of them while there are few) and as much room
    // again for the next ones.
    *lo = (n + 1).saturating_sub(window.max(1));
    let kept = n + 1 - *lo;
    let capacity = (2 * kept + 2).max(1024);
    *cells = vec![cell(g[0]); capacity];
    for (i, &value) in g.iter().enumerate().skip(*lo) {
        cells[*lo + capacity - 1 - i] = cell(value);
    }
}

/// The low 8 bits of the last values, laid out as in a [`Mirror`]: the byte search of
/// 9-bit values reads them (see the engine).
#[derive(Debug, Clone, Default)]
pub(crate) struct LowMirror {
    cells: Vec<u8>,
    lo: usize,
}

impl LowMirror {
    /// Takes in the last value of `g`.
    pub(crate) fn push<T: StoredValue>(&mut self, g: &[T], window: usize) {
        push_reversed(&mut self.cells, &mut self.lo, g, window, |v| v.get() as u8);
    }

    pub(crate) fn reversed(&self) -> Reversed<'_, u8> {
        Reversed {
            cells: &self.cells,
            lo: self.lo,
        }
    }

    /// Bytes held.
    #[cfg(test)]
    pub(crate) fn allocated_bytes(&self) -> usize {
        self.cells.capacity()
    }
}

macro_rules! impl_cell {
    ($t:ty, $variant:ident, $as_u8:expr, $as_u16:expr) => {
        impl StoredValue for $t {
            #[inline(always)]
            fn get(self) -> u32 {
                u32::from(self)
            }
            #[inline(always)]
            fn narrow(v: u32) -> Self {
                v as $t
            }
            #[inline(always)]
            fn mirror_of(mirror: &Mirror) -> Option<Reversed<'_, Self>> {
                match mirror {
                    Mirror::$variant(cells, lo) => Some(Reversed { cells, lo: *lo }),
                    _ => None,
                }
            }
            fn mirror_push(mirror: &mut Mirror, g: &[Self], window: usize) {
                if !matches!(mirror, Mirror::$variant(..)) {
                    *mirror = Mirror::$variant(Vec::new(), 0);
                }
                if let Mirror::$variant(cells, lo) = mirror {
                    push_reversed(cells, lo, g, window, |v| v);
                }
            }
            #[inline(always)]
            fn as_u8(values: &[Self]) -> Option<&[u8]> {
                $as_u8(values)
            }
            #[inline(always)]
            fn as_u16(values: &[Self]) -> Option<&[u16]> {
                $as_u16(values)
            }
        }
    };
}
impl_cell!(u8, Narrow, Some, |_| None);
impl_cell!(u16, Medium, |_| None, Some);
impl_cell!(u32, Wide, |_| None, |_| None);

/// The values of heaps `0, 1, 2, ...` of a heap game, stored compactly.
///
/// ```
/// use grundy::sequence::GrundyValues;
/// let mut values: GrundyValues = [0, 1, 2].into_iter().collect();
/// assert_eq!(values.bytes_per_value(), 1);
/// values.push(1000);
/// assert_eq!(values.bytes_per_value(), 2);
/// assert_eq!(values.to_vec(), [0, 1, 2, 1000]);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GrundyValues {
    pub(crate) store: Store,
    max_value: u32,
}

#[derive(Debug, Clone)]
pub(crate) enum Store {
    Narrow(Vec<u8>),
    Medium(Vec<u16>),
    Wide(Vec<u32>),
}

impl PartialEq for Store {
    fn eq(&self, other: &Self) -> bool {
        let (a, b) = (StoreIter::new(self), StoreIter::new(other));
        a.len() == b.len() && a.zip(b).all(|(x, y)| x == y)
    }
}
impl Eq for Store {}

impl Default for GrundyValues {
    fn default() -> Self {
        Self::new()
    }
}

impl GrundyValues {
    /// An empty sequence.
    pub fn new() -> Self {
        Self {
            store: Store::Narrow(Vec::new()),
            max_value: 0,
        }
    }

    /// The number of values (heaps `0..len()`).
    pub fn len(&self) -> usize {
        match &self.store {
            Store::Narrow(v) => v.len(),
            Store::Medium(v) => v.len(),
            Store::Wide(v) => v.len(),
        }
    }

    /// True when no value is stored.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The value of heap `heap`, if computed.
    pub fn get(&self, heap: usize) -> Option<u32> {
        match &self.store {
            Store::Narrow(v) => v.get(heap).map(|&x| u32::from(x)),
            Store::Medium(v) => v.get(heap).map(|&x| u32::from(x)),
            Store::Wide(v) => v.get(heap).copied(),
        }
    }

    /// The largest value stored (0 when empty).
    pub fn max_value(&self) -> u32 {
        self.max_value
    }

    /// Bytes used per value: 1, 2 or 4.
    pub fn bytes_per_value(&self) -> usize {
        match &self.store {
            Store::Narrow(_) => 1,
            Store::Medium(_) => 2,
            Store::Wide(_) => 4,
        }
    }

    /// Appends the value of the next heap, widening the storage when needed.
    pub fn push(&mut self, value: u32) {
        self.widen_for(value);
        self.max_value = self.max_value.max(value);
        match &mut self.store {
            Store::Narrow(v) => v.push(value as u8),
            Store::Medium(v) => v.push(value as u16),
            Store::Wide(v) => v.push(value),
        }
    }

    /// Records that values up to `value` were stored directly into the store.
    pub(crate) fn note_max(&mut self, value: u32) {
        self.max_value = self.max_value.max(value);
    }

    /// Drops every value from heap `len` on.
    pub fn truncate(&mut self, len: usize) {
        match &mut self.store {
            Store::Narrow(v) => v.truncate(len),
            Store::Medium(v) => v.truncate(len),
            Store::Wide(v) => v.truncate(len),
        }
        self.max_value = self.iter().max().unwrap_or(0);
    }

    /// Reserves room for exactly `additional` more values: grown a chunk at a time,
    /// the storage stays at its width per value (large reallocations move pages, not
    /// bytes), where doubling could leave half of it unused.
    pub fn reserve(&mut self, additional: usize) {
        match &mut self.store {
            Store::Narrow(v) => v.reserve_exact(additional),
            Store::Medium(v) => v.reserve_exact(additional),
            Store::Wide(v) => v.reserve_exact(additional),
        }
    }

    /// Bytes allocated for the values (their capacity, not only their length).
    #[cfg(test)]
    pub(crate) fn allocated_bytes(&self) -> usize {
        match &self.store {
            Store::Narrow(v) => v.capacity(),
            Store::Medium(v) => 2 * v.capacity(),
            Store::Wide(v) => 4 * v.capacity(),
        }
    }

    /// The values in heap order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = u32> + '_ {
        StoreIter::new(&self.store)
    }

    /// The values as a `Vec<u32>`.
    pub fn to_vec(&self) -> Vec<u32> {
        self.iter().collect()
    }

    fn widen_for(&mut self, value: u32) {
        let widened = match &self.store {
            Store::Narrow(v) if value > u32::from(u8::MAX) => {
                if value > u32::from(u16::MAX) {
                    Some(Store::Wide(v.iter().map(|&x| u32::from(x)).collect()))
                } else {
                    Some(Store::Medium(v.iter().map(|&x| u16::from(x)).collect()))
                }
            }
            Store::Medium(v) if value > u32::from(u16::MAX) => {
                Some(Store::Wide(v.iter().map(|&x| u32::from(x)).collect()))
            }
            _ => None,
        };
        if let Some(store) = widened {
            self.store = store;
        }
    }
}

impl FromIterator<u32> for GrundyValues {
    fn from_iter<I: IntoIterator<Item = u32>>(iter: I) -> Self {
        let mut values = Self::new();
        for v in iter {
            values.push(v);
        }
        values
    }
}

#[derive(Debug)]
struct StoreIter<'a> {
    store: &'a Store,
    next: usize,
    len: usize,
}

impl<'a> StoreIter<'a> {
    fn new(store: &'a Store) -> Self {
        let len = match store {
            Store::Narrow(v) => v.len(),
            Store::Medium(v) => v.len(),
            Store::Wide(v) => v.len(),
        };
        Self {
            store,
            next: 0,
            len,
        }
    }
}

impl Iterator for StoreIter<'_> {
    type Item = u32;
    fn next(&mut self) -> Option<u32> {
        if self.next >= self.len {
            return None;
        }
        let i = self.next;
        self.next += 1;
        Some(match self.store {
            Store::Narrow(v) => u32::from(v[i]),
            Store::Medium(v) => u32::from(v[i]),
            Store::Wide(v) => v[i],
        })
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let rest = self.len - self.next;
        (rest, Some(rest))
    }
    /// Skips in one step: `values.iter().skip(done)`, as a file appends the values
    /// computed since its last write, must not walk the `done` values one by one.
    fn nth(&mut self, n: usize) -> Option<u32> {
        self.next = self.next.saturating_add(n).min(self.len);
        self.next()
    }
}

impl ExactSizeIterator for StoreIter<'_> {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widens_and_keeps_values() {
        let mut values = GrundyValues::new();
        assert!(values.is_empty());
        for v in [3, 255] {
            values.push(v);
        }
        assert_eq!(values.bytes_per_value(), 1);
        values.push(256);
        assert_eq!(values.bytes_per_value(), 2);
        values.push(70_000);
        assert_eq!(values.bytes_per_value(), 4);
        assert_eq!(values.to_vec(), [3, 255, 256, 70_000]);
        assert_eq!(values.max_value(), 70_000);
        assert_eq!(values.get(2), Some(256));
        assert_eq!(values.get(4), None);
        values.truncate(2);
        assert_eq!(values.max_value(), 255);
        let narrow: GrundyValues = [3, 255].into_iter().collect();
        assert_eq!(values, narrow, "equality ignores the storage width");
        let mut jump = GrundyValues::new();
        jump.push(1);
        jump.push(1 << 20);
        assert_eq!(jump.to_vec(), [1, 1 << 20]);
    }
}
