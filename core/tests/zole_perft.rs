//! Zole perft: for fixed seeded deals after a fixed bidding (and bury), the number of
//! distinct legal play sequences to the end of the deal, pinned in core/tests/zole_perft.txt.
//! A change in the follow rule, the trick winner (who leads next) or when a deal ends moves
//! these numbers.
//!
//! Counting walks every sequence, merging positions at trick boundaries: there the cards
//! still in hand and the seat to lead decide everything that follows.

use std::collections::HashMap;
use std::path::Path;

use stikis_core::cards::Card;
use stikis_core::games::zole::{Action, Bid, Deal, Options, Phase};
use stikis_core::{CardSet, Seat, Seed};

fn count(d: &Deal, memo: &mut HashMap<(u64, Seat), u64>) -> u64 {
    if d.phase() == Phase::Done {
        return 1;
    }
    let boundary = d.played().len().is_multiple_of(3);
    let in_hands = d.active().iter().fold(CardSet::EMPTY, |s, &p| s | d.hand(p));
    let seat = d.to_act().unwrap();
    let key = (in_hands.bits(), seat);
    if boundary {
        if let Some(&n) = memo.get(&key) {
            return n;
        }
    }
    let mut n = 0;
    for a in d.legal_actions() {
        if let Action::Play(_) = a {
            let mut next = *d;
            next.apply(seat, a).unwrap();
            n += count(&next, memo);
        }
    }
    if boundary {
        memo.insert(key, n);
    }
    n
}

/// Parses one line, deals and bids, and returns the deal at the start of play and the
/// pinned count (None for "?").
fn setup(line: &str) -> (Deal, Option<u64>) {
    let f: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(f.len(), 7, "{line}");
    let opts = Options::preset(f[3]).unwrap();
    let seed = Seed::from_u64(f[0].parse().unwrap());
    let mut d = Deal::new(opts, f[1].parse().unwrap(), f[2].parse().unwrap(), seed).unwrap();
    for b in f[4].split(',') {
        let bid: Bid = b.parse().unwrap();
        d.apply(d.to_act().unwrap(), Action::Bid(bid)).unwrap();
    }
    if f[5] != "-" {
        let bury: CardSet = f[5].split(',').map(|c| c.parse::<Card>().unwrap()).collect();
        d.apply(
            d.to_act().unwrap(),
            Action::Bury(bury.nth(0).unwrap(), bury.nth(1).unwrap()),
        )
        .unwrap();
    }
    assert_eq!(d.phase(), Phase::Play, "{line}");
    (d, f[6].parse().ok())
}

#[test]
fn perft_counts_match_the_pinned_file() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/zole_perft.txt");
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = 0;
    let mut wrong = Vec::new();
    for line in text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        let (d, pinned) = setup(line);
        let got = count(&d, &mut HashMap::new());
        if Some(got) != pinned {
            wrong.push(format!("{line}: counted {got}"));
        }
        lines += 1;
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(lines >= 4);
}

#[test]
fn perft_of_a_tiny_position_by_hand() {
    // Play a seeded zole down to its last trick: with one card each, exactly one sequence.
    let (mut d, _) = setup("7 3 0 lv zole - ?");
    while d.played().len() < 21 {
        let a = d.legal_actions().get(0).unwrap();
        d.apply(d.to_act().unwrap(), a).unwrap();
    }
    assert_eq!(count(&d, &mut HashMap::new()), 1);
    // One trick earlier: the leader's 2 cards, each answered by the cards the follow rule
    // allows, then the forced last trick.
    let (mut d, _) = setup("7 3 0 lv zole - ?");
    while d.played().len() < 18 {
        let a = d.legal_actions().get(0).unwrap();
        d.apply(d.to_act().unwrap(), a).unwrap();
    }
    let mut by_hand = 0;
    for a in d.legal_actions() {
        let mut e = d;
        e.apply(e.to_act().unwrap(), a).unwrap();
        for b in e.legal_actions() {
            let mut f = e;
            f.apply(f.to_act().unwrap(), b).unwrap();
            by_hand += f.legal_actions().len() as u64;
        }
    }
    assert_eq!(count(&d, &mut HashMap::new()), by_hand);
}

/// Every sequence walked one by one, with no merging.
fn count_naive(d: &Deal) -> u64 {
    if d.phase() == Phase::Done {
        return 1;
    }
    let seat = d.to_act().unwrap();
    d.legal_actions()
        .iter()
        .filter(|a| matches!(a, Action::Play(_)))
        .map(|a| {
            let mut next = *d;
            next.apply(seat, a).unwrap();
            count_naive(&next)
        })
        .sum()
}

#[test]
fn merging_at_trick_boundaries_counts_the_same_as_walking_every_sequence() {
    for line in [
        "11 3 0 lv take",
        "12 3 1 lv pass,zole",
        "13 4 2 lv-galdins pass,pass,pass",
        "14 3 0 rondo small_zole,pass,pass",
    ] {
        // Any legal bury: the first pair on offer.
        let mut d = {
            let mut f: Vec<&str> = line.split_whitespace().collect();
            f.truncate(5);
            let opts = Options::preset(f[3]).unwrap();
            let mut d = Deal::new(
                opts,
                f[1].parse().unwrap(),
                f[2].parse().unwrap(),
                Seed::from_u64(f[0].parse().unwrap()),
            )
            .unwrap();
            for b in f[4].split(',') {
                d.apply(d.to_act().unwrap(), Action::Bid(b.parse().unwrap()))
                    .unwrap();
            }
            if d.phase() == Phase::Bury {
                let a = d.legal_actions().get(0).unwrap();
                d.apply(d.to_act().unwrap(), a).unwrap();
            }
            d
        };
        // Four tricks in, by the first legal card each time; then at most 4!^3 sequences.
        while d.played().len() < 12 && d.phase() == Phase::Play {
            let a = d.legal_actions().get(0).unwrap();
            d.apply(d.to_act().unwrap(), a).unwrap();
        }
        assert_eq!(count(&d, &mut HashMap::new()), count_naive(&d), "{line}");
        // And mid-trick.
        if d.phase() == Phase::Play {
            let a = d.legal_actions().get(0).unwrap();
            d.apply(d.to_act().unwrap(), a).unwrap();
            assert_eq!(count(&d, &mut HashMap::new()), count_naive(&d), "{line}");
        }
    }
}
