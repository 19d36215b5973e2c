//! Latvian-format Zole tournaments (the rules reference, "Tournaments"): how many tables a
//! field makes, the big points a table's placings give, the standings after a round and the
//! seating of the next one. Pure: the host runs the rounds, this module only counts.
//!
//! Big points can be fractions (places shared at a 5-player table are averaged), so they are
//! kept exactly as [`BigPoints`], an integer number of sixtieths: every average of two to five
//! places is a whole number of sixtieths.

use std::cmp::Reverse;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::game::{bounded, Seed};

/// Big points in sixtieths of a point, so that shared places are counted exactly.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct BigPoints(pub u32);

impl BigPoints {
    pub const UNIT: u32 = 60;

    pub fn whole(points: u32) -> BigPoints {
        BigPoints(points * Self::UNIT)
    }
}

impl std::ops::Add for BigPoints {
    type Output = BigPoints;
    fn add(self, o: BigPoints) -> BigPoints {
        BigPoints(self.0 + o.0)
    }
}

impl std::iter::Sum for BigPoints {
    fn sum<I: Iterator<Item = BigPoints>>(it: I) -> BigPoints {
        it.fold(BigPoints(0), |a, b| a + b)
    }
}

/// Whole points print as `4`; fractions with up to two decimals (`1.5`, `2.33`).
impl fmt::Display for BigPoints {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (whole, rest) = (self.0 / Self::UNIT, self.0 % Self::UNIT);
        if rest == 0 {
            return write!(f, "{whole}");
        }
        let hundredths = (rest * 100 + Self::UNIT / 2) / Self::UNIT;
        let s = format!("{whole}.{hundredths:02}");
        f.write_str(s.trim_end_matches('0'))
    }
}

/// Why a table's placings or a field cannot be counted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TournamentError {
    #[error("a tournament table has 3, 4 or 5 players, not {0}")]
    TableSize(usize),
    #[error("a tournament needs at least 3 players, not {0}")]
    TooFew(usize),
}

/// The big points of each place at a table of `players`, best place first: RULES 6/4/2/0 and
/// 6/4/2/1/0. A 3-player table (only when the field cannot be seated otherwise) gets 6/3/0,
/// which keeps the 3 big points a seat earns on average at a 4-player table.
pub fn place_points(players: usize) -> Result<&'static [u32], TournamentError> {
    match players {
        3 => Ok(&[6, 3, 0]),
        4 => Ok(&[6, 4, 2, 0]),
        5 => Ok(&[6, 4, 2, 1, 0]),
        n => Err(TournamentError::TableSize(n)),
    }
}

/// The big points each seat of one table earns in a round from its game points (indexed by
/// seat). Seats with equal game points share their places: each gets the average of the
/// places' points (1st-2nd 5 each, 2nd-3rd 3, 3rd-4th 1, three sharing 1st-3rd 4 each), except
/// that four sharing every place of a 4-player table get 2 each, as the rules say.
pub fn table_big_points(game_points: &[i64]) -> Result<Vec<BigPoints>, TournamentError> {
    let points = place_points(game_points.len())?;
    let mut order: Vec<usize> = (0..game_points.len()).collect();
    order.sort_by_key(|&s| Reverse(game_points[s]));
    let mut out = vec![BigPoints(0); game_points.len()];
    let mut place = 0;
    while place < order.len() {
        let tied = order[place..]
            .iter()
            .take_while(|&&s| game_points[s] == game_points[order[place]])
            .count();
        let share = if tied == 4 && order.len() == 4 {
            BigPoints::whole(2)
        } else {
            let sum: u32 = points[place..place + tied].iter().sum();
            BigPoints(sum * BigPoints::UNIT / tied as u32)
        };
        for &s in &order[place..place + tied] {
            out[s] = share;
        }
        place += tied;
    }
    Ok(out)
}

/// The table sizes for a field of `players`, table 1 first: tables of 4, and of 5 (the last
/// tables) where the count does not divide by 4. Fields that 4s and 5s cannot make (6, 7 and
/// 11 players) get as few 3-player tables as possible, seated last: 3+3, 4+3, 4+4+3.
pub fn table_sizes(players: usize) -> Result<Vec<usize>, TournamentError> {
    if players < 3 {
        return Err(TournamentError::TooFew(players));
    }
    for threes in 0..=2usize {
        let Some(rest) = players.checked_sub(3 * threes) else {
            break;
        };
        // rest = 4a + 5b with as many 4s as possible: b = rest mod 4 fives.
        let fives = rest % 4;
        if 5 * fives <= rest {
            let fours = (rest - 5 * fives) / 4;
            let mut sizes = vec![4; fours];
            sizes.extend(std::iter::repeat_n(5, fives));
            sizes.extend(std::iter::repeat_n(3, threes));
            return Ok(sizes);
        }
    }
    unreachable!("every field of 3 or more players is seated by 4s and 5s and at most two 3s")
}

/// One player's line in the standings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    pub player: String,
    pub big_points: BigPoints,
    /// The sum of the player's game points over the rounds ("plus/minus").
    pub plus_minus: i64,
    pub rounds: u32,
}

/// The ranking order: big points, then plus/minus; players equal on both keep the order they
/// had (a stable sort), so the previous standings (or the first draw) break the last ties.
pub fn rank(standings: &mut [Standing]) {
    standings.sort_by(|a, b| {
        b.big_points
            .cmp(&a.big_points)
            .then(b.plus_minus.cmp(&a.plus_minus))
    });
}

/// Adds one round's results, `(player, game points, big points)`, to the standings and ranks
/// them again. A player missing from `results` sat the round out (withdrawn): unchanged.
pub fn add_round(standings: &mut [Standing], results: &[(String, i64, BigPoints)]) {
    for (player, game_points, big) in results {
        if let Some(s) = standings.iter_mut().find(|s| &s.player == player) {
            s.big_points = s.big_points + *big;
            s.plus_minus += game_points;
            s.rounds += 1;
        }
    }
    rank(standings);
}

/// Seats a ranked list of players: the best four (or five) at table 1, the next at table 2, and
/// so on, by `table_sizes`. Returns the players of each table in seat order.
pub fn seat(ranked: &[String]) -> Result<Vec<Vec<String>>, TournamentError> {
    let mut it = ranked.iter().cloned();
    Ok(table_sizes(ranked.len())?
        .into_iter()
        .map(|n| it.by_ref().take(n).collect())
        .collect())
}

/// The first round's draw: `players` (in registration order) permuted by `seed`, with the
/// same Fisher-Yates and unbiased draws as the deals (`Seed::shuffle`), on ChaCha12 stream 2
/// of the seed. Publishing the seed's SHA-256 when registration closes and the seed at the
/// start lets anyone re-check the draw.
pub fn draw(players: &[String], seed: Seed) -> Vec<String> {
    let mut out = players.to_vec();
    let mut rng = seed.rng();
    rng.set_stream(2);
    for i in (1..out.len()).rev() {
        let j = bounded(&mut rng, i as u32 + 1) as usize;
        out.swap(i, j);
    }
    out
}

/// A whole tournament as one file (docs/tournament-record.md): its entrants, the draw, every
/// table's game record round by round, and the standings the host posted. `verify` re-counts
/// everything but the games' own play from the records alone.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TournamentRecord {
    pub name: String,
    /// Always `zole` (the Latvian format is a Zole format).
    pub game: String,
    pub rules: serde_json::Value,
    /// Deals per table in a round, or null when rounds were timed.
    pub deals_per_round: Option<usize>,
    /// The entrants in registration order (late arrivals at the end).
    pub players: Vec<String>,
    /// The draw's seed (64 hex digits), revealed at the start.
    pub draw_seed: String,
    /// Its SHA-256 (64 hex digits), posted when registration closed.
    pub draw_commitment: String,
    pub rounds: Vec<RoundRecord>,
    /// The standings after the last round in `rounds`.
    pub standings: Vec<Standing>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RoundRecord {
    pub tables: Vec<TableRecord>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TableRecord {
    /// The table's players in seat order: the game record's `players`.
    pub players: Vec<String>,
    /// Players who left during the round; a computer player finished for them and their
    /// results count.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub replaced: Vec<String>,
    pub record: crate::record::Envelope,
}

/// The first place where a tournament record and its re-count disagree.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VerifyError {
    #[error("the tournament record is malformed: {0}")]
    Malformed(String),
    #[error("the draw: {0}")]
    Draw(String),
    #[error("round {round}, table {table}: {reason}")]
    Table {
        round: usize,
        table: usize,
        reason: String,
    },
    #[error("round {round}: {reason}")]
    Round { round: usize, reason: String },
    #[error("standings: {0}")]
    Standings(String),
}

/// A table's game points for a round: the totals `stikis replay` prints for its record, once
/// every deal is finished. Pules still open at the end of a round lapse (docs: rules
/// decisions), so the record alone gives the round's result.
pub fn table_totals(rec: &crate::record::Envelope) -> Result<Vec<i64>, String> {
    let out = crate::games::zole::record::replay(rec)
        .map_err(|e| format!("the game record does not replay: {e}"))?;
    let deals = out["deals"].as_array().map(Vec::as_slice).unwrap_or(&[]);
    if deals.is_empty() || deals.iter().any(|d| d["complete"] == false) {
        return Err("a deal of the round is not finished".into());
    }
    Ok(out["totals"]
        .as_array()
        .map(|a| a.iter().filter_map(|v| v.as_i64()).collect())
        .unwrap_or_default())
}

/// The order round `round_no` is seated from (`seat` cuts it into tables): round 1 by the
/// draw of the entrants who play it, in registration order; later rounds by the standings,
/// then newcomers in registration order. `plays` says who plays the round (not withdrawn).
pub fn round_order(
    round_no: usize,
    entrants: &[String],
    standings: &[Standing],
    seed: Seed,
    plays: &dyn Fn(&str) -> bool,
) -> Vec<String> {
    if round_no == 1 {
        let playing: Vec<String> = entrants.iter().filter(|p| plays(p)).cloned().collect();
        return draw(&playing, seed);
    }
    let mut order: Vec<String> = Vec::new();
    for p in standings.iter().map(|s| &s.player).chain(entrants) {
        if plays(p) && !order.contains(p) {
            order.push(p.clone());
        }
    }
    order
}

/// Re-counts a tournament from its records and returns the standings after its last round,
/// or the first disagreement: the first round's seating from the draw, every table's game
/// from its record (`stikis replay`'s engine), big points, the standings after each round,
/// each later round's seating from them. `standings` in the file is not looked at.
pub fn recount(t: &TournamentRecord) -> Result<Vec<Standing>, VerifyError> {
    use sha2::{Digest, Sha256};
    let malformed = |m: &str| Err(VerifyError::Malformed(m.to_string()));
    if t.game != "zole" {
        return malformed(&format!("a tournament is of zole, not {:?}", t.game));
    }
    let mut unique = t.players.clone();
    unique.sort();
    unique.dedup();
    if unique.len() != t.players.len() {
        return malformed("a player is entered twice");
    }
    let seed: Seed = t
        .draw_seed
        .parse()
        .map_err(|_| VerifyError::Draw("the seed must be 64 hexadecimal digits".into()))?;
    let hash: String = Sha256::digest(seed.0)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    if !hash.eq_ignore_ascii_case(&t.draw_commitment) {
        return Err(VerifyError::Draw(format!(
            "the seed's SHA-256 is {hash}, not the posted {}",
            t.draw_commitment
        )));
    }
    let mut standings: Vec<Standing> = Vec::new();
    for (r, round) in t.rounds.iter().enumerate() {
        let round_no = r + 1;
        let seated: Vec<&String> = round.tables.iter().flat_map(|tb| &tb.players).collect();
        for p in &seated {
            if !t.players.contains(p) {
                return Err(VerifyError::Round {
                    round: round_no,
                    reason: format!("{p} is seated but not entered"),
                });
            }
        }
        if seated.len() != seated.iter().collect::<std::collections::BTreeSet<_>>().len() {
            return Err(VerifyError::Round {
                round: round_no,
                reason: "a player is seated twice".into(),
            });
        }
        let plays = |p: &str| seated.iter().any(|s| s.as_str() == p);
        let order = round_order(round_no, &t.players, &standings, seed, &plays);
        // Newcomers join the standings with nothing: in round 1 in the draw's order (so it
        // breaks the last ties), later after everybody already in them.
        for p in &order {
            if !standings.iter().any(|s| &s.player == p) {
                standings.push(Standing {
                    player: p.clone(),
                    big_points: BigPoints(0),
                    plus_minus: 0,
                    rounds: 0,
                });
            }
        }
        let expected = seat(&order).map_err(|e| VerifyError::Round {
            round: round_no,
            reason: e.to_string(),
        })?;
        if expected.len() != round.tables.len() {
            return Err(VerifyError::Round {
                round: round_no,
                reason: format!(
                    "{} tables, but {} players make {}",
                    round.tables.len(),
                    order.len(),
                    expected.len()
                ),
            });
        }
        let mut results = Vec::new();
        for (i, (table, want)) in round.tables.iter().zip(&expected).enumerate() {
            let fail = |reason: String| VerifyError::Table {
                round: round_no,
                table: i + 1,
                reason,
            };
            let mut have = table.players.clone();
            let mut want_sorted = want.clone();
            have.sort();
            want_sorted.sort();
            if have != want_sorted {
                return Err(fail(format!(
                    "seated {}, but the {} give {}",
                    table.players.join(", "),
                    if round_no == 1 { "draw" } else { "standings" },
                    want.join(", ")
                )));
            }
            // Only a player of this table can have left it; a stranger in `replaced` would
            // claim a computer finished for somebody who never sat here.
            for (k, gone) in table.replaced.iter().enumerate() {
                if !table.players.contains(gone) {
                    return Err(fail(format!(
                        "{gone} is listed as replaced, but does not sit at this table ({})",
                        table.players.join(", ")
                    )));
                }
                if table.replaced[..k].contains(gone) {
                    return Err(fail(format!("{gone} is listed as replaced twice")));
                }
            }
            let rec = &table.record;
            if rec.game != t.game || rec.rules != t.rules || rec.players != table.players {
                return Err(fail(
                    "the game record is not of this table's game, rules and players".into(),
                ));
            }
            if let Some(n) = t.deals_per_round {
                if rec.deals.len() != n {
                    return Err(fail(format!("{} deals, not {n}", rec.deals.len())));
                }
            }
            let totals = table_totals(rec).map_err(|e| fail(e.to_string()))?;
            let big = table_big_points(&totals).map_err(|e| fail(e.to_string()))?;
            for ((p, gp), b) in table.players.iter().zip(&totals).zip(big) {
                results.push((p.clone(), *gp, b));
            }
        }
        add_round(&mut standings, &results);
    }
    Ok(standings)
}

/// Re-counts a tournament (`recount`) and checks the standings the file gives against the
/// re-count. Returns the standings, or the first disagreement.
pub fn verify(t: &TournamentRecord) -> Result<Vec<Standing>, VerifyError> {
    let standings = recount(t)?;
    if standings != t.standings {
        let first = standings
            .iter()
            .zip(&t.standings)
            .position(|(a, b)| a != b)
            .unwrap_or(standings.len().min(t.standings.len()));
        let line = |s: Option<&Standing>| match s {
            Some(s) => format!(
                "{} {} big points, {:+} ({} rounds)",
                s.player, s.big_points, s.plus_minus, s.rounds
            ),
            None => "nobody".into(),
        };
        return Err(VerifyError::Standings(format!(
            "place {}: the records give {}, the file says {}",
            first + 1,
            line(standings.get(first)),
            line(t.standings.get(first))
        )));
    }
    Ok(standings)
}

/// A whole tournament of computer players at `level`, run as a host runs one: the draw from
/// `seed`, `rounds` rounds of `deals` deals per table, big points, re-seating. For examples,
/// tests and benchmarks of the counting; every deal is dealt from a seed derived from `seed`.
pub fn simulate(
    players: &[String],
    rules: &serde_json::Value,
    rounds: usize,
    deals: usize,
    level: crate::ai::Level,
    seed: Seed,
) -> Result<TournamentRecord, String> {
    use rand::SeedableRng;
    use sha2::{Digest, Sha256};

    use crate::games::zole::{record, Options, Session};

    let opts = Options::from_rules(rules)?;
    let mut standings: Vec<Standing> = Vec::new();
    let mut order = draw(players, seed);
    let mut out = Vec::new();
    let base = u64::from_le_bytes(seed.0[..8].try_into().expect("8 bytes"));
    for r in 0..rounds {
        if r == 0 {
            standings = order
                .iter()
                .map(|p| Standing {
                    player: p.clone(),
                    big_points: BigPoints(0),
                    plus_minus: 0,
                    rounds: 0,
                })
                .collect();
        }
        let mut tables = Vec::new();
        let mut results = Vec::new();
        for (i, t) in seat(&order).map_err(|e| e.to_string())?.into_iter().enumerate() {
            let table_seed = base ^ ((r as u64) << 40) ^ ((i as u64) << 20);
            let mut bots: Vec<_> = t.iter().map(|_| crate::ai::zole::player(level, opts)).collect();
            let mut session = Session::new(opts, t.len(), 0).map_err(|e| e.to_string())?;
            let mut rng = rand_chacha::ChaCha12Rng::seed_from_u64(table_seed);
            for d in 0..deals {
                session
                    .deal_from_seed(Seed::from_u64(table_seed.wrapping_add(d as u64)))
                    .map_err(|e| e.to_string())?;
                while let Some(deal) = session.current() {
                    let s = deal.to_act().ok_or("a deal in play has a seat to act")?;
                    let a = bots[s as usize].choose(&deal.view(s), &mut rng, &crate::ai::NoLimit);
                    session.apply(s, a).map_err(|e| e.to_string())?;
                }
            }
            let rec = record::to_record(&session, &t);
            let totals = table_totals(&rec).map_err(|e| e.to_string())?;
            let big = table_big_points(&totals).map_err(|e| e.to_string())?;
            for ((p, g), b) in t.iter().zip(&totals).zip(big) {
                results.push((p.clone(), *g, b));
            }
            tables.push(TableRecord {
                players: t,
                replaced: Vec::new(),
                record: rec,
            });
        }
        add_round(&mut standings, &results);
        order = standings.iter().map(|s| s.player.clone()).collect();
        out.push(RoundRecord { tables });
    }
    Ok(TournamentRecord {
        name: "computer players".into(),
        game: "zole".into(),
        rules: rules.clone(),
        deals_per_round: Some(deals),
        players: players.to_vec(),
        draw_seed: seed.to_string(),
        draw_commitment: Sha256::digest(seed.0)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect(),
        rounds: out,
        standings,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bp(v: &[i64]) -> Vec<String> {
        table_big_points(v)
            .unwrap()
            .iter()
            .map(|b| b.to_string())
            .collect()
    }

    #[test]
    fn four_player_table_every_tie_shape() {
        assert_eq!(bp(&[30, 10, -10, -30]), ["6", "4", "2", "0"]);
        assert_eq!(bp(&[-30, -10, 10, 30]), ["0", "2", "4", "6"]);
        // Two share a place.
        assert_eq!(bp(&[10, 10, -5, -15]), ["5", "5", "2", "0"]);
        assert_eq!(bp(&[20, 0, 0, -20]), ["6", "3", "3", "0"]);
        assert_eq!(bp(&[20, 10, -15, -15]), ["6", "4", "1", "1"]);
        // Two pairs.
        assert_eq!(bp(&[10, 10, -10, -10]), ["5", "5", "1", "1"]);
        // Three share.
        assert_eq!(bp(&[5, 5, 5, -15]), ["4", "4", "4", "0"]);
        assert_eq!(bp(&[15, -5, -5, -5]), ["6", "2", "2", "2"]);
        // All four: 2 each (the rules' number, not the average 3).
        assert_eq!(bp(&[0, 0, 0, 0]), ["2", "2", "2", "2"]);
    }

    #[test]
    fn five_player_table_every_tie_shape() {
        assert_eq!(bp(&[40, 20, 0, -20, -40]), ["6", "4", "2", "1", "0"]);
        // Two share: 1-2, 2-3, 3-4, 4-5.
        assert_eq!(bp(&[20, 20, 0, -10, -30]), ["5", "5", "2", "1", "0"]);
        assert_eq!(bp(&[30, 0, 0, -10, -20]), ["6", "3", "3", "1", "0"]);
        assert_eq!(bp(&[30, 10, -10, -10, -20]), ["6", "4", "1.5", "1.5", "0"]);
        assert_eq!(bp(&[30, 10, 0, -20, -20]), ["6", "4", "2", "0.5", "0.5"]);
        // Two pairs.
        assert_eq!(bp(&[10, 10, 0, -10, -10]), ["5", "5", "2", "0.5", "0.5"]);
        assert_eq!(bp(&[20, 5, 5, -15, -15]), ["6", "3", "3", "0.5", "0.5"]);
        assert_eq!(bp(&[10, 10, 5, 5, -30]), ["5", "5", "1.5", "1.5", "0"]);
        // Three share: 1-3, 2-4, 3-5.
        assert_eq!(bp(&[10, 10, 10, -10, -20]), ["4", "4", "4", "1", "0"]);
        assert_eq!(bp(&[30, 0, 0, 0, -30]), ["6", "2.33", "2.33", "2.33", "0"]);
        assert_eq!(bp(&[30, 15, -15, -15, -15]), ["6", "4", "1", "1", "1"]);
        // Three and two.
        assert_eq!(bp(&[10, 10, 10, -15, -15]), ["4", "4", "4", "0.5", "0.5"]);
        assert_eq!(bp(&[15, 15, -10, -10, -10]), ["5", "5", "1", "1", "1"]);
        // Four share: 1-4, 2-5.
        assert_eq!(bp(&[10, 10, 10, 10, -40]), ["3.25", "3.25", "3.25", "3.25", "0"]);
        assert_eq!(
            bp(&[40, -10, -10, -10, -10]),
            ["6", "1.75", "1.75", "1.75", "1.75"]
        );
        // All five.
        assert_eq!(bp(&[0, 0, 0, 0, 0]), ["2.6", "2.6", "2.6", "2.6", "2.6"]);
    }

    #[test]
    fn shared_places_keep_the_tables_total() {
        // Averaging never creates or loses big points (the all-four rule aside).
        for v in [
            [3i64, 3, 1, 0, 0],
            [5, 2, 2, 2, 1],
            [0, 0, 0, 0, 1],
            [9, 9, 9, 9, 9],
        ] {
            let sum: BigPoints = table_big_points(&v).unwrap().into_iter().sum();
            assert_eq!(sum, BigPoints::whole(13), "{v:?}");
        }
        let sum: BigPoints = table_big_points(&[1, 1, 0]).unwrap().into_iter().sum();
        assert_eq!(sum, BigPoints::whole(9));
        assert_eq!(table_big_points(&[1, 2]), Err(TournamentError::TableSize(2)));
        assert_eq!(table_big_points(&[0; 6]), Err(TournamentError::TableSize(6)));
    }

    #[test]
    fn fields_are_seated_by_fours_then_fives_then_threes() {
        let sizes = |n| table_sizes(n).unwrap();
        assert_eq!(sizes(3), [3]);
        assert_eq!(sizes(4), [4]);
        assert_eq!(sizes(5), [5]);
        assert_eq!(sizes(6), [3, 3]);
        assert_eq!(sizes(7), [4, 3]);
        assert_eq!(sizes(9), [4, 5]);
        assert_eq!(sizes(11), [4, 4, 3]);
        assert_eq!(sizes(13), [4, 4, 5]);
        assert_eq!(sizes(15), [5, 5, 5]);
        assert_eq!(sizes(200), vec![4; 50]);
        assert_eq!(table_sizes(2), Err(TournamentError::TooFew(2)));
        for n in 3..300 {
            let s = sizes(n);
            assert_eq!(s.iter().sum::<usize>(), n, "{n}");
            assert!(s.iter().filter(|&&t| t == 3).count() <= 2, "{n}: {s:?}");
            assert!(s.windows(2).all(|w| w[0] <= w[1] || w[1] == 3), "{n}: {s:?}");
        }
    }

    fn standing(p: &str, big: u32, pm: i64) -> Standing {
        Standing {
            player: p.into(),
            big_points: BigPoints::whole(big),
            plus_minus: pm,
            rounds: 1,
        }
    }

    #[test]
    fn reseating_ties_go_by_plus_minus_then_the_previous_order() {
        let mut s = vec![
            standing("a", 4, 5),
            standing("b", 6, -3),
            standing("c", 4, 12),
            standing("d", 2, 40),
            standing("e", 4, 5),
        ];
        rank(&mut s);
        let names: Vec<&str> = s.iter().map(|s| s.player.as_str()).collect();
        // b most big points; c beats a and e on plus/minus; a before e as before.
        assert_eq!(names, ["b", "c", "a", "e", "d"]);
        let tables = seat(&s.iter().map(|s| s.player.clone()).collect::<Vec<_>>()).unwrap();
        assert_eq!(tables, [vec!["b", "c", "a", "e", "d"]]);

        add_round(
            &mut s,
            &[
                ("d".into(), 30, BigPoints::whole(6)),
                ("b".into(), -30, BigPoints::whole(0)),
                ("a".into(), 10, BigPoints(150)),
                ("c".into(), -10, BigPoints(150)),
            ],
        );
        let line: Vec<(&str, String, i64, u32)> = s
            .iter()
            .map(|s| {
                (
                    s.player.as_str(),
                    s.big_points.to_string(),
                    s.plus_minus,
                    s.rounds,
                )
            })
            .collect();
        assert_eq!(
            line,
            [
                ("d", "8".to_string(), 70, 2),
                ("a", "6.5".to_string(), 15, 2),
                ("c", "6.5".to_string(), 2, 2),
                ("b", "6".to_string(), -33, 2),
                ("e", "4".to_string(), 5, 1),
            ]
        );
    }

    #[test]
    fn the_draw_is_a_permutation_fixed_by_its_seed() {
        let players: Vec<String> = (0..12).map(|i| format!("p{i}")).collect();
        let a = draw(&players, Seed::from_u64(7));
        assert_eq!(a, draw(&players, Seed::from_u64(7)));
        assert_ne!(a, draw(&players, Seed::from_u64(8)));
        let mut sorted = a.clone();
        sorted.sort();
        let mut expected = players.clone();
        expected.sort();
        assert_eq!(sorted, expected);
        assert_ne!(a, players, "seed 7 moves somebody");
    }
}
