//! `/metrics` and `/healthz` of the real bot against the fake Bot API (a process of its own,
//! so the counters are this test's alone): after a deal of Anna and two computer players the
//! counters say what the deal did, and a closed database makes the bot unhealthy.

mod fake;

use std::sync::Arc;
use std::time::Duration;

use fake::Fake;
use serde_json::json;
use stikis_core::Seed;
use stikis_host::token::Token;
use stikis_host::HostConfig;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const GROUP: i64 = -1_001;
const ANNA: i64 = 11;

async fn get(addr: std::net::SocketAddr, path: &str) -> (u16, String) {
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    s.write_all(format!("GET {path} HTTP/1.0\r\nHost: x\r\n\r\n").as_bytes())
        .await
        .unwrap();
    let mut raw = String::new();
    s.read_to_string(&mut raw).await.unwrap();
    let status = raw.split_whitespace().nth(1).unwrap().parse().unwrap();
    let body = raw
        .split_once("\r\n\r\n")
        .map(|x| x.1.to_string())
        .unwrap_or_default();
    (status, body)
}

/// The value of one sample line (`name{labels} value`), 0 if absent.
fn sample(page: &str, name_and_labels: &str) -> f64 {
    page.lines()
        .find(|l| l.starts_with(name_and_labels) && l[name_and_labels.len()..].starts_with(' '))
        .and_then(|l| l.rsplit(' ').next())
        .and_then(|v| v.parse().ok())
        .unwrap_or(0.0)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_count_a_deal_and_healthz_follows_the_database() {
    let dir = tempfile::tempdir().unwrap();
    let fake = Fake::start().await;
    let mut s = stikis_telegram::Settings::new("123:TEST", dir.path().join("m.db").to_str().unwrap());
    s.api_url = Some(fake.url.clone());
    s.edit_interval = Duration::ZERO;
    s.hand_delay = Duration::ZERO;
    s.metrics_listen = Some("127.0.0.1:0".parse().unwrap());
    s.host = HostConfig {
        bot_budget_ms: 10,
        seeds: Arc::new(|table, deal| Seed::from_u64((table as u64) << 16 | deal as u64)),
        ..HostConfig::default()
    };
    let running = stikis_telegram::start(s).await.expect("the bot starts");
    let addr = running.metrics_addr.expect("a metrics address");
    // Healthy once long polling has answered.
    let mut healthy = false;
    for _ in 0..100 {
        if get(addr, "/healthz").await == (200, "ok\n".to_string()) {
            healthy = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(healthy, "{:?}", get(addr, "/healthz").await);

    fake.state.lock().unwrap().admins.insert(ANNA);
    fake.say(GROUP, ANNA, "/settings turn off", None);
    fake.said(GROUP, "").await;
    fake.say(GROUP, ANNA, "/zole", None);
    let table = fake
        .until("the lobby", |f| {
            f.messages(GROUP).into_iter().find_map(|m| {
                m.buttons.iter().flatten().find_map(|(_, d)| {
                    Token::decode(d)
                        .ok()
                        .filter(|t| t.action == "join")
                        .map(|t| t.table)
                })
            })
        })
        .await;
    fake.say(GROUP, ANNA, "/bots 2", None);
    fake.say(GROUP, ANNA, "/go", None);
    // Anna presses the first move button of her newest hand until the first deal ends.
    let mut presses = 0;
    let mut last: Option<(i64, String, String)> = None;
    loop {
        let done = |f: &Fake| {
            f.calls().iter().any(|c| {
                c.method == "sendMessage"
                    && c.body["chat_id"] == json!(GROUP)
                    && c.body["text"]
                        .as_str()
                        .unwrap_or("")
                        .starts_with("Result of deal 1")
            })
        };
        let next = fake
            .until("Anna to act, or the end of the deal", |f| {
                if done(f) {
                    return Some(None);
                }
                f.messages(ANNA).into_iter().rev().find_map(|m| {
                    let b = m.buttons.iter().flatten().find(|(l, d)| {
                        !l.starts_with('✓') && Token::decode(d).is_ok_and(|t| t.action.contains(':'))
                    })?;
                    let key = (m.id, m.text.clone(), b.1.clone());
                    (last.as_ref() != Some(&key)).then_some(Some(key))
                })
            })
            .await;
        let Some((msg, text, data)) = next else { break };
        let id = fake.press(ANNA, msg, ANNA, &data);
        let answer = fake.answered(&id).await;
        assert!(answer["text"].as_str().unwrap().starts_with("✓ "), "{answer}");
        last = Some((msg, text, data));
        presses += 1;
    }
    // The counters say what happened.
    let (status, page) = get(addr, "/metrics").await;
    assert_eq!(status, 200);
    let log = running.app.host.store().record(table).await.unwrap();
    let actions: usize = log
        .deals
        .iter()
        .map(|d| d["actions"].as_array().unwrap().len())
        .sum();
    assert_eq!(
        sample(&page, "stikis_actions_total{game=\"zole\"}") as usize,
        actions,
        "every committed action is counted once:\n{page}"
    );
    // Deal 1, and any deal the computer players finished since on their own.
    let results = fake
        .messages(GROUP)
        .iter()
        .filter(|m| m.text.contains("Result of deal"))
        .count();
    assert!(results >= 1);
    assert_eq!(
        sample(&page, "stikis_deals_total{game=\"zole\"}") as usize,
        results,
        "{page}"
    );
    assert_eq!(sample(&page, "stikis_db_tables_running"), 1.0, "{page}");
    assert_eq!(sample(&page, "stikis_tables_moved_here"), 1.0, "{page}");
    assert!(sample(&page, "stikis_tables_in_memory") >= 1.0, "{page}");
    assert_eq!(
        sample(&page, "stikis_move_seconds_count{outcome=\"applied\"}") as usize,
        presses,
        "one latency per press, each applied:\n{page}"
    );
    // The start's calls are counted (the recorder is there before the first call).
    for method in ["getMe", "setMyCommands"] {
        let made = fake.calls().iter().filter(|c| c.method == method).count();
        assert!(made >= 1, "{method}");
        // teloxide's dispatcher makes a getMe of its own, which stikis does not see.
        let counted = sample(
            &page,
            &format!(
                "stikis_platform_calls_total{{platform=\"telegram\",method=\"{method}\",status=\"ok\"}}"
            ),
        ) as usize;
        assert!(
            (1..=made).contains(&counted),
            "{method}: {counted} of {made}\n{page}"
        );
    }
    // Every metric shown says what it is.
    let types: Vec<&str> = page.lines().filter(|l| l.starts_with("# TYPE ")).collect();
    assert!(types.len() >= 5, "{} metrics typed:\n{page}", types.len());
    for line in types {
        let name = line.split_whitespace().nth(2).unwrap();
        assert!(
            page.contains(&format!("# HELP {name} ")),
            "{name} has no HELP:\n{page}"
        );
    }
    assert!(
        sample(&page, "stikis_computer_think_seconds_count") >= 1.0,
        "{page}"
    );
    // A person's move and the computer players' moves after it share one commit.
    let commits = sample(&page, "stikis_db_commit_seconds_count") as usize;
    assert!(
        commits >= presses && commits < actions,
        "{commits} commits for {presses} presses and {actions} actions\n{page}"
    );
    let answered = fake
        .calls()
        .iter()
        .filter(|c| c.method == "answerCallbackQuery" && c.failed.is_none())
        .count();
    assert_eq!(
        sample(
            &page,
            "stikis_platform_calls_total{platform=\"telegram\",method=\"answerCallbackQuery\",status=\"ok\"}"
        ) as usize,
        answered,
        "{page}"
    );
    // A database that does not answer makes the bot unhealthy, saying why.
    running.app.host.store().close().await;
    let (status, body) = get(addr, "/healthz").await;
    assert_eq!(status, 503, "{body}");
    assert!(body.starts_with("database: "), "{body}");
    running.crash();
    fake.assert_nothing_refused();
}
