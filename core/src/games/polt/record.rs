//! Polt to Tzar records (RECORD.md): each deal lists `ranks` (Tzar to Polt), optionally the
//! `dealer` (the Polt), the `hands` per seat and the actions `give`, `return`, `trump`, `play`.
//! Building a record from a session, and `replay` for game `polt`, which prints per deal the
//! tricks per seat and the ranks after it.

use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

use super::deal::{Action, Deal};
use super::session::{Session, SessionError};
use super::{ranks_from_seed, Options};
use crate::cards::{Card, CardSet, Suit};
use crate::game::Seat;
use crate::record::{deal_seed, Envelope, ReplayError};

/// The game name in records.
pub const GAME: &str = "polt";

/// One deal as a record lists it. Actions stay raw JSON here so that a bad one is reported
/// with its number.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DealRecord {
    pub ranks: Vec<Seat>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dealer: Option<Seat>,
    pub hands: Vec<Vec<Card>>,
    /// The seed a host dealt the hand from (64 hexadecimal digits), revealed with its result;
    /// replay checks that it deals exactly these hands (and, on the first deal, draws these
    /// ranks). Kept raw so that a malformed seed gets the same message in every game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<Value>,
    pub actions: Vec<Value>,
}

/// The replay output of one deal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DealOutput {
    pub tricks: Vec<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ranks: Option<Vec<Seat>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub complete: Option<bool>,
}

/// One action as a record writes it: `{"seat": 0, "give": "QC"}`.
pub fn action_to_json(seat: Seat, action: Action) -> Value {
    let (key, value) = match action {
        Action::Give(c) => ("give", c.to_string()),
        Action::Return(c) => ("return", c.to_string()),
        Action::Trump(s) => ("trump", s.letter().to_string()),
        Action::Play(c) => ("play", c.to_string()),
    };
    let mut m = Map::new();
    m.insert("seat".into(), json!(seat));
    m.insert(key.into(), Value::String(value));
    Value::Object(m)
}

/// Reads one action of a record; the error is the reason for the replay message.
pub fn action_from_json(v: &Value) -> Result<(Seat, Action), String> {
    let obj = v
        .as_object()
        .ok_or_else(|| format!("an action must be an object, not {v}"))?;
    let seat = obj
        .get("seat")
        .ok_or("the action has no seat")?
        .as_u64()
        .filter(|&s| s <= Seat::MAX as u64)
        .ok_or_else(|| format!("the action's seat {} is not a seat number", obj["seat"]))?
        as Seat;
    let mut found = None;
    for (key, value) in obj {
        if key == "seat" {
            continue;
        }
        if found.is_some() {
            return Err("an action must have one of give, return, trump, play".into());
        }
        let text = value
            .as_str()
            .ok_or_else(|| format!("{key} must be a string, not {value}"))?;
        let card = || text.parse::<Card>().map_err(|_| format!("unknown card {text:?}"));
        found = Some(match key.as_str() {
            "give" => Action::Give(card()?),
            "return" => Action::Return(card()?),
            "play" => Action::Play(card()?),
            "trump" => Action::Trump(
                text.parse::<Suit>()
                    .map_err(|_| format!("unknown trump suit {text:?}"))?,
            ),
            other => return Err(format!("unknown polt action {other:?}")),
        });
    }
    found
        .map(|a| (seat, a))
        .ok_or_else(|| "an action must have one of give, return, trump, play".into())
}

/// The record of a deal as played so far.
pub fn deal_record(deal: &Deal) -> DealRecord {
    DealRecord {
        ranks: deal.ranks().to_vec(),
        dealer: Some(deal.polt()),
        hands: (0..deal.seat_count() as Seat)
            .map(|s| deal.dealt(s).iter().collect())
            .collect(),
        seed: None,
        actions: deal.log().iter().map(|&(s, a)| action_to_json(s, a)).collect(),
    }
}

/// The record of a whole session: every finished hand, then the hand in progress.
pub fn session_record(session: &Session, players: &[String]) -> Envelope {
    let deals = session
        .finished()
        .iter()
        .chain(session.current())
        .map(|d| serde_json::to_value(deal_record(d)).expect("a deal record serializes"))
        .collect();
    Envelope {
        game: GAME.into(),
        rules: session.options().to_rules(),
        players: players.to_vec(),
        deals,
    }
}

/// The output of one deal of a session (finished or in progress).
fn deal_output(deal: &Deal, session: &Session, index: usize) -> DealOutput {
    match session.results().get(index) {
        Some(r) => DealOutput {
            tricks: r.tricks.clone(),
            ranks: Some(r.ranks_after.to_vec()),
            complete: None,
        },
        None => DealOutput {
            tricks: deal.won().to_vec(),
            ranks: None,
            complete: Some(false),
        },
    }
}

/// Replays a `polt` record and returns the RECORD.md output: `{"deals": [{"tricks": [..],
/// "ranks": [..]}, ...]}`, a deal in progress shown with `"complete": false` and no ranks.
pub fn replay(env: &Envelope) -> Result<Value, ReplayError> {
    let options = Options::from_rules(&env.rules).map_err(ReplayError::record)?;
    let seats = env.players.len();
    if !(super::MIN_SEATS..=super::MAX_SEATS).contains(&seats) {
        return Err(ReplayError::record(format!(
            "Polt to Tzar is for 5 to 7 players, not {seats}"
        )));
    }
    let mut session: Option<Session> = None;
    let mut outputs = Vec::with_capacity(env.deals.len());
    for (i, raw) in env.deals.iter().enumerate() {
        let d = i + 1;
        let fault = |reason: String| ReplayError::deal(d, reason);
        let rec = DealRecord::deserialize(raw).map_err(|e| fault(format!("the deal is malformed ({e})")))?;
        let seed = rec.seed.as_ref().map(deal_seed).transpose().map_err(fault)?;
        let session = match &mut session {
            None => session.insert(
                Session::new(options, seats, env.deals.len() as u32, &rec.ranks)
                    .map_err(|e| fault(e.to_string()))?,
            ),
            Some(s) => {
                if s.current().is_some() {
                    return Err(fault(format!("deal {} is not finished", d - 1)));
                }
                if rec.ranks != s.ranks() {
                    return Err(fault(format!(
                        "the ranks must be the result of deal {}: {:?}",
                        d - 1,
                        s.ranks()
                    )));
                }
                s
            }
        };
        let polt = *session.ranks().last().expect("5 to 7 seats");
        if let Some(dealer) = rec.dealer {
            if dealer != polt {
                return Err(fault(format!(
                    "the dealer must be the Polt, seat {polt}, not {dealer}"
                )));
            }
        }
        let mut hands = Vec::with_capacity(rec.hands.len());
        for hand in &rec.hands {
            let mut set = CardSet::EMPTY;
            for &c in hand {
                if set.contains(c) {
                    return Err(fault(format!("{c} is dealt twice")));
                }
                set.insert(c);
            }
            hands.push(set);
        }
        session
            .start_hand_with(&hands)
            .map_err(|e| fault(e.to_string()))?;
        if let Some(seed) = seed {
            // The host draws the first ranks from the first hand's seed (stream 1) and deals
            // every hand from its seed with the ranks it is played with.
            if i == 0 && rec.ranks[..] != ranks_from_seed(seats, seed)[..] {
                return Err(fault("the ranks are not the ones this seed draws".into()));
            }
            let dealt = Deal::from_seed(options, session.ranks(), seed).map_err(|e| fault(e.to_string()))?;
            if (0..seats as Seat).any(|s| dealt.dealt(s) != hands[s as usize]) {
                return Err(fault("the hands are not the ones this seed deals".into()));
            }
        }
        for (j, raw_action) in rec.actions.iter().enumerate() {
            let a = j + 1;
            let (seat, action) = action_from_json(raw_action).map_err(|r| ReplayError::action(d, a, r))?;
            match session.apply(seat, action) {
                Ok(_) => {}
                Err(SessionError::NoHand) => return Err(ReplayError::action(d, a, "the deal is over")),
                Err(e) => return Err(ReplayError::action(d, a, e.to_string())),
            }
        }
        let deal = session
            .current()
            .or_else(|| session.finished().last())
            .expect("a deal was started");
        outputs.push(deal_output(deal, session, i));
    }
    Ok(json!({ "deals": outputs }))
}
