//! `stikis play zole`: the host with a terminal adapter. You sit at seat 1 against computer
//! players; the table message, your hand and the results print as text, and your buttons are
//! numbered choices. The table lives in a SQLite file (or `DATABASE_URL`), so quitting and
//! starting again resumes the same game.

use std::io::Write;

use stikis_core::ai::Level;
use stikis_host::store::{ChatRef, Platform, Store, TableStatus};
use stikis_host::{Command, Host, HostConfig, Out, Outbox, Request, User};
use tokio::io::{AsyncBufReadExt, BufReader};

const HELP: &str = "usage: stikis play zole [--preset NAME] [--level basic|strong] [--db PATH]

Plays Zole in this terminal against two computer players. Type the number of a button
and Enter; `r` prints the game record, `s` stops the table (its totals and pules stay on
the score sheet), `c` closes the score sheet (settling open pules; after a stop), `q` quits
(the game is kept and resumes next time). The database is DATABASE_URL if set, else the
SQLite file given by --db (default: stikis.db, created on first run).";

struct Opts {
    preset: String,
    level: Level,
    db: String,
}

fn parse(args: &[String]) -> Result<Opts, String> {
    let mut o = Opts {
        preset: "lv".into(),
        level: Level::Basic,
        db: "stikis.db".into(),
    };
    let mut it = args.iter();
    match it.next().map(String::as_str) {
        Some("zole") => {}
        Some(g) => return Err(format!("stikis can play zole in the terminal, not {g:?}")),
        None => return Err(HELP.into()),
    }
    while let Some(a) = it.next() {
        let mut value = || it.next().cloned().ok_or(format!("{a} needs a value"));
        match a.as_str() {
            "--preset" => o.preset = value()?,
            "--level" => o.level = value()?.parse()?,
            "--db" => o.db = value()?,
            "-h" | "--help" => return Err(HELP.into()),
            other => return Err(format!("unknown option {other:?}\n\n{HELP}")),
        }
    }
    if let Ok(url) = std::env::var("DATABASE_URL") {
        o.db = url;
    }
    Ok(o)
}

/// What the terminal shows of an outbox; returns the numbered buttons of your hand.
fn show(out: &Outbox, me: &str, buttons: &mut Vec<(String, String)>) {
    for o in &out.0 {
        match o {
            Out::Public { text, .. } => println!("\n{text}"),
            Out::Post { text, .. } => println!("\n» {text}"),
            Out::Private {
                user,
                text,
                buttons: rows,
                ..
            } if user == me => {
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
            Out::File { content, .. } => println!("{content}"),
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
    let chat = ChatRef::new(Platform::Local, "terminal", "terminal");
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
            &me.id,
            &mut buttons,
        );
    } else {
        if let Ok(Some(_)) = store.open_table(&chat).await {
            host.handle(ask(Command::Stop)).await;
        }
        host.handle(ask(Command::SetTurnLimit(None))).await;
        let rules = Some(serde_json::Value::String(opts.preset.clone()));
        let out = host
            .handle(ask(Command::NewTable {
                game: "zole".into(),
                rules,
                seats: Some(3),
            }))
            .await;
        if let Some(Out::Reply { text }) = out.0.iter().find(|o| matches!(o, Out::Reply { .. })) {
            if !text.contains("You") {
                return Err(text.clone());
            }
        }
        for _ in 0..2 {
            host.handle(ask(Command::AddBot { level: opts.level })).await;
        }
        show(&host.handle(ask(Command::Start)).await, &me.id, &mut buttons);
    }
    let mut lines = BufReader::new(tokio::io::stdin()).lines();
    loop {
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
                show(&host.handle(ask(Command::Stop)).await, &me.id, &mut buttons);
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
        show(&out, &me.id, &mut buttons);
    }
}
