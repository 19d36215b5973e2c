//! What the host's whole-game tests share: a recording fake adapter (`Screen`) that keeps the
//! newest version of every keyed message and every post, sending requests as a person, the
//! mechanical privacy check of every public message, and small helpers. Each test file uses
//! a part of it.
#![allow(dead_code)]

use std::sync::Arc;

use serde_json::Value;
use stikis_core::Seed;
use stikis_host::store::{ChatRef, Platform, Store};
use stikis_host::{Command, Host, HostConfig, Out, Outbox, Request, TournamentVerb, User};

/// The PostgreSQL test database's URL (STIKIS_TEST_POSTGRES_URL), or None (said on stderr)
/// when it is not set: the tests that need it then check SQLite alone. With
/// STIKIS_REQUIRE_POSTGRES set (CI sets it, having started PostgreSQL) a missing URL fails the
/// test instead, so that a run meant to cover PostgreSQL cannot pass without it.
pub fn postgres_url() -> Option<String> {
    let url = std::env::var("STIKIS_TEST_POSTGRES_URL")
        .ok()
        .filter(|u| !u.is_empty());
    if url.is_none() {
        assert!(
            std::env::var_os("STIKIS_REQUIRE_POSTGRES").is_none(),
            "STIKIS_REQUIRE_POSTGRES is set, but STIKIS_TEST_POSTGRES_URL is not (eval \"$(bash .ci/postgres.sh)\")"
        );
        eprintln!("STIKIS_TEST_POSTGRES_URL is not set: PostgreSQL not tested");
    }
    url
}

pub fn user(id: &str, admin: bool) -> User {
    User {
        id: id.into(),
        name: id.to_uppercase(),
        admin,
    }
}

pub fn chat(id: &str) -> ChatRef {
    ChatRef::new(Platform::Telegram, "group-1", id)
}

pub fn dm(user: &str) -> ChatRef {
    ChatRef::new(Platform::Telegram, "group-1", format!("dm-{user}"))
}

pub fn config() -> HostConfig {
    HostConfig {
        bot_budget_ms: 20,
        seeds: Arc::new(|table, deal| Seed::from_u64((table as u64) << 16 | deal as u64)),
        ..HostConfig::default()
    }
}

/// One shown message: to whom (user or chat), its text, its buttons as (label, token).
pub type Shown = (String, String, Vec<(String, String)>);

/// A fake adapter: keeps the newest version of every keyed message, and everything posted
/// (a post kept under a key once, as the bots post it).
#[derive(Default)]
pub struct Screen {
    pub latest: std::collections::BTreeMap<String, Shown>,
    pub posts: Vec<String>,
    /// The keys of the posts made once (`Out::Post::once`).
    pub posted_once: std::collections::HashSet<String>,
    /// Every public text with the deal it is about (0: none).
    pub public_texts: Vec<(usize, String)>,
    pub deal: usize,
    /// How many (public text, hidden card) pairs `check_privacy` compared: a game whose
    /// checks compared none checked nothing (the host said no card was hidden).
    pub hidden_compared: usize,
}

impl Screen {
    pub fn show(&mut self, out: &Outbox) {
        for o in &out.0 {
            match o {
                Out::Public {
                    key,
                    text,
                    buttons,
                    chat,
                    ..
                } => {
                    if let Some(d) = key.split(".d").nth(1) {
                        self.deal = d.parse().unwrap_or(self.deal);
                    }
                    self.public_texts.push((self.deal, text.clone()));
                    let b = buttons
                        .iter()
                        .flatten()
                        .map(|b| (b.label.clone(), b.token.clone()))
                        .collect();
                    self.latest
                        .insert(key.clone(), (chat.chat.clone(), text.clone(), b));
                }
                Out::Private {
                    key,
                    text,
                    buttons,
                    user,
                    ..
                } => {
                    // What a player can press: a disabled card cannot be.
                    let b = buttons
                        .iter()
                        .flatten()
                        .filter(|b| !b.disabled)
                        .map(|b| (b.label.clone(), b.token.clone()))
                        .collect();
                    self.latest.insert(key.clone(), (user.clone(), text.clone(), b));
                }
                Out::Post { text, once, .. } => {
                    if let Some(k) = once {
                        if !self.posted_once.insert(k.clone()) {
                            continue;
                        }
                    }
                    let deal = result_of(text)
                        .and_then(|r| r.split_whitespace().next())
                        .and_then(|n| n.parse().ok())
                        .unwrap_or(0);
                    self.public_texts.push((deal, text.clone()));
                    self.posts.push(text.clone());
                }
                Out::File { .. } | Out::Reply { .. } | Out::Personal { .. } | Out::FollowUp { .. } => {}
            }
        }
    }

    /// The first button of `user`'s newest hand message, if it has buttons.
    pub fn my_button(&self, user: &str) -> Option<String> {
        self.my_buttons(user).first().map(|b| b.1.clone())
    }

    /// The buttons (label, token) of `user`'s newest hand message: the one of the highest
    /// table and deal (keys `t{table}.d{deal}.s{seat}`, compared as numbers).
    pub fn my_buttons(&self, user: &str) -> Vec<(String, String)> {
        self.my_hand(user).map(|h| h.2.clone()).unwrap_or_default()
    }

    /// `user`'s newest hand message.
    pub fn my_hand(&self, user: &str) -> Option<&Shown> {
        self.latest
            .iter()
            .filter(|(_, (u, _, _))| u == user)
            .filter_map(|(k, m)| hand_key(k).map(|n| (n, m)))
            .max_by_key(|(n, _)| *n)
            .map(|(_, m)| m)
    }

    /// The tournament message's button for `verb` (`T:<code>` tokens).
    pub fn tournament_button(&self, verb: TournamentVerb) -> String {
        let (_, (_, _, buttons)) = self
            .latest
            .iter()
            .find(|(k, _)| k.starts_with('T') && !k.contains('.'))
            .expect("the tournament message");
        buttons
            .iter()
            .find(|(_, t)| t.ends_with(&format!("T:{}", verb.code())))
            .unwrap_or_else(|| panic!("no {verb:?} button in {buttons:?}"))
            .1
            .clone()
    }

    /// The tournament message's text (empty when there is none).
    pub fn tournament_text(&self) -> String {
        self.latest
            .iter()
            .find(|(k, _)| k.starts_with('T') && !k.contains('.'))
            .map(|(_, m)| m.1.clone())
            .unwrap_or_default()
    }

    pub fn lobby_token(&self, verb: &str) -> String {
        let (_, _, b) = self
            .latest
            .iter()
            .find(|(k, _)| k.ends_with(".lobby"))
            .expect("a lobby message")
            .1;
        b.iter()
            .find(|(_, t)| t.ends_with(verb))
            .expect("the lobby button")
            .1
            .clone()
    }
}

/// The (table, deal) of a hand message key `t{table}.d{deal}.s{seat}`.
fn hand_key(k: &str) -> Option<(i64, usize)> {
    let mut parts = k.split('.');
    let table = parts.next()?.strip_prefix('t')?.parse().ok()?;
    let deal = parts.next()?.strip_prefix('d')?.parse().ok()?;
    parts.next()?.strip_prefix('s')?;
    Some((table, deal))
}

/// A deal's result post after its header word ("Result of deal 3", Polt's "Result of hand 3"):
/// "3 …".
pub fn result_of(text: &str) -> Option<&str> {
    text.strip_prefix("Result of deal ")
        .or_else(|| text.strip_prefix("Result of hand "))
}

pub async fn send(
    host: &Arc<Host>,
    screen: &mut Screen,
    chat: ChatRef,
    u: &User,
    command: Command,
) -> Outbox {
    let out = host
        .handle(Request {
            chat,
            user: u.clone(),
            command,
        })
        .await;
    screen.show(&out);
    out
}

/// Checks every public text shown since the last check against the cards of its deal that are
/// still hidden now. (Hidden sets only shrink as cards are played, so this never flags a card
/// that was legitimately shown; it can miss a card shown and then played within one request.)
pub async fn check_privacy(host: &Arc<Host>, table: i64, screen: &mut Screen, checked: &mut usize) {
    for (deal, text) in &screen.public_texts[*checked..] {
        let hidden = host.hidden_cards(table, *deal).await;
        screen.hidden_compared += hidden.len();
        for card in &hidden {
            assert!(
                !text
                    .split(|c: char| c.is_whitespace() || c == ',')
                    .any(|w| w == card),
                "a public message shows the hidden card {card}:\n{text}"
            );
        }
    }
    *checked = screen.public_texts.len();
}

pub fn table_id(screen: &Screen) -> i64 {
    let key = screen
        .latest
        .keys()
        .find(|k| k.starts_with('t'))
        .expect("a table message");
    key[1..].split('.').next().unwrap().parse().unwrap()
}

pub async fn sqlite(dir: &tempfile::TempDir, name: &str) -> Store {
    Store::open_sqlite(dir.path().join(name).to_str().unwrap())
        .await
        .unwrap()
}

/// The content of the first record file of an outbox, parsed.
pub fn file_of(out: &Outbox) -> Option<Value> {
    out.0.iter().find_map(|o| match o {
        Out::File { content, .. } => serde_json::from_str(content).ok(),
        _ => None,
    })
}

/// The table's record as `/record` exports it, asked by `u` in chat `g`.
/// The table's whole log as a record, the deal in progress included (the chat's `/record`
/// leaves that deal out, its hands being secret): what tests compare to see that a press
/// changed nothing, or that a restarted table went on exactly.
pub async fn log_of(host: &Arc<Host>, table: i64) -> Value {
    serde_json::to_value(host.store().record(table).await.expect("the table's log")).unwrap()
}

pub async fn record_of(host: &Arc<Host>, screen: &mut Screen, g: ChatRef, u: &User) -> Value {
    let out = send(host, screen, g, u, Command::Record).await;
    file_of(&out).expect("a record file")
}

/// A table the tests drive by the people's presses.
pub struct Table {
    pub host: Arc<Host>,
    pub screen: Screen,
    pub table: i64,
    pub people: Vec<User>,
    pub g: ChatRef,
    pub checked: usize,
    /// The outbox that finished the game (it carries the record file).
    pub finish: Option<Outbox>,
    /// A small deterministic generator for the people's choices.
    pub rng: u64,
}

impl Table {
    pub fn next(&mut self, n: usize) -> usize {
        self.rng = self
            .rng
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.rng >> 33) as usize % n
    }

    /// Deals finished so far (their results posted).
    pub fn deals_done(&self) -> usize {
        self.screen
            .posts
            .iter()
            .filter(|p| result_of(p).is_some())
            .count()
    }
}

/// One press by the first person who can act, of a button chosen by the generator, with the
/// privacy of every public message checked. False when nobody can act.
pub async fn step(t: &mut Table) -> bool {
    let Some(who) = t
        .people
        .iter()
        .find(|p| !t.screen.my_buttons(&p.id).is_empty())
        .cloned()
    else {
        return false;
    };
    let buttons = t.screen.my_buttons(&who.id);
    let token = buttons[t.next(buttons.len())].1.clone();
    let out = send(&t.host, &mut t.screen, dm(&who.id), &who, Command::press(token)).await;
    assert_eq!(out.reply_text(), Some("✓"), "{out:?}");
    check_privacy(&t.host, t.table, &mut t.screen, &mut t.checked).await;
    if out.0.iter().any(|o| o.text().starts_with("The game is over.")) {
        t.finish = Some(out);
    }
    true
}

/// A finished table's record proves its deals: every deal carries the seed revealed with its
/// result (whose SHA-256 was posted before the deal), and a record with one seed changed no
/// longer replays, at that deal. `rec` is the record file the table posted.
pub fn check_seeds(screen: &Screen, rec: &Value) {
    let deals = rec["deals"].as_array().unwrap();
    assert!(!deals.is_empty());
    for (i, d) in deals.iter().enumerate() {
        let hex = d["seed"]
            .as_str()
            .unwrap_or_else(|| panic!("deal {} has no seed: {d}", i + 1));
        let seed: Seed = hex.parse().unwrap();
        let result = screen
            .posts
            .iter()
            .find(|p| result_of(p).and_then(|r| r.split_whitespace().next()) == Some(&(i + 1).to_string()))
            .unwrap_or_else(|| panic!("no result of deal {}", i + 1));
        // The chat is shown the seed's and the commitment's first digits; the record has
        // them whole.
        use stikis_host::table::fingerprint;
        assert!(result.contains(&fingerprint(hex)), "deal {}: {result}", i + 1);
        assert!(!result.contains(hex), "deal {}: {result}", i + 1);
        let commitment = stikis_host::table::commitment(&seed);
        assert!(
            screen
                .public_texts
                .iter()
                .any(|(_, p)| p.contains(&fingerprint(&commitment))),
            "deal {}: its commitment was not shown",
            i + 1
        );
        assert!(
            !screen.public_texts.iter().any(|(_, p)| p.contains(&commitment)),
            "deal {}: its whole commitment was shown in the chat",
            i + 1
        );
    }
    stikis_core::record::replay(rec.to_string().as_bytes()).expect("the record replays");
    // Another first hex digit: another shuffle, and in Coinche also another cut (3 + the
    // first byte mod 27), so later Coinche deals are caught too.
    for i in [0, deals.len() - 1] {
        let mut bad = rec.clone();
        let hex = bad["deals"][i]["seed"].as_str().unwrap().to_string();
        let other = if hex.starts_with('0') { "1" } else { "0" };
        bad["deals"][i]["seed"] = Value::String(format!("{other}{}", &hex[1..]));
        let e =
            stikis_core::record::replay(bad.to_string().as_bytes()).expect_err("a changed seed is refused");
        assert_eq!((e.deal, e.action), (i + 1, 0), "{e}");
        assert!(e.reason.contains("this seed"), "{e}");
    }
}
