//! The fixed part of docs/CONTRACT.md, everything before its "Additions", is
//! what scripts and acceptance checks rely on: it changes only on purpose.
//! Its length and fingerprint (FNV-1a, 64 bits) are kept here, so that an
//! accidental edit fails this test; a deliberate one updates them with it.

use std::path::Path;

/// Where the repository's own additions begin.
const ADDITIONS: &str = "\n---\n\n# Additions (not part of the fixed contract)";
/// The fixed part's length in bytes, and its FNV-1a fingerprint.
const FIXED_LENGTH: usize = 10_420;
const FIXED_FINGERPRINT: u64 = 0x215d_69e5_1003_f4bd;

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

#[test]
fn the_fixed_contract_is_unchanged() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/CONTRACT.md");
    let text = std::fs::read_to_string(path).unwrap();
    let fixed = &text[..text
        .find(ADDITIONS)
        .expect("docs/CONTRACT.md keeps its additions after the fixed part")];
    assert_eq!(
        (fixed.len(), fnv1a(fixed.as_bytes())),
        (FIXED_LENGTH, FIXED_FINGERPRINT),
        "the fixed part of docs/CONTRACT.md changed: scripts and acceptance checks \
         depend on it; if the change is deliberate, update FIXED_LENGTH and \
         FIXED_FINGERPRINT (printed on the left)"
    );
}

#[test]
fn the_fingerprint_is_fnv1a() {
    // The published test vectors of FNV-1a 64.
    assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
    assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
}
