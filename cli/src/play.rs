//! `stikis play <game>`: the host with a terminal adapter, for every game the host runs (Zole,
//! the Belote family, Polt to Tzar). You sit at seat 1 against computer players; the table
//! message, your hand and the results print as text, and your buttons are numbered choices.
//! The table lives in a SQLite file (or `DATABASE_URL`), so quitting and starting again
//! resumes the same game. Each game has its own terminal chat, so a game of one kind does
//! not get in the way of another.

use std::io::Write;

use serde_json::{json, Value};
use stikis_core::ai::Level;
use stikis_host::store::{ChatRef, Platform, Store, TableStatus};
use stikis_host::{Command, Host, HostConfig, Out, Outbox, Request, User};
use tokio::io::{AsyncBufReadExt, BufReader};

const HELP: &str = "usage: stikis play zole [--preset NAME] [--level basic|strong] [--db PATH]
       stikis play belote [bazar|classic|h2h|coinche] [--target N] [--level ...] [--db PATH]
       stikis play polt [--players 5|6|7] [--hands N] [--level ...] [--db PATH]

Plays in this terminal against computer players: Zole (3 players), Bazar belote (default),
French classic, head-to-head or Coinche, or Polt to Tzar (5 to 7 players). Type the number
of a button and Enter; `r` prints the game record, `s` stops the table (its totals stay on
the score sheet), `c` closes the score sheet (settling open pules; after a stop), `q` quits
(the game is kept and resumes next time). A belote game ends at its target, a Polt session
after its hands. The database is DATABASE_URL if set, else the SQLite file given by --db
(default: stikis.db, created on first run).";

#[derive(Debug)]
struct Opts {
    /// The record's game name.
    game: String,
    seats: usize,
    rules: Value,
    level: Level,
    db: String,
}

fn parse(args: &[String]) -> Result<Opts, String> {
    let mut it = args.iter().peekable();
    let (game, seats, preset) = match it.next().map(String::as_str) {
        Some("zole") => ("zole".to_string(), 3, "lv"),
        Some("belote") => {
            let v = match it.peek().map(|s| s.as_str()) {
                Some(v) if !v.starts_with('-') => {
                    it.next();
                    v
                }
                _ => "bazar",
            };
            let game = match v {
                "bazar" => "belote-bazar",
                "classic" => "belote-classic",
                "h2h" => "belote-h2h",
                "coinche" => "coinche",
                other => return Err(format!("unknown belote {other:?} (bazar, classic, h2h, coinche)")),
            };
            (game.to_string(), if v == "h2h" { 2 } else { 4 }, "default")
        }
        Some("polt") => ("polt".to_string(), 5, "default"),
        Some("-h" | "--help") | None => return Err(HELP.into()),
        Some(g) => {
            return Err(format!(
                "stikis can play zole, belote and polt in the terminal, not {g:?}"
            ))
        }
    };
    let mut o = Opts {
        game,
        seats,
        rules: json!({ "preset": preset }),
        level: Level::Basic,
        db: "stikis.db".into(),
    };
    let is = |g: &str, what: &str| -> Result<(), String> {
        match (what, g) {
            ("--preset", "zole") => Ok(()),
            ("--target", g) if g != "zole" && g != "polt" => Ok(()),
            ("--players" | "--hands", "polt") => Ok(()),
            _ => Err(format!("{what} is not an option of {g}\n\n{HELP}")),
        }
    };
    while let Some(a) = it.next() {
        let mut value = || it.next().cloned().ok_or(format!("{a} needs a value"));
        let number = |s: String| {
            s.parse::<u32>()
                .map_err(|_| format!("{a} needs a number, not {s:?}"))
        };
        match a.as_str() {
            "--preset" => {
                is(&o.game, a)?;
                o.rules["preset"] = value()?.into();
            }
            "--target" => {
                is(&o.game, a)?;
                o.rules["target"] = number(value()?)?.into();
            }
            "--hands" => {
                is(&o.game, a)?;
                o.rules["hands"] = number(value()?)?.into();
            }
            "--players" => {
                is(&o.game, a)?;
                o.seats = number(value()?)? as usize;
                if !(5..=7).contains(&o.seats) {
                    return Err(format!("Polt to Tzar is for 5 to 7 players, not {}", o.seats));
                }
            }
            "--level" => o.level = value()?.parse()?,
            "--db" => o.db = value()?,
            "-h" | "--help" => return Err(HELP.into()),
            other => return Err(format!("unknown option {other:?}\n\n{HELP}")),
        }
    }
    // A bare preset is written as its name, as the records write it.
    if o.rules.as_object().is_some_and(|m| m.len() == 1) {
        o.rules = o.rules["preset"].clone();
    }
    if let Ok(url) = std::env::var("DATABASE_URL") {
        o.db = url;
    }
    Ok(o)
}

/// The terminal's chat for a game: Zole keeps the chat it always had, so that a game
/// started by an earlier version resumes.
fn chat_of(game: &str) -> ChatRef {
    let id = if game == "zole" {
        "terminal".to_string()
    } else {
        format!("terminal-{game}")
    };
    ChatRef::new(Platform::Local, "terminal", id)
}

/// What the terminal shows of an outbox (only this game's chat); returns the numbered
/// buttons of your hand.
fn show(out: &Outbox, chat: &ChatRef, me: &str, buttons: &mut Vec<(String, String)>) {
    for o in &out.0 {
        match o {
            Out::Public { text, chat: c, .. } if c == chat => println!("\n{text}"),
            Out::Post { text, chat: c } if c == chat => println!("\n» {text}"),
            Out::Private {
                user,
                text,
                buttons: rows,
                chat: c,
                ..
            } if user == me && c == chat => {
                println!("\n{text}");
                *buttons = rows
                    .iter()
                    .flatten()
                    .map(|b| (b.label.clone(), b.token.clone()))
                    .collect();
                if !buttons.is_empty() {
                    let list: Vec<String> = buttons
                        .iter()
                        .enumerate()
                        .map(|(i, (label, _))| format!("[{}] {label}", i + 1))
                        .collect();
                    println!("{}", list.join("  "));
                }
            }
            Out::Reply { text } if text != "✓" => println!("({text})"),
            Out::File { content, chat: c, .. } if c == chat => println!("{content}"),
            _ => {}
        }
    }
}

pub fn run(args: &[String]) -> Result<(), String> {
    let opts = parse(args)?;
    let rt = tokio::runtime::Runtime::new().map_err(|e| e.to_string())?;
    rt.block_on(play(opts))
}

async fn play(opts: Opts) -> Result<(), String> {
    let store = Store::connect(&opts.db)
        .await
        .map_err(|e| format!("cannot open {}: {e}", opts.db))?;
    let (host, _timers) = Host::new(store.clone(), HostConfig::default());
    let chat = chat_of(&opts.game);
    let me = User {
        id: "you".into(),
        name: "You".into(),
        admin: true,
    };
    let ask = |command| Request {
        chat: chat.clone(),
        user: me.clone(),
        command,
    };
    let mut buttons = Vec::new();
    let resumed = matches!(store.open_table(&chat).await, Ok(Some(t)) if t.status == TableStatus::Running);
    if resumed {
        println!("Resuming your game.");
        show(
            &host.recover().await.map_err(|e| e.to_string())?,
            &chat,
            &me.id,
            &mut buttons,
        );
    } else {
        if let Ok(Some(_)) = store.open_table(&chat).await {
            host.handle(ask(Command::Stop)).await;
        }
        host.handle(ask(Command::SetTurnLimit(None))).await;
        let out = host
            .handle(ask(Command::NewTable {
                game: opts.game.clone(),
                rules: Some(opts.rules.clone()),
                seats: Some(opts.seats),
            }))
            .await;
        if let Some(text) = out.reply_text() {
            if !text.contains("You") {
                return Err(text.to_string());
            }
        }
        for _ in 1..opts.seats {
            host.handle(ask(Command::AddBot { level: opts.level })).await;
        }
        show(
            &host.handle(ask(Command::Start)).await,
            &chat,
            &me.id,
            &mut buttons,
        );
    }
    let mut lines = BufReader::new(tokio::io::stdin()).lines();
    loop {
        if !matches!(store.open_table(&chat).await, Ok(Some(_))) {
            println!("\nThe game is over. Run the same command again for a new one.");
            return Ok(());
        }
        print!("> ");
        std::io::stdout().flush().ok();
        let Ok(Some(line)) = lines.next_line().await else {
            return Ok(());
        };
        let out = match line.trim() {
            "q" => return Ok(()),
            "r" => host.handle(ask(Command::Record)).await,
            "c" => host.handle(ask(Command::CloseSheet)).await,
            "s" => {
                show(
                    &host.handle(ask(Command::Stop)).await,
                    &chat,
                    &me.id,
                    &mut buttons,
                );
                return Ok(());
            }
            n => match n
                .parse::<usize>()
                .ok()
                .and_then(|i| buttons.get(i.wrapping_sub(1)))
            {
                Some((_, token)) => host.handle(ask(Command::Press { token: token.clone() })).await,
                None => {
                    println!("Type a button number, r, s, c or q.");
                    continue;
                }
            },
        };
        show(&out, &chat, &me.id, &mut buttons);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn every_game_and_its_options_parse() {
        let o = parse(&args("zole")).unwrap();
        assert_eq!(
            (o.game.as_str(), o.seats, o.rules.clone()),
            ("zole", 3, json!("lv"))
        );
        let o = parse(&args("belote")).unwrap();
        assert_eq!(
            (o.game.as_str(), o.seats, o.rules.clone()),
            ("belote-bazar", 4, json!("default"))
        );
        let o = parse(&args("belote h2h --target 51")).unwrap();
        assert_eq!((o.game.as_str(), o.seats), ("belote-h2h", 2));
        assert_eq!(o.rules, json!({"preset": "default", "target": 51}));
        assert_eq!(parse(&args("belote coinche")).unwrap().game, "coinche");
        assert_eq!(
            parse(&args("belote classic --level strong")).unwrap().level,
            Level::Strong
        );
        let o = parse(&args("polt --players 7 --hands 3")).unwrap();
        assert_eq!((o.game.as_str(), o.seats), ("polt", 7));
        assert_eq!(o.rules, json!({"preset": "default", "hands": 3}));
        assert!(parse(&args("polt --players 4")).is_err());
        assert!(parse(&args("belote skat")).is_err());
        assert!(parse(&args("zole --players 5")).is_err());
        assert!(parse(&args("polt --target 5")).is_err());
        assert!(parse(&args("skat")).is_err());
    }
}
