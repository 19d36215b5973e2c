//! Polt to Tzar's computer players in a match (`stikis arena`, `stikis bench`): 5 to 7
//! slots, each hand (its first ranks drawn from its seed) played under every rotation of the
//! slots over the seats; a slot's score is its tricks.

use rand::SeedableRng;
use rand_chacha::ChaCha12Rng;

use super::{ranks_from_seed, Action, Options, SeatView, Session};
use crate::ai::{self, Player};
use crate::games::matches::{Computers, Match, MatchTable, Played};
use crate::Seat;

/// Polt to Tzar's entry in the list of games.
pub const COMPUTERS: Computers = Computers {
    slots: (super::MIN_SEATS, super::MAX_SEATS),
    default_slots: super::MIN_SEATS,
    peek: false,
    units: "tricks",
    rules: |name| match name {
        None | Some("default") => Ok("\"default\"".into()),
        Some(p) => Err(format!("unknown rules preset {p} (default)")),
    },
    open: |m| Box::new(Table::new(m)),
};

struct Table {
    m: Match,
    players: Vec<Box<dyn Player<SeatView, Action>>>,
}

impl Table {
    fn new(m: &Match) -> Table {
        Table {
            players: m
                .entrants
                .iter()
                .map(|e| ai::polt::player(e.level(), Default::default()))
                .collect(),
            m: m.clone(),
        }
    }
}

impl MatchTable for Table {
    fn play(&mut self, i: usize, records: bool) -> Played {
        let a = &self.m;
        let n = a.entrants.len();
        let seed = a.deal_seed(i);
        let ranks = ranks_from_seed(n, seed);
        let opts = Options::default_preset();
        let mut out = Vec::new();
        let mut recs = Vec::new();
        for r in 0..n {
            let slot = |s: Seat| (s as usize + r) % n;
            let mut session = Session::new(opts, n, 1, &ranks).expect("a polt table");
            session.start_hand(seed).expect("deal");
            let mut rng = ChaCha12Rng::seed_from_u64(a.rng_seed(i, r));
            while let Some(deal) = session.current() {
                let Some(s) = deal.to_act() else { break };
                let v = deal.view(s);
                let budget = a.deadline(a.entrants[slot(s)]);
                let player = &mut self.players[slot(s)];
                let action = player.choose(&v, &mut rng, &budget);
                session.apply(s, action).unwrap_or_else(|e| {
                    panic!(
                        "{} chose an illegal action {action} in deal {i}: {e}",
                        player.level()
                    )
                });
            }
            let won = session
                .results()
                .last()
                .map(|h| h.tricks.clone())
                .unwrap_or_default();
            let mut tricks = vec![0i32; n];
            for (seat, &t) in won.iter().enumerate() {
                tricks[slot(seat as Seat)] = t as i32;
            }
            out.push(tricks);
            if records {
                let names: Vec<String> = (0..n as Seat)
                    .map(|s| format!("{}#{}", a.entrants[slot(s)].name(), slot(s)))
                    .collect();
                let env = super::record::session_record(&session, &names);
                recs.push(serde_json::to_string(&env).expect("a record serialises"));
            }
        }
        (out, recs)
    }
}
