//! Game records (docs/record-format.md): the envelope every game shares, the replay error with its
//! deal and action numbers, and `replay`, which reads any record and dispatches to its game.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::game::Seed;

/// The parts of a record every game has; `deals` are read by the game's own module.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Envelope {
    pub game: String,
    pub rules: Value,
    pub players: Vec<String>,
    pub deals: Vec<Value>,
}

/// Why a record cannot be replayed. `deal` and `action` count from 1; a fault of a deal itself
/// is action 0, a fault of the record as a whole is deal 0, action 0.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReplayError {
    pub deal: usize,
    pub action: usize,
    pub reason: String,
}

impl ReplayError {
    pub fn record(reason: impl Into<String>) -> Self {
        ReplayError {
            deal: 0,
            action: 0,
            reason: reason.into(),
        }
    }
    pub fn deal(deal: usize, reason: impl Into<String>) -> Self {
        ReplayError {
            deal,
            action: 0,
            reason: reason.into(),
        }
    }
    pub fn action(deal: usize, action: usize, reason: impl Into<String>) -> Self {
        ReplayError {
            deal,
            action,
            reason: reason.into(),
        }
    }
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "deal {}, action {}: {}", self.deal, self.action, self.reason)
    }
}

impl std::error::Error for ReplayError {}

/// A record deal's optional `"seed"`: the seed a host dealt it from, 64 hexadecimal digits.
/// Each game checks on replay that it deals exactly the recorded cards, so a revealed seed
/// proves the deal.
pub fn deal_seed(v: &Value) -> Result<Seed, String> {
    v.as_str()
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| "\"seed\" must be 64 hexadecimal digits".into())
}

/// Reads a record from raw bytes (any bytes: never panics) and replays it, returning the
/// output object of RECORD.md.
pub fn replay(input: &[u8]) -> Result<Value, ReplayError> {
    if input.iter().all(u8::is_ascii_whitespace) {
        return Err(ReplayError::record(
            "the file is empty: a record is one JSON object (docs/record-format.md)",
        ));
    }
    let text = std::str::from_utf8(input)
        .map_err(|e| ReplayError::record(format!("the record is not UTF-8 text ({e})")))?;
    let value: Value = serde_json::from_str(text)
        .map_err(|e| ReplayError::record(format!("the record is not valid JSON ({e})")))?;
    let env: Envelope = serde_json::from_value(value)
        .map_err(|e| ReplayError::record(format!("the record is malformed ({e})")))?;
    match crate::games::game(&env.game) {
        Some(game) => (game.replay)(&env),
        None => Err(ReplayError::record(format!("unknown game {:?}", env.game))),
    }
}
