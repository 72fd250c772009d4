//! Small deterministic generators, so that a seed names an input: the random
//! graphs and words of the unit tests, the examples and the benchmarks. Not part
//! of the library's interface.

/// Xorshift on 64 bits (shifts 13, 7, 17).
#[derive(Debug, Clone)]
pub struct Xorshift(u64);

impl Xorshift {
    /// The generator for `seed`, spread by a multiplication so that nearby seeds
    /// start far apart (the state is odd, never zero).
    pub fn new(seed: u64) -> Self {
        Self(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// The generator starting from `state` as it is (a zero state stays zero).
    pub fn from_state(state: u64) -> Self {
        Self(state)
    }

    /// The next state.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// The next state modulo `n` (not zero).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    /// Shuffles `items` (Fisher–Yates, from the last item down).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i as u64 + 1) as usize);
        }
    }
}

/// SplitMix64.
#[derive(Debug, Clone)]
pub struct SplitMix(u64);

impl SplitMix {
    /// The generator whose state is `seed`.
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    /// The next value.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// The next value modulo `n` (not zero).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
}
