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
//!
//! # Twins
//! **If two cells `a` and `b` each have exactly the two neighbours `c` and
//! `d`, removing the edges `ac` and `bd` (the two cells stay) leaves an
//! equivalent game** (Cram on a graph: a move removes two adjacent vertices).
//! On the grid they are opposite corners of a 2 x 2 block with no neighbour
//! outside it, and the edges removed are the block's two horizontal ones: the
//! block may then split its region in two (Beling's igs, `games::cram`, which
//! forbids those moves when splitting). Proof, by induction on the cells:
//! call the graphs `G` and `G'`. A move away from the four cells keeps the
//! condition, and the positions agree by induction. A move `{c, x}` with `x`
//! outside leaves `a` and `b` both pendants of `d` in `G`, so `b` can go (the
//! pendant reduction), and in `G'` leaves `b` isolated: the same game; so for
//! `{d, y}`. Inside the block `G'` keeps `{a, d}` and `{b, c}`, whose results
//! are the same graphs in `G` (the edges removed touch a removed cell), and
//! `G`'s other two moves give graphs isomorphic to these: `G - a - c` is `G -
//! b - c` with `a` and `b` exchanged, `G - b - d` likewise `G - a - d`. So `G`
//! and `G'` have the same option values. Blocks whose cut edges meet are one
//! block (a lone 2 x 2 square, whose corners are twins both ways) and are cut
//! once; other blocks do not touch each other's twins, so all are cut
//! together.

use std::ops::{BitAnd, BitOr, BitXor, Not, Shl, Shr, Sub};

/// Bits `0..n` set (`n < 128`).
pub(super) const fn low(n: usize) -> u128 {
    if n >= 128 {
        u128::MAX
    } else {
        (1u128 << n) - 1
    }
}

/// `ceil(2^16 / w)` for each stride `w` from 1 to 128 (index 0 unused).
static RECIPROCALS: [u32; 129] = {
    let mut all = [0u32; 129];
    let mut w = 1;
    while w <= 128 {
        all[w] = 65536_u32.div_ceil(w as u32);
        w += 1;
    }
    all
};

/// The row of bit `p < 128` of a frame of stride `1 <= w <= 128`: `p / w` by a
/// multiplication (a division takes tens of cycles). Exact: with
/// `c = (2^16 + d) / w`, `0 <= d < w`, `p c / 2^16 = p / w + p d / (w 2^16)`
/// and `p d < 2^14`, so the error never reaches the next multiple of `1 / w`.
pub(super) fn row_of(p: usize, w: usize) -> usize {
    debug_assert!(p < 128 && (1..=128).contains(&w));
    (p * RECIPROCALS[w] as usize) >> 16
}

/// The column masks of a frame of stride `w`, over all the bits of a word.
#[derive(Clone, Copy)]
pub(super) struct Masks<B> {
    first_col: B,
    last_col: B,
}

/// The masks of every stride from 1 to `N` (index 0 is stride 1), over `N`
/// bits.
const fn masks_of<const N: usize>() -> [Masks<u128>; N] {
    let mut all = [Masks {
        first_col: 0,
        last_col: 0,
    }; N];
    let mut w = 1;
    while w <= N {
        let mut first_col = 0u128;
        let mut i = 0;
        while i < N {
            first_col |= 1 << i;
            i += w;
        }
        all[w - 1] = Masks {
            first_col,
            last_col: first_col << (w - 1) & low(N),
        };
        w += 1;
    }
    all
}

static MASKS_128: [Masks<u128>; 128] = masks_of::<128>();

static MASKS_64: [Masks<u64>; 64] = {
    let wide = masks_of::<64>();
    let mut all = [Masks {
        first_col: 0,
        last_col: 0,
    }; 64];
    let mut i = 0;
    while i < 64 {
        all[i] = Masks {
            first_col: wide[i].first_col as u64,
            last_col: wide[i].last_col as u64,
        };
        i += 1;
    }
    all
};

/// A word of cells: `u64` for frames of fewer than 64 cells (the common case,
/// twice as fast), `u128` for the others. Shifts stay below the word's width:
/// a frame of `h x w` cells in a word of `N` bits has `h * w < N`, or
/// `h * w <= 128` for `u128` with every shift below 128.
pub(super) trait Bits:
    Copy
    + Eq
    + Ord
    + std::fmt::Debug
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + Shl<usize, Output = Self>
    + Shr<usize, Output = Self>
    + Sub<Output = Self>
{
    const ZERO: Self;
    const ONE: Self;
    const BITS: usize;
    fn masks(w: usize) -> Masks<Self>;
    fn count(self) -> u32;
    fn trailing(self) -> usize;
    fn leading(self) -> usize;
    fn reversed(self) -> Self;
    fn low(n: usize) -> Self;
    fn wide(self) -> u128;
    /// `bits` in a word of this width (the caller checks they fit).
    fn narrow(bits: u128) -> Self;
}

/// The items of [`Bits`] that read the same for every width: the constants, the
/// masks of the table `$masks`, and the integer's own bit counts.
macro_rules! bits_of_the_integer {
    ($bits:literal, $masks:ident) => {
        const ZERO: Self = 0;
        const ONE: Self = 1;
        const BITS: usize = $bits;
        fn masks(w: usize) -> Masks<Self> {
            $masks[w - 1]
        }
        fn count(self) -> u32 {
            self.count_ones()
        }
        fn trailing(self) -> usize {
            self.trailing_zeros() as usize
        }
        fn leading(self) -> usize {
            self.leading_zeros() as usize
        }
        fn reversed(self) -> Self {
            self.reverse_bits()
        }
    };
}

impl Bits for u64 {
    bits_of_the_integer!(64, MASKS_64);
    fn low(n: usize) -> Self {
        if n >= 64 { Self::MAX } else { (1 << n) - 1 }
    }
    fn wide(self) -> u128 {
        u128::from(self)
    }
    fn narrow(bits: u128) -> Self {
        bits as Self
    }
}

impl Bits for u128 {
    bits_of_the_integer!(128, MASKS_128);
    fn low(n: usize) -> Self {
        low(n)
    }
    fn wide(self) -> u128 {
        self
    }
    fn narrow(bits: u128) -> Self {
        bits
    }
}

/// Whether a frame whose cells lie in `bits` (stride `w`) fits a `u64`, with
/// every shift of the region code below 64: the rows up to the last one used,
/// whole, lie in bits 0 to 62, so that the box a region is cropped to (whose
/// mirror images are made by shifts of its area) fits as well. Only the last
/// used bit being below 63 is not enough: a 13 x 5 frame whose cells lie in
/// bits 0 to 62 has a box of 65 cells.
pub(super) const fn fits_u64(bits: u128, w: usize) -> bool {
    if bits == 0 {
        return true;
    }
    let last = 127 - bits.leading_zeros() as usize;
    w < 64 && (last / w + 1) * w < 64
}

/// The cells next to a cell of `m`, in a frame of stride `w`.
pub(super) fn spread<B: Bits>(m: B, w: usize) -> B {
    let masks = B::masks(w);
    ((m & !masks.last_col) << 1) | ((m & !masks.first_col) >> 1) | (m << w) | (m >> w)
}

/// The horizontal dominoes of `s` (by their left cell) and its vertical ones
/// (by their upper cell).
pub(super) fn dominoes<B: Bits>(s: B, w: usize) -> (B, B) {
    (s & (s >> 1) & !B::masks(w).last_col, s & (s >> w))
}

/// The reduced set of [`reduce_and_cut`].
#[cfg(test)]
pub(super) fn reduce<B: Bits>(s: B, w: usize) -> B {
    reduce_and_cut(s, w).0
}

/// `s` without isolated cells and with the pendant reduction of the module
/// documentation applied until nothing changes; and the twin cuts of the
/// reduced set ([`cuts_from`], from the neighbours the last round of the
/// reduction found).
pub(super) fn reduce_and_cut<B: Bits>(mut s: B, w: usize) -> (B, B) {
    let masks = B::masks(w);
    let last = masks.last_col;
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
        let mut drop = B::ZERO;
        let mut held = (pendants & down) << w;
        let from_left = (pendants & right) << 1;
        drop = drop | (from_left & held) >> 1;
        held = held | from_left;
        let from_below = (pendants & up) >> w;
        drop = drop | (from_below & held) << w;
        held = held | from_below;
        let from_right = (pendants & left) >> 1;
        drop = drop | (from_right & held) << 1;
        held = held | from_right;
        // Bridges: neither pendant nor held, every neighbour held (isolated
        // cells too).
        let free = s & !held;
        let next_to_free =
            ((free & !last) << 1) | ((free & !masks.first_col) >> 1) | (free << w) | (free >> w);
        drop = drop | (s & !pendants & !held & !next_to_free);
        let reduced = s & any & !drop;
        if reduced == s {
            return (s, cuts_from(right, left, down, up, w));
        }
        s = reduced;
    }
}

/// The twin cuts of `s` ([`cuts_from`]).
#[cfg(test)]
pub(super) fn twin_cuts<B: Bits>(s: B, w: usize) -> B {
    let last = B::masks(w).last_col;
    let right = s & (s >> 1) & !last;
    let left = s & ((s & !last) << 1);
    let down = s & (s >> w);
    let up = s & (s << w);
    cuts_from(right, left, down, up, w)
}

/// The horizontal edges that may be cut, as the cells left of them: those of
/// every 2 x 2 block of a set two of whose opposite corners have no neighbour
/// outside the block (module documentation, "Twins"); from the cells of the
/// set with a neighbour to the right, left, below and above.
fn cuts_from<B: Bits>(right: B, left: B, down: B, up: B, w: usize) -> B {
    if down == B::ZERO {
        // One row (and every shift below stays under the word's width).
        return B::ZERO;
    }
    // Twins at the top left and bottom right of a block, or at its top right
    // and bottom left; the block by its top left cell.
    let top_left = right & down & !left & !up;
    let bottom_right = left & up & !right & !down;
    let top_right = left & down & !right & !up;
    let bottom_left = right & up & !left & !down;
    let blocks = (top_left & (bottom_right >> (w + 1))) | ((top_right >> 1) & (bottom_left >> w));
    blocks | blocks << w
}

/// `region` and the cells of `rest` next to it, crossing to the right from
/// the cells of `to_right` and to the left from those of `to_left`.
#[inline(always)]
fn grown<B: Bits>(region: B, rest: B, w: usize, to_right: B, to_left: B) -> B {
    (region
        | ((region & to_right) << 1)
        | ((region & to_left) >> 1)
        | (region << w)
        | (region >> w))
        & rest
}

/// Calls `visit` with each connected region of `s` (of two cells or more),
/// the edges right of the cells of `cut` removed.
pub(super) fn each_region_cut<B: Bits>(s: B, w: usize, cut: B, mut visit: impl FnMut(B)) {
    let masks = B::masks(w);
    let to_right = !masks.last_col & !cut;
    let to_left = !masks.first_col & !(cut << 1);
    let mut rest = s;
    while rest != B::ZERO {
        let mut region = B::ONE << rest.trailing();
        loop {
            let grown = grown(region, rest, w, to_right, to_left);
            if grown == region {
                break;
            }
            region = grown;
        }
        rest = rest & !region;
        if region & (region - B::ONE) != B::ZERO {
            visit(region);
        }
    }
}

/// Calls `visit` with each connected region of `s` (of two cells or more).
pub(super) fn each_region<B: Bits>(s: B, w: usize, visit: impl FnMut(B)) {
    each_region_cut(s, w, B::ZERO, visit);
}

/// [`each_region`] for a set `s` each of whose regions holds a cell of
/// `seeds`: each region is grown from a seed, and once it holds every seed
/// left, it is all that is left. A set cut from a connected one has this
/// property with the cells of the set next to those cut away as seeds (a
/// path from any cell to a cut cell leaves the set at such a neighbour), and
/// the cells next to a domino are a few steps apart: the fill stops after a
/// few steps instead of crossing the region.
pub(super) fn each_region_seeded<B: Bits>(s: B, w: usize, seeds: B, mut visit: impl FnMut(B)) {
    let masks = B::masks(w);
    let to_right = !masks.last_col;
    let to_left = !masks.first_col;
    let mut rest = s;
    while rest != B::ZERO {
        let pending = seeds & rest;
        debug_assert!(pending != B::ZERO, "a region without a seed");
        let mut region = B::ONE << if pending == B::ZERO { rest } else { pending }.trailing();
        loop {
            if pending != B::ZERO && pending & !region == B::ZERO {
                region = rest;
                break;
            }
            let grown = grown(region, rest, w, to_right, to_left);
            if grown == region {
                break;
            }
            region = grown;
        }
        rest = rest & !region;
        if region & (region - B::ONE) != B::ZERO {
            visit(region);
        }
    }
}

/// A set of cells cropped to its bounding box: `h` rows of stride `w`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Shape<B> {
    pub(super) bits: B,
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

impl<B: Bits> Shape<B> {
    /// Crops the non-empty set `m` of a frame of stride `w`.
    pub(super) fn crop(m: B, w: usize) -> Self {
        let r0 = row_of(m.trailing(), w);
        let r1 = row_of(B::BITS - 1 - m.leading(), w);
        let mut m = m >> (r0 * w);
        let h = r1 - r0 + 1;
        // The columns used: fold the rows onto the first, halving the rows
        // left at each step.
        let row = B::low(w);
        let mut columns = m;
        let mut span = w;
        while span < h * w {
            columns = columns | columns >> span;
            span *= 2;
        }
        let columns = columns & row;
        let c0 = columns.trailing();
        let c1 = B::BITS - 1 - columns.leading();
        let w2 = c1 - c0 + 1;
        if w2 == w {
            return Self { bits: m, h, w };
        }
        m = m >> c0;
        let row2 = B::low(w2);
        let mut bits = B::ZERO;
        for i in 0..h {
            bits = bits | ((m >> (i * w)) & row2) << (i * w2);
        }
        Self { bits, h, w: w2 }
    }

    /// The same cells turned about the main diagonal: `w` rows of stride `h`.
    fn transposed(&self) -> Self {
        let (h, w) = (self.h, self.w);
        let row = B::low(w);
        let mut bits = B::ZERO;
        for i in 0..h {
            let mut rest = (self.bits >> (i * w)) & row;
            while rest != B::ZERO {
                let j = rest.trailing();
                rest = rest & (rest - B::ONE);
                bits = bits | B::ONE << (j * h + i);
            }
        }
        Self { bits, h: w, w: h }
    }

    /// The images mirrored left-right, top-bottom, and both (a half turn).
    fn mirrors(&self) -> [B; 3] {
        let (h, w) = (self.h, self.w);
        let row = B::low(w);
        let mut tb = B::ZERO;
        for i in 0..h {
            tb = tb | ((self.bits >> (i * w)) & row) << ((h - 1 - i) * w);
        }
        // Reversing all the bits turns the frame half a turn.
        let shift = B::BITS - h * w;
        let half = self.bits.reversed() >> shift;
        let lr = tb.reversed() >> shift;
        [lr, tb, half]
    }

    fn cell(&self, i: usize, j: usize) -> B {
        B::ONE << (i * self.w + j)
    }

    /// Whether the symmetry strategy proves this set a second-player win, given
    /// its mirror images: it is invariant under an involution of its box that
    /// fixes none of its cells and swaps no two adjacent ones of them.
    fn zero_by_mirrors(&self, [lr, tb, half]: [B; 3]) -> bool {
        let (s, h, w) = (self.bits, self.h, self.w);
        let has = |m: B| s & m == m;
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

    /// The least of this shape and its three mirror images, when their last
    /// rows (their highest bits) already tell: the last rows are this
    /// shape's last and first rows, each as it is and reversed. Then only
    /// the least image is made, and no image equals another, so that no
    /// mirror maps the shape to itself. `None` when two last rows tie.
    fn least_by_last_row(&self) -> Option<B> {
        let (h, w) = (self.h, self.w);
        let row = B::low(w);
        let reversed_row = |r: B| r.reversed() >> (B::BITS - w);
        let last = self.bits >> ((h - 1) * w);
        let first = self.bits & row;
        // This shape, left-right, top-bottom, half turn.
        let keys = [last, reversed_row(last), first, reversed_row(first)];
        let mut least = 0;
        for k in 1..4 {
            if keys[k] < keys[least] {
                least = k;
            }
        }
        if (0..4).any(|k| k != least && keys[k] == keys[least]) {
            return None;
        }
        let shift = B::BITS - h * w;
        Some(match least {
            0 => self.bits,
            3 => self.bits.reversed() >> shift,
            _ => {
                let mut tb = B::ZERO;
                for i in 0..h {
                    tb = tb | ((self.bits >> (i * w)) & row) << ((h - 1 - i) * w);
                }
                if least == 2 {
                    tb
                } else {
                    tb.reversed() >> shift
                }
            }
        })
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
        if base.w < base.h
            && let Some(image) = base.least_by_last_row()
        {
            return Canonical {
                image: image.wide(),
                w: base.w,
                zero: false,
            };
        }
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
                turned.bits == base.bits && (0..n).all(|i| base.bits & base.cell(i, i) == B::ZERO);
            let anti = more[2] == base.bits
                && (0..n).all(|i| base.bits & base.cell(i, n - 1 - i) == B::ZERO);
            zero = zero || diagonal || anti;
        }
        Canonical {
            image: image.wide(),
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

    /// The canonical image is the least of the images under the symmetries
    /// of the box, made cell by cell, among those of the narrower width:
    /// every set of cells of a few boxes, as the shape it crops to.
    #[test]
    fn canonical_images_are_the_least_images() {
        let mut checked = 0;
        for (h, w) in [
            (2, 3),
            (3, 2),
            (3, 4),
            (4, 3),
            (2, 6),
            (4, 4),
            (5, 3),
            (3, 5),
        ] {
            for bits in 1u64..1 << (h * w) {
                let shape = Shape::crop(bits, w);
                let (sh, sw) = (shape.h, shape.w);
                let cells: Vec<(usize, usize)> = (0..sh * sw)
                    .filter(|&p| shape.bits >> p & 1 == 1)
                    .map(|p| (p / sw, p % sw))
                    .collect();
                let mut least: Option<(usize, u64)> = None;
                for turn in 0..8 {
                    let (ih, iw) = if turn >= 4 { (sw, sh) } else { (sh, sw) };
                    let image = cells.iter().fold(0u64, |acc, &(i, j)| {
                        let (i, j) = if turn >= 4 { (j, i) } else { (i, j) };
                        let i = if turn & 1 == 1 { ih - 1 - i } else { i };
                        let j = if turn & 2 == 2 { iw - 1 - j } else { j };
                        acc | 1 << (i * iw + j)
                    });
                    if iw > ih {
                        continue;
                    }
                    least = Some(least.map_or((iw, image), |l| l.min((iw, image))));
                }
                let (lw, image) = least.unwrap();
                let canonical = shape.canonical();
                assert_eq!(
                    (canonical.w, canonical.image),
                    (lw, u128::from(image)),
                    "{bits:#x} in {h} x {w}"
                );
                checked += 1;
            }
        }
        assert!(checked > 50_000, "{checked}");
    }

    #[test]
    fn twin_blocks_are_found() {
        // Rectangles: corners have two neighbours, but no other cell has the
        // same two.
        for rows in ["..../..../....", ".../..."] {
            let (s, w) = set(rows);
            assert_eq!(twin_cuts(s, w), 0, "{rows}");
        }
        // A block whose top left and bottom right corners are twins, joined to
        // the rest by its other two corners; its mirror image.
        for rows in ["##.#/#.../...#/#.##", "#.##/...#/#.../##.#"] {
            let (s, w) = set(rows);
            assert_eq!(twin_cuts(s, w), set("####/#.##/#.##/####").0, "{rows}");
            // Cut, the region falls apart into two.
            let mut parts = Vec::new();
            each_region_cut(s, w, twin_cuts(s, w), |m| parts.push(m));
            assert_eq!(parts.len(), 2, "{rows}");
        }
        // A lone 2 x 2 square: twins both ways, its two horizontal edges cut.
        let (s, w) = set("../..");
        assert_eq!(twin_cuts(s, w), set(".#/.#").0);
        // One row: nothing.
        let (s, w) = set("....");
        assert_eq!(twin_cuts(s, w), 0);
    }

    #[test]
    fn crop_removes_empty_rows_and_columns() {
        let (s, w) = set("####/#.#./#..#/####");
        let shape = Shape::crop(s, w);
        assert_eq!((shape.h, shape.w), (2, 3));
        assert_eq!(shape.bits, set(".#./..#").0);
    }

    /// Grown from the cells next to those taken away, the regions of a set
    /// cut from a connected one are those of the plain fill: every connected
    /// set of a 4 x 4 frame, less each domino, reduced or not.
    #[test]
    fn regions_grown_from_seeds_are_the_regions() {
        let w = 4;
        let mut checked = 0;
        for whole in 1u64..1 << 16 {
            let mut regions = Vec::new();
            each_region(whole, w, |m| regions.push(m));
            if regions != [whole] {
                continue;
            }
            let (horizontal, vertical) = dominoes(whole, w);
            for (moves, step) in [(horizontal, 1), (vertical, w)] {
                let mut rest = moves;
                while rest != 0 {
                    let p = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    let after = whole & !(1 << p | 1 << (p + step));
                    for s in [after, reduce(after, w)] {
                        let seeds = spread(whole & !s, w) & s;
                        let (mut plain, mut seeded) = (Vec::new(), Vec::new());
                        each_region(s, w, |m| plain.push(m));
                        each_region_seeded(s, w, seeds, |m| seeded.push(m));
                        plain.sort_unstable();
                        seeded.sort_unstable();
                        assert_eq!(plain, seeded, "{whole:#x} less {p}, {step}");
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 100_000, "{checked}");
    }
}
