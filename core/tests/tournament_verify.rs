//! `tournament::verify` re-counts a whole tournament from its game records: a tournament of
//! 9 entrants (a table of 4 and one of 5) over 3 rounds of 2 deals, played by computer
//! players, verifies; every kind of tampering is named at its first disagreement.

use stikis_core::ai::Level;
use stikis_core::tournament::{simulate, verify, TournamentRecord, VerifyError};
use stikis_core::Seed;

const SEED: u64 = 97;

fn tournament() -> TournamentRecord {
    let players: Vec<String> = [
        "Anna", "Bruno", "Cilda", "Dace", "Edgars", "Fricis", "Gita", "Ints", "Jana",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    simulate(&players, &"lv".into(), 3, 2, Level::Basic, Seed::from_u64(SEED)).unwrap()
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
