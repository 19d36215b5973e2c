//! Every command and subcommand of `stikis` answers `--help` (and the program `--version`) on
//! standard output with exit 0; a usage error goes to standard error with exit 2.

use std::process::Command;

fn stikis(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_stikis"))
        .args(args)
        .output()
        .expect("run stikis")
}

#[test]
fn help_and_version_go_to_stdout_with_exit_0() {
    for args in [
        &["--help"][..],
        &["-h"],
        &["help"],
        &["--version"],
        &["play", "--help"],
        &["play", "zole", "--help"],
        &["replay", "--help"],
        &["arena", "--help"],
        &["bench", "--help"],
        &["tournament", "--help"],
        &["tournament", "verify", "--help"],
        &["tournament", "play", "--help"],
    ] {
        let out = stikis(args);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stdout}");
        assert!(
            out.stderr.is_empty(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        // A doc string's line continuation written `\\` shows as a stray backslash.
        assert!(!stdout.contains('\\'), "{args:?} prints a backslash:\n{stdout}");
        if args == ["--version"] {
            assert!(stdout.starts_with("stikis "), "{stdout}");
        } else {
            assert!(stdout.contains("Usage: stikis"), "{args:?}: {stdout}");
        }
    }
    let out = stikis(&["--help"]);
    let text = String::from_utf8_lossy(&out.stdout);
    for sub in ["play", "replay", "arena", "bench", "tournament"] {
        assert!(text.contains(sub), "{sub} is listed:\n{text}");
    }
    let out = stikis(&["tournament", "--help"]);
    let text = String::from_utf8_lossy(&out.stdout);
    for sub in ["verify", "play", "stikis tournament play --players 8"] {
        assert!(text.contains(sub), "{sub} is in tournament --help:\n{text}");
    }
}

#[test]
fn usage_errors_go_to_stderr_with_exit_2() {
    for args in [
        &[][..],
        &["skat"],
        &["play"],
        &["play", "skat"],
        &["replay"],
        &["arena", "--deals", "many"],
        &["arena", "--game", "skat", "--deals", "1"],
    ] {
        let out = stikis(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert!(!out.stderr.is_empty(), "{args:?}");
    }
}

#[test]
fn bench_reports_cpu_time() {
    let out = stikis(&["bench", "--game", "polt", "--deals", "20"]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with("polt: 100 complete deals (20 x 5 rotations)"),
        "{text}"
    );
    assert!(text.contains("CPU time"), "{text}");
    assert!(text.contains(" s wall"), "{text}");
}

#[test]
fn bench_rates_deals_per_second_of_cpu_time() {
    // Enough deals for many ticks (10 ms) of CPU time, so there is a rate.
    let out = stikis(&["bench", "--game", "zole", "--deals", "10000"]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with("zole: 30000 complete deals (10000 x 3 rotations) of random legal play in "),
        "{text}"
    );
    let cpu: f64 = text
        .split(" s of CPU time")
        .next()
        .and_then(|t| t.rsplit(' ').next())
        .and_then(|x| x.parse().ok())
        .unwrap_or_else(|| panic!("no CPU seconds in {text}"));
    assert!(cpu > 0.0, "{text}");
    assert!(text.contains("deals per CPU second on one thread"), "{text}");
}

#[test]
fn bench_help_reads_as_prose_without_backslashes() {
    let out = stikis(&["bench", "--help"]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Plays complete deals of a game"), "{text}");
    assert!(!text.contains('\\'), "{text}");
    // The source lines are joined: no line ends where the source line did.
    assert!(text.contains("(each deal under every rotation"), "{text}");
}
