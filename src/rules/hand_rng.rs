//! The generator a hand is dealt from: ChaCha with 8 rounds on the game's
//! key, the hand number choosing the stream, worked out one 64-byte block
//! at a time.
//!
//! Its output is word for word that of `rand`'s `ChaCha8Rng` seeded with
//! the key, its stream set to the hand number (a test holds the two equal
//! over many keys, streams and draws), so a seed deals what it always has.
//! `ChaCha8Rng` works out four blocks whenever it needs one (its AVX2 code
//! computes four together), while a double-six deal draws four to six
//! 32-bit words, under one block: the three blocks it threw away were
//! about a twentieth of a random hand's time. The buffering is `rand`'s
//! own ([`BlockRng`]); only the block function is here, as RFC 8439 and
//! the ChaCha paper define it, with 8 rounds instead of 20.

use std::convert::Infallible;
use std::fmt;

use rand::TryRng;
use rand::rand_core::block::{BlockRng, Generator};

/// A game's ChaCha key (see [`hand_key`](super::deal::hand_key)).
pub type HandKey = [u8; 32];

/// The reproducible generator of one hand (see the module's text).
pub struct HandRng(BlockRng<ChaCha8Block>);

impl HandRng {
    /// The generator on `stream` of the key `key`, from its first word:
    /// `ChaCha8Rng::from_seed(key)` after `set_stream(stream)`.
    #[must_use]
    pub fn new(key: &HandKey, stream: u64) -> HandRng {
        let mut state = [0u32; 16];
        let (constants, rest) = state.split_at_mut(4);
        constants.copy_from_slice(&SIGMA);
        for (word, bytes) in rest.iter_mut().zip(key.chunks_exact(4)) {
            if let [a, b, c, d] = *bytes {
                *word = u32::from_le_bytes([a, b, c, d]);
            }
        }
        // Words 12 and 13 are the block counter (0), 14 and 15 the stream.
        state[14] = stream as u32;
        state[15] = (stream >> 32) as u32;
        HandRng(BlockRng::new(ChaCha8Block { state }))
    }
}

impl fmt::Debug for HandRng {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The key is the seed's: a server may keep it secret.
        f.write_str("HandRng { .. }")
    }
}

impl TryRng for HandRng {
    type Error = Infallible;

    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        Ok(self.0.next_word())
    }

    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        Ok(self.0.next_u64_from_u32())
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        self.0.fill_bytes(dst);
        Ok(())
    }
}

/// "expand 32-byte k", the first four words of every ChaCha state.
const SIGMA: [u32; 4] = [0x6170_7865, 0x3320_646e, 0x7962_2d32, 0x6b20_6574];

/// The ChaCha8 block function over a state whose counter advances by one
/// block per call.
struct ChaCha8Block {
    /// Constants, key, 64-bit block counter (words 12 and 13) and 64-bit
    /// stream (words 14 and 15), as `ChaCha8Rng` lays them out.
    state: [u32; 16],
}

impl Generator for ChaCha8Block {
    type Output = [u32; 16];

    fn generate(&mut self, output: &mut [u32; 16]) {
        let mut x = self.state;
        // Four double rounds: columns, then diagonals.
        for _ in 0..4 {
            quarter_round(&mut x, 0, 4, 8, 12);
            quarter_round(&mut x, 1, 5, 9, 13);
            quarter_round(&mut x, 2, 6, 10, 14);
            quarter_round(&mut x, 3, 7, 11, 15);
            quarter_round(&mut x, 0, 5, 10, 15);
            quarter_round(&mut x, 1, 6, 11, 12);
            quarter_round(&mut x, 2, 7, 8, 13);
            quarter_round(&mut x, 3, 4, 9, 14);
        }
        for ((out, mixed), initial) in output.iter_mut().zip(x).zip(self.state) {
            *out = mixed.wrapping_add(initial);
        }
        let counter = (u64::from(self.state[13]) << 32 | u64::from(self.state[12])).wrapping_add(1);
        self.state[12] = counter as u32;
        self.state[13] = (counter >> 32) as u32;
    }
}

/// ChaCha's quarter round on words `a`, `b`, `c` and `d` of `x` (indices
/// below 16, constants at every call).
#[inline(always)]
fn quarter_round(x: &mut [u32; 16], a: usize, b: usize, c: usize, d: usize) {
    x[a] = x[a].wrapping_add(x[b]);
    x[d] = (x[d] ^ x[a]).rotate_left(16);
    x[c] = x[c].wrapping_add(x[d]);
    x[b] = (x[b] ^ x[c]).rotate_left(12);
    x[a] = x[a].wrapping_add(x[b]);
    x[d] = (x[d] ^ x[a]).rotate_left(8);
    x[c] = x[c].wrapping_add(x[d]);
    x[b] = (x[b] ^ x[c]).rotate_left(7);
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::ChaCha8Rng;
    use rand::{Rng, RngExt, SeedableRng};

    /// Word for word `ChaCha8Rng` on the same key and stream, through
    /// every way a deal draws (32- and 64-bit words, ranges, bytes) and
    /// across many blocks, for keys of many seeds and streams up to the
    /// largest.
    #[test]
    fn equals_rands_chacha8_on_the_same_key_and_stream() {
        let mut choice = ChaCha8Rng::seed_from_u64(99);
        for seed in (0..200).chain([u64::MAX]) {
            let key = ChaCha8Rng::seed_from_u64(seed).get_seed();
            for stream in [0, 1, 2, 77, u64::from(u32::MAX), u64::MAX] {
                let mut theirs = ChaCha8Rng::from_seed(key);
                theirs.set_stream(stream);
                let mut ours = HandRng::new(&key, stream);
                for step in 0..300 {
                    match choice.random_range(0..4) {
                        0 => assert_eq!(ours.next_u32(), theirs.next_u32()),
                        1 => assert_eq!(ours.next_u64(), theirs.next_u64()),
                        2 => {
                            let bound = choice.random_range(1..=u32::MAX);
                            assert_eq!(
                                ours.random_range(..bound),
                                theirs.random_range(..bound),
                                "seed {seed}, stream {stream}, step {step}"
                            );
                        }
                        _ => {
                            let mut a = [0u8; 11];
                            let mut b = [0u8; 11];
                            ours.fill_bytes(&mut a);
                            theirs.fill_bytes(&mut b);
                            assert_eq!(a, b);
                        }
                    }
                }
            }
        }
    }

    /// The block function itself, on the ChaCha8 test vector of the
    /// all-zero key and stream (the first words of its keystream).
    #[test]
    fn first_block_of_the_zero_key() {
        let mut rng = HandRng::new(&[0; 32], 0);
        let first = rng.next_u32().to_le_bytes();
        // ChaCha8, zero key and nonce: keystream 3e 00 ef 2f ...
        assert_eq!(first, [0x3e, 0x00, 0xef, 0x2f]);
    }
}
