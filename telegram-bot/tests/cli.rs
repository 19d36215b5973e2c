//! The binary's start-up contract: a clear error without a token, and `--help` naming every
//! setting.

use std::process::Command;

#[test]
fn without_a_token_the_bot_says_what_is_missing() {
    let out = Command::new(env!("CARGO_BIN_EXE_stikis-telegram"))
        .env_remove("TELEGRAM_BOT_TOKEN")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("TELEGRAM_BOT_TOKEN is not set"), "{err}");
}

#[test]
fn help_documents_every_setting() {
    let out = Command::new(env!("CARGO_BIN_EXE_stikis-telegram"))
        .arg("--help")
        .output()
        .unwrap();
    assert!(out.status.success());
    let help = String::from_utf8_lossy(&out.stdout);
    for s in [
        "TELEGRAM_BOT_TOKEN",
        "DATABASE_URL",
        "TELEGRAM_API_URL",
        "--webhook-url",
        "--listen",
        "SIGTERM",
        "stikis.db",
    ] {
        assert!(help.contains(s), "--help lacks {s}:\n{help}");
    }
}
