//! docs/CONTRACT.md keeps a verbatim copy of the fixed contract (checked by
//! scripts/check-contract.sh, which skips when no shared contract stands
//! beside the repository).

use std::path::Path;
use std::process::Command;

#[test]
fn the_contract_copy_starts_with_the_fixed_contract() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let output = Command::new("bash")
        .arg(root.join("scripts/check-contract.sh"))
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}
