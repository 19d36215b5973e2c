//! Measures what a restart costs the store: fills a fresh database with N running tables
//! (3 seats, 1 deal, 24 actions each; N = 10,000 unless given), opens it again as a restarted
//! host would, and times `running_logs` plus building every table's record.
//!
//!     cargo run --release -p stikis-host --example store_recovery -- /tmp/recovery.db [N]
//!     cargo run --release -p stikis-host --example store_recovery -- "$STIKIS_TEST_POSTGRES_URL" [N]
//!
//! On PostgreSQL use a fresh database or schema: tables of earlier runs are loaded too.

use std::time::Instant;

use serde_json::json;
use stikis_host::store::*;

const USAGE: &str = "\
Measures what a restart costs the store: fills a fresh database with N running tables and
times loading them back.

Usage: cargo run --release -p stikis-host --example store_recovery -- URL [N]

  URL          SQLite file path or postgres:// URL (required, no default)
  N            running tables written (default 10000)
  -h, --help   print this text
";

/// `--help`: the usage on standard output, exit 0. A wrong argument: it and the usage on
/// standard error, exit 2 (as a usage error, not a panic).
fn usage(error: Option<&str>) -> ! {
    match error {
        None => {
            print!("{USAGE}");
            std::process::exit(0)
        }
        Some(e) => {
            eprint!("{e}\n\n{USAGE}");
            std::process::exit(2)
        }
    }
}

#[tokio::main]
async fn main() {
    let (mut url, mut n) = (None, None);
    for a in std::env::args().skip(1) {
        match a.as_str() {
            "-h" | "--help" => usage(None),
            _ if a.starts_with('-') => usage(Some(&format!("unknown option {a}"))),
            _ if url.is_none() => url = Some(a),
            _ => match a.parse::<usize>() {
                Ok(v) if n.is_none() => n = Some(v),
                _ => usage(Some(&format!("unexpected argument {a:?}"))),
            },
        }
    }
    let url = url.unwrap_or_else(|| usage(Some("the database URL or SQLite path is missing")));
    let n = n.unwrap_or(10_000);
    let store = Store::connect(&url).await.unwrap();
    let run = std::process::id();

    let fill = Instant::now();
    let workers = 64;
    let mut joins = Vec::new();
    for w in 0..workers {
        let s = store.clone();
        joins.push(tokio::spawn(async move {
            for i in (w..n).step_by(workers) {
                let chat = ChatRef::new(Platform::Local, "bench", format!("r{run}-{i}"));
                let t = s
                    .create_table(&NewTable {
                        chat,
                        game: "zole".into(),
                        rules: json!("lv"),
                        seats: 3,
                        creator: "u0".into(),
                    })
                    .await
                    .unwrap()
                    .id;
                for seat in 0..3u8 {
                    let occ = Occupant::Human {
                        user_id: format!("u{seat}"),
                    };
                    s.take_seat(t, seat, &format!("P{seat}"), &occ).await.unwrap();
                }
                s.set_status(t, TableStatus::Running).await.unwrap();
                let deal = json!({"dealer": 0, "hands": [["QC","JS","AD","9D","AC","10S","KH","9H"],
                    ["QS","JC","AS","9S","KC","10C","KD","8D"], ["QH","JH","AH","9C","KS","10H","7D","8H"]],
                    "talon": ["QD", "JD"]});
                s.start_deal(t, 1, &"00".repeat(32), &"11".repeat(32), &deal)
                    .await
                    .unwrap();
                for seq in 1..=24 {
                    s.append_action(t, seq, &json!({"seat": seq % 3, "play": "QC"}))
                        .await
                        .unwrap();
                }
            }
        }));
    }
    for j in joins {
        j.await.unwrap();
    }
    let filled = fill.elapsed();
    store.close().await;

    let start = Instant::now();
    let store = Store::connect(&url).await.unwrap();
    let logs = store.running_logs().await.unwrap();
    let loaded = start.elapsed();
    let mut actions = 0;
    for log in &logs {
        actions += log.record().unwrap().deals[0]["actions"]
            .as_array()
            .unwrap()
            .len();
    }
    let total = start.elapsed();
    println!(
        "{}: filled {n} tables in {:.1}s; reopened and loaded {} running tables ({actions} actions) in {:.2}s, with records {:.2}s",
        store.backend_name(),
        filled.as_secs_f64(),
        logs.len(),
        loaded.as_secs_f64(),
        total.as_secs_f64()
    );
}
