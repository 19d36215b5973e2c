//! French classic belote (RULES.md 2.3) and head-to-head (2.4), which share the take/pass
//! bidding with the turned card and the stock: the auction, and both scorings (points in the
//! classic game, tens per player in head-to-head).

use super::combos::Declared;
use super::deal::{Action, Bid, BidRule, Contract};
use super::options::Rounding;
use super::play::Mode;
use super::Variant;
use crate::cards::Suit;
use crate::game::{ActionList, Seat};

use super::bazar::AuctionEnd;

/// Two rounds of take/pass: in the first a seat may take the turned card's suit, in the second
/// name any suit (the turned one included).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TakeAuction {
    pub round: u8,
    pub passes: u8,
    pub turned_suit: Suit,
}

impl TakeAuction {
    pub fn new(turned_suit: Suit) -> Self {
        TakeAuction {
            round: 1,
            passes: 0,
            turned_suit,
        }
    }

    pub fn check(&self, bid: Bid) -> Result<(), BidRule> {
        match (bid, self.round) {
            (Bid::Pass, _) | (Bid::Take, 1) | (Bid::Name(_), 2) => Ok(()),
            (Bid::Take, _) => Err(BidRule::TakeInFirstRound),
            (Bid::Name(_), _) => Err(BidRule::NameInSecondRound),
            _ => Err(BidRule::NotThisGame),
        }
    }

    pub fn apply(&mut self, v: Variant, seat: Seat, bid: Bid) -> AuctionEnd {
        let won = |suit| {
            AuctionEnd::Won(Contract {
                mode: Mode::Trump(suit),
                tens: 0,
                capot: false,
                declarer: seat,
                doubled: 0,
            })
        };
        match bid {
            Bid::Take => won(self.turned_suit),
            Bid::Name(s) => won(s),
            _ => {
                self.passes += 1;
                if self.passes as usize == v.seats() {
                    if self.round == 2 {
                        return AuctionEnd::Redeal;
                    }
                    self.round = 2;
                    self.passes = 0;
                }
                AuctionEnd::Open
            }
        }
    }

    pub fn legal<const N: usize>(&self, out: &mut ActionList<Action, N>) {
        out.push(Action::Bid(Bid::Pass));
        if self.round == 1 {
            out.push(Action::Bid(Bid::Take));
        } else {
            for s in Suit::ALL {
                out.push(Action::Bid(Bid::Name(s)));
            }
        }
    }
}

/// French classic deltas in points, or head-to-head deltas in tens, per team or player
/// (RULES.md 2.3, 2.4, 2.6): the takers must score strictly more than the others.
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
    let h2h = v == Variant::HeadToHead;
    let conv = |p: u32| if h2h { r.tens(p) as i32 } else { p as i32 };
    let mut out = [0i32; 2];
    if total(b) > total(o) {
        out[b] = conv(total(b));
        out[o] = conv(total(o));
    } else {
        let all = if capot_team.is_some() { 250 } else { 162 };
        out[b] = conv(d.belote[b]);
        // Every part is whole tens, except the 162 which head-to-head counts as 16.
        out[o] = if h2h {
            (all / 10 + (d.combos[0] + d.combos[1] + d.belote[o]) / 10) as i32
        } else {
            (all + d.combos[0] + d.combos[1] + d.belote[o]) as i32
        };
    }
    out
}
