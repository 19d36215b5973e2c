//! `tournament::verify` re-counts a whole tournament from its game records: a tournament of
//! 9 entrants (a table of 4 and one of 5) over 3 rounds of 2 deals, played by computer
//! players, verifies; every kind of tampering is named at its first disagreement.

use rand::SeedableRng;
use rand_chacha::ChaCha12Rng;
use sha2::{Digest, Sha256};
use stikis_core::ai::{zole, Level, NoLimit};
use stikis_core::games::zole::record::to_record;
use stikis_core::games::zole::{Options, Session};
use stikis_core::tournament::{
    add_round, draw, seat, table_big_points, verify, RoundRecord, Standing, TableRecord, TournamentRecord,
    VerifyError,
};
use stikis_core::{Seat, Seed};

const SEED: u64 = 97;

fn play_table(players: &[String], deals: usize, seed: u64) -> stikis_core::record::Envelope {
    let opts = Options::default();
    let mut bots: Vec<_> = players.iter().map(|_| zole::player(Level::Basic, opts)).collect();
    let mut session = Session::new(opts, players.len(), 0).expect("a table");
    let mut rng = ChaCha12Rng::seed_from_u64(seed);
    for d in 0..deals {
        session
            .deal_from_seed(Seed::from_u64(seed * 100 + d as u64))
            .expect("deal");
        while let Some(deal) = session.current() {
            let s: Seat = deal.to_act().expect("a seat to act");
            let a = bots[s as usize].choose(&deal.view(s), &mut rng, &NoLimit);
            session.apply(s, a).expect("legal");
        }
    }
    to_record(&session, players)
}

/// A tournament run as the host runs it: draw, seat, play, count, re-seat.
fn tournament() -> TournamentRecord {
    let players: Vec<String> = [
        "Anna", "Bruno", "Cilda", "Dace", "Edgars", "Fricis", "Gita", "Ints", "Jana",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let seed = Seed::from_u64(SEED);
    let mut standings: Vec<Standing> = players
        .iter()
        .map(|p| Standing {
            player: p.clone(),
            big_points: Default::default(),
            plus_minus: 0,
            rounds: 0,
        })
        .collect();
    let mut order = draw(&players, seed);
    let mut rounds = Vec::new();
    for r in 0..3u64 {
        if r == 0 {
            // The standings start in the draw's order, so ties after round 1 keep it.
            standings.sort_by_key(|s| order.iter().position(|p| p == &s.player));
        }
        let mut tables = Vec::new();
        let mut results = Vec::new();
        for (i, t) in seat(&order).unwrap().into_iter().enumerate() {
            let rec = play_table(&t, 2, SEED + 10 * r + i as u64);
            let out = stikis_core::games::zole::record::replay(&rec).unwrap();
            let totals: Vec<i64> = out["totals"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_i64().unwrap())
                .collect();
            for ((p, g), b) in t.iter().zip(&totals).zip(table_big_points(&totals).unwrap()) {
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
        rounds.push(RoundRecord { tables });
    }
    TournamentRecord {
        name: "Thursday club".into(),
        game: "zole".into(),
        rules: "lv".into(),
        deals_per_round: Some(2),
        players,
        draw_seed: seed.to_string(),
        draw_commitment: Sha256::digest(seed.0)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect(),
        rounds,
        standings,
    }
}

#[test]
fn a_played_tournament_verifies_and_survives_json() {
    let t = tournament();
    let standings = verify(&t).expect("the tournament verifies");
    assert_eq!(standings.len(), 9);
    assert!(standings.iter().all(|s| s.rounds == 3));
    let json = serde_json::to_string(&t).unwrap();
    let back: TournamentRecord = serde_json::from_str(&json).unwrap();
    assert_eq!(verify(&back).unwrap(), standings);
    // Round 1 is seated by the draw: a 4-table and a 5-table.
    let sizes: Vec<usize> = t.rounds[0].tables.iter().map(|t| t.players.len()).collect();
    assert_eq!(sizes, [4, 5]);
}

#[test]
fn every_tampering_is_named_at_its_first_disagreement() {
    let t = tournament();

    let mut bad = t.clone();
    bad.draw_seed = Seed::from_u64(SEED + 1).to_string();
    assert!(
        matches!(verify(&bad), Err(VerifyError::Draw(_))),
        "{:?}",
        verify(&bad)
    );

    // Two players of round 2 swap tables.
    let mut bad = t.clone();
    let a = bad.rounds[1].tables[0].players[0].clone();
    let b = bad.rounds[1].tables[1].players[0].clone();
    bad.rounds[1].tables[0].players[0] = b.clone();
    bad.rounds[1].tables[1].players[0] = a.clone();
    let e = verify(&bad).unwrap_err();
    assert!(
        matches!(
            e,
            VerifyError::Table {
                round: 2,
                table: 1,
                ..
            }
        ),
        "{e}"
    );

    // A card of a deal changed: that table's record no longer replays.
    let mut bad = t.clone();
    let deal = &mut bad.rounds[2].tables[1].record.deals[0];
    let first = deal["actions"]
        .as_array()
        .unwrap()
        .iter()
        .position(|a| a.get("play").is_some())
        .unwrap();
    let hands = deal["hands"].clone();
    let seat = deal["actions"][first]["seat"].as_u64().unwrap() as usize;
    let other = hands[seat]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| **c != deal["actions"][first]["play"])
        .unwrap()
        .clone();
    deal["actions"][first]["play"] = other;
    let e = verify(&bad).unwrap_err();
    assert!(
        matches!(&e, VerifyError::Table { round: 3, table: 2, reason } if reason.contains("does not replay")),
        "{e}"
    );

    // One deal fewer than the rounds had.
    let mut bad = t.clone();
    bad.rounds[0].tables[0].record.deals.pop();
    let e = verify(&bad).unwrap_err();
    assert!(
        matches!(
            e,
            VerifyError::Table {
                round: 1,
                table: 1,
                ..
            }
        ),
        "{e}"
    );

    // The posted standings give somebody a point more.
    let mut bad = t.clone();
    bad.standings[3].plus_minus += 1;
    let e = verify(&bad).unwrap_err();
    assert!(
        matches!(&e, VerifyError::Standings(m) if m.starts_with("place 4:")),
        "{e}"
    );

    let mut bad = t.clone();
    bad.players.push("Anna".into());
    assert!(matches!(verify(&bad), Err(VerifyError::Malformed(_))));
}
