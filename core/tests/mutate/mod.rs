//! The fuzz loop every record parser gets: seeded byte-level mutations of a valid record
//! (bytes overwritten, runs deleted, JSON punctuation and card letters inserted), each handed to
//! `stikis_core::record::replay`, which must answer (never panic) and, when it refuses, name a
//! deal and action within reach of the record.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use stikis_core::record::ReplayError;

/// One to three random edits of `original`.
pub fn mutate_bytes(original: &[u8], rng: &mut impl Rng) -> Vec<u8> {
    let mut bytes = original.to_vec();
    for _ in 0..rng.random_range(1..4) {
        if bytes.is_empty() {
            break;
        }
        let i = rng.random_range(0..bytes.len());
        match rng.random_range(0..3) {
            0 => bytes[i] = rng.random(),
            1 => {
                let j = rng.random_range(i..bytes.len().min(i + 8) + 1).min(bytes.len());
                bytes.drain(i..j);
            }
            _ => {
                const ALPHABET: &[u8] = b"0123456789,:[]{}\"JKQSHDC";
                bytes.insert(i, ALPHABET[rng.random_range(0..ALPHABET.len())])
            }
        }
    }
    bytes
}

/// `rounds` mutations of the record at `path` (seeded by its length, so a failure repeats):
/// replay never panics, and every refusal passes `plausible`.
pub fn fuzz_record(path: &std::path::Path, rounds: usize, plausible: impl Fn(&ReplayError) -> bool) {
    let original = std::fs::read(path).unwrap();
    let seed = original.len() as u64;
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    for round in 0..rounds {
        let bytes = mutate_bytes(&original, &mut rng);
        let got = std::panic::catch_unwind(|| stikis_core::record::replay(&bytes));
        let Ok(result) = got else {
            panic!("replay panicked on {path:?} round {round} (seed {seed})");
        };
        if let Err(e) = result {
            assert!(plausible(&e), "{path:?} round {round} (seed {seed}): {e}");
        }
    }
}
