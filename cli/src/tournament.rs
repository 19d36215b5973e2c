//! `stikis tournament verify FILE`: re-counts a tournament record (docs/tournament-record.md)
//! from its game records and prints the standings, or exits 2 naming the first disagreement.

use std::process::ExitCode;

use stikis_core::tournament::{verify, TournamentRecord};

pub fn verify_file(path: &str) -> ExitCode {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("stikis tournament verify: cannot read {path}: {e}");
            return ExitCode::from(2);
        }
    };
    let record: TournamentRecord = match serde_json::from_str(&text) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("the tournament record is malformed: {e}");
            return ExitCode::from(2);
        }
    };
    match verify(&record) {
        Ok(standings) => {
            println!(
                "{}: {} rounds, {} players; the records give the posted standings:",
                record.name,
                record.rounds.len(),
                standings.len()
            );
            for (i, s) in standings.iter().enumerate() {
                println!(
                    "{:>3}. {:<20} {:>6} big points {:>+6} ({} rounds)",
                    i + 1,
                    s.player,
                    s.big_points.to_string(),
                    s.plus_minus,
                    s.rounds
                );
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(2)
        }
    }
}
