//! A Zole table session: deal after deal with the dealer moving one seat left each time (also
//! after an all-pass redeal), the running score sheet with its pules and tree, the history a
//! record is written from, and the end-of-session settlement as a separate call.

use super::deal::{Action, Deal, DealError, ZoleError};
use super::options::Options;
use super::pules::{PuleEvents, Pules};
use super::scoring::Outcome;
use crate::cards::CardSet;
use crate::game::{Seat, Seed};
use crate::session::{next_seat, ScoreSheet};

/// One deal of a session: how it started, what was done, and (once over) its result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DealEntry {
    /// The deal as dealt, before any action.
    pub start: Deal,
    pub actions: Vec<(Seat, Action)>,
    /// The current state.
    pub deal: Deal,
    pub result: Option<DealResult>,
}

/// A scored deal: its outcome, the final deltas (with pules and tree), and the pules after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DealResult {
    pub outcome: Outcome,
    pub deltas: Vec<i32>,
    pub events: PuleEvents,
    pub pules_after: Pules,
}

/// Why a session action was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SessionError {
    #[error("no deal is in progress")]
    NoDeal,
    #[error("the current deal is not finished")]
    DealInProgress,
    #[error("the dealer must be seat {expected}, not seat {got}")]
    WrongDealer { expected: Seat, got: Seat },
    #[error(transparent)]
    Deal(#[from] DealError),
    #[error(transparent)]
    Rule(#[from] ZoleError),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Session {
    opts: Options,
    players: usize,
    next_dealer: Seat,
    pub sheet: ScoreSheet,
    pub pules: Pules,
    deals: Vec<DealEntry>,
    settled: Option<Vec<i32>>,
}

impl Session {
    pub fn new(opts: Options, players: usize, first_dealer: Seat) -> Result<Session, SessionError> {
        if !(3..=5).contains(&players) {
            return Err(DealError::Players(players).into());
        }
        if first_dealer as usize >= players {
            return Err(DealError::Dealer {
                dealer: first_dealer as usize,
                players,
            }
            .into());
        }
        Ok(Session {
            opts,
            players,
            next_dealer: first_dealer,
            sheet: ScoreSheet::new(players),
            pules: Pules::default(),
            deals: Vec::new(),
            settled: None,
        })
    }

    pub fn options(&self) -> &Options {
        &self.opts
    }
    pub fn players(&self) -> usize {
        self.players
    }
    pub fn next_dealer(&self) -> Seat {
        self.next_dealer
    }
    pub fn deals(&self) -> &[DealEntry] {
        &self.deals
    }
    /// The deal in progress, if the last one is not over.
    pub fn current(&self) -> Option<&Deal> {
        self.deals.last().filter(|e| e.result.is_none()).map(|e| &e.deal)
    }
    pub fn is_settled(&self) -> bool {
        self.settled.is_some()
    }

    fn begin(&mut self, deal: Deal) -> Result<&Deal, SessionError> {
        if self.current().is_some() {
            return Err(SessionError::DealInProgress);
        }
        self.next_dealer = next_seat(deal.dealer(), self.players);
        self.deals.push(DealEntry {
            start: deal,
            actions: Vec::new(),
            deal,
            result: None,
        });
        Ok(&self.deals.last().expect("just pushed").deal)
    }

    /// Deals the next deal from a seed.
    pub fn deal_from_seed(&mut self, seed: Seed) -> Result<&Deal, SessionError> {
        let deal = Deal::new(self.opts, self.players, self.next_dealer, seed)?;
        self.begin(deal)
    }

    /// Deals the next deal from explicit hands; `dealer` must be the next dealer.
    pub fn deal_from_hands(
        &mut self,
        dealer: Seat,
        hands: &[CardSet],
        talon: CardSet,
    ) -> Result<&Deal, SessionError> {
        if dealer != self.next_dealer && !self.deals.is_empty() {
            return Err(SessionError::WrongDealer {
                expected: self.next_dealer,
                got: dealer,
            });
        }
        let deal = Deal::from_hands(self.opts, self.players, dealer, hands, talon)?;
        self.begin(deal)
    }

    /// Applies an action to the deal in progress; when it ends the deal, scores it.
    pub fn apply(&mut self, seat: Seat, action: Action) -> Result<Option<&DealResult>, SessionError> {
        let entry = self.deals.last_mut().ok_or(SessionError::NoDeal)?;
        if entry.result.is_some() {
            // An action after the last card: the record names the real fault.
            return Err(ZoleError::DealOver.into());
        }
        entry.deal.apply(seat, action)?;
        entry.actions.push((seat, action));
        let Some(outcome) = entry.deal.outcome() else {
            return Ok(None);
        };
        let mut deltas = outcome.deltas().to_vec();
        let events = self.pules.apply_deal(&self.opts, &outcome, &mut deltas);
        self.sheet.add(&deltas);
        entry.result = Some(DealResult {
            outcome,
            deltas,
            events,
            pules_after: self.pules.clone(),
        });
        Ok(entry.result.as_ref())
    }

    /// Closes the table: settles open personal pules (RULES.md 1.8) into the totals and returns
    /// the settlement deltas. Calling it again changes nothing.
    pub fn settle(&mut self) -> Vec<i32> {
        if let Some(d) = &self.settled {
            return d.clone();
        }
        let deltas = self.pules.settle_end(&self.opts, self.players);
        for (t, d) in self.sheet.totals.iter_mut().zip(&deltas) {
            *t += d;
        }
        self.settled = Some(deltas.clone());
        deltas
    }
}
