//! The deployment files checked by the tools that read them, where installed (each check says
//! so and passes when its tool is missing, unless STIKIS_REQUIRE_DEPLOY_TOOLS is set: then it
//! fails): compose's `config` for each profile with only that profile's variables set (`docker
//! compose`, or Debian's `docker-compose` 1.29 with python3-yaml, which it depends on, turning
//! its YAML into JSON), `systemd-analyze security --offline` (exposure at most 3.0) and
//! `systemd-analyze verify` for each unit, `caddy validate` for deploy/Caddyfile; and the
//! image's HEALTHCHECK command run by bash against a bot started here. Fast: no image is built
//! and no container started.

use crate::fake;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_stikis-telegram");

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// Says that `check` is skipped and why; fails instead when STIKIS_REQUIRE_DEPLOY_TOOLS is set
/// (CI sets it, having installed the tools).
fn skip(check: &str, why: &str) {
    assert!(
        std::env::var_os("STIKIS_REQUIRE_DEPLOY_TOOLS").is_none(),
        "STIKIS_REQUIRE_DEPLOY_TOOLS is set, but {check} cannot run: {why}"
    );
    println!("skipped {check}: {why}");
}

/// True if `program args` runs and succeeds.
fn runs(program: &str, args: &[&str]) -> bool {
    Command::new(program)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// True if `program args` runs and succeeds; else `skip`s `check`.
fn have(program: &str, args: &[&str], check: &str) -> bool {
    let ok = runs(program, args);
    if !ok {
        skip(check, &format!("`{program} {}` is not available", args.join(" ")));
    }
    ok
}

/// The compose that is installed.
#[derive(Debug, Clone, Copy)]
enum Compose {
    /// `docker compose` (Docker's plugin): `config --format json` gives the model as JSON,
    /// with only the profile's services.
    Plugin,
    /// Debian's `docker-compose` (1.29; bookworm has no plugin): `config` gives YAML, every
    /// service with its `profiles`; python3 with its yaml module (both dependencies of the
    /// package) turns it into JSON.
    Python,
}

fn compose() -> Option<Compose> {
    if runs("docker", &["compose", "version"]) {
        Some(Compose::Plugin)
    } else if runs("docker-compose", &["version"]) && runs("python3", &["-c", "import yaml"]) {
        Some(Compose::Python)
    } else {
        skip(
            "the compose checks",
            "neither `docker compose` nor `docker-compose` (with python3-yaml) is installed",
        );
        None
    }
}

/// Compose's `config` for `profile` in an environment holding only `vars` (and PATH, HOME):
/// the resolved model as JSON, with the services that profile runs.
fn compose_config(compose: Compose, profile: &str, vars: &[(&str, &str)]) -> Value {
    let mut c = match compose {
        Compose::Plugin => {
            let mut c = Command::new("docker");
            c.arg("compose");
            c
        }
        Compose::Python => Command::new("docker-compose"),
    };
    c.arg("-f")
        .arg(repo().join("compose.yaml"))
        .args(["--profile", profile, "config"])
        .env_clear()
        .envs(vars.iter().copied());
    if let Compose::Plugin = compose {
        c.args(["--format", "json"]);
    }
    for keep in ["PATH", "HOME"] {
        if let Some(v) = std::env::var_os(keep) {
            c.env(keep, v);
        }
    }
    let out = c.output().unwrap();
    assert!(
        out.status.success(),
        "{compose:?} compose --profile {profile} config with only {vars:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut config: Value = match compose {
        Compose::Plugin => serde_json::from_slice(&out.stdout).unwrap(),
        Compose::Python => yaml_to_json(&out.stdout),
    };
    // A service runs in a profile when it names it or names none.
    let services = config["services"].as_object_mut().expect("services");
    services.retain(|_, s| {
        s["profiles"]
            .as_array()
            .is_none_or(|p| p.iter().any(|p| p == profile))
    });
    config
}

/// YAML as JSON, by python3's yaml module.
fn yaml_to_json(yaml: &[u8]) -> Value {
    use std::io::Write;
    let mut python = Command::new("python3")
        .args([
            "-c",
            "import json, sys, yaml; json.dump(yaml.safe_load(sys.stdin), sys.stdout)",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    python.stdin.take().unwrap().write_all(yaml).unwrap();
    let out = python.wait_with_output().unwrap();
    assert!(out.status.success(), "python3 could not read compose's YAML");
    serde_json::from_slice(&out.stdout).unwrap()
}

fn service_names(config: &Value) -> Vec<String> {
    let mut names: Vec<String> = config["services"].as_object().unwrap().keys().cloned().collect();
    names.sort();
    names
}

#[test]
fn each_compose_profile_needs_only_its_own_variables() {
    let Some(compose) = compose() else {
        return;
    };
    let compose_config = |profile: &str, vars: &[(&str, &str)]| compose_config(compose, profile, vars);
    let telegram = compose_config("telegram", &[("TELEGRAM_BOT_TOKEN", "1:T")]);
    assert_eq!(service_names(&telegram), ["postgres", "telegram"]);
    let bot = &telegram["services"]["telegram"];
    assert_eq!(bot["environment"]["TELEGRAM_BOT_TOKEN"], "1:T");
    assert_eq!(bot["stop_grace_period"], "30s");

    let discord = compose_config("discord", &[("DISCORD_TOKEN", "d")]);
    assert_eq!(service_names(&discord), ["discord", "postgres"]);
    let bot = &discord["services"]["discord"];
    assert_eq!(bot["environment"]["DISCORD_TOKEN"], "d");
    assert_eq!(bot["stop_grace_period"], "30s");

    let hooks = compose_config(
        "telegram-webhook",
        &[
            ("TELEGRAM_BOT_TOKEN", "1:T"),
            ("STIKIS_DOMAIN", "cards.example.org"),
            ("TELEGRAM_WEBHOOK_SECRET", "s3cret"),
        ],
    );
    assert_eq!(
        service_names(&hooks),
        ["caddy", "postgres", "telegram-1", "telegram-2"]
    );
    assert!(hooks["services"]["caddy"]["image"]
        .as_str()
        .unwrap()
        .starts_with("caddy:"));
    for name in ["telegram-1", "telegram-2"] {
        let bot = &hooks["services"][name];
        let command: Vec<&str> = bot["command"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a.as_str().unwrap())
            .collect();
        assert_eq!(
            command,
            [
                "--webhook-url",
                "https://cards.example.org/telegram",
                "--listen",
                "0.0.0.0:8443"
            ]
        );
        assert_eq!(bot["environment"]["TELEGRAM_WEBHOOK_SECRET"], "s3cret");
        assert!(bot["environment"]["DATABASE_URL"]
            .as_str()
            .unwrap()
            .starts_with("postgres://"));
        assert_eq!(bot["stop_grace_period"], "30s");
    }
}

/// The proxy passes Telegram's posts to every webhook instance compose runs.
#[test]
fn the_caddyfile_names_every_webhook_instance_and_is_valid() {
    let caddyfile = std::fs::read_to_string(repo().join("deploy/Caddyfile")).unwrap();
    let compose = std::fs::read_to_string(repo().join("compose.yaml")).unwrap();
    let instances: Vec<&str> = compose
        .lines()
        .filter_map(|l| l.strip_prefix("  ")?.strip_suffix(':'))
        .filter(|l| l.starts_with("telegram-") && l[9..].parse::<u32>().is_ok())
        .collect();
    assert!(instances.len() >= 2, "{instances:?}");
    for i in &instances {
        assert!(
            caddyfile.contains(&format!("{i}:8443")),
            "deploy/Caddyfile lacks {i}"
        );
    }
    if !have("caddy", &["version"], "`caddy validate`") {
        return;
    }
    let out = Command::new("caddy")
        .args(["validate", "--adapter", "caddyfile", "--config"])
        .arg(repo().join("deploy/Caddyfile"))
        .env("STIKIS_DOMAIN", "cards.example.org")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

/// The exposure `systemd-analyze security --offline=true UNIT` gives; None when this
/// systemd-analyze has no offline mode.
fn exposure(unit: &Path) -> Option<f64> {
    let out = Command::new("systemd-analyze")
        .args(["security", "--offline=true"])
        .arg(unit)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let err = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() && err.contains("offline") {
        return None;
    }
    let line = text
        .lines()
        .find(|l| l.contains("Overall exposure level"))
        .unwrap_or_else(|| panic!("no overall exposure: {text}{err}"));
    let after = line.rsplit_once(": ").unwrap().1;
    Some(after.split_whitespace().next().unwrap().parse().unwrap())
}

#[test]
fn the_systemd_units_are_hardened_and_valid() {
    let units = ["stikis-telegram.service", "stikis-discord.service"];
    for unit in units {
        let text = std::fs::read_to_string(repo().join("deploy").join(unit)).unwrap();
        // The install steps in the unit's head make what the unit needs.
        for step in [
            "useradd --system --shell /usr/sbin/nologin",
            "install -d -m 700 -o root -g root /etc/stikis",
            "systemctl daemon-reload",
        ] {
            assert!(text.contains(step), "{unit}'s install steps lack {step:?}");
        }
    }
    if !have("systemd-analyze", &["--version"], "the systemd unit checks") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for unit in units {
        let path = repo().join("deploy").join(unit);
        match exposure(&path) {
            Some(e) => {
                println!("systemd-analyze security --offline=true deploy/{unit}: {e}");
                assert!(e <= 3.0, "{unit} is rated {e}");
            }
            None => skip(
                &format!("the rating of {unit}"),
                "this systemd-analyze has no `security --offline`",
            ),
        }
        // verify checks that ExecStart's binary exists: a copy of the unit runs this test's
        // bot binary instead of /usr/local/bin's.
        let text = std::fs::read_to_string(&path).unwrap();
        let exec = text.lines().find_map(|l| l.strip_prefix("ExecStart=")).unwrap();
        let copy = dir.path().join(unit);
        std::fs::write(&copy, text.replace(exec, BIN)).unwrap();
        let out = Command::new("systemd-analyze")
            .arg("verify")
            .arg(&copy)
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&out.stderr).into_owned() + &String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success() && said.trim().is_empty(), "{unit}: {said}");
    }
}

/// The HEALTHCHECK's command as the Dockerfile gives it (exec form).
fn healthcheck() -> Vec<String> {
    let dockerfile = std::fs::read_to_string(repo().join("Dockerfile")).unwrap();
    let joined = dockerfile.replace("\\\n", " ");
    let line = joined
        .lines()
        .find(|l| l.starts_with("HEALTHCHECK "))
        .expect("a HEALTHCHECK");
    let cmd = line.split_once(" CMD ").expect("HEALTHCHECK ... CMD").1;
    serde_json::from_str(cmd.trim()).expect("CMD in exec form")
}

/// Runs the HEALTHCHECK command with STIKIS_METRICS_LISTEN=`listen`: its exit code.
fn probe(listen: &str) -> Option<i32> {
    let cmd = healthcheck();
    Command::new(&cmd[0])
        .args(&cmd[1..])
        .env("STIKIS_METRICS_LISTEN", listen)
        .status()
        .unwrap()
        .code()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_image_healthcheck_probes_healthz() {
    let cmd = healthcheck();
    if !have(&cmd[0], &["-c", "true"], "the HEALTHCHECK probe") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let fake = fake::Fake::start().await;
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let listen = format!("0.0.0.0:{port}");
    let (mode, _) = fake::webhook_mode(Some("probe"));
    let stikis_telegram::Mode::Webhook {
        url, listen: hook, ..
    } = mode
    else {
        unreachable!()
    };
    let mut child = Command::new(BIN)
        .args(["--token", "1:PROBE", "--api-url", fake.url.as_str()])
        .args(["--webhook-url", url.as_str(), "--webhook-secret", "probe"])
        .args(["--listen", &hook.to_string()])
        .env("STIKIS_METRICS_LISTEN", &listen)
        .env("DATABASE_URL", dir.path().join("p.db").to_str().unwrap())
        .env("RUST_LOG", "warn")
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let t0 = Instant::now();
    let l = listen.clone();
    while tokio::task::spawn_blocking({
        let l = l.clone();
        move || probe(&l)
    })
    .await
    .unwrap()
        != Some(0)
    {
        assert!(child.try_wait().unwrap().is_none(), "the bot exited");
        assert!(t0.elapsed() < Duration::from_secs(30), "never healthy");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let _ = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status();
    assert!(child.wait().unwrap().success());
    // Nothing listens any more: unhealthy.
    let code = tokio::task::spawn_blocking(move || probe(&l)).await.unwrap();
    assert_ne!(code, Some(0));
}
