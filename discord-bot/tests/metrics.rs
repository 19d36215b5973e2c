//! `/metrics` and `/healthz` of the Discord bot against the fake Discord (a process of its
//! own, so the counters are this test's): healthy once the gateway is ready, every message it
//! creates counted, and unhealthy without a database.

mod fake;

use fake::{callback_text, Fake, Person};
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

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

/// The value of a sample of the page; None if the page has no such sample (so that a check
/// of a zero cannot pass on a metric that is gone).
fn sample(page: &str, name_and_labels: &str) -> Option<f64> {
    page.lines()
        .find(|l| l.starts_with(name_and_labels) && l[name_and_labels.len()..].starts_with(' '))
        .and_then(|l| l.rsplit(' ').next())
        .and_then(|v| v.parse().ok())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn healthz_follows_the_gateway_and_the_database_and_calls_are_counted() {
    let dir = tempfile::tempdir().unwrap();
    let fake = Fake::start().await;
    let mut config = fake.config(dir.path().join("m.db").to_str().unwrap());
    config.metrics_listen = Some("127.0.0.1:0".parse().unwrap());
    let bot = stikis_discord::start(config).await.unwrap();
    fake.wait_ready(1).await;
    let addr = bot.metrics_addr.expect("a metrics address");
    let mut status = 0;
    for _ in 0..100 {
        status = get(addr, "/healthz").await.0;
        if status == 200 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(status, 200, "healthy once READY");
    // Anna opens a table: the lobby and what follows are messages the bot creates itself,
    // each counted once.
    let anna = Person::new(1001, "Anna");
    let v = fake.slash(&anna, fake::CHANNEL, "zole", json!([])).await;
    assert!(callback_text(&v).contains("Anna opened a table of Zole"), "{v}");
    bot.bot.settle().await;
    let (status, page) = get(addr, "/metrics").await;
    assert_eq!(status, 200);
    let created = fake
        .channel(fake::CHANNEL)
        .iter()
        .filter(|m| m.ephemeral_for.is_none())
        .count();
    assert!(created >= 1);
    assert_eq!(
        sample(
            &page,
            "stikis_platform_calls_total{platform=\"discord\",method=\"createMessage\",status=\"ok\"}"
        ),
        Some(created as f64),
        "{page}"
    );
    assert_eq!(
        sample(&page, "stikis_db_tables_running"),
        Some(0.0),
        "a lobby is not running: {page}"
    );
    // The start's calls are counted.
    assert_eq!(
        sample(
            &page,
            "stikis_platform_calls_total{platform=\"discord\",method=\"getGatewayBot\",status=\"ok\"}"
        ),
        Some(1.0),
        "{page}"
    );
    let types: Vec<&str> = page.lines().filter(|l| l.starts_with("# TYPE ")).collect();
    assert!(types.len() > 3, "{page}");
    for line in types {
        let name = line.split_whitespace().nth(2).unwrap();
        assert!(
            page.contains(&format!("# HELP {name} ")),
            "{name} has no HELP:\n{page}"
        );
    }
    // Without its database the bot is not ready, and says why.
    bot.bot.host.store().close().await;
    let (status, body) = get(addr, "/healthz").await;
    assert_eq!(status, 503, "{body}");
    assert!(body.starts_with("database: "), "{body}");
    bot.shutdown().await;
}
