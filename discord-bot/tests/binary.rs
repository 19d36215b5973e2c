//! The `stikis-discord` binary: `--help` documents its settings, a missing token is a clear
//! error, and against the fake Discord it connects and stops cleanly on SIGTERM.

use crate::fake;

use std::process::Command;
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_stikis-discord");

#[test]
fn help_documents_every_setting() {
    let out = Command::new(BIN).arg("--help").output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    for word in [
        "DISCORD_TOKEN",
        "DATABASE_URL",
        "DISCORD_API_URL",
        "DISCORD_INTERACTIONS_LISTEN",
        "DISCORD_PUBLIC_KEY",
        "DISCORD_SHARDS",
        "stikis.db",
        "SIGTERM",
        "shards",
        "/belote",
        "/coinche",
        "/polt",
        "thread",
    ] {
        assert!(text.contains(word), "--help does not mention {word}:\n{text}");
    }
}

#[test]
fn version_prints_to_stdout() {
    let out = Command::new(BIN).arg("--version").output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("stikis-discord "), "{text}");
}

/// A refused token and an unreachable server are each one line on stderr (the token given
/// with --token, as the Telegram bot takes it), and the log on a pipe has no colour codes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bad_token_or_no_network_is_one_clear_line() {
    let dir = tempfile::tempdir().unwrap();
    let fake = fake::Fake::start().await;
    let run = |token: &'static str, api: String, db: std::path::PathBuf| {
        tokio::task::spawn_blocking(move || {
            Command::new(BIN)
                .args(["--token", token, "--api-url", &api])
                .env_remove("DISCORD_TOKEN")
                .env_remove("DISCORD_API_URL")
                .env("DATABASE_URL", db.to_str().unwrap())
                .output()
                .unwrap()
        })
    };
    let out = run(fake::BAD_TOKEN, fake.url.clone(), dir.path().join("a.db"))
        .await
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("Discord refused the token"), "{err}");
    assert!(
        !String::from_utf8_lossy(&out.stdout).contains('\x1b'),
        "colour codes in a piped log"
    );
    let out = run("fake-token", "http://127.0.0.1:9".into(), dir.path().join("b.db"))
        .await
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("cannot reach Discord at http://127.0.0.1:9"),
        "{err}"
    );
}

#[test]
fn a_missing_token_is_a_clear_error() {
    let out = Command::new(BIN).env_remove("DISCORD_TOKEN").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("DISCORD_TOKEN is not set"), "{err}");
}

#[test]
fn a_bad_shard_range_is_a_usage_error() {
    for (bad, says) in [
        ("8/8", "below the total"),
        ("3-1/8", "from a lower to a higher"),
        ("0/0", "at least 1"),
        ("all", "not a shard range like 0-3/8"),
    ] {
        let out = Command::new(BIN)
            .env("DISCORD_TOKEN", "fake-token")
            .args(["--shards", bad])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "--shards {bad}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains(says), "--shards {bad}: {err}");
    }
}

#[test]
fn an_interactions_endpoint_needs_a_good_public_key() {
    let dir = tempfile::tempdir().unwrap();
    let run = |key: Option<&str>| {
        let mut c = Command::new(BIN);
        c.env("DISCORD_TOKEN", "fake-token")
            .env("DISCORD_API_URL", "http://127.0.0.1:9")
            .env("DATABASE_URL", dir.path().join("k.db").to_str().unwrap())
            .env("DISCORD_INTERACTIONS_LISTEN", "127.0.0.1:0")
            .env_remove("DISCORD_PUBLIC_KEY");
        if let Some(k) = key {
            c.env("DISCORD_PUBLIC_KEY", k);
        }
        c.output().unwrap()
    };
    let out = run(None);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("needs DISCORD_PUBLIC_KEY"), "{err}");
    let out = run(Some("not-a-key"));
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("64 hexadecimal digits"), "{err}");
}

#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_binary_connects_to_the_fake_and_stops_on_sigterm() {
    let dir = tempfile::tempdir().unwrap();
    let fake = fake::Fake::start().await;
    let mut child = tokio::process::Command::new(BIN)
        .env("DISCORD_TOKEN", "fake-token")
        .env("DISCORD_API_URL", &fake.url)
        .env("DATABASE_URL", dir.path().join("bin.db").to_str().unwrap())
        .env("RUST_LOG", "warn")
        .spawn()
        .unwrap();
    fake.wait_ready(1).await;
    let pid = child.id().unwrap();
    // The `kill` program sends the signal; no libc dependency for one call.
    let status = Command::new("kill")
        .arg("-TERM")
        .arg(pid.to_string())
        .status()
        .unwrap();
    assert!(status.success());
    let exit = tokio::time::timeout(Duration::from_secs(20), child.wait())
        .await
        .expect("the bot stops after SIGTERM")
        .unwrap();
    assert!(exit.success(), "{exit:?}");
    assert!(
        dir.path().join("bin.db").exists(),
        "DATABASE_URL names the SQLite file"
    );
}

/// A database that cannot be opened is named in the one line the bot says, so the operator
/// sees which path it tried.
#[test]
fn a_database_that_cannot_be_opened_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("no-such-dir").join("cards.db");
    let out = Command::new(BIN)
        .env("DISCORD_TOKEN", "x")
        .env("DATABASE_URL", bad.to_str().unwrap())
        .env_remove("DISCORD_INTERACTIONS_LISTEN")
        .output()
        .unwrap();
    assert_ne!(out.status.code(), Some(0));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!(
            "cannot open the database (the SQLite file {})",
            bad.display()
        )),
        "{err}"
    );
}
