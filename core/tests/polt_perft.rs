//! Polt to Tzar "perft": the number of legal action sequences of each length from fixed seeded
//! deals, pinned in golden/polt/perft.txt (`seats seed bowers depth count` per line). Any change
//! to move generation, the exchange or the follow rules changes a count. Set `STIKIS_BLESS=1`
//! to rewrite the file after a deliberate change.

use std::path::Path;

use stikis_core::games::polt::{hand_size, ranks_from_seed, Deal, Options};
use stikis_core::Seed;

fn perft(deal: &Deal, depth: u32) -> u64 {
    let Some(seat) = deal.to_act() else {
        return 1;
    };
    if depth == 0 {
        return 1;
    }
    let legal = deal.legal_actions();
    if depth == 1 {
        return legal.len() as u64;
    }
    legal
        .iter()
        .map(|&a| {
            let mut next = deal.clone();
            next.apply(seat, a).unwrap();
            perft(&next, depth - 1)
        })
        .sum()
}

/// Seats, seed, bowers. In 5/11, 6/55 and 7/18 the Tzar holds the joker and giving it leaves
/// the Polt a choice of 2, 3 and 2 returns.
const CASES: [(usize, u64, bool); 6] = [
    (5, 1, false),
    (5, 2, true),
    (5, 11, false),
    (6, 55, true),
    (7, 4, true),
    (7, 18, false),
];
const MAX_DEPTH: u32 = 10;

fn deal(seats: usize, seed: u64, bowers: bool) -> Deal {
    let seed = Seed::from_u64(seed);
    let options = Options {
        bowers,
        ..Options::default()
    };
    Deal::from_seed(options, &ranks_from_seed(seats, seed), seed).unwrap()
}

#[test]
fn perft_counts_are_pinned() {
    let mut lines = String::new();
    for (seats, seed, bowers) in CASES {
        let d = deal(seats, seed, bowers);
        for depth in 1..=MAX_DEPTH {
            lines += &format!("{seats} {seed} {bowers} {depth} {}\n", perft(&d, depth));
        }
    }
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/polt/perft.txt");
    if std::env::var_os("STIKIS_BLESS").is_some() {
        std::fs::write(&path, &lines).unwrap();
    }
    assert_eq!(std::fs::read_to_string(&path).unwrap(), lines);
}

#[test]
fn perft_first_steps_follow_from_the_hands() {
    let mut ties = 0;
    for (seats, seed, bowers) in CASES {
        let d = deal(seats, seed, bowers);
        let size = hand_size(seats).unwrap() as u64;
        // The Tzar may give any of his cards.
        assert_eq!(perft(&d, 1), size);
        // Each suited card has one return; the joker one per suit of the top plain rank.
        let joker_returns = if d.hand(d.tzar()).contains(stikis_core::Card::JOKER) {
            let mut after = d.clone();
            after
                .apply(
                    d.tzar(),
                    stikis_core::games::polt::Action::Give(stikis_core::Card::JOKER),
                )
                .unwrap();
            after.legal_actions().len() as u64
        } else {
            0
        };
        let has_joker = u64::from(joker_returns > 0);
        assert_eq!(perft(&d, 2), size - has_joker + joker_returns);
        ties += u64::from(joker_returns > 1);
    }
    assert_eq!(ties, 3, "the cases with a choice of returns for the joker");
}
