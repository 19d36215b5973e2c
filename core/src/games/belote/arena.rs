//! The Belote games' computer players in a match (`stikis arena`, `stikis bench`): two slots,
//! one per team (head to head, one per player), each deal played under both seatings with the
//! same cards; a slot's score is its team's score of the deal, in the variant's units.

use rand::SeedableRng;
use rand_chacha::ChaCha12Rng;

use super::{Action, Deal, Options, SeatView, Session, Variant};
use crate::ai::{self, Player};
use crate::games::matches::{Computers, Match, MatchTable, Played};
use crate::Seat;

/// A Belote variant's entry in the list of games.
pub const fn computers(v: Variant) -> Computers {
    Computers {
        slots: (2, 2),
        default_slots: 2,
        peek: false,
        units: match v {
            Variant::Bazar | Variant::HeadToHead => "team score per deal, tens",
            _ => "team score per deal, points",
        },
        rules: |name| match name {
            None | Some("default") => Ok("\"default\"".into()),
            Some(p) => Err(format!("unknown rules preset {p} (default)")),
        },
        open: match v {
            Variant::Bazar => |m| Box::new(Table::new(Variant::Bazar, m)),
            Variant::Classic => |m| Box::new(Table::new(Variant::Classic, m)),
            Variant::HeadToHead => |m| Box::new(Table::new(Variant::HeadToHead, m)),
            Variant::Coinche => |m| Box::new(Table::new(Variant::Coinche, m)),
        },
    }
}

struct Table {
    v: Variant,
    m: Match,
    players: Vec<Box<dyn Player<SeatView, Action>>>,
}

impl Table {
    fn new(v: Variant, m: &Match) -> Table {
        let opts = Options::default_for(v);
        Table {
            v,
            players: m
                .entrants
                .iter()
                .map(|e| ai::belote::player(e.level(), &opts))
                .collect(),
            m: m.clone(),
        }
    }
}

impl MatchTable for Table {
    fn play(&mut self, i: usize, records: bool) -> Played {
        let (a, v) = (&self.m, self.v);
        let n = v.seats();
        let opts = Options::default_for(v);
        let dealer = (i % n) as Seat;
        let cards = Deal::shuffled(v, opts, dealer, a.deal_seed(i));
        let mut out = Vec::new();
        let mut recs = Vec::new();
        for r in 0..2 {
            // Seat s is played by slot (s + r) % 2: its team's level.
            let slot = |s: Seat| (s as usize + r) % 2;
            let mut session = Session::new(v, opts, dealer);
            session
                .start_explicit(dealer, cards.dealt(), cards.turned(), cards.stock())
                .expect("a shuffled deal is valid");
            let mut rng = ChaCha12Rng::seed_from_u64(a.rng_seed(i, r));
            while let Some(deal) = session.current() {
                let Some(s) = crate::Game::to_act(deal) else {
                    break;
                };
                let view = deal.view(s);
                let budget = a.deadline(a.entrants[slot(s)]);
                let player = &mut self.players[slot(s)];
                let action = player.choose(&view, &mut rng, &budget);
                session.play(s, action).unwrap_or_else(|e| {
                    panic!(
                        "{} chose an illegal action {action} in deal {i}: {e}",
                        player.level()
                    )
                });
            }
            let deltas = session
                .deals()
                .last()
                .and_then(|d| d.result)
                .map_or([0, 0], |res| res.deltas);
            let mut score = vec![0i32; 2];
            for (team, &d) in deltas.iter().enumerate() {
                score[slot(team as Seat)] = d;
            }
            out.push(score);
            if records {
                let names: Vec<String> = (0..n as Seat)
                    .map(|s| format!("{}#{}", a.entrants[slot(s)].name(), slot(s)))
                    .collect();
                let env = super::record::to_envelope(&session, &names);
                recs.push(serde_json::to_string(&env).expect("a record serialises"));
            }
        }
        (out, recs)
    }
}
