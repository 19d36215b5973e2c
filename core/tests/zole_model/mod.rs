//! A second, independent reading of RULES.md 1.1-1.8 for the property tests: it scores a
//! finished deal from its actions alone (its own trump order, card points, bands, unit tables
//! and pule book-keeping) so that random sessions can be compared with the engine deal by
//! deal. It takes the table's options as configuration and nothing else from the engine.

use stikis_core::games::zole::{Action, AllPass, Bands, Bid, GaldinsTalon, Options, Surrender};
use stikis_core::{Card, CardSet, Seat};

const TRUMPS: [&str; 14] = [
    "QC", "QS", "QH", "QD", "JC", "JS", "JH", "JD", "AD", "10D", "KD", "9D", "8D", "7D",
];
const PLAIN: [&str; 4] = ["A", "10", "K", "9"];
const TAKE: [i32; 6] = [1, 2, 3, -2, -3, -4];

fn points(c: Card) -> u32 {
    let name = c.to_string();
    match &name[..name.len() - 1] {
        "A" => 11,
        "10" => 10,
        "K" => 4,
        "Q" => 3,
        "J" => 2,
        _ => 0,
    }
}

fn set_points(s: CardSet) -> u32 {
    s.iter().map(points).sum()
}

fn power(c: Card, led: Card) -> u32 {
    let (name, led) = (c.to_string(), led.to_string());
    if let Some(i) = TRUMPS.iter().position(|&t| t == name) {
        return 100 - i as u32;
    }
    let suit = |s: &str| s.chars().last().unwrap();
    if TRUMPS.contains(&led.as_str()) || suit(&name) != suit(&led) {
        return 0;
    }
    10 - PLAIN.iter().position(|&r| r == &name[..name.len() - 1]).unwrap() as u32
}

/// What the model makes of one finished deal.
#[derive(Debug, Clone, PartialEq)]
pub struct Scored {
    pub kind: &'static str,
    pub declarer: Option<Seat>,
    /// The deal's own deltas, before pules and the tree.
    pub deltas: Vec<i32>,
    pub card_points: Vec<u32>,
    pub tricks: Vec<u32>,
}

/// The model's score sheet: totals, pules and branches.
#[derive(Debug, Clone)]
pub struct Model {
    pub opts: Options,
    pub n: usize,
    pub common: u32,
    pub personal: Vec<Seat>,
    pub tree: u32,
    pub totals: Vec<i32>,
}

impl Model {
    pub fn new(opts: Options, n: usize) -> Model {
        Model {
            opts,
            n,
            common: 0,
            personal: Vec::new(),
            tree: 0,
            totals: vec![0; n],
        }
    }

    /// RULES.md 1.2: with 4 players the dealer sits out, with 5 also the second seat to his left.
    pub fn active(&self, dealer: Seat) -> Vec<Seat> {
        let d = dealer as usize;
        (1..=self.n)
            .map(|k| ((d + k) % self.n) as Seat)
            .filter(|&s| {
                let sits_out = (self.n >= 4 && s as usize == d) || (self.n == 5 && s as usize == (d + 2) % 5);
                !sits_out
            })
            .collect()
    }

    /// Scores one finished deal and books it; returns the deal's final deltas (with pules and
    /// tree) and what it made of the deal.
    pub fn deal(&mut self, dealer: Seat, talon: CardSet, actions: &[(Seat, Action)]) -> (Vec<i32>, Scored) {
        let n = self.n;
        let o = self.opts;
        let active = self.active(dealer);
        let mut contract: Option<(Bid, Seat)> = None;
        let mut bury = CardSet::EMPTY;
        let mut plays: Vec<(Seat, Card)> = Vec::new();
        let mut surrendered = false;
        for &(seat, a) in actions {
            match a {
                Action::Bid(Bid::Pass) => {}
                Action::Bid(b) => contract = Some((b, seat)),
                Action::Bury(..) => bury = a.bury_set(),
                Action::Play(c) => plays.push((seat, c)),
                Action::Surrender => surrendered = true,
            }
        }
        let mut tricks = vec![0u32; n];
        let mut pts = vec![0u32; n];
        let mut first_winner = None;
        for t in plays.chunks_exact(3) {
            let (w, _) = t.iter().copied().max_by_key(|&(_, c)| power(c, t[0].1)).unwrap();
            tricks[w as usize] += 1;
            pts[w as usize] += t.iter().map(|&(_, c)| points(c)).sum::<u32>();
            first_winner.get_or_insert(w);
        }
        let complete = plays.len() as u32 / 3;
        let in_tricks: CardSet = plays[..complete as usize * 3].iter().map(|&(_, c)| c).collect();
        let mut deltas = vec![0i32; n];
        let mut winners: Vec<Seat> = Vec::new();
        let mut losers: Vec<Seat> = Vec::new();
        let everyone_but = |x: Seat| (0..n as Seat).filter(|&s| s != x).collect::<Vec<_>>();
        let kind;
        let mut declarer = None;
        let mut pule_result: Option<(Seat, bool)> = None;
        match contract {
            None if plays.is_empty() => {
                kind = "pule";
                if o.all_pass == AllPass::Tree {
                    self.tree += 1;
                } else {
                    let none_open = self.common == 0 && self.personal.is_empty();
                    self.common += if n >= 4 && none_open { 2 } else { 1 };
                }
            }
            None => {
                kind = "galdins";
                if o.galdins_talon == GaldinsTalon::FirstTrick {
                    pts[first_winner.unwrap() as usize] += set_points(talon);
                }
                if o.all_pass == AllPass::Rondo {
                    let most = active.iter().map(|&s| pts[s as usize]).max().unwrap();
                    let tied: Vec<Seat> = active
                        .iter()
                        .copied()
                        .filter(|&s| pts[s as usize] == most)
                        .collect();
                    if tied.len() < 3 {
                        let mut total = 0;
                        for &s in active.iter().filter(|s| !tied.contains(s)) {
                            let gain = if tricks[s as usize] == 0 {
                                3
                            } else if pts[s as usize] <= 30 {
                                2
                            } else {
                                1
                            };
                            deltas[s as usize] = gain;
                            total += gain;
                            winners.push(s);
                        }
                        let k = tied.len() as i32;
                        for (i, &l) in tied.iter().enumerate() {
                            deltas[l as usize] = -(total / k) - i32::from((i as i32) < total % k);
                            losers.push(l);
                        }
                    }
                    self.common += if n >= 4 { 2 } else { 1 };
                } else {
                    let key = |s: Seat| (tricks[s as usize], pts[s as usize]);
                    let worst = active.iter().map(|&s| key(s)).max().unwrap();
                    let tied: Vec<Seat> = active.iter().copied().filter(|&s| key(s) == worst).collect();
                    if let [l] = tied[..] {
                        for (s, d) in deltas.iter_mut().enumerate() {
                            *d = if s == l as usize { -2 * (n as i32 - 1) } else { 2 };
                        }
                        losers.push(l);
                        winners = everyone_but(l);
                    }
                }
            }
            Some((bid, d)) => {
                declarer = Some(d);
                let du = d as usize;
                let first_opp = (1..n)
                    .map(|k| ((du + k) % n) as Seat)
                    .find(|s| active.contains(s))
                    .unwrap();
                match bid {
                    Bid::Take => pts[du] += set_points(bury),
                    Bid::Zole => pts[first_opp as usize] += set_points(talon),
                    _ => {}
                }
                let conceded = surrendered && o.surrender == Surrender::ConcedeRest;
                if conceded {
                    // A take's talon is in the declarer's hand or bury; a zole's lies aside.
                    let aside = if bid == Bid::Take { bury } else { talon };
                    let rest = deck().minus(in_tricks).minus(aside);
                    pts[first_opp as usize] += set_points(rest);
                }
                let dp = pts[du];
                let dt = tricks[du];
                let opp_tricks = 8 - dt; // the tricks not played go to the opponents
                let units: [i32; 6] = if bid == Bid::Take {
                    TAKE
                } else {
                    o.zole_units.map(i32::from)
                };
                let (unit, won, tie) = if bid == Bid::SmallZole {
                    if dt == 0 {
                        (6, true, false)
                    } else {
                        (-(o.small_zole_loss as i32), false, false)
                    }
                } else if surrendered && o.surrender == Surrender::BasicLoss {
                    (units[3], false, false)
                } else if o.tie_at_60 && dp == 60 {
                    (0, false, true)
                } else {
                    let idx = match (o.bands, dp >= 61) {
                        (Bands::Tricks, true) if opp_tricks == 0 => 2,
                        (Bands::Tricks, true) if dp >= 91 => 1,
                        (Bands::Tricks, true) => 0,
                        (Bands::Tricks, false) if dt == 0 => 5,
                        (Bands::Tricks, false) if dp <= 30 => 4,
                        (Bands::Tricks, false) => 3,
                        (Bands::Points, true) if dp == 120 => 2,
                        (Bands::Points, true) if dp >= 91 => 1,
                        (Bands::Points, true) => 0,
                        (Bands::Points, false) if dp == 0 => 5,
                        (Bands::Points, false) if dp < 30 => 4,
                        (Bands::Points, false) => 3,
                    };
                    (units[idx], dp >= 61 && !surrendered, false)
                };
                if tie {
                    kind = "tie";
                    self.tree += 1;
                } else {
                    kind = match bid {
                        Bid::Take => "take",
                        Bid::Zole => "zole",
                        _ => "small_zole",
                    };
                    for (s, x) in deltas.iter_mut().enumerate() {
                        *x = if s == du { unit * (n as i32 - 1) } else { -unit };
                    }
                    if won {
                        winners.push(d);
                        losers = everyone_but(d);
                    } else {
                        winners = everyone_but(d);
                        losers.push(d);
                    }
                    if bid == Bid::Take || o.pules_on_zole {
                        pule_result = Some((d, won));
                    }
                }
            }
        }
        let scored = Scored {
            kind,
            declarer,
            deltas: deltas.clone(),
            card_points: pts,
            tricks,
        };
        // Pules (RULES.md 1.8).
        match pule_result {
            Some((d, true)) => {
                if let Some(i) = self.personal.iter().position(|&s| s == d) {
                    self.personal.remove(i);
                } else if self.common > 0 {
                    self.common -= 1;
                    for (s, x) in deltas.iter_mut().enumerate() {
                        *x += if s == d as usize { n as i32 - 1 } else { -1 };
                    }
                } else if !self.personal.is_empty() {
                    let owner = self.personal.remove(0);
                    deltas[owner as usize] -= o.personal_pule_payment as i32;
                    deltas[d as usize] += o.personal_pule_payment as i32;
                }
            }
            Some((d, false)) if self.common > 0 || !self.personal.is_empty() => self.personal.push(d),
            _ => {}
        }
        // The tree pays out after a deal with winners and losers.
        if self.tree > 0 && !winners.is_empty() && !losers.is_empty() {
            for &w in &winners {
                for &l in &losers {
                    deltas[w as usize] += self.tree as i32;
                    deltas[l as usize] -= self.tree as i32;
                }
            }
            self.tree = 0;
        }
        for (t, d) in self.totals.iter_mut().zip(&deltas) {
            *t += d;
        }
        (deltas, scored)
    }

    /// Closing the table: each open personal pule costs its owner 1 per other player.
    pub fn settle(&mut self) -> Vec<i32> {
        let mut d = vec![0; self.n];
        if self.opts.settle_pules_at_end {
            for &owner in &self.personal {
                for (s, x) in d.iter_mut().enumerate() {
                    *x += if s == owner as usize {
                        -(self.n as i32 - 1)
                    } else {
                        1
                    };
                }
            }
        }
        self.personal.clear();
        self.common = 0;
        d
    }
}

/// The 26 cards, written out from RULES.md 1.1.
pub fn deck() -> CardSet {
    let mut names: Vec<String> = TRUMPS.iter().map(|s| s.to_string()).collect();
    for suit in ["C", "S", "H"] {
        for r in PLAIN {
            names.push(format!("{r}{suit}"));
        }
    }
    names.iter().map(|n| n.parse::<Card>().unwrap()).collect()
}
