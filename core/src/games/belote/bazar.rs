//! Bazar belote (RULES.md 2.2): the contract auction (tens from 8, NT, capot above 25, contra,
//! recontra, redeal on four passes) and its scoring formula in tens. Coinche bids by the same
//! auction on its own ladder (80 to 160, capot; coinche and surcoinche), so the auction lives
//! here and takes the variant.

use super::combos::Declared;
use super::deal::{Action, Bid, BidRule, Contract};
use super::options::Rounding;
use super::play::Mode;
use super::Variant;
use crate::cards::Suit;
use crate::game::{ActionList, Seat};

/// The lowest bid (in tens) in Bazar and Coinche.
pub const MIN_TENS: u8 = 8;
/// The highest Bazar bid. A team's total can exceed 250 only through combinations; 50 tens
/// leaves room for capot with two fours and belote while keeping the action list bounded.
pub const MAX_BAZAR_TENS: u8 = 50;
/// A Bazar bid above this may be announced as capot.
pub const CAPOT_ABOVE: u8 = 25;
/// The highest Coinche number bid (160); capot is above it and counts 250.
pub const MAX_COINCHE_TENS: u8 = 16;
/// How a Coinche capot bid is stored: as 25 tens, so that x = 250.
pub const COINCHE_CAPOT_TENS: u8 = 25;

const MODES_BAZAR: [Mode; 5] = [
    Mode::Trump(Suit::Clubs),
    Mode::Trump(Suit::Diamonds),
    Mode::Trump(Suit::Hearts),
    Mode::Trump(Suit::Spades),
    Mode::NoTrump,
];
const MODES_COINCHE: [Mode; 6] = [
    Mode::Trump(Suit::Clubs),
    Mode::Trump(Suit::Diamonds),
    Mode::Trump(Suit::Hearts),
    Mode::Trump(Suit::Spades),
    Mode::NoTrump,
    Mode::AllTrumps,
];

/// The highest bid so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct High {
    pub tens: u8,
    pub mode: Mode,
    pub capot: bool,
    pub seat: Seat,
}

/// The state of a Bazar or Coinche auction.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ContractAuction {
    pub high: Option<High>,
    /// 0, 1 after contra / coinche, 2 after recontra / surcoinche.
    pub doubled: u8,
    /// Consecutive passes since the last bid or contra (or since the start).
    pub passes: u8,
}

/// What an accepted bid did to the auction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AuctionEnd {
    Open,
    Won(Contract),
    Redeal,
}

impl ContractAuction {
    /// Whether `seat` may say `bid` now; the error is the broken rule.
    pub fn check(&self, v: Variant, seat: Seat, bid: Bid) -> Result<(), BidRule> {
        let coinche = v == Variant::Coinche;
        let same_team = |s: Seat| v.team(s) == v.team(seat);
        match bid {
            Bid::Pass => Ok(()),
            Bid::Contra | Bid::Coinche => {
                if (bid == Bid::Coinche) != coinche {
                    return Err(BidRule::NotThisGame);
                }
                let Some(h) = self.high else {
                    return Err(BidRule::NothingToDouble);
                };
                if self.doubled > 0 {
                    return Err(BidRule::AlreadyDoubled);
                }
                if same_team(h.seat) {
                    return Err(BidRule::DoubleByOpponentsOnly);
                }
                Ok(())
            }
            Bid::Recontra | Bid::Surcoinche => {
                if (bid == Bid::Surcoinche) != coinche {
                    return Err(BidRule::NotThisGame);
                }
                if self.doubled != 1 {
                    return Err(BidRule::RedoubleNeedsDouble);
                }
                match self.high {
                    Some(h) if same_team(h.seat) => Ok(()),
                    _ => Err(BidRule::RedoubleByBiddersOnly),
                }
            }
            Bid::Tens { tens, mode, capot } if !coinche => {
                self.check_level(tens, capot, MAX_BAZAR_TENS)?;
                if mode == Mode::AllTrumps {
                    return Err(BidRule::NoAllTrumpsInBazar);
                }
                if capot && tens <= CAPOT_ABOVE {
                    return Err(BidRule::CapotAbove25);
                }
                Ok(())
            }
            Bid::Points { tens, mode: _ } if coinche => {
                let capot = tens == COINCHE_CAPOT_TENS;
                if !capot && tens > MAX_COINCHE_TENS {
                    return Err(BidRule::CoincheAbove160);
                }
                self.check_level(tens, capot, COINCHE_CAPOT_TENS)
            }
            _ => Err(BidRule::NotThisGame),
        }
    }

    fn check_level(&self, tens: u8, capot: bool, max: u8) -> Result<(), BidRule> {
        if self.doubled > 0 {
            return Err(BidRule::NoBidAfterDouble);
        }
        if tens < MIN_TENS {
            return Err(BidRule::BelowMinimum);
        }
        if tens > max {
            return Err(BidRule::AboveMaximum);
        }
        if let Some(h) = self.high {
            if tens <= h.tens {
                return Err(BidRule::NotHigher);
            }
            if h.capot && !capot {
                return Err(BidRule::CapotOnly);
            }
        }
        Ok(())
    }

    /// Applies a bid that `check` accepted.
    pub fn apply(&mut self, v: Variant, seat: Seat, bid: Bid) -> AuctionEnd {
        match bid {
            Bid::Pass => {
                self.passes += 1;
                match self.high {
                    None if self.passes as usize == v.seats() => return AuctionEnd::Redeal,
                    Some(_) if self.passes == 3 => return AuctionEnd::Won(self.contract()),
                    _ => {}
                }
            }
            Bid::Contra | Bid::Coinche => {
                self.doubled = 1;
                self.passes = 0;
            }
            Bid::Recontra | Bid::Surcoinche => {
                self.doubled = 2;
                return AuctionEnd::Won(self.contract());
            }
            Bid::Tens { tens, mode, capot } => {
                self.high = Some(High {
                    tens,
                    mode,
                    capot,
                    seat,
                });
                self.passes = 0;
            }
            Bid::Points { tens, mode } => {
                self.high = Some(High {
                    tens,
                    mode,
                    capot: tens == COINCHE_CAPOT_TENS,
                    seat,
                });
                self.passes = 0;
            }
            Bid::Take | Bid::Name(_) => unreachable!("rejected by check"),
        }
        AuctionEnd::Open
    }

    fn contract(&self) -> Contract {
        let h = self.high.expect("a contract needs a bid");
        Contract {
            mode: h.mode,
            tens: h.tens,
            capot: h.capot,
            declarer: h.seat,
            doubled: self.doubled,
        }
    }

    /// Every bid `check` accepts from `seat`, generated directly (no trial and error).
    pub fn legal<const N: usize>(&self, v: Variant, seat: Seat, out: &mut ActionList<Action, N>) {
        let coinche = v == Variant::Coinche;
        out.push(Action::Bid(Bid::Pass));
        let same_team = |s: Seat| v.team(s) == v.team(seat);
        if let Some(h) = self.high {
            if self.doubled == 0 && !same_team(h.seat) {
                out.push(Action::Bid(if coinche { Bid::Coinche } else { Bid::Contra }));
            }
            if self.doubled == 1 && same_team(h.seat) {
                out.push(Action::Bid(if coinche { Bid::Surcoinche } else { Bid::Recontra }));
            }
        }
        if self.doubled > 0 {
            return;
        }
        let (from, high_capot) = match self.high {
            Some(h) => (h.tens + 1, h.capot),
            None => (MIN_TENS, false),
        };
        // The ladders hold every bid in rising order, so the bids above the last one are a
        // suffix: copied at once, with no per-bid test.
        let (ladder, start): (&[Action], usize) = if coinche {
            let start = if from > MAX_COINCHE_TENS {
                COINCHE_LADDER.len() - if from <= COINCHE_CAPOT_TENS { 6 } else { 0 }
            } else {
                (from - MIN_TENS) as usize * 6
            };
            (&COINCHE_LADDER, start)
        } else {
            let start = BAZAR_START[(from as usize).min(BAZAR_START.len() - 1)] as usize;
            (&BAZAR_LADDER, start)
        };
        let bids = &ladder[start..];
        if high_capot {
            out.extend(bids.iter().copied().filter(|a| {
                matches!(
                    a,
                    Action::Bid(Bid::Tens { capot: true, .. })
                        | Action::Bid(Bid::Points {
                            tens: COINCHE_CAPOT_TENS,
                            ..
                        })
                )
            }));
        } else {
            out.try_extend_from_slice(bids)
                .expect("MAX_ACTIONS holds the whole ladder");
        }
    }
}

const BAZAR_BIDS: usize =
    (MAX_BAZAR_TENS - MIN_TENS + 1) as usize * 5 + (MAX_BAZAR_TENS - CAPOT_ABOVE) as usize * 5;

/// Every Bazar bid in rising order: by level, then mode; capot after plain at the same level.
const BAZAR_LADDER: [Action; BAZAR_BIDS] = {
    let mut out = [Action::Bid(Bid::Pass); BAZAR_BIDS];
    let mut i = 0;
    let mut tens = MIN_TENS;
    while tens <= MAX_BAZAR_TENS {
        let mut m = 0;
        while m < MODES_BAZAR.len() {
            out[i] = Action::Bid(Bid::Tens {
                tens,
                mode: MODES_BAZAR[m],
                capot: false,
            });
            i += 1;
            m += 1;
        }
        if tens > CAPOT_ABOVE {
            let mut m = 0;
            while m < MODES_BAZAR.len() {
                out[i] = Action::Bid(Bid::Tens {
                    tens,
                    mode: MODES_BAZAR[m],
                    capot: true,
                });
                i += 1;
                m += 1;
            }
        }
        tens += 1;
    }
    out
};

/// `BAZAR_START[t]`: where the bids of level `t` start in `BAZAR_LADDER` (the ladder's length
/// above the highest level).
const BAZAR_START: [u16; MAX_BAZAR_TENS as usize + 2] = {
    let mut out = [0u16; MAX_BAZAR_TENS as usize + 2];
    let mut t = 0;
    let mut at = 0u16;
    while t < out.len() {
        out[t] = at;
        if t as u8 >= MIN_TENS && t as u8 <= MAX_BAZAR_TENS {
            at += if t as u8 > CAPOT_ABOVE { 10 } else { 5 };
        }
        t += 1;
    }
    out
};

/// Every Coinche bid in rising order: 80 to 160 in each mode, then capot in each mode.
const COINCHE_LADDER: [Action; (MAX_COINCHE_TENS - MIN_TENS + 2) as usize * 6] = {
    let mut out = [Action::Bid(Bid::Pass); (MAX_COINCHE_TENS - MIN_TENS + 2) as usize * 6];
    let mut i = 0;
    let mut tens = MIN_TENS;
    while tens <= MAX_COINCHE_TENS + 1 {
        let mut m = 0;
        while m < MODES_COINCHE.len() {
            out[i] = Action::Bid(Bid::Points {
                tens: if tens > MAX_COINCHE_TENS {
                    COINCHE_CAPOT_TENS
                } else {
                    tens
                },
                mode: MODES_COINCHE[m],
            });
            i += 1;
            m += 1;
        }
        tens += 1;
    }
    out
};

/// The Bazar deltas, in tens, per team (RULES.md 2.2 and 2.6). `points` are the teams' card
/// points with the last trick (250 / 0 on capot), `capot_team` the team that took every trick.
pub fn score(
    c: &Contract,
    v: Variant,
    points: [u32; 2],
    capot_team: Option<u8>,
    d: &Declared,
    r: Rounding,
) -> [i32; 2] {
    let b = v.team(c.declarer) as usize;
    let o = 1 - b;
    let total = |t: usize| points[t] + d.total(t);
    let x = c.tens as u32;
    let y = r.tens(total(b));
    let made = y >= x && (!c.capot || capot_team == Some(b as u8));
    let dd = if capot_team.is_some() { 25 } else { 16 };
    // Combinations and belote are whole tens (20, 50, 100, 140, 190, 200), so z is exact.
    let z = d.all() / 10;
    let mut out = [0i32; 2];
    match c.doubled {
        0 if made => {
            out[b] = (x + y) as i32;
            out[o] = r.tens(total(o)) as i32;
        }
        0 => out[o] = (x + dd + z) as i32,
        k => {
            let winner = if made { b } else { o };
            let m = if k == 1 { 2 } else { 4 };
            out[winner] = (m * x + dd + z) as i32;
        }
    }
    out
}
