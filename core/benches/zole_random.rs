//! The random complete deal both the criterion bench and the `zole_deals` example run.

use rand::rngs::SmallRng;
use rand::Rng;
use stikis_core::games::zole::{Action, Bid, Deal, Options};
use stikis_core::Seed;

/// Plays one deal to the end; returns the declarer's delta so nothing is optimised away.
pub fn random_deal(opts: Options, seed: u64, rng: &mut SmallRng) -> i32 {
    let mut d = Deal::new(opts, 3, (seed % 3) as u8, Seed::from_u64(seed)).expect("valid table");
    while let Some(seat) = d.to_act() {
        let legal = d.legal_actions();
        // The last bidder never passes (bid 0 is pass), so every deal is bid, buried (or
        // not) and played.
        let skip = (d.bids().len() == 2 && legal.contains(Action::Bid(Bid::Pass))) as usize;
        let a = legal.get(rng.random_range(skip..legal.len())).expect("in range");
        d.apply(seat, a).expect("legal action");
    }
    d.outcome().map(|o| o.deltas[0]).unwrap_or(0)
}
