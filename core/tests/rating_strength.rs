//! Ratings tell players apart: a basic computer player at a Zole table of random players
//! gains rating over many deals, and the random players lose it. Each deal is rated as a
//! free-for-all by its deltas (`stikis_core::rating`), as the host rates finished games.

use rand::SeedableRng;
use rand_chacha::ChaCha12Rng;
use stikis_core::ai::{zole, Level, NoLimit};
use stikis_core::games::zole::{Options, Session};
use stikis_core::rating::{rate, Rating, Side};
use stikis_core::{Seat, Seed};

#[test]
fn a_stronger_level_gains_rating_against_a_weaker_one() {
    let seed: u64 = std::env::var("STIKIS_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20261125);
    let opts = Options::default();
    let levels = [Level::Basic, Level::Random, Level::Random];
    let mut players: Vec<_> = levels.iter().map(|&l| zole::player(l, opts)).collect();
    let mut ratings = [Rating::default(); 3];
    let mut rng = ChaCha12Rng::seed_from_u64(seed);
    for i in 0..300u64 {
        // The basic player sits at every seat in turn.
        let rot = (i % 3) as usize;
        let slot = |s: Seat| (s as usize + rot) % 3;
        let mut session = Session::new(opts, 3, (i % 3) as Seat).expect("a table of three");
        session
            .deal_from_seed(Seed::from_u64(seed ^ (i << 16)))
            .expect("deal");
        let mut deltas = [0i64; 3];
        while let Some(deal) = session.current() {
            let s = deal.to_act().expect("a deal in progress has a seat to act");
            let action = players[slot(s)].choose(&deal.view(s), &mut rng, &NoLimit);
            if let Some(res) = session.apply(s, action).expect("a legal action") {
                for (seat, d) in res.deltas.iter().enumerate() {
                    deltas[slot(seat as Seat)] = *d as i64;
                }
            }
        }
        let sides: Vec<Side> = (0..3)
            .map(|p| Side {
                ratings: vec![ratings[p]],
                score: deltas[p],
            })
            .collect();
        for (p, new) in rate(&sides).into_iter().enumerate() {
            ratings[p] = new[0];
        }
    }
    let shown: Vec<i64> = ratings.iter().map(Rating::shown).collect();
    assert!(
        shown[0] > shown[1] && shown[0] > shown[2] && shown[0] > 1000,
        "seed {seed} (set STIKIS_SEED to repeat): basic {} vs random {} and {}",
        shown[0],
        shown[1],
        shown[2]
    );
}
