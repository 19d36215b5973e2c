//! Benchmark against the fake Discord: TABLES tables (default 200) play at once, each with
//! HUMANS people (default 3; the other seats computer players) pressing as fast as the bot
//! answers (or after PACE_MS of thinking, default 0), for DEALS deals (default 1). Prints
//! interactions handled per second and REST calls per card played, all calls counted (the
//! lobby, interaction callbacks, stale presses) with a breakdown by route. Channel edits are
//! coalesced at EDIT_MS (default 1000, the bot's own default: Discord allows 5 edits of a
//! channel's messages per 5 s; 0 sends every change).
//!
//! With ENDPOINT=1 the interactions are posted to the bot's interactions endpoint instead of
//! the gateway: a press's answer is then the reply to its post, listed apart and not counted
//! as a REST call.
//!
//! Run: `cargo bench -p stikis-discord --bench discord` (env TABLES, HUMANS, DEALS, EDIT_MS,
//! PACE_MS, ENDPOINT).

#[path = "../tests/fake/mod.rs"]
mod fake;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use fake::{Fake, Person, CHANNEL};
use serde_json::{json, Value};

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn button(m: &fake::Msg, label: &str) -> String {
    m.buttons.iter().find(|(l, _)| l == label).unwrap().1.clone()
}

async fn table(
    fake: Fake,
    i: u64,
    humans: u64,
    deals: usize,
    pace: Duration,
    presses: Arc<AtomicU64>,
) -> u64 {
    let channel = CHANNEL + 1 + i;
    let people: Vec<Person> = (0..humans)
        .map(|h| Person::new(100_000 + i * 10 + h, &format!("P{i}x{h}")))
        .collect();
    fake.slash(&people[0], channel, "zole", json!([])).await;
    // The lobby message is sent while (or just after) the command is answered.
    let lobby = |f: &Fake| {
        let f = f.clone();
        async move {
            loop {
                let found = f
                    .channel(channel)
                    .into_iter()
                    .find(|m| m.buttons.iter().any(|(l, _)| l == "Join"));
                match found {
                    Some(m) => return m,
                    None => tokio::time::sleep(Duration::from_millis(1)).await,
                }
            }
        }
    };
    let mut n = 1;
    for p in &people[1..] {
        let l = lobby(&fake).await;
        fake.press(p, l.id, &button(&l, "Join")).await;
        n += 1;
    }
    for _ in humans..3 {
        let l = lobby(&fake).await;
        fake.press(&people[0], l.id, &button(&l, "Add computer player"))
            .await;
        n += 1;
    }
    let l = lobby(&fake).await;
    fake.press(&people[0], l.id, &button(&l, "Start")).await;
    n += 1;
    let results = |f: &Fake| {
        f.channel(channel)
            .iter()
            .filter(|m| m.text.starts_with("Result of deal"))
            .count()
    };
    let mut idle = 0;
    while results(&fake) < deals {
        let mut acted = false;
        for p in &people {
            let Some(h) = fake.dms(p.id).into_iter().last() else {
                continue;
            };
            // "Take" while bidding, so deals are played out; never undo a card chosen to bury.
            let token = h
                .buttons
                .iter()
                .find(|(l, _)| l.starts_with("Take"))
                .or_else(|| h.buttons.iter().find(|(l, _)| !l.starts_with('✓')));
            let Some((_, token)) = token.cloned() else {
                continue;
            };
            if !pace.is_zero() {
                tokio::time::sleep(pace).await;
            }
            let v: Value = fake.press(p, h.id, &token).await;
            if std::env::var("TRACE").is_ok() {
                eprintln!("{} {:?} {token} -> {v}", p.name, h.buttons);
            }
            if v["data"]["flags"] == 64 {
                // An edit still under way showed an old button: wait for it.
                tokio::time::sleep(Duration::from_millis(2)).await;
                continue;
            }
            n += 1;
            acted = true;
            break;
        }
        if !acted {
            idle += 1;
            assert!(idle < 20_000, "table {i} stalled");
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
    }
    if std::env::var("TRACE").is_ok() {
        for m in fake.channel(channel) {
            eprintln!("{:?}", m.versions);
        }
    }
    presses.fetch_add(n, Ordering::Relaxed);
    n
}

fn main() {
    let tables = env("TABLES", 200);
    let humans = env("HUMANS", 3).clamp(1, 3);
    let deals = env("DEALS", 1) as usize;
    let edit_ms = env("EDIT_MS", 1000);
    let pace = Duration::from_millis(env("PACE_MS", 0));
    let endpoint = env("ENDPOINT", 0) == 1;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async move {
        let dir = tempfile::tempdir().unwrap();
        let fake = Fake::start().await;
        let db = dir.path().join("bench.db");
        let mut config = if endpoint {
            fake.endpoint_config(db.to_str().unwrap())
        } else {
            fake.config(db.to_str().unwrap())
        };
        config.min_edit_interval = Duration::from_millis(edit_ms);
        let running = stikis_discord::start(config).await.unwrap();
        fake.wait_ready(1).await;
        let admin = {
            let mut p = Person::new(99, "Admin");
            p.perms = fake::MANAGE_GUILD;
            p
        };
        fake.slash(
            &admin,
            CHANNEL,
            "lang",
            json!([{"name": "language", "type": 4, "value": 1}, {"name": "scope", "type": 4, "value": 1}]),
        )
        .await;
        fake.slash(
            &admin,
            CHANNEL,
            "settings",
            json!([{"name": "turn_limit", "type": 4, "value": 0}]),
        )
        .await;
        running.bot.settle().await;

        let rest0 = fake.rest_calls();
        let routes0 = fake.routes();
        let presses = Arc::new(AtomicU64::new(0));
        let t0 = Instant::now();
        let mut tasks = Vec::new();
        for i in 0..tables {
            tasks.push(tokio::spawn(table(
                fake.clone(),
                i,
                humans,
                deals,
                pace,
                presses.clone(),
            )));
        }
        for t in tasks {
            t.await.unwrap();
        }
        running.bot.settle().await;
        let elapsed = t0.elapsed();
        let rest = fake.rest_calls() - rest0;
        // Cards played, from the host's records.
        let mut cards = 0u64;
        for id in 1..=tables as i64 {
            let env = running.bot.host.store().record(id).await.unwrap();
            for d in env.deals.iter().take(deals) {
                cards += d["actions"]
                    .as_array()
                    .map_or(0, |a| a.iter().filter(|x| x.get("play").is_some()).count() as u64);
            }
        }
        let n = presses.load(Ordering::Relaxed);
        println!(
            "tables {tables}, people per table {humans}, deals {deals}, edit interval {edit_ms} ms, pace {} ms, \
             interactions {}",
            pace.as_millis(),
            if endpoint { "posted to the endpoint" } else { "over the gateway" }
        );
        println!(
            "interactions {n} in {:.2} s: {:.0} per second",
            elapsed.as_secs_f64(),
            n as f64 / elapsed.as_secs_f64()
        );
        println!(
            "REST calls {rest} (all, lobby included) for {cards} cards: {:.2} per card",
            rest as f64 / cards as f64
        );
        for (route, n) in fake.routes() {
            let n = n - routes0.get(&route).copied().unwrap_or(0);
            if n > 0 {
                println!("  {route:<40} {n:>7}  {:.3} per card", n as f64 / cards as f64);
            }
        }
        running.shutdown().await;
    });
}
