//! `stikis`: the command line. `stikis play zole|belote|polt` plays in the terminal through the
//! host (`play.rs`); `stikis replay FILE|-` replays a game record (docs/record-format.md);
//! `stikis arena` plays computer players against each other (`arena.rs`); `stikis bench` times
//! the engine (`bench.rs`); `stikis tournament verify FILE` re-counts a tournament record and
//! `stikis tournament play FILE` plays a small one of computer players (`tournament.rs`).

mod arena;
mod bench;
mod play;
mod tournament;
mod tui;

use std::io::Read;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "stikis",
    version,
    about = "stikis: Zole, belote and Polt to Tzar in the terminal, and tools for game records",
    long_about = "stikis (Latvian stiķis, \"a trick\") hosts trick-taking card games. This \
command plays them in your terminal against computer players, replays and checks game records, \
and measures the computer players and the engine. The chat bots are the separate programs \
stikis-telegram and stikis-discord.",
    after_help = "Start with: stikis play zole"
)]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    Play(play::PlayArgs),
    /// Replay a game record and print the result of every deal as JSON.
    #[command(
        long_about = "Re-plays a game record (docs/record-format.md) through the rules \
engine and prints the result of every deal and the totals as one JSON object. A broken record \
exits with status 2 and one line on standard error naming the deal and the action \
(`deal 0, action 0` is the record as a whole), e.g. `deal 3, action 14: seat 2 must follow \
hearts (has KH)`. A deal that carries its seed is checked to be the one the seed deals. \
A record saved during a game (`r` in `stikis play`, /record in chat) holds the finished deals \
only; a record with no deal at all replays to no deals and says so on standard error."
    )]
    Replay {
        /// The record file, or `-` for standard input.
        file: String,
    },
    Arena(arena::ArenaArgs),
    Bench(bench::BenchArgs),
    /// Tournament records: check one, or play a small tournament of computer players.
    #[command(long_about = "Latvian-format Zole tournaments as one record file \
(docs/tournament-record.md). `verify FILE` re-counts a record from its game records and prints \
the standings; `play FILE` runs a small tournament of computer players here (the draw, rounds, \
big points, re-seating) and writes its record, e.g. `stikis tournament play --players 8 \
--rounds 2 --deals 3 t.json`. examples/tournaments/ has one.")]
    Tournament {
        #[command(subcommand)]
        command: TournamentCmd,
    },
}

#[derive(Subcommand)]
enum TournamentCmd {
    /// Re-count a tournament record from its game records and print the standings.
    #[command(
        long_about = "Re-counts a tournament record (docs/tournament-record.md) from its \
game records alone: the first round's draw from its revealed seed and posted commitment, every \
table's seating, every game, big points and standings. Prints the standings, or exits with \
status 2 and one line naming the first disagreement."
    )]
    Verify {
        /// The tournament record file.
        file: String,
    },
    Play(tournament::PlayArgs),
}

/// Said on standard error when a record replays to no deals.
const NO_DEALS: &str = "stikis replay: the record holds no deal, so nothing was checked. A record \
saved during a game (r in stikis play, /record in chat) holds its finished deals only: one saved \
during the first deal has none.";

fn replay(path: &str) -> ExitCode {
    let mut input = Vec::new();
    let read = if path == "-" {
        std::io::stdin().read_to_end(&mut input).map(|_| ())
    } else {
        std::fs::read(path).map(|b| input = b)
    };
    if let Err(e) = read {
        // Not a fault of a record: there is none to point into.
        eprintln!("stikis replay: cannot read {path}: {e}");
        return ExitCode::from(2);
    }
    match stikis_core::record::replay(&input) {
        Ok(out) => {
            println!("{out}");
            if out["deals"].as_array().is_some_and(Vec::is_empty) {
                // Not a fault (the record is valid), but nothing was checked: say why that
                // may be, as `r` leaves out the deal in progress.
                eprintln!("{NO_DEALS}");
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(2)
        }
    }
}

fn report(r: Result<String, String>, what: &str) -> ExitCode {
    match r {
        Ok(text) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("stikis {what}: {e}");
            ExitCode::from(2)
        }
    }
}

fn main() -> ExitCode {
    match Cli::parse().command {
        Cmd::Play(args) => match play::run(&args) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("stikis play: {e}");
                ExitCode::from(2)
            }
        },
        Cmd::Replay { file } => replay(&file),
        Cmd::Arena(args) => report(arena::run(&args), "arena"),
        Cmd::Bench(args) => report(bench::run(&args), "bench"),
        Cmd::Tournament { command } => match command {
            TournamentCmd::Verify { file } => tournament::verify_file(&file),
            TournamentCmd::Play(args) => report(tournament::play(&args), "tournament play"),
        },
    }
}
