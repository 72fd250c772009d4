//! Placeholder until the nimber module lands (replaced at merge).
#![allow(missing_docs)]
#[derive(Debug, Default)]
pub struct MexSet(Vec<u64>);
impl MexSet {
    pub fn clear(&mut self) {
        self.0.clear();
    }
    pub fn insert(&mut self, v: u32) {
        let w = (v / 64) as usize;
        if self.0.len() <= w {
            self.0.resize(w + 1, 0);
        }
        self.0[w] |= 1 << (v % 64);
    }
    pub fn mex(&self) -> u32 {
        for (i, w) in self.0.iter().enumerate() {
            if *w != u64::MAX {
                return i as u32 * 64 + w.trailing_ones();
            }
        }
        self.0.len() as u32 * 64
    }
}
