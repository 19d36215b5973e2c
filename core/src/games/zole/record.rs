//! Zole records (RECORD.md): reading a deal and its actions with precise deal/action numbers
//! for every fault, replaying a whole record through `Session`, printing the replay output, and
//! writing a session back out as a record.

use serde_json::{json, Map, Value};

use super::deal::{Action, Bid, Deal};
use super::options::Options;
use super::session::{DealEntry, Session};
use crate::cards::{Card, CardSet};
use crate::game::Seat;
use crate::record::{deal_seed, Envelope, ReplayError};

fn parse_card(v: &Value) -> Result<Card, String> {
    match v {
        Value::String(s) => s.parse::<Card>().map_err(|e| e.to_string()),
        other => Err(format!("a card must be a string like \"QC\", not {other}")),
    }
}

fn parse_cards(v: &Value, what: &str) -> Result<CardSet, String> {
    let list = v
        .as_array()
        .ok_or_else(|| format!("{what} must be a list of cards"))?;
    let mut set = CardSet::EMPTY;
    for c in list {
        let card = parse_card(c).map_err(|e| format!("{what}: {e}"))?;
        if set.contains(card) {
            return Err(format!("{what}: {card} is listed twice"));
        }
        set.insert(card);
    }
    Ok(set)
}

/// Reads one action object: `{"seat": 0, "bid": "pass"}`, `{"seat": 1, "bury": ["AH", "10H"]}`,
/// `{"seat": 0, "play": "QC"}`, `{"seat": 1, "surrender": true}`.
pub fn parse_action(v: &Value) -> Result<(Seat, Action), String> {
    let obj = v.as_object().ok_or("an action must be an object")?;
    let seat = obj
        .get("seat")
        .and_then(Value::as_u64)
        .filter(|&s| s < 64)
        .ok_or("an action needs a \"seat\" number")? as Seat;
    let mut kinds = obj.iter().filter(|(k, _)| k.as_str() != "seat");
    let (key, val) = match (kinds.next(), kinds.next()) {
        (Some(kv), None) => kv,
        _ => return Err("an action has \"seat\" and exactly one of bid, bury, play, surrender".into()),
    };
    let action = match key.as_str() {
        "bid" => {
            let s = val.as_str().ok_or("a bid must be a string")?;
            Action::Bid(s.parse::<Bid>()?)
        }
        "bury" => {
            let list = val.as_array().ok_or("bury must be a list of two cards")?;
            if list.len() != 2 {
                return Err(format!("bury must name two cards, not {}", list.len()));
            }
            let (a, b) = (parse_card(&list[0])?, parse_card(&list[1])?);
            if a == b {
                return Err(format!("bury names {a} twice"));
            }
            Action::Bury(a, b)
        }
        "play" => Action::Play(parse_card(val)?),
        "surrender" if val == &Value::Bool(true) => Action::Surrender,
        "surrender" => return Err("surrender must be true".into()),
        other => return Err(format!("unknown action {other:?}")),
    };
    Ok((seat, action))
}

/// Writes one action as a record does.
pub fn action_json(seat: Seat, a: Action) -> Value {
    match a {
        Action::Bid(b) => json!({"seat": seat, "bid": b.name()}),
        Action::Bury(a, b) => json!({"seat": seat, "bury": [a.to_string(), b.to_string()]}),
        Action::Play(c) => json!({"seat": seat, "play": c.to_string()}),
        Action::Surrender => json!({"seat": seat, "surrender": true}),
    }
}

fn cards_json(s: CardSet) -> Value {
    Value::Array(s.iter().map(|c| Value::String(c.to_string())).collect())
}

/// Starts the next deal of `session` from a record's deal object (hands, talon, dealer, and an
/// optional seed that must deal exactly those cards).
pub fn start_deal(session: &mut Session, d: &Value) -> Result<(), String> {
    let obj = d.as_object().ok_or("a deal must be an object")?;
    for k in obj.keys() {
        if !["dealer", "hands", "talon", "actions", "seed"].contains(&k.as_str()) {
            return Err(format!("unknown deal field {k:?}"));
        }
    }
    let dealer = obj
        .get("dealer")
        .and_then(Value::as_u64)
        .ok_or("a deal needs a \"dealer\" seat number")?;
    if dealer >= session.players() as u64 {
        return Err(format!(
            "dealer {dealer} is not a seat at a table of {}",
            session.players()
        ));
    }
    let hands_v = obj
        .get("hands")
        .and_then(Value::as_array)
        .ok_or("a deal needs \"hands\", one list per seat")?;
    let mut hands = Vec::with_capacity(hands_v.len());
    for (i, h) in hands_v.iter().enumerate() {
        hands.push(parse_cards(h, &format!("hand of seat {i}"))?);
    }
    let talon = parse_cards(obj.get("talon").ok_or("a deal needs a \"talon\"")?, "talon")?;
    let deal = *session
        .deal_from_hands(dealer as Seat, &hands, talon)
        .map_err(|e| e.to_string())?;
    // A host-dealt deal carries its seed, so anyone can check the cards came from it.
    if let Some(seed) = obj.get("seed") {
        let seed = deal_seed(seed)?;
        let expected = Deal::new(*session.options(), session.players(), dealer as Seat, seed)
            .map_err(|e| e.to_string())?;
        if expected.dealt_hands() != deal.dealt_hands() || expected.talon() != deal.talon() {
            return Err("the hands are not the ones this seed deals".into());
        }
    }
    Ok(())
}

/// Replays a zole record and returns the output object of RECORD.md.
pub fn replay(env: &Envelope) -> Result<Value, ReplayError> {
    let session = replay_session(env)?;
    Ok(output(&session))
}

/// Replays a zole record into a `Session`.
pub fn replay_session(env: &Envelope) -> Result<Session, ReplayError> {
    let opts = Options::from_rules(&env.rules).map_err(ReplayError::record)?;
    let n = env.players.len();
    if !(3..=5).contains(&n) {
        return Err(ReplayError::record(format!(
            "zole is played by 3, 4 or 5 players, the record has {n}"
        )));
    }
    let first_dealer = env
        .deals
        .first()
        .and_then(|d| d.get("dealer"))
        .and_then(Value::as_u64)
        .unwrap_or(0);
    let mut session = Session::new(opts, n, (first_dealer as usize % n) as Seat)
        .map_err(|e| ReplayError::record(e.to_string()))?;
    for (i, d) in env.deals.iter().enumerate() {
        let deal_no = i + 1;
        if session.current().is_some() {
            return Err(ReplayError::deal(deal_no, format!("deal {i} is not finished")));
        }
        start_deal(&mut session, d).map_err(|e| ReplayError::deal(deal_no, e))?;
        let actions = match d.get("actions") {
            None => &[][..],
            Some(Value::Array(a)) => &a[..],
            Some(_) => return Err(ReplayError::deal(deal_no, "\"actions\" must be a list")),
        };
        for (j, a) in actions.iter().enumerate() {
            let fail = |e: String| ReplayError::action(deal_no, j + 1, e);
            let (seat, action) = parse_action(a).map_err(fail)?;
            session.apply(seat, action).map_err(|e| fail(e.to_string()))?;
        }
    }
    Ok(session)
}

fn deal_output(e: &DealEntry, players: usize) -> Value {
    let mut m = Map::new();
    let deal: &Deal = &e.deal;
    match &e.result {
        Some(r) => {
            let o = &r.outcome;
            m.insert("contract".into(), json!(o.kind.name()));
            if o.surrendered {
                m.insert("surrendered".into(), json!(true));
            }
            m.insert("declarer".into(), json!(o.declarer));
            m.insert("card_points".into(), json!(o.card_points()));
            m.insert("tricks".into(), json!(o.tricks()));
            m.insert("deltas".into(), json!(r.deltas));
            m.insert(
                "pules".into(),
                json!({"common": r.pules_after.common, "personal": r.pules_after.personal_counts(players)}),
            );
        }
        None => {
            m.insert("contract".into(), json!(deal.contract().map(|c| c.name())));
            m.insert("declarer".into(), json!(deal.declarer()));
            m.insert("card_points".into(), json!(deal.trick_points()));
            m.insert("tricks".into(), json!(deal.tricks()));
            m.insert("complete".into(), json!(false));
        }
    }
    Value::Object(m)
}

/// The replay output of RECORD.md for a session.
pub fn output(session: &Session) -> Value {
    let n = session.players();
    let mut deals: Vec<Value> = session.deals().iter().map(|e| deal_output(e, n)).collect();
    if let (Some(Value::Object(last)), Some(_)) = (deals.last_mut(), session.current()) {
        last.insert(
            "pules".into(),
            json!({"common": session.pules.common, "personal": session.pules.personal_counts(n)}),
        );
    }
    json!({"deals": deals, "totals": session.sheet.totals})
}

/// A deal as dealt, as a record writes it: dealer, hands and talon (no actions, no seed).
pub fn deal_json(start: &Deal) -> Value {
    json!({
        "dealer": start.dealer(),
        "hands": start.dealt_hands().iter().map(|&h| cards_json(h)).collect::<Vec<_>>(),
        "talon": cards_json(start.talon()),
    })
}

/// Writes a session as a record.
pub fn to_record(session: &Session, players: &[String]) -> Envelope {
    let deals = session
        .deals()
        .iter()
        .map(|e| {
            let mut d = deal_json(&e.start);
            d["actions"] = e.actions.iter().map(|&(s, a)| action_json(s, a)).collect();
            d
        })
        .collect();
    Envelope {
        game: "zole".into(),
        rules: session.options().to_rules(),
        players: players.to_vec(),
        deals,
    }
}
