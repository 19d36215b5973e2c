//! `stikis`: the command line. `stikis replay FILE|-` replays a game record (RECORD.md);
//! `stikis arena ...` plays computer players against each other (see `arena.rs`);
//! `stikis play zole|belote|polt` plays in the terminal through the host (see `play.rs`).

mod arena;
mod play;

use std::io::Read;
use std::process::ExitCode;

fn usage() -> ExitCode {
    eprintln!(
        "usage: stikis replay FILE|-\n       stikis play zole [--preset NAME] [--level basic|strong] [--db PATH]\n       stikis play belote [bazar|classic|h2h|coinche] [--target N] [--level ...] [--db PATH]\n       stikis play polt [--players 5|6|7] [--hands N] [--level ...] [--db PATH]\n       {}",
        arena::USAGE
    );
    ExitCode::from(64)
}

fn replay(path: &str) -> ExitCode {
    let mut input = Vec::new();
    let read = if path == "-" {
        std::io::stdin().read_to_end(&mut input).map(|_| ())
    } else {
        std::fs::read(path).map(|b| input = b)
    };
    if let Err(e) = read {
        eprintln!("deal 0, action 0: cannot read {path}: {e}");
        return ExitCode::from(2);
    }
    match stikis_core::record::replay(&input) {
        Ok(out) => {
            println!("{out}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(2)
        }
    }
}

fn arena(args: &[String]) -> ExitCode {
    match arena::run(args) {
        Ok(report) => {
            print!("{report}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("arena: {e}\nusage: {}", arena::USAGE);
            ExitCode::from(64)
        }
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
        ["replay", path] => replay(path),
        ["arena", ..] => arena(&args[1..]),
        ["play", ..] => match play::run(&args[1..]) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("{e}");
                ExitCode::from(2)
            }
        },
        _ => usage(),
    }
}
