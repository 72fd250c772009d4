//! The sequence-file reader under attack: files written by
//! `compute_into_file`, then mutated (bytes flipped, cut short, lines inserted, values
//! changed, huge numbers, bytes that are not UTF-8, the check file damaged or gone), in
//! both formats, resumed. Never a panic: either a correct resume (every value equal to a
//! fresh computation, in memory and in the file) or a typed error of bad input (what the
//! command line reports with exit 2), and a wrong value is named exactly.

use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

use grundy::rules::HeapRule;
use grundy::sequence::{
    FileError, FileFormat, GrundyValues, Method, check_file_path, compute_into_file, grundy_values,
    read_values,
};
use proptest::prelude::*;

/// Values in the files before they are mutated (heaps `0..BASE`).
const BASE: usize = 3000;
/// The heap each resumed run computes to.
const RESUMED_TO: usize = BASE + 500;
/// Values of the reference: more than any mutated file holds.
const REFERENCE: usize = 2 * BASE;

fn rules() -> &'static [(HeapRule, Vec<u32>)] {
    static RULES: OnceLock<Vec<(HeapRule, Vec<u32>)>> = OnceLock::new();
    RULES.get_or_init(|| {
        [
            HeapRule::octal("0.6").unwrap(),
            HeapRule::kayles(),
            HeapRule::GrundysGame,
            HeapRule::subtraction([1, 3, 4]).unwrap(),
            HeapRule::LaskersNim,
        ]
        .into_iter()
        .map(|rule| {
            let reference = grundy_values(&rule, REFERENCE).to_vec();
            (rule, reference)
        })
        .collect()
    })
}

/// A path of its own for each case.
fn scratch() -> PathBuf {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!("grundy-resume-fuzz-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(format!("case-{}", NEXT.fetch_add(1, Ordering::Relaxed)))
}

fn never_stop() -> impl FnMut(grundy::sequence::Progress) -> ControlFlow<()> {
    |_| ControlFlow::Continue(())
}

/// The file and check file grundy writes for the first [`BASE`] values of `rule`.
fn written(rule: &HeapRule, format: FileFormat) -> (Vec<u8>, Vec<u8>) {
    let path = scratch();
    compute_into_file(
        rule,
        Method::SparseSpace,
        BASE - 1,
        &path,
        format,
        &mut never_stop(),
    )
    .unwrap();
    let check = check_file_path(&path);
    let files = (
        std::fs::read(&path).unwrap(),
        std::fs::read(&check).unwrap(),
    );
    std::fs::remove_file(&path).unwrap();
    std::fs::remove_file(&check).unwrap();
    files
}

/// One change to the files.
#[derive(Debug, Clone)]
enum Mutation {
    /// A byte of the values file xored with a non-zero mask.
    FlipByte(prop::sample::Index, u8),
    /// The values file cut short.
    Cut(prop::sample::Index),
    /// Bytes inserted into the values file (a line, a huge number, not UTF-8, ...).
    Insert(prop::sample::Index, Vec<u8>),
    /// A value changed, in either format (rewritten as the format writes values).
    Value(prop::sample::Index, u64),
    /// A byte of the check file xored with a non-zero mask.
    FlipCheckByte(prop::sample::Index, u8),
    /// The check file cut short.
    CutCheck(prop::sample::Index),
    /// The check file removed.
    RemoveCheck,
}

fn inserted_bytes() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        Just(b"7\n".to_vec()),
        Just(b"0\n".to_vec()),
        Just(b"\n".to_vec()),
        Just(b"4294967295\n".to_vec()),
        Just(b"4294967296\n".to_vec()),
        Just(b"99999999999999999999999999999\n".to_vec()),
        Just(b"-1\n".to_vec()),
        Just(b"\xff\xfe\xc0\n".to_vec()),
        Just(vec![0x80; 8]),
        Just(vec![0xff, 0xff, 0xff, 0xff, 0x0f]),
        prop::collection::vec(any::<u8>(), 1..12),
    ]
}

fn changed_value() -> impl Strategy<Value = u64> {
    prop_oneof![
        0..20u64,
        Just(12_345_678),
        Just(u64::from(u32::MAX)),
        Just(1 << 32),
        Just(1 << 40),
    ]
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<prop::sample::Index>(), 1..=255u8)
            .prop_map(|(at, mask)| Mutation::FlipByte(at, mask)),
        any::<prop::sample::Index>().prop_map(Mutation::Cut),
        (any::<prop::sample::Index>(), inserted_bytes())
            .prop_map(|(at, b)| Mutation::Insert(at, b)),
        (any::<prop::sample::Index>(), changed_value()).prop_map(|(at, v)| Mutation::Value(at, v)),
        (any::<prop::sample::Index>(), 1..=255u8)
            .prop_map(|(at, mask)| Mutation::FlipCheckByte(at, mask)),
        any::<prop::sample::Index>().prop_map(Mutation::CutCheck),
        Just(Mutation::RemoveCheck),
    ]
}

/// `values` as the format writes them, with `value` (any size) in place of heap `at`.
fn with_value(values: &[u32], at: usize, value: u64, format: FileFormat) -> Vec<u8> {
    let mut bytes = Vec::new();
    if format == FileFormat::Binary {
        bytes.extend_from_slice(b"GRUNDYSEQ1\n\0");
    }
    for (heap, &stored) in values.iter().enumerate() {
        let mut v = if heap == at { value } else { u64::from(stored) };
        match format {
            FileFormat::Text => bytes.extend_from_slice(format!("{v}\n").as_bytes()),
            FileFormat::Binary => {
                while v >= 0x80 {
                    bytes.push((v as u8) | 0x80);
                    v >>= 7;
                }
                bytes.push(v as u8);
            }
        }
    }
    bytes
}

fn apply(mutation: &Mutation, data: &mut Vec<u8>, check: &mut Option<Vec<u8>>, format: FileFormat) {
    match mutation {
        Mutation::FlipByte(at, mask) if !data.is_empty() => {
            let at = at.index(data.len());
            data[at] ^= mask;
        }
        Mutation::Cut(at) => data.truncate(at.index(data.len() + 1)),
        Mutation::Insert(at, bytes) => {
            let at = at.index(data.len() + 1);
            data.splice(at..at, bytes.iter().copied());
        }
        Mutation::Value(at, value) => {
            // Only while the file still reads as values.
            if let Ok(values) = read_values(&mut data.as_slice(), format)
                && !values.is_empty()
            {
                let values = values.to_vec();
                *data = with_value(&values, at.index(values.len()), *value, format);
            }
        }
        Mutation::FlipCheckByte(at, mask) => {
            if let Some(check) = check.as_mut().filter(|check| !check.is_empty()) {
                let at = at.index(check.len());
                check[at] ^= mask;
            }
        }
        Mutation::CutCheck(at) => {
            if let Some(check) = check.as_mut() {
                check.truncate(at.index(check.len() + 1));
            }
        }
        Mutation::RemoveCheck => *check = None,
        Mutation::FlipByte(..) => {}
    }
}

/// How a resume ended, once checked.
#[derive(Debug, PartialEq, Eq)]
enum Outcome {
    /// Every value right.
    Resumed,
    /// Refused: the value of this heap is wrong.
    Wrong(usize),
    /// Refused: the file is malformed, or its check file is not for this rule.
    Malformed,
}

/// Resumes from the mutated files and checks the outcome.
fn resume(
    rule: &HeapRule,
    reference: &[u32],
    format: FileFormat,
    data: &[u8],
    check: Option<&[u8]>,
) -> Result<Outcome, TestCaseError> {
    let path = scratch();
    let check_path = check_file_path(&path);
    std::fs::write(&path, data).unwrap();
    if let Some(check) = check {
        std::fs::write(&check_path, check).unwrap();
    }
    let result = compute_into_file(
        rule,
        Method::SparseSpace,
        RESUMED_TO,
        &path,
        format,
        &mut never_stop(),
    );
    let on_disk = read_values(&mut std::fs::File::open(&path).unwrap(), format);
    let outcome = match result {
        Ok(solver) => {
            let values = solver.values().to_vec();
            prop_assert!(values.len() > RESUMED_TO);
            prop_assert!(values.len() <= reference.len(), "{} values", values.len());
            prop_assert!(
                values[..] == reference[..values.len()],
                "a resume kept a wrong value"
            );
            let on_disk = on_disk.map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert!(
                &on_disk == solver.values(),
                "the file differs from the values"
            );
            // And the check file written now vouches for them all: a second resume
            // trusts them (and computes nothing).
            let again = compute_into_file(
                rule,
                Method::SparseSpace,
                RESUMED_TO,
                &path,
                format,
                &mut never_stop(),
            )
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert!(again.values() == solver.values());
            Ok(Outcome::Resumed)
        }
        Err(FileError::WrongValue(wrong)) => {
            // Named exactly: the values before it right, it wrong, and the right one said.
            let stored: GrundyValues = on_disk.map_err(|e| TestCaseError::fail(e.to_string()))?;
            let stored = stored.to_vec();
            let heap = wrong.heap;
            prop_assert!(heap < stored.len() && heap < reference.len());
            prop_assert_eq!(&stored[..heap], &reference[..heap]);
            prop_assert_eq!(stored[heap], wrong.stored);
            prop_assert_ne!(wrong.stored, reference[heap]);
            prop_assert_eq!(wrong.computed, Some(reference[heap]));
            Ok(Outcome::Wrong(heap))
        }
        Err(
            FileError::BadLine { .. }
            | FileError::BadHeader
            | FileError::ValueTooLarge { .. }
            | FileError::OtherRule { .. }
            | FileError::NotACheckFile { .. },
        ) => Ok(Outcome::Malformed),
        Err(other) => Err(TestCaseError::fail(format!(
            "not an error of bad input: {other:?}"
        ))),
    };
    let _ = std::fs::remove_file(&path);
    let _ = std::fs::remove_file(&check_path);
    outcome
}

proptest! {
    #[test]
    fn mutated_files_resume_right_or_are_refused(
        rule in 0..5usize,
        binary in any::<bool>(),
        mutations in prop::collection::vec(mutation(), 1..4),
    ) {
        let (rule, reference) = &rules()[rule];
        let format = if binary { FileFormat::Binary } else { FileFormat::Text };
        let (mut data, check) = written(rule, format);
        let mut check = Some(check);
        for mutation in &mutations {
            apply(mutation, &mut data, &mut check, format);
        }
        resume(rule, reference, format, &data, check.as_deref())?;
    }
}

#[test]
fn unmutated_files_resume_and_name_their_wrong_values() {
    for (rule, reference) in rules() {
        for format in [FileFormat::Text, FileFormat::Binary] {
            let (data, check) = written(rule, format);
            for check in [Some(&check[..]), None] {
                let outcome = resume(rule, reference, format, &data, check).unwrap();
                assert_eq!(outcome, Outcome::Resumed, "{rule} {format:?}");
                for at in [0, 99, BASE - 10, BASE - 1] {
                    let wrong =
                        with_value(&reference[..BASE], at, u64::from(reference[at]) + 1, format);
                    let outcome = resume(rule, reference, format, &wrong, check).unwrap();
                    assert_eq!(
                        outcome,
                        Outcome::Wrong(at),
                        "{rule} {format:?} with check file: {}",
                        check.is_some()
                    );
                }
            }
        }
    }
}
