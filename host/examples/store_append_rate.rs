//! Measures the action log alone: 1,000 tables, 64 concurrent writers, 10 appends per table,
//! each acknowledged after its commit; prints appends per second and p50/p99 latency.
//!
//!     cargo run --release -p stikis-host --example store_append_rate -- /tmp/bench.db
//!     cargo run --release -p stikis-host --example store_append_rate -- "$STIKIS_TEST_POSTGRES_URL"
//!
//! The host benchmark (whole tables through the host) is the one the targets are set for;
//! this one tells how much of it the store takes.
use std::time::Instant;
use stikis_host::store::*;

const USAGE: &str = "\
Measures the action log alone: 1,000 tables, 64 writers, 10 appends per table; appends/s, p50/p99.

Usage: cargo run --release -p stikis-host --example store_append_rate -- URL

  URL          SQLite file path or postgres:// URL (required, no default)
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
    let mut url = None;
    for a in std::env::args().skip(1) {
        match a.as_str() {
            "-h" | "--help" => usage(None),
            _ if a.starts_with('-') => usage(Some(&format!("unknown option {a}"))),
            _ if url.is_none() => url = Some(a),
            _ => usage(Some(&format!("unexpected argument {a:?}"))),
        }
    }
    let url = url.unwrap_or_else(|| usage(Some("the database URL or SQLite path is missing")));
    let tables: i64 = 1000;
    let workers = 64;
    let per_table = 10;
    let s = Store::connect(&url).await.unwrap();
    let mut ids = Vec::new();
    for i in 0..tables {
        let t = s
            .create_table(&NewTable {
                chat: ChatRef::new(Platform::Local, "bench", format!("c{i}-{}", std::process::id())),
                game: "zole".into(),
                rules: serde_json::json!("lv"),
                seats: 3,
                creator: "u".into(),
            })
            .await
            .unwrap();
        ids.push(t.id);
    }
    let start = Instant::now();
    let mut joins = Vec::new();
    for w in 0..workers {
        let s = s.clone();
        let mine: Vec<i64> = ids.iter().copied().skip(w).step_by(workers).collect();
        joins.push(tokio::spawn(async move {
            let mut lat = Vec::new();
            for seq in 1..=per_table {
                for &t in &mine {
                    let t0 = Instant::now();
                    s.append_action(t, seq, &serde_json::json!({"seat": 1, "play": "QC"}))
                        .await
                        .unwrap();
                    lat.push(t0.elapsed().as_secs_f64() * 1000.0);
                }
            }
            lat
        }));
    }
    let mut lat = Vec::new();
    for j in joins {
        lat.extend(j.await.unwrap());
    }
    let secs = start.elapsed().as_secs_f64();
    lat.sort_by(|a, b| a.partial_cmp(b).unwrap());
    println!(
        "{}: {} appends in {:.2}s = {:.0}/s, p50 {:.2} ms, p99 {:.2} ms",
        s.backend_name(),
        lat.len(),
        secs,
        lat.len() as f64 / secs,
        lat[lat.len() / 2],
        lat[lat.len() * 99 / 100]
    );
}
