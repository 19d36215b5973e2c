//! A Polt to Tzar table session: a number of hands chosen at the table, the ranks carried from
//! each hand to the next (`next_ranks`), and the tallies kept for the leaderboard: tricks won
//! and hands played as Tzar, per seat, and the final standing.

use super::deal::{Action, Deal, DealError, Error};
use super::{is_rank_order, next_ranks, ranks_from_seed, Options, RankOrder, MAX_SEATS, MIN_SEATS};
use crate::cards::CardSet;
use crate::game::{Seat, Seed};

/// Why a session refused a request.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SessionError {
    #[error("Polt to Tzar is for 5 to 7 players, not {0}")]
    Seats(usize),
    #[error("a session lasts at least one hand")]
    NoHands,
    #[error("the ranks must list each of the {0} seats once, from Tzar to Polt")]
    Ranks(usize),
    #[error("the hand in progress is not over")]
    HandInProgress,
    #[error("all {0} hands of the session have been played")]
    SessionOver(u32),
    #[error("no hand is being played")]
    NoHand,
    #[error(transparent)]
    Deal(#[from] DealError),
    #[error(transparent)]
    Action(#[from] Error),
}

/// One finished hand: the ranks it was played with, the tricks per seat, the ranks after it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HandResult {
    pub ranks_before: RankOrder,
    pub tricks: Vec<u8>,
    pub ranks_after: RankOrder,
}

/// The standing of a session: the rank order (final once all hands are played), and per seat
/// the tricks won and the hands played as Tzar.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Standing {
    pub ranks: RankOrder,
    pub tricks: Vec<u32>,
    pub hands_as_tzar: Vec<u32>,
    pub hands_played: u32,
}

#[derive(Debug, Clone)]
pub struct Session {
    options: Options,
    seats: usize,
    hands: u32,
    /// The ranks of the hand in progress, or of the next one.
    ranks: RankOrder,
    current: Option<Deal>,
    finished: Vec<Deal>,
    results: Vec<HandResult>,
    tricks: Vec<u32>,
    as_tzar: Vec<u32>,
}

impl Session {
    /// A session of `hands` hands whose first ranks are given (a record's first deal).
    pub fn new(
        options: Options,
        seats: usize,
        hands: u32,
        first_ranks: &[Seat],
    ) -> Result<Session, SessionError> {
        if !(MIN_SEATS..=MAX_SEATS).contains(&seats) {
            return Err(SessionError::Seats(seats));
        }
        if hands == 0 {
            return Err(SessionError::NoHands);
        }
        if !is_rank_order(first_ranks, seats) {
            return Err(SessionError::Ranks(seats));
        }
        Ok(Session {
            options,
            seats,
            hands,
            ranks: first_ranks.iter().copied().collect(),
            current: None,
            finished: Vec::new(),
            results: Vec::new(),
            tricks: vec![0; seats],
            as_tzar: vec![0; seats],
        })
    }

    /// A session whose first ranks are drawn at random from `seed` (pass the first hand's seed
    /// to `start_hand` too: the two draws use separate streams).
    pub fn from_seed(
        options: Options,
        seats: usize,
        hands: u32,
        seed: Seed,
    ) -> Result<Session, SessionError> {
        if !(MIN_SEATS..=MAX_SEATS).contains(&seats) {
            return Err(SessionError::Seats(seats));
        }
        Session::new(options, seats, hands, &ranks_from_seed(seats, seed))
    }

    pub fn options(&self) -> &Options {
        &self.options
    }

    pub fn seats(&self) -> usize {
        self.seats
    }

    /// Hands the session lasts.
    pub fn hands(&self) -> u32 {
        self.hands
    }

    /// The ranks of the hand in progress, or of the next hand (the final standing when over).
    pub fn ranks(&self) -> &[Seat] {
        &self.ranks
    }

    /// The hand in progress, if any.
    pub fn current(&self) -> Option<&Deal> {
        self.current.as_ref()
    }

    /// The finished hands, in order.
    pub fn finished(&self) -> &[Deal] {
        &self.finished
    }

    pub fn results(&self) -> &[HandResult] {
        &self.results
    }

    pub fn is_over(&self) -> bool {
        self.results.len() as u32 >= self.hands
    }

    fn can_start(&self) -> Result<(), SessionError> {
        if self.current.is_some() {
            return Err(SessionError::HandInProgress);
        }
        if self.is_over() {
            return Err(SessionError::SessionOver(self.hands));
        }
        Ok(())
    }

    /// Deals the next hand from a seed, with the current ranks.
    pub fn start_hand(&mut self, seed: Seed) -> Result<&Deal, SessionError> {
        self.can_start()?;
        let deal = Deal::from_seed(self.options, &self.ranks, seed)?;
        Ok(self.current.insert(deal))
    }

    /// Deals the next hand with the cards given per seat, with the current ranks.
    pub fn start_hand_with(&mut self, hands: &[CardSet]) -> Result<&Deal, SessionError> {
        self.can_start()?;
        let deal = Deal::new(self.options, &self.ranks, hands)?;
        Ok(self.current.insert(deal))
    }

    /// Applies an action to the hand in progress. When it ends the hand, the tallies and ranks
    /// are updated and the hand's result is returned.
    pub fn apply(&mut self, seat: Seat, action: Action) -> Result<Option<&HandResult>, SessionError> {
        let deal = self.current.as_mut().ok_or(SessionError::NoHand)?;
        deal.apply(seat, action)?;
        if !deal.is_over() {
            return Ok(None);
        }
        let deal = self.current.take().expect("a hand is in progress");
        let tricks = deal.won().to_vec();
        for (total, &t) in self.tricks.iter_mut().zip(&tricks) {
            *total += t as u32;
        }
        self.as_tzar[deal.tzar() as usize] += 1;
        let after = next_ranks(deal.ranks(), &tricks);
        self.results.push(HandResult {
            ranks_before: self.ranks.clone(),
            tricks,
            ranks_after: after.clone(),
        });
        self.ranks = after;
        self.finished.push(deal);
        Ok(self.results.last())
    }

    /// The standing so far; the final standing once `is_over`.
    pub fn standing(&self) -> Standing {
        Standing {
            ranks: self.ranks.clone(),
            tricks: self.tricks.clone(),
            hands_as_tzar: self.as_tzar.clone(),
            hands_played: self.results.len() as u32,
        }
    }
}
