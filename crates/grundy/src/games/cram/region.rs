//! Sets of empty cells as bits, their regions, their reduction and their
//! canonical images under the eight symmetries of the square.
//!
//! A set of cells lives in a *frame* of stride `w`: cell `(i, j)` is bit
//! `i * w + j`. Boards use their own width; a region is cropped to its bounding
//! box and turned so that its frame is the narrower side.
//!
//! # Reduction (pendant cells)
//! A *pendant* is an empty cell with exactly one empty neighbour. **If every
//! neighbour of an empty cell `c` has a pendant other than `c`, removing `c`
//! leaves an equivalent game.** Proof, by induction on the cells: the moves of
//! `H` are those of `H - c` and the dominoes `{c, s}` over the neighbours `s`
//! of `c`. The condition survives every move that spares `c` (a pendant `t`
//! of `s` keeps `s` as its only neighbour until `s` is filled, and then `s` is
//! no longer next to `c`), so by induction those moves have the same value in
//! `H` and `H - c`. And `{c, s}` leaves `H - c - s` (where the pendant `t` of
//! `s` is now alone), which is `H - s - t` without `c`: the value of the move
//! `{s, t}` of `H - c`. So `H` and `H - c` have the same set of option values.
//! Two cases are applied: of the pendants of one cell all but one are removed
//! (Beling's "star reduction"), and every cell that is neither a pendant nor
//! next to one and whose neighbours all have pendants (his "bridges"; they are
//! never adjacent, so they go together). P. Beling, igs crate, `games::cram`.

/// Bits `0..n` set (`n < 128`).
pub(super) const fn low(n: usize) -> u128 {
    if n >= 128 {
        u128::MAX
    } else {
        (1u128 << n) - 1
    }
}

/// The column masks of a frame of stride `w`, over all 128 bits.
#[derive(Clone, Copy)]
pub(super) struct Masks {
    pub(super) first_col: u128,
    pub(super) last_col: u128,
}

impl Masks {
    const fn of(w: usize) -> Self {
        let mut first_col = 0u128;
        let mut i = 0;
        while i < 128 {
            first_col |= 1 << i;
            i += w;
        }
        Self {
            first_col,
            last_col: first_col << (w - 1),
        }
    }
}

/// The masks of every stride from 1 to 128 (index 0 is stride 1).
static MASKS: [Masks; 128] = {
    let mut all = [Masks {
        first_col: 0,
        last_col: 0,
    }; 128];
    let mut w = 1;
    while w <= 128 {
        all[w - 1] = Masks::of(w);
        w += 1;
    }
    all
};

/// The masks of stride `w` (`1..=128`).
pub(super) fn masks(w: usize) -> Masks {
    MASKS[w - 1]
}

/// The cells next to a cell of `m`, in a frame of stride `w`.
pub(super) fn spread(m: u128, w: usize) -> u128 {
    let masks = masks(w);
    ((m & !masks.last_col) << 1) | ((m & !masks.first_col) >> 1) | (m << w) | (m >> w)
}

/// The horizontal dominoes of `s` (by their left cell) and its vertical ones
/// (by their upper cell).
pub(super) fn dominoes(s: u128, w: usize) -> (u128, u128) {
    (s & (s >> 1) & !masks(w).last_col, s & (s >> w))
}

/// `s` without isolated cells and with the pendant reduction of the module
/// documentation applied until nothing changes.
pub(super) fn reduce(mut s: u128, w: usize) -> u128 {
    let last = masks(w).last_col;
    loop {
        // Cells with a neighbour to the right, left, below, above.
        let right = s & (s >> 1) & !last;
        let left = s & ((s & !last) << 1);
        let down = s & (s >> w);
        let up = s & (s << w);
        let any = right | left | down | up;
        let two = (right & left) | (down & up) | ((right | left) & (down | up));
        let pendants = any & !two;
        // The cell each pendant hangs on, direction by direction; a cell met
        // twice keeps its first pendant and loses the later ones.
        let mut drop = 0u128;
        let mut held = (pendants & down) << w;
        let from_left = (pendants & right) << 1;
        drop |= (from_left & held) >> 1;
        held |= from_left;
        let from_below = (pendants & up) >> w;
        drop |= (from_below & held) << w;
        held |= from_below;
        let from_right = (pendants & left) >> 1;
        drop |= (from_right & held) << 1;
        held |= from_right;
        // Bridges: neither pendant nor held, every neighbour held (isolated
        // cells too).
        let free = s & !held;
        drop |= s & !pendants & !held & !spread(free, w);
        let before = s;
        s &= any & !drop;
        if s == before {
            return s;
        }
    }
}

/// Calls `visit` with each connected region of `s` (of two cells or more).
pub(super) fn each_region(s: u128, w: usize, mut visit: impl FnMut(u128)) {
    let mut rest = s;
    while rest != 0 {
        let mut region = rest & rest.wrapping_neg();
        loop {
            let grown = (region | spread(region, w)) & rest;
            if grown == region {
                break;
            }
            region = grown;
        }
        rest &= !region;
        if region & (region - 1) != 0 {
            visit(region);
        }
    }
}

/// A set of cells cropped to its bounding box: `h` rows of stride `w`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Shape {
    pub(super) bits: u128,
    pub(super) h: usize,
    pub(super) w: usize,
}

/// A canonical image: the least of the images of a shape under the eight
/// symmetries, among those of the narrower width, with that width.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Canonical {
    pub(super) image: u128,
    pub(super) w: usize,
    /// Whether the symmetry strategy proves the shape a second-player win.
    pub(super) zero: bool,
}

/// Reverses the low `w` bits of `row` (`w <= 16`).
const fn reversed(row: u128, w: usize) -> u128 {
    ((row as u16).reverse_bits() >> (16 - w)) as u128
}

impl Shape {
    /// Crops the non-empty set `m` of a frame of stride `w`.
    pub(super) fn crop(m: u128, w: usize) -> Self {
        let r0 = m.trailing_zeros() as usize / w;
        let r1 = (127 - m.leading_zeros() as usize) / w;
        let mut m = m >> (r0 * w);
        let h = r1 - r0 + 1;
        // The columns used: fold the rows onto the first.
        let mut columns = 0u128;
        let row = low(w);
        let mut rest = m;
        while rest != 0 {
            columns |= rest & row;
            rest >>= w;
        }
        let c0 = columns.trailing_zeros() as usize;
        let c1 = 127 - columns.leading_zeros() as usize;
        let w2 = c1 - c0 + 1;
        if c0 == 0 && w2 == w {
            return Self { bits: m, h, w };
        }
        m >>= c0;
        let row2 = low(w2);
        let mut bits = 0u128;
        for i in 0..h {
            bits |= ((m >> (i * w)) & row2) << (i * w2);
        }
        Self { bits, h, w: w2 }
    }

    /// The same cells turned a quarter about the main diagonal: `w` rows of
    /// stride `h`.
    fn transposed(&self) -> Self {
        let (h, w) = (self.h, self.w);
        let mut bits = 0u128;
        for i in 0..h {
            let mut row = (self.bits >> (i * w)) & low(w);
            while row != 0 {
                let j = row.trailing_zeros() as usize;
                row &= row - 1;
                bits |= 1 << (j * h + i);
            }
        }
        Self { bits, h: w, w: h }
    }

    /// The images mirrored left-right, top-bottom, and both (a half turn), of
    /// a shape at most 16 wide.
    fn mirrors(&self) -> [u128; 3] {
        let (h, w) = (self.h, self.w);
        let mut t = [0u128; 3];
        for i in 0..h {
            let row = (self.bits >> (i * w)) & low(w);
            let rev = reversed(row, w);
            let down = (h - 1 - i) * w;
            t[0] |= rev << (i * w);
            t[1] |= row << down;
            t[2] |= rev << down;
        }
        t
    }

    const fn cell(&self, i: usize, j: usize) -> u128 {
        1 << (i * self.w + j)
    }

    /// Whether the symmetry strategy proves this set a second-player win, given
    /// its mirror images: it is invariant under an involution of its box that
    /// fixes none of its cells and swaps no two adjacent ones of them.
    fn zero_by_mirrors(&self, [lr, tb, half]: [u128; 3]) -> bool {
        let (s, h, w) = (self.bits, self.h, self.w);
        let has = |m: u128| s & m == m;
        if half == s {
            let holds = match (h % 2, w % 2) {
                (0, 0) => true,
                (1, 1) => !has(self.cell(h / 2, w / 2)),
                (1, 0) => !has(self.cell(h / 2, w / 2 - 1) | self.cell(h / 2, w / 2)),
                _ => !has(self.cell(h / 2 - 1, w / 2) | self.cell(h / 2, w / 2)),
            };
            if holds {
                return true;
            }
        }
        if lr == s {
            let holds = (0..h).all(|i| {
                if w % 2 == 1 {
                    !has(self.cell(i, w / 2))
                } else {
                    !has(self.cell(i, w / 2 - 1) | self.cell(i, w / 2))
                }
            });
            if holds {
                return true;
            }
        }
        if tb == s {
            let holds = (0..w).all(|j| {
                if h % 2 == 1 {
                    !has(self.cell(h / 2, j))
                } else {
                    !has(self.cell(h / 2 - 1, j) | self.cell(h / 2, j))
                }
            });
            if holds {
                return true;
            }
        }
        false
    }

    /// The canonical image of this shape, and whether the symmetry strategy
    /// proves it zero (by a mirror, a half turn, or a diagonal of a square box:
    /// the diagonals fix their own cells and swap no adjacent pair).
    pub(super) fn canonical(&self) -> Canonical {
        let base = if self.w <= self.h {
            *self
        } else {
            self.transposed()
        };
        let mirrors = base.mirrors();
        let mut image = base.bits.min(mirrors[0]).min(mirrors[1]).min(mirrors[2]);
        let mut zero = base.zero_by_mirrors(mirrors);
        if base.w == base.h {
            let turned = base.transposed();
            let more = turned.mirrors();
            image = image
                .min(turned.bits)
                .min(more[0])
                .min(more[1])
                .min(more[2]);
            let n = base.w;
            // `turned` is the transpose, (i, j) -> (j, i); its half turn `more[2]`
            // is the image under the anti-diagonal reflection,
            // (i, j) -> (n - 1 - j, n - 1 - i).
            let diagonal =
                turned.bits == base.bits && (0..n).all(|i| base.bits & base.cell(i, i) == 0);
            let anti =
                more[2] == base.bits && (0..n).all(|i| base.bits & base.cell(i, n - 1 - i) == 0);
            zero = zero || diagonal || anti;
        }
        Canonical {
            image,
            w: base.w,
            zero,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `rows` as bits of a frame of their width: `.` a cell of the set.
    fn set(rows: &str) -> (u128, usize) {
        let lines: Vec<&str> = rows.split('/').collect();
        let w = lines[0].len();
        let mut s = 0u128;
        for (i, line) in lines.iter().enumerate() {
            for (j, ch) in line.chars().enumerate() {
                if ch == '.' {
                    s |= 1 << (i * w + j);
                }
            }
        }
        (s, w)
    }

    #[test]
    fn reduction_drops_extra_pendants_and_bridges_only() {
        // A line of three: one pendant of the middle cell goes.
        let (s, w) = set("...");
        assert_eq!(reduce(s, w).count_ones(), 2);
        // A line of five: the middle cell is a bridge between two held cells.
        let (s, w) = set(".....");
        assert_eq!(reduce(s, w).count_ones(), 4);
        // A 2 x 2 square has no pendant: nothing changes.
        let (s, w) = set("../..");
        assert_eq!(reduce(s, w), s);
        // A domino stays a domino; isolated cells go.
        let (s, w) = set("..#./....");
        assert_eq!(reduce(s, w), s);
        let (s, w) = set(".#./#..");
        assert_eq!(reduce(s, w).count_ones(), 2);
        // A plus sign: four pendants on one cell, three go.
        let (s, w) = set("#.#/.../#.#");
        assert_eq!(reduce(s, w).count_ones(), 2);
    }

    #[test]
    fn canonical_images_agree_under_the_eight_symmetries() {
        let (s, w) = set("...#/.#../..##");
        let shape = Shape::crop(s, w);
        let c = shape.canonical();
        let t = shape.transposed();
        for other in [shape, t] {
            let m = other.mirrors();
            for bits in [other.bits, m[0], m[1], m[2]] {
                let image = Shape {
                    bits,
                    h: other.h,
                    w: other.w,
                };
                assert_eq!(image.canonical(), c);
            }
        }
        assert_eq!(c.w, 3);
        assert!(!c.zero);
        assert!(Shape::crop(set("../..").0, 2).canonical().zero);
        assert!(!Shape::crop(set("...").0, 3).canonical().zero);
    }

    #[test]
    fn crop_removes_empty_rows_and_columns() {
        let (s, w) = set("####/#.#./#..#/####");
        let shape = Shape::crop(s, w);
        assert_eq!((shape.h, shape.w), (2, 3));
        assert_eq!(shape.bits, set(".#./..#").0);
    }
}
