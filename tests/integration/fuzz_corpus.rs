//! Replays the fuzzer's regression corpus (`tests/fuzz_corpus/*.bin`): one
//! input per outcome the fuzzer reached, plus any input that once failed.
//! Each must pass through every handler without a panic, and an accepted
//! move must leave a state that validates.

#[path = "../../fuzz/target.rs"]
mod target;

use std::path::PathBuf;

#[test]
fn every_corpus_input_is_handled_cleanly() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz_corpus");
    let mut count = 0;
    for entry in std::fs::read_dir(&dir).expect("corpus folder") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|e| e == "bin") {
            let bytes = std::fs::read(&path).expect("readable");
            let outcome = std::panic::catch_unwind(|| target::run(&bytes));
            match outcome {
                Ok(Ok(_)) => count += 1,
                Ok(Err(failure)) => panic!("{}: {failure}", path.display()),
                Err(_) => panic!("{}: panicked", path.display()),
            }
        }
    }
    assert!(count >= 20, "the corpus holds {count} inputs");
}

#[test]
fn arbitrary_bytes_never_panic() {
    use proptest::prelude::*;
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig::with_cases(2000));
    runner
        .run(&proptest::collection::vec(any::<u8>(), 0..600), |bytes| {
            let outcome = target::run(&bytes);
            prop_assert!(outcome.is_ok(), "{:?}", outcome);
            Ok(())
        })
        .expect("no input fails");
}
