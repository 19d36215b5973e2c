//! What one seat may see of a Zole deal: its own hand, the talon and bury only where the rules
//! show them, the bids, the trick on the table, the completed tricks, whose turn it is and its
//! own legal actions. Never another seat's hidden cards. The host's messages and the computer
//! players are built on this view alone.

use arrayvec::ArrayVec;
use serde::Serialize;

use super::deal::{Bid, Contract, Deal, Phase};
use super::legal::Legal;
use super::tables::trick_winner;
use crate::cards::{Card, CardSet};
use crate::game::Seat;

/// One completed trick: who led, the cards in playing order, who won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct TrickView {
    pub leader: Seat,
    pub cards: [Card; 3],
    pub winner: Seat,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatView {
    pub seat: Seat,
    pub players: usize,
    pub dealer: Seat,
    /// First, second and third hand.
    pub active: [Seat; 3],
    pub phase: Phase,
    pub hand: CardSet,
    /// The talon, shown to the declarer of a take once he picks it up, and to everybody once
    /// the deal is over.
    pub talon: Option<CardSet>,
    /// The buried cards: only the declarer sees them.
    pub buried: Option<CardSet>,
    pub bids: ArrayVec<(Seat, Bid), 3>,
    pub contract: Option<Contract>,
    pub declarer: Option<Seat>,
    /// The trick on the table, in playing order, and its leader.
    pub trick: ArrayVec<Card, 3>,
    pub trick_leader: Option<Seat>,
    pub tricks: ArrayVec<TrickView, 8>,
    /// Tricks and card points taken in tricks, per seat (public: everybody saw the tricks).
    pub tricks_won: ArrayVec<u8, 5>,
    pub trick_points: ArrayVec<u8, 5>,
    pub to_act: Option<Seat>,
    /// This seat's legal actions; empty when it is not this seat's turn.
    pub legal: Legal,
}

impl SeatView {
    /// The cards still unseen by this seat: the deck minus its hand, its bury, and every card
    /// played (the computer players sample the other hands from these).
    pub fn unseen(&self) -> CardSet {
        let mut seen = self.hand | self.buried.unwrap_or_default() | self.trick.iter().copied().collect();
        for t in &self.tricks {
            seen |= t.cards.iter().copied().collect();
        }
        if self.phase == Phase::Done {
            seen |= self.talon.unwrap_or_default();
        }
        super::tables::DECK.minus(seen)
    }
}

impl Deal {
    /// Everything `seat` may see now.
    pub fn view(&self, seat: Seat) -> SeatView {
        let is_declarer = self.declarer() == Some(seat);
        let took = self.contract() == Some(Contract::Take) && is_declarer;
        let done = self.phase() == Phase::Done;
        let mut tricks = ArrayVec::new();
        for (i, cards) in self.played().chunks_exact(3).enumerate() {
            let leader = self.trick_leader(i).unwrap_or(0);
            let k = trick_winner(cards);
            let order = self.active();
            let lead_k = order.iter().position(|&s| s == leader).unwrap_or(0);
            tricks.push(TrickView {
                leader,
                cards: [cards[0], cards[1], cards[2]],
                winner: order[(lead_k + k) % 3],
            });
        }
        let (trick, leader) = self.current_trick();
        let in_play = self.phase() == Phase::Play;
        SeatView {
            seat,
            players: self.players(),
            dealer: self.dealer(),
            active: self.active(),
            phase: self.phase(),
            hand: self.hand(seat),
            talon: (took || done).then(|| self.talon()),
            buried: (took && self.phase() != Phase::Bury).then(|| self.buried()),
            bids: self.bids().iter().copied().collect(),
            contract: self.contract(),
            declarer: self.declarer(),
            trick: trick.iter().copied().collect(),
            trick_leader: in_play.then_some(leader),
            tricks,
            tricks_won: self.tricks().iter().copied().collect(),
            trick_points: self.trick_points().iter().copied().collect(),
            to_act: self.to_act(),
            legal: if self.to_act() == Some(seat) {
                self.legal_actions()
            } else {
                Legal::NONE
            },
        }
    }
}
