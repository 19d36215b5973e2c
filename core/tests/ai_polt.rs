//! Polt to Tzar computer players: every level only ever chooses legal actions, sampled worlds
//! respect what the seat has seen, and the levels are ordered by strength over seeded hands.
//! Seeded loops print their seed on failure.

// Seats index several parallel arrays here; a range reads clearer than zipped iterators.
#![allow(clippy::needless_range_loop)]

use rand::rngs::SmallRng;
use rand::SeedableRng;
use stikis_core::ai::polt::{player, sample, Knowledge};
use stikis_core::ai::{Level, NoLimit};
use stikis_core::cards::{CardSet, Suit};
use stikis_core::games::polt::{ranks_from_seed, Deal, Options, Stage, TrumpOrder};
use stikis_core::Seed;

fn iterations(debug: usize, release: usize) -> usize {
    if cfg!(debug_assertions) {
        debug
    } else {
        release
    }
}

fn opts(seed: u64) -> Options {
    Options {
        bowers: seed % 4 == 3,
        ..Options::default_preset()
    }
}

fn new_deal(seed: u64) -> Deal {
    let n = 5 + (seed % 3) as usize;
    let ranks = ranks_from_seed(n, Seed::from_u64(seed));
    Deal::from_seed(opts(seed), &ranks, Seed::from_u64(seed)).expect("deal")
}

/// Plays a whole hand with the given level per seat (cycled) and returns tricks per seat.
fn play(seed: u64, levels: &[Level], strong_worlds: usize) -> (Deal, Vec<u8>) {
    let mut d = new_deal(seed);
    let o = opts(seed);
    let n = d.seat_count();
    let mut players: Vec<_> = (0..n)
        .map(|s| {
            let l = levels[s % levels.len()];
            if l == Level::Strong {
                Box::new(stikis_core::ai::polt::Strong {
                    opts: o,
                    max_worlds: strong_worlds,
                }) as Box<dyn stikis_core::ai::Player<_, _>>
            } else {
                player(l, o)
            }
        })
        .collect();
    let mut rng = SmallRng::seed_from_u64(seed);
    while let Some(s) = d.to_act() {
        let v = d.view(s);
        let a = players[s as usize].choose(&v, &mut rng, &NoLimit);
        assert!(v.legal.contains(&a), "seed {seed}: {a} is not legal for seat {s}");
        d.apply(s, a)
            .unwrap_or_else(|e| panic!("seed {seed}: {a} refused: {e}"));
    }
    let won = d.won().to_vec();
    (d, won)
}

#[test]
fn every_level_only_chooses_legal_actions() {
    for seed in 0..iterations(300, 3000) as u64 {
        let (d, won) = play(seed, &[Level::Random, Level::Basic], 0);
        assert!(d.is_over());
        assert_eq!(
            won.iter().map(|&x| x as usize).sum::<usize>(),
            d.hand_size(),
            "seed {seed}"
        );
    }
    for seed in 0..iterations(30, 1000) as u64 {
        play(50_000 + seed, &[Level::Strong, Level::Basic, Level::Random], 2);
    }
}

#[test]
fn sampled_worlds_respect_the_view() {
    let mut rng = SmallRng::seed_from_u64(5);
    for seed in 0..iterations(100, 500) as u64 {
        let mut d = new_deal(seed);
        let o = opts(seed);
        let mut basics: Vec<_> = (0..d.seat_count()).map(|_| player(Level::Basic, o)).collect();
        while let Some(s) = d.to_act() {
            let v = d.view(s);
            if v.stage == Stage::Play {
                let k = Knowledge::from_view(&v, &o);
                let order = TrumpOrder::new(v.trump.unwrap_or(Suit::Clubs), o.bowers);
                // What the seat knows holds of the real deal.
                for p in 0..d.seat_count() {
                    assert!(
                        k.pinned[p].is_subset(d.hand(p as u8)),
                        "seed {seed}: wrong pinned card"
                    );
                    assert_eq!(
                        k.sizes[p] as u32,
                        d.hand(p as u8).len(),
                        "seed {seed}: size of {p}"
                    );
                    for suit in Suit::ALL {
                        if k.void[p] >> suit as u8 & 1 == 1 {
                            assert!(
                                (d.hand(p as u8) & order.cards_of(suit)).is_empty(),
                                "seed {seed}: void"
                            );
                        }
                    }
                }
                for _ in 0..3 {
                    let hands = sample(&v, &k, order, &mut rng);
                    let mut union = CardSet::EMPTY;
                    for p in 0..d.seat_count() {
                        assert!((union & hands[p]).is_empty(), "seed {seed}: a card dealt twice");
                        union |= hands[p];
                        assert_eq!(hands[p].len(), d.hand(p as u8).len(), "seed {seed}: size");
                        assert!(
                            k.pinned[p].is_subset(hands[p]) || p == s as usize,
                            "seed {seed}: pinned"
                        );
                    }
                    assert_eq!(hands[s as usize], v.hand, "seed {seed}: my hand changed");
                    // Only unseen cards move; every void shown is kept.
                    for p in 0..d.seat_count() {
                        if p == s as usize {
                            continue;
                        }
                        assert!(
                            hands[p].minus(k.unseen).is_subset(k.pinned[p]),
                            "seed {seed}: a seen card moved"
                        );
                        for suit in Suit::ALL {
                            if k.void[p] >> suit as u8 & 1 == 1 {
                                assert!(
                                    (hands[p] & order.cards_of(suit)).is_empty(),
                                    "seed {seed}: void broken"
                                );
                            }
                        }
                    }
                }
            }
            let a = basics[s as usize].choose(&v, &mut rng, &NoLimit);
            d.apply(s, a).expect("legal");
        }
    }
}

#[test]
fn basic_beats_random_and_strong_beats_basic_on_tricks() {
    // One seat of the tested level among players of the other; the same seeded hands for both
    // tables, the tested seat rotating with the seed.
    let deals = iterations(60, 400) as u64;
    let score = |hero: Level, field: Level, worlds: usize| -> f64 {
        let mut total = 0.0;
        for seed in 0..deals {
            let n = 5 + (seed % 3) as usize;
            let mut levels = vec![field; n];
            levels[seed as usize % n] = hero;
            let (_, won) = play(90_000 + seed, &levels, worlds);
            total += won[seed as usize % n] as f64;
        }
        total / deals as f64
    };
    let random_among_random = score(Level::Random, Level::Random, 0);
    let basic_among_random = score(Level::Basic, Level::Random, 0);
    assert!(
        basic_among_random > random_among_random + 0.3,
        "basic {basic_among_random} vs random {random_among_random} tricks per hand"
    );
    let basic_among_basic = score(Level::Basic, Level::Basic, 0);
    let strong_among_basic = score(Level::Strong, Level::Basic, 20);
    assert!(
        strong_among_basic > basic_among_basic,
        "strong {strong_among_basic} vs basic {basic_among_basic} tricks per hand"
    );
}
