//! `stikis arena` through the binary: it reports every level with an interval and the
//! difference, and every record it writes replays with `stikis replay`.

use std::process::Command;

fn stikis(args: &[&str], stdin: Option<&str>) -> (bool, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_stikis"));
    cmd.args(args);
    let out = if let Some(input) = stdin {
        use std::io::Write;
        let mut child = cmd
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("run stikis");
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(input.as_bytes())
            .expect("write");
        child.wait_with_output().expect("wait")
    } else {
        cmd.output().expect("run stikis")
    };
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn arena_reports_levels_and_writes_replayable_records() {
    let dir = std::env::temp_dir().join(format!("stikis-arena-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    for (game, players) in [
        ("zole", "basic,random,random"),
        ("polt", "basic,random,random,random,random"),
        // Belote: one level per team, both seatings.
        ("bazar", "basic,random"),
        ("classic", "basic,random"),
        ("h2h", "basic,random"),
        ("coinche", "basic,random"),
    ] {
        let path = dir.join(format!("{game}.jsonl"));
        let (ok, out) = stikis(
            &[
                "arena",
                "--game",
                game,
                "--deals",
                "6",
                "--players",
                players,
                "--records",
                path.to_str().unwrap(),
            ],
            None,
        );
        assert!(ok, "{out}");
        assert!(out.contains("basic   mean points per deal"), "{out}");
        assert!(out.contains("random  mean points per deal"), "{out}");
        assert!(out.contains("basic - random: mean difference"), "{out}");
        let records = std::fs::read_to_string(&path).expect("records");
        let seats = players.split(',').count();
        assert_eq!(
            records.lines().count(),
            6 * seats,
            "one record per deal and rotation"
        );
        for line in records.lines() {
            let (ok, out) = stikis(&["replay", "-"], Some(line));
            assert!(ok && out.contains("\"deals\""), "{line} -> {out}");
        }
    }
    let (ok, _) = stikis(&["arena", "--players", "basic,basic"], None);
    assert!(!ok, "a zole table needs three levels");
    let (ok, _) = stikis(
        &["arena", "--game", "bazar", "--players", "basic,basic,basic"],
        None,
    );
    assert!(!ok, "a belote table has two teams");
}
