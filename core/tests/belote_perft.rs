//! Belote "perft": the number of legal play sequences of a few plies from fixed seeded deals,
//! pinned here, so that any change to the move generator (follow, overtrump, partner,
//! all-trumps rules) shows up as a changed count.

use stikis_core::games::belote::{Action, Bid, Deal, Options, Phase, Variant};
use stikis_core::{Game, Seed};

fn perft(d: &Deal, depth: u32) -> u64 {
    if depth == 0 || d.phase() == Phase::Done {
        return 1;
    }
    let seat = d.to_act().unwrap();
    d.legal_actions()
        .iter()
        .map(|&a| {
            let mut next = d.clone();
            next.apply(seat, a).unwrap();
            perft(&next, depth - 1)
        })
        .sum()
}

/// The deal from `seed` with dealer 0 after `bid` by the first speaker and passes.
fn start(v: Variant, seed: u64, bid: &str, must_undertrump: bool) -> Deal {
    let mut o = Options::default_for(v);
    o.must_undertrump = must_undertrump;
    let mut d = Deal::shuffled(v, o, 0, Seed::from_u64(seed));
    let b = Bid::parse(v, bid).unwrap();
    d.apply(d.to_act().unwrap(), Action::Bid(b)).unwrap();
    while d.phase() == Phase::Bidding {
        d.apply(d.to_act().unwrap(), Action::Bid(Bid::Pass)).unwrap();
    }
    d
}

#[test]
fn perft_counts_are_pinned() {
    let cases: [(Variant, u64, &str, bool); 8] = [
        (Variant::Bazar, 1, "8 H", false),
        (Variant::Bazar, 2, "8 S", true),
        (Variant::Bazar, 3, "8 NT", false),
        (Variant::Coinche, 1, "80 AT", false),
        (Variant::Coinche, 2, "80 D", false),
        (Variant::Classic, 1, "take", false),
        (Variant::HeadToHead, 1, "take", false),
        (Variant::HeadToHead, 2, "take", true),
    ];
    let got: Vec<u64> = cases
        .iter()
        .map(|&(v, seed, bid, mu)| perft(&start(v, seed, bid, mu), 8))
        .collect();
    assert_eq!(got, PINNED, "perft counts changed");
}

/// Leaf counts at 8 plies (two tricks at four seats, four at two).
const PINNED: [u64; 8] = [9936, 1720, 11732, 269164, 1724, 2234, 188412, 32736];
