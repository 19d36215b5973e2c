//! Belote records (RECORD.md): the deal and action shapes of `belote-bazar`, `belote-classic`,
//! `belote-h2h` and `coinche`, writing a record from a session, and `replay`, which re-plays a
//! record through the engine and prints the result (or the first fault, with its deal and
//! action numbers).

use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

use super::coinche::cut_from_seed;
use super::deal::{Action, Bid};
use super::options::Options;
use super::session::{Session, SessionError, StartError};
use super::Variant;
use crate::cards::{Card, CardSet};
use crate::game::Seat;
use crate::record::{deal_seed, Envelope, ReplayError};

/// One deal as a record stores it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DealRecord {
    pub dealer: Seat,
    pub hands: Vec<Vec<Card>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turned: Option<Card>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stock: Option<Vec<Card>>,
    /// The seed a host dealt the deal from (64 hexadecimal digits), revealed with its result;
    /// replay checks that it deals exactly these cards. Kept raw so that a malformed seed gets
    /// the same message in every game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<Value>,
    /// Kept as raw values so that a bad action is reported with its number.
    pub actions: Vec<Value>,
}

/// One action as a record stores it: `{"seat": 0, "bid": "9 H"}` or `{"seat": 0, "play": "JH"}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActionRecord {
    pub seat: Seat,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bid: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub play: Option<Card>,
}

impl ActionRecord {
    pub fn new(seat: Seat, a: Action) -> ActionRecord {
        match a {
            Action::Bid(b) => ActionRecord {
                seat,
                bid: Some(b.to_string()),
                play: None,
            },
            Action::Play(c) => ActionRecord {
                seat,
                bid: None,
                play: Some(c),
            },
        }
    }

    pub fn action(&self, v: Variant) -> Result<Action, String> {
        match (&self.bid, self.play) {
            (Some(b), None) => Bid::parse(v, b)
                .map(Action::Bid)
                .ok_or_else(|| format!("unknown bid {b:?}")),
            (None, Some(c)) => Ok(Action::Play(c)),
            _ => Err("an action is one bid or one play".into()),
        }
    }
}

fn sorted(set: CardSet) -> Vec<Card> {
    set.iter().collect()
}

/// The record of a session, with the players' names.
pub fn to_envelope(s: &Session, players: &[String]) -> Envelope {
    let v = s.variant();
    let deals = s
        .deals()
        .iter()
        .map(|d| {
            let rec = DealRecord {
                dealer: d.dealer,
                hands: d.hands.iter().map(|&h| sorted(h)).collect(),
                turned: d.turned,
                stock: v.has_turned_card().then(|| d.stock.clone()),
                seed: None,
                actions: d
                    .actions
                    .iter()
                    .map(|&(seat, a)| serde_json::to_value(ActionRecord::new(seat, a)).expect("plain struct"))
                    .collect(),
            };
            serde_json::to_value(rec).expect("plain struct")
        })
        .collect();
    Envelope {
        game: v.game_name().into(),
        rules: s.options().to_rules(v),
        players: players.to_vec(),
        deals,
    }
}

/// Rebuilds the session a record describes (a table after a restart), or the first fault.
pub fn to_session(env: &Envelope) -> Result<Session, ReplayError> {
    let v = Variant::from_game_name(&env.game)
        .ok_or_else(|| ReplayError::record(format!("unknown game {:?}", env.game)))?;
    let options = Options::from_rules(v, &env.rules).map_err(ReplayError::record)?;
    if env.players.len() != v.seats() {
        return Err(ReplayError::record(format!(
            "{v} is played by {} players, not {}",
            v.seats(),
            env.players.len()
        )));
    }
    // The first dealer is whoever the record says; `start_explicit` checks every later one.
    let first = env
        .deals
        .first()
        .and_then(|d| d.get("dealer"))
        .and_then(Value::as_u64)
        .filter(|&d| d < v.seats() as u64)
        .unwrap_or(0) as Seat;
    let mut s = Session::new(v, options, first);
    for (i, raw) in env.deals.iter().enumerate() {
        let n = i + 1;
        let rec: DealRecord = serde_json::from_value(raw.clone())
            .map_err(|e| ReplayError::deal(n, format!("the deal is malformed ({e})")))?;
        let hands: Vec<CardSet> = rec
            .hands
            .iter()
            .enumerate()
            .map(|(seat, h)| {
                let set: CardSet = h.iter().copied().collect();
                if set.len() as usize != h.len() {
                    Err(ReplayError::deal(n, format!("seat {seat} holds a card twice")))
                } else {
                    Ok(set)
                }
            })
            .collect::<Result<_, _>>()?;
        if !v.has_turned_card() && (rec.turned.is_some() || rec.stock.is_some()) {
            return Err(ReplayError::deal(n, format!("{v} has no turned card or stock")));
        }
        let stock = rec.stock.clone().unwrap_or_default();
        let seed = rec
            .seed
            .as_ref()
            .map(deal_seed)
            .transpose()
            .map_err(|e| ReplayError::deal(n, e))?;
        // What the host dealt from that seed, worked out before the deal starts (a Coinche
        // deal after the first is the deck the last deal gathered, cut as the seed says).
        let seeded = seed.map(|seed| s.seeded_deal(seed, cut_from_seed(&seed)));
        s.start_explicit(rec.dealer, &hands, rec.turned, &stock)
            .map_err(|e| {
                ReplayError::deal(
                    n,
                    match e {
                        StartError::Session(SessionError::GameOver) => "the game is already over".to_string(),
                        StartError::Session(SessionError::DealInProgress) => {
                            format!("deal {} is not finished", n - 1)
                        }
                        e => e.to_string(),
                    },
                )
            })?;
        if let Some(seeded) = seeded {
            // `start_explicit` accepted the deal, so the session could start one.
            let seeded = seeded.map_err(|e| ReplayError::deal(n, e.to_string()))?;
            if seeded.dealt() != &hands[..] || seeded.turned() != rec.turned || seeded.stock() != &stock[..] {
                return Err(ReplayError::deal(n, "the hands are not the ones this seed deals"));
            }
        }
        for (j, a) in rec.actions.iter().enumerate() {
            let fail = |r: String| ReplayError::action(n, j + 1, r);
            let ar: ActionRecord = serde_json::from_value(a.clone())
                .map_err(|e| fail(format!("the action is malformed ({e})")))?;
            let action = ar.action(v).map_err(fail)?;
            s.play(ar.seat, action).map_err(|e| fail(e.to_string()))?;
        }
    }
    Ok(s)
}

/// Replays a belote record (any of the four games) into the output of RECORD.md.
pub fn replay(env: &Envelope) -> Result<Value, ReplayError> {
    let s = to_session(env)?;
    let v = s.variant();
    let mut totals = [0i32; 2];
    let mut out = Vec::with_capacity(s.deals().len());
    for log in s.deals() {
        let mut m = Map::new();
        let (contract, done) = match &log.result {
            Some(r) => (r.contract, true),
            None => (s.current().and_then(|d| d.contract()), false),
        };
        m.insert(
            "contract".into(),
            match (contract, done) {
                (Some(c), _) => c.describe(v).into(),
                (None, true) => "redeal".into(),
                (None, false) => Value::Null,
            },
        );
        m.insert("declarer".into(), json!(contract.map(|c| c.declarer)));
        if let Some(w) = contract.and_then(|c| c.doubled_word(v)) {
            m.insert("doubled".into(), w.into());
        }
        match &log.result {
            Some(r) => {
                totals[0] += r.deltas[0];
                totals[1] += r.deltas[1];
                m.insert("team_points".into(), json!(r.team_points));
                m.insert("combinations".into(), json!(r.combinations));
                m.insert("deltas".into(), json!(r.deltas));
            }
            None => {
                m.insert("complete".into(), false.into());
            }
        }
        m.insert("totals".into(), json!(totals));
        out.push(Value::Object(m));
    }
    debug_assert_eq!(totals, s.totals());
    Ok(json!({"deals": out, "totals": totals}))
}
