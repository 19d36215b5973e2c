//! Zole's computer players in a match (`stikis arena`, `stikis bench`): three slots, each
//! deal played under the three rotations of the slots over the seats; a slot's score is its
//! game points. The `peek` reference plays its cards double dummy on the real deal.

use rand::SeedableRng;
use rand_chacha::ChaCha12Rng;

use super::record::to_record;
use super::{Action, AllPass, Contract, Deal, Options, Phase, SeatView, Session};
use crate::ai::zole::dd::{card_of, open_position, Goal, Solver};
use crate::ai::{self, Player};
use crate::games::matches::{Computers, Entrant, Match, MatchTable, Played};
use crate::Seat;

/// Zole's entry in the list of games.
pub const COMPUTERS: Computers = Computers {
    slots: (3, 3),
    default_slots: 3,
    peek: true,
    units: "game points",
    rules: |name| Ok(options(name)?.to_rules().to_string()),
    open: |m| Box::new(Table::new(m)),
};

/// The rules of a match: a preset by name, `lv` when none is named.
fn options(name: Option<&str>) -> Result<Options, String> {
    match name {
        None => Ok(Options::lv()),
        Some(p) => Options::preset(p).ok_or(format!("unknown rules preset {p}")),
    }
}

struct Table {
    m: Match,
    opts: Options,
    players: Vec<Box<dyn Player<SeatView, Action>>>,
    solver: Solver,
}

impl Table {
    fn new(m: &Match) -> Table {
        let opts = options(m.rules.as_deref()).expect("the rules were checked");
        Table {
            players: m
                .entrants
                .iter()
                .map(|e| ai::zole::player(e.level(), opts))
                .collect(),
            m: m.clone(),
            opts,
            solver: Solver::new(),
        }
    }
}

impl MatchTable for Table {
    fn play(&mut self, i: usize, records: bool) -> Played {
        let a = &self.m;
        let mut out = Vec::new();
        let mut recs = Vec::new();
        let dealer = (i % 3) as Seat;
        let seed = a.deal_seed(i);
        for r in 0..3 {
            // Seat s is played by slot (s + r) % 3.
            let slot = |s: Seat| (s as usize + r) % 3;
            let mut session = Session::new(self.opts, 3, dealer).expect("a table of three");
            session.deal_from_seed(seed).expect("deal");
            let mut rng = ChaCha12Rng::seed_from_u64(a.rng_seed(i, r));
            let mut deltas = vec![0i32; 3];
            while let Some(deal) = session.current() {
                let s = deal.to_act().expect("a deal in progress has a seat to act");
                let v = deal.view(s);
                let who = a.entrants[slot(s)];
                let budget = a.deadline(who);
                let peeked = match who {
                    Entrant::Peek if deal.phase() == Phase::Play => peek_play(&mut self.solver, deal, s),
                    _ => None,
                };
                let player = &mut self.players[slot(s)];
                let action = peeked.unwrap_or_else(|| player.choose(&v, &mut rng, &budget));
                if let Some(res) = session.apply(s, action).unwrap_or_else(|e| {
                    panic!(
                        "{} chose an illegal action {action} in deal {i}: {e}",
                        player.level()
                    )
                }) {
                    for (seat, d) in res.deltas.iter().enumerate() {
                        deltas[slot(seat as Seat)] = *d;
                    }
                }
            }
            out.push(deltas);
            if records {
                let names: Vec<String> = (0..3)
                    .map(|s| format!("{}#{}", a.entrants[slot(s)].name(), slot(s)))
                    .collect();
                let env = to_record(&session, &names);
                recs.push(serde_json::to_string(&env).expect("a record serialises"));
            }
        }
        (out, recs)
    }
}

/// The `peek` reference's card play: the best card for its side by a double-dummy solve of
/// the real deal.
fn peek_play(solver: &mut Solver, deal: &Deal, seat: Seat) -> Option<Action> {
    let active = deal.active();
    let me = active.iter().position(|&s| s == seat)?;
    let decl = deal.declarer().and_then(|d| active.iter().position(|&s| s == d));
    let goal = match (deal.contract()?, decl) {
        (Contract::Take | Contract::Zole, Some(d)) => Goal::points_of(d),
        (Contract::SmallZole, Some(d)) => Goal::small_zole(d),
        _ => Goal::galdins(me, deal.options().all_pass != AllPass::Rondo),
    };
    solver.reset(goal);
    let maxing = goal.max_side >> me & 1 == 1;
    let values = solver.move_values(&open_position(deal));
    let best = if maxing {
        values.iter().max_by_key(|x| x.1)
    } else {
        values.iter().min_by_key(|x| x.1)
    };
    best.map(|&(c, _)| Action::Play(card_of(c)))
}
