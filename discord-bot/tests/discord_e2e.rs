//! The bot against a fake Discord (tests/fake): three people play a whole Zole deal through
//! button interactions, one of them with closed direct messages (the ephemeral hand); every
//! public message version is checked for hidden cards; stale, foreign and out-of-turn presses,
//! Manage Server checks, the record, and a restart mid-deal on the same database (closed
//! direct messages relearnt); two tables in threads of one channel; Belote and Polt tables of
//! one person and computer players; the bot's own texts in the person's or server's language;
//! two processes splitting the gateway shards on one database.

use crate::fake;

use std::sync::atomic::Ordering;
use std::sync::Arc;

use fake::{callback_text, Fake, Msg, Person, CHANNEL, MANAGE_GUILD};
use serde_json::{json, Value};
use stikis_discord::Running;

const TABLE: i64 = 1;
const WEB_URL: &str = "https://cards.example.org";

struct Play {
    fake: Fake,
    bot: Option<Running>,
    /// A second process on the same database, with the other gateway shards.
    other: Option<Running>,
    anna: Person,
    bruno: Person,
    cilda: Person,
    dora: Person,
    /// The privacy checks of the table's public messages.
    privacy: Privacy,
    presses: usize,
    /// Moves Cilda (closed direct messages) made through her ephemeral hand.
    cilda_moves: usize,
}

impl Play {
    /// Anna asks for the table's record in the channel: the file attached to the answer, and
    /// what it replays to.
    async fn record(&self) -> (String, Value) {
        let v = self.fake.slash(&self.anna, CHANNEL, "record", json!([])).await;
        assert_eq!(v["type"], 4);
        let file = self
            .fake
            .channel(CHANNEL)
            .into_iter()
            .rev()
            .find_map(|m| m.file)
            .expect("a record file");
        let replayed = stikis_core::record::replay(file.as_bytes()).expect("the record replays");
        (file, replayed)
    }

    async fn start(db: &str) -> Play {
        Play::start_with(db, false).await
    }

    /// With `endpoint`, interactions are posted to the bot's interactions endpoint.
    async fn start_with(db: &str, endpoint: bool) -> Play {
        let fake = Fake::start().await;
        // Cilda's direct messages are closed: every DM to her fails with 50007.
        fake.state.closed_dms.lock().unwrap().insert(1003);
        let config = if endpoint {
            fake.endpoint_config(db)
        } else {
            fake.config(db)
        };
        let bot = stikis_discord::start(config).await.unwrap();
        fake.wait_ready(1).await;
        Play {
            fake,
            bot: Some(bot),
            other: None,
            anna: Person::new(1001, "Anna"),
            bruno: Person::new(1002, "Bruno"),
            cilda: Person::new(1003, "Cilda"),
            dora: Person::new(1004, "Dora"),
            privacy: Privacy::new(TABLE),
            presses: 0,
            cilda_moves: 0,
        }
    }

    /// Two processes on one database, splitting the bot's 2 gateway shards: the one started
    /// with `0/2` gets direct messages, the one with `1/2` the server's interactions.
    async fn start_sharded(db: &str) -> Play {
        let mut g = Play::start_shard(db, "0/2").await;
        let mut config = g.fake.config(db);
        config.shards = Some("1-1/2".parse().unwrap());
        let n = g.fake.state.identifies.load(Ordering::Acquire);
        g.other = Some(stikis_discord::start(config).await.unwrap());
        g.fake.wait_ready(n + 1).await;
        g
    }

    /// With the web face's address given, so that `/play` gives links to the live table.
    async fn start_web(db: &str) -> Play {
        let mut g = Play::start(db).await;
        g.bot.take().unwrap().shutdown().await;
        g.fake.disconnect();
        let n = g.fake.state.identifies.load(Ordering::Acquire);
        let mut config = g.fake.config(db);
        config.host.web_url = Some(WEB_URL.into());
        g.bot = Some(stikis_discord::start(config).await.unwrap());
        g.fake.wait_ready(n + 1).await;
        g
    }

    async fn start_shard(db: &str, shards: &str) -> Play {
        let mut g = Play::start(db).await;
        // Started again with only its shards.
        g.bot.take().unwrap().shutdown().await;
        g.fake.disconnect();
        let n = g.fake.state.identifies.load(Ordering::Acquire);
        let mut config = g.fake.config(db);
        config.shards = Some(shards.parse().unwrap());
        g.bot = Some(stikis_discord::start(config).await.unwrap());
        g.fake.wait_ready(n + 1).await;
        g
    }

    fn running(&self) -> &Running {
        self.bot.as_ref().unwrap()
    }

    async fn settle(&self) {
        self.running().bot.settle().await;
        if let Some(other) = &self.other {
            other.bot.settle().await;
        }
    }

    async fn restart(&mut self, db: &str) {
        self.bot.take().unwrap().shutdown().await;
        self.fake.disconnect();
        let n = self.fake.state.identifies.load(Ordering::Acquire);
        self.bot = Some(stikis_discord::start(self.fake.config(db)).await.unwrap());
        self.fake.wait_ready(n + 1).await;
        self.settle().await;
    }

    async fn slash(&self, who: &Person, name: &str, options: Value) -> String {
        let v = self.fake.slash(who, CHANNEL, name, options).await;
        self.settle().await;
        callback_text(&v)
    }

    async fn press(&mut self, who: &Person, msg: u64, token: &str) -> Value {
        let v = self.fake.press(who, msg, token).await;
        self.settle().await;
        self.presses += 1;
        self.check_privacy().await;
        v
    }

    /// Non-ephemeral messages of the table's channel.
    fn public(&self) -> Vec<Msg> {
        self.fake
            .channel(CHANNEL)
            .into_iter()
            .filter(|m| m.ephemeral_for.is_none())
            .collect()
    }

    fn lobby(&self) -> Msg {
        self.public()
            .into_iter()
            .find(|m| m.buttons.iter().any(|(l, _)| l == "Join"))
            .expect("a lobby message")
    }

    fn button(m: &Msg, label: &str) -> String {
        m.buttons
            .iter()
            .find(|(l, _)| l == label)
            .unwrap_or_else(|| panic!("no {label:?} button in {m:#?}"))
            .1
            .clone()
    }

    /// The newest table message (the one with the 🂠 button).
    fn table(&self) -> Msg {
        self.public()
            .into_iter()
            .rev()
            .find(|m| m.buttons.iter().any(|(l, _)| l == "🂠"))
            .expect("a table message")
    }

    /// The newest hand message of a person: their DM, or their newest ephemeral hand.
    fn hand(&self, who: &Person) -> Option<Msg> {
        let dm = self.fake.dms(who.id).into_iter().last();
        dm.or_else(|| {
            self.fake
                .channel(CHANNEL)
                .into_iter()
                .rev()
                .find(|m| m.ephemeral_for == Some(who.id) && m.text.contains("Your cards"))
        })
    }

    /// Whoever of Anna and Bruno is to act first, the other, and the hand they act on: waits
    /// for a hand with buttons (up to 30 s, which only a failing test waits out) and fails if
    /// none comes, or if both have one.
    async fn first_to_act(&self) -> (Person, Person, Msg) {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
        loop {
            let with_buttons = |p: &Person| self.hand(p).filter(|h| !h.buttons.is_empty());
            match (with_buttons(&self.anna), with_buttons(&self.bruno)) {
                (Some(h), None) => return (self.anna.clone(), self.bruno.clone(), h),
                (None, Some(h)) => return (self.bruno.clone(), self.anna.clone(), h),
                (Some(a), Some(b)) => panic!("both Anna and Bruno may act: {a:#?} {b:#?}"),
                (None, None) => {}
            }
            assert!(
                std::time::Instant::now() < deadline,
                "neither Anna nor Bruno got a hand with buttons: {:#?}",
                self.fake.state.log.lock().unwrap()
            );
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
    }

    /// Notices in the channel that Cilda's direct messages are closed.
    fn closed_notices(&self) -> usize {
        self.public()
            .iter()
            .filter(|m| m.text.contains("<@1003>: your direct messages are closed"))
            .count()
    }

    fn results(&self) -> usize {
        self.public()
            .iter()
            .filter(|m| m.text.starts_with("Result of deal"))
            .count()
    }

    /// The hosts of the processes (one, or two splitting the shards).
    fn hosts(&self) -> Vec<Arc<stikis_host::Host>> {
        let mut hosts = vec![self.running().bot.host.clone()];
        if let Some(other) = &self.other {
            hosts.push(other.bot.host.clone());
        }
        hosts
    }

    /// `Privacy::scan` of what was shown since the last check.
    async fn privacy(&mut self) -> Compared {
        let hosts = self.hosts();
        self.privacy.scan(&self.fake, &hosts).await
    }

    /// `Privacy::check` of what was shown since the last check.
    async fn check_privacy(&mut self) {
        let hosts = self.hosts();
        self.privacy.check(&self.fake, &hosts).await;
    }

    /// Checks what is left to check, then `Privacy::assert_compared`.
    async fn assert_privacy_checked(&mut self) {
        self.check_privacy().await;
        self.privacy.assert_compared();
    }

    /// Opens the table (Anna, Bruno, Cilda) and starts it.
    async fn open(&mut self) {
        let mut admin = Person::new(1009, "Admin");
        admin.perms = MANAGE_GUILD;
        // Server settings need Manage Server.
        let r = self
            .slash(
                &self.dora.clone(),
                "settings",
                json!([{"name": "turn_limit", "type": 4, "value": 0}]),
            )
            .await;
        assert_eq!(r, "Only the table's creator or an admin may do that.");
        let r = self
            .slash(&admin, "lang", json!([{"name": "language", "type": 4, "value": 1}, {"name": "scope", "type": 4, "value": 1}]))
            .await;
        assert_eq!(r, "Language: English");
        let r = self
            .slash(
                &admin,
                "settings",
                json!([{"name": "turn_limit", "type": 4, "value": 0}]),
            )
            .await;
        assert_eq!(r, "Time per move: no limit");

        let r = self.slash(&self.anna.clone(), "zole", json!([])).await;
        assert!(r.contains("Anna opened a table of Zole"), "{r}");
        let lobby = self.lobby();
        for p in [self.bruno.clone(), self.cilda.clone()] {
            let v = self.press(&p, lobby.id, &Self::button(&lobby, "Join")).await;
            assert!(callback_text(&v).contains("sits down"), "{v}");
        }
        // Only the creator starts.
        let lobby = self.lobby();
        let v = self
            .press(&self.bruno.clone(), lobby.id, &Self::button(&lobby, "Start"))
            .await;
        assert_eq!(
            callback_text(&v),
            "Only the table's creator or an admin may do that."
        );
        let v = self
            .press(&self.anna.clone(), lobby.id, &Self::button(&lobby, "Start"))
            .await;
        assert_eq!(v["type"], 6, "a taken start is acknowledged silently: {v}");
    }

    /// Presses the first legal button of whoever is to act until `results` deals are over
    /// (or `limit` presses). Cilda, whose DMs are closed, asks for her hand with 🂠 first.
    async fn play(&mut self, results: usize, limit: usize) {
        self.play_some(results, limit).await;
        assert!(
            self.results() >= results,
            "the deal did not end in {limit} presses"
        );
    }

    async fn play_some(&mut self, results: usize, limit: usize) {
        for _ in 0..limit {
            if self.results() >= results {
                return;
            }
            let mut acted = false;
            for p in [self.anna.clone(), self.bruno.clone(), self.cilda.clone()] {
                let Some(h) = self.hand(&p) else { continue };
                let Some(token) = choose(&h.buttons) else { continue };
                let v = self.press(&p, h.id, &token).await;
                if std::env::var("TRACE").is_ok() {
                    eprintln!(
                        "{} {:?} -> {}",
                        p.name,
                        h.buttons.iter().find(|b| b.1 == token),
                        v
                    );
                }
                let t = v["type"].as_u64().unwrap();
                assert!(t == 6 || t == 7, "a legal press is taken silently: {v}");
                if p.id == self.cilda.id {
                    self.cilda_moves += 1;
                }
                acted = true;
                break;
            }
            if !acted {
                // Nobody has buttons: Cilda's hand is only reachable through the table.
                let table = self.table();
                if std::env::var("TRACE").is_ok() {
                    eprintln!(
                        "anna {:?}\nbruno {:?}\ntable {:?}\nlog {:?}",
                        self.hand(&self.anna),
                        self.hand(&self.bruno),
                        table.text,
                        self.fake
                            .state
                            .log
                            .lock()
                            .unwrap()
                            .iter()
                            .rev()
                            .take(8)
                            .collect::<Vec<_>>()
                    );
                }
                let v = self
                    .press(&self.cilda.clone(), table.id, &Self::button(&table, "🂠"))
                    .await;
                assert_eq!(v["type"], 4, "{v}");
                assert_eq!(v["data"]["flags"], 64, "the hand is ephemeral: {v}");
                assert!(callback_text(&v).contains("Your cards"), "{v}");
            }
        }
    }
}

/// The privacy checks of one table's public messages, version by version as the fake took
/// them (its history), each against the cards of its deal that are still hidden.
struct Privacy {
    table: i64,
    /// How many versions of the fake's history (every version of every message, text and
    /// buttons) have been looked at.
    checked: usize,
    /// The deal public texts that name none are about: one past the last result shown.
    deal_now: usize,
    /// What the checks compared so far, all together.
    compared: Compared,
}

impl Privacy {
    fn new(table: i64) -> Privacy {
        Privacy {
            table,
            checked: 0,
            deal_now: 1,
            compared: Compared::default(),
        }
    }

    /// Every public version (text, embeds and button labels of a message in a channel or
    /// thread, not an ephemeral answer) shown since the last scan, against the cards of its
    /// deal that are still hidden (hidden sets only shrink, so this never flags a card rightly
    /// shown). With several processes, each is asked and a card counts as hidden only if all
    /// say so (a process behind on the table may still count a played card as hidden).
    /// Returns what it compared and the leaks it found.
    async fn scan(&mut self, fake: &Fake, hosts: &[Arc<stikis_host::Host>]) -> Compared {
        assert!(!hosts.is_empty());
        let history = fake.state.history.lock().unwrap().clone();
        let mut compared = Compared::default();
        for (channel, id, shown, _) in &history[self.checked..] {
            let deal = deal_of(shown).unwrap_or(self.deal_now);
            if shown.starts_with("Result of ") {
                self.deal_now = self.deal_now.max(deal + 1);
            }
            let ephemeral = fake
                .state
                .msgs
                .lock()
                .unwrap()
                .get(id)
                .is_some_and(|m| m.ephemeral_for.is_some());
            if *channel > fake::DM_OFFSET || ephemeral {
                continue;
            }
            let mut hidden: Option<Vec<String>> = None;
            for host in hosts {
                let says = host.hidden_cards(self.table, deal).await;
                hidden = Some(match hidden {
                    None => says,
                    Some(h) => h.into_iter().filter(|c| says.contains(c)).collect(),
                });
            }
            let hidden = hidden.unwrap_or_default();
            compared.versions += 1;
            compared.hidden += hidden.len();
            let labels = card_labels(shown);
            compared.labels += labels.len();
            for card in labels.into_iter().filter(|c| hidden.contains(c)) {
                compared.leaks.push(format!(
                    "deal {deal}: message {id} shows the hidden card {card}:\n{shown}"
                ));
            }
        }
        self.checked = history.len();
        compared
    }

    /// `scan`, failing on any leak; what it compared is added up in `compared`.
    async fn check(&mut self, fake: &Fake, hosts: &[Arc<stikis_host::Host>]) {
        let c = self.scan(fake, hosts).await;
        assert!(c.leaks.is_empty(), "{:#?}", c.leaks);
        self.compared.add(&c);
    }

    /// That the checks of the whole game compared something: public versions, hidden cards,
    /// and card labels found in public messages (the tricks on the table), so a check that
    /// can no longer see a card fails here.
    fn assert_compared(&self) {
        let c = &self.compared;
        eprintln!("privacy checks compared {c:?}");
        assert!(
            c.versions > 4 && c.hidden > 0 && c.labels > 0,
            "the privacy checks compared too little: {c:?}"
        );
    }
}

/// What privacy checks compared: public message versions, hidden cards they were checked
/// against (summed over the versions), card labels found in them; and the leaks found.
#[derive(Debug, Default)]
struct Compared {
    versions: usize,
    hidden: usize,
    labels: usize,
    leaks: Vec<String>,
}

impl Compared {
    fn add(&mut self, c: &Compared) {
        self.versions += c.versions;
        self.hidden += c.hidden;
        self.labels += c.labels;
        self.leaks.extend(c.leaks.iter().cloned());
    }
}

/// The card labels a text shows, as the bot writes a card (`stikis_host`'s `card_label`): a
/// rank (`2`-`10`, `J`, `Q`, `K`, `A`) right before a suit symbol (`♣ ♦ ♥ ♠`, the hollow
/// forms read as the same suit), wherever they stand (`Anna 9♣,`, `✓Q♣`, `[10♥]`); and the
/// joker `🃏`.
fn card_labels(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut labels = Vec::new();
    for (i, &c) in chars.iter().enumerate() {
        if c == '🃏' {
            labels.push(c.to_string());
            continue;
        }
        let suit = match c {
            '♣' | '♧' => '♣',
            '♦' | '♢' => '♦',
            '♥' | '♡' => '♥',
            '♠' | '♤' => '♠',
            _ => continue,
        };
        let rank = match (
            i.checked_sub(2).map(|j| chars[j]),
            i.checked_sub(1).map(|j| chars[j]),
        ) {
            (Some('1'), Some('0')) => "10".to_string(),
            (_, Some(r)) if "23456789JQKA".contains(r) => r.to_string(),
            _ => continue,
        };
        labels.push(format!("{rank}{suit}"));
    }
    labels
}

#[test]
fn card_labels_are_found_wherever_the_bot_writes_them() {
    let text = "deal 1 · Anna 9♣, Ilze K♣, Bob A♣\n✓Q♣ ⌁t1\n[10♥] J♦. 7♠; ♥ trumps 🃏 10 ♠";
    assert_eq!(
        card_labels(text),
        ["9♣", "K♣", "A♣", "Q♣", "10♥", "J♦", "7♠", "🃏"]
    );
    // Every label the host writes is found as itself, next to a letter or not.
    let deck: Vec<_> = stikis_core::cards::FULL_PACK.iter().collect();
    assert_eq!(deck.len(), 52);
    for card in deck {
        let label = stikis_host::games::zole::card_label(card);
        assert_eq!(card_labels(&format!("x{label}y")), vec![label], "{card:?}");
    }
}

/// The button a test player presses: "Take" while bidding (so the deal is played out), never
/// an already chosen card to bury (that would undo it), otherwise the first.
fn choose(buttons: &[(String, String)]) -> Option<String> {
    buttons
        .iter()
        .find(|(l, _)| l.starts_with("Take"))
        .or_else(|| buttons.iter().find(|(l, _)| !l.starts_with('✓')))
        .map(|(_, t)| t.clone())
}

/// The deal a public text is about ("… deal N …"), if it names one.
fn deal_of(text: &str) -> Option<usize> {
    let lower = text.to_lowercase();
    let i = lower.find("deal ")?;
    lower[i + 5..]
        .split(|c: char| !c.is_ascii_digit())
        .next()?
        .parse()
        .ok()
}

fn db(dir: &tempfile::TempDir, name: &str) -> String {
    dir.path().join(name).to_str().unwrap().to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_people_play_a_deal_by_buttons_and_no_hidden_card_is_shown() {
    three_people_play_a_deal(false).await;
}

/// The same game with interactions posted to the interactions endpoint: every press is
/// answered in the reply to its post (no callback call), commands by a callback call.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_people_play_a_deal_through_the_interactions_endpoint() {
    let (fake, presses) = three_people_play_a_deal(true).await;
    let routes = fake.routes();
    let replied: u64 = routes
        .iter()
        .filter(|(r, _)| r.starts_with("(reply to the post)"))
        .map(|(_, n)| n)
        .sum();
    assert_eq!(replied, presses as u64, "{routes:#?}");
    for t in [6, 7] {
        assert_eq!(
            routes.get(&format!("POST interaction callback type {t}")),
            None,
            "a press was answered by a call: {routes:#?}"
        );
    }
    // Slash commands were accepted (202) and answered by poise's callback calls.
    assert!(routes
        .get("POST interaction callback type 4")
        .is_some_and(|&n| n >= 4));
    let posted = fake.state.posted.lock().unwrap().clone();
    assert!(posted.iter().all(|&c| c == 200 || c == 202), "{posted:?}");
    assert!(posted.contains(&202) && posted.contains(&200));
}

/// A command posted to the endpoint while the bot is still starting (READY seen, its commands
/// not yet registered, so poise has no context to run it in) waits for the start and is
/// answered, instead of being refused with 503 ("This interaction failed").
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_command_posted_while_the_bot_starts_is_answered() {
    let dir = tempfile::tempdir().unwrap();
    let fake = Fake::start().await;
    let (release, held) = tokio::sync::oneshot::channel();
    *fake.state.hold_registration.lock().unwrap() = Some(held);
    let bot = stikis_discord::start(fake.endpoint_config(&db(&dir, "s.db")))
        .await
        .unwrap();
    for _ in 0..2000 {
        if fake.routes().contains_key("PUT commands") {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
    assert!(
        fake.routes().contains_key("PUT commands"),
        "the bot never registered"
    );
    let anna = Person::new(1001, "Anna");
    let answered = fake.slash(&anna, CHANNEL, "zole", json!([]));
    let started = async {
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        release.send(()).unwrap();
    };
    let (v, ()) = tokio::join!(answered, started);
    assert!(callback_text(&v).contains("Anna opened a table of Zole"), "{v}");
    assert_eq!(fake.state.posted.lock().unwrap().clone(), vec![202]);
    bot.bot.settle().await;
}

/// Discord's checks of an endpoint: PING gets PONG, a post not signed with the
/// application's key is refused with 401, a signed post that is no interaction with 400.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_interactions_endpoint_answers_ping_and_refuses_unsigned_posts() {
    let dir = tempfile::tempdir().unwrap();
    let g = Play::start_with(&db(&dir, "p.db"), true).await;
    let listen = g.running().bot.config.interactions.clone().unwrap().listen;
    let url = format!("http://{listen}/interactions");
    let ping = json!({"id": "1", "application_id": fake::APP.to_string(), "type": 1,
        "token": "ping-token", "version": 1});
    let (status, reply) = fake::post_interaction(&url, &ping, true).await;
    assert_eq!((status, reply), (200, Some(json!({"type": 1}))));
    let (status, _) = fake::post_interaction(&url, &ping, false).await;
    assert_eq!(status, 401);
    let (status, _) = fake::post_interaction(&url, &json!({"hello": 1}), true).await;
    assert_eq!(status, 400);
    // A press still works after the refusals.
    let r = g.slash(&g.anna.clone(), "zole", json!([])).await;
    assert!(r.contains("Anna opened a table of Zole"), "{r}");
    let lobby = g.lobby();
    let v = g
        .fake
        .press(&g.bruno, lobby.id, &Play::button(&lobby, "Join"))
        .await;
    assert!(callback_text(&v).contains("sits down"), "{v}");
    assert!(g
        .fake
        .routes()
        .contains_key("(reply to the post) response type 4"));
    g.running().bot.settle().await;
}

/// The fake is as strict as Discord about an interaction's first response: one only (a
/// second is refused with 40060), and only within 3 s of sending the interaction (after that,
/// 10062 "Unknown interaction", and the person was told "This interaction failed").
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_fake_takes_one_first_response_within_three_seconds() {
    let fake = Fake::start().await;
    // An endpoint that takes the post and never answers it.
    let silent = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    fake.use_endpoint(&format!("http://{}/interactions", silent.local_addr().unwrap()));
    tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((c, _)) = silent.accept().await {
            held.push(c);
        }
    });
    let anna = Person::new(501, "Anna");
    let callback = |iid: u64| {
        let url = format!("{}/api/v10/interactions/{iid}/itok-{iid}/callback", fake.url);
        async move {
            let r = reqwest::Client::new()
                .post(url)
                // Deferred: a command's first response that shows nothing yet.
                .json(&json!({"type": 5}))
                .send()
                .await
                .unwrap();
            let status = r.status().as_u16();
            let body: Value = r.json().await.unwrap_or(Value::Null);
            (status, body["code"].as_u64())
        }
    };
    let first = fake.slash_nowait(&anna, CHANNEL, "zole", json!([]));
    assert_eq!(callback(first).await, (204, None), "in time");
    assert_eq!(callback(first).await, (400, Some(40060)), "a second response");
    let late = fake.slash_nowait(&anna, CHANNEL, "zole", json!([]));
    tokio::time::sleep(std::time::Duration::from_millis(
        fake::RESPONSE_WINDOW_MS as u64 + 200,
    ))
    .await;
    assert_eq!(callback(late).await, (404, Some(10062)), "after 3 s");
}

/// Returns the fake and the number of presses.
async fn three_people_play_a_deal(endpoint: bool) -> (Fake, usize) {
    let dir = tempfile::tempdir().unwrap();
    let mut g = Play::start_with(&db(&dir, "a.db"), endpoint).await;
    g.open().await;

    // Cilda's DMs are refused; she is told so in the channel.
    assert!(g.fake.state.dm_refusals.load(Ordering::Relaxed) > 0);
    assert!(g
        .public()
        .iter()
        .any(|m| m.text.contains("<@1003>: your direct messages are closed")));
    assert!(g.fake.dms(1003).is_empty());

    // Bad presses, with whoever is to act among Anna and Bruno (the deals are seeded: one of
    // them bids first), once their hand has come.
    let (actor, idle, h) = g.first_to_act().await;
    let token = h.buttons[0].1.clone();
    let v = g.press(&g.dora.clone(), h.id, &token).await;
    assert_eq!(callback_text(&v), "You are not playing at this table.");
    assert_eq!(v["data"]["flags"], 64);
    let v = g.press(&idle, h.id, &token).await;
    assert_eq!(callback_text(&v), "It is not your turn.");
    let v = g.press(&actor, h.id, &token).await;
    assert_eq!(
        v["type"], 7,
        "the pressed hand is redrawn by the answer itself: {v}"
    );
    let v = g.press(&actor, h.id, &token).await;
    assert_eq!(
        callback_text(&v),
        "That button is out of date; use the newest message."
    );
    assert_eq!(v["data"]["flags"], 64);
    let v = g.press(&g.dora.clone(), g.table().id, "garbage").await;
    assert_eq!(callback_text(&v), "That button is not valid.");

    g.play(1, 400).await;

    // One table message for deal 1, edited in place many times.
    let deal1: Vec<Msg> = g
        .public()
        .into_iter()
        .filter(|m| m.text.contains("deal 1 ·"))
        .collect();
    assert_eq!(deal1.len(), 1, "{deal1:#?}");
    assert!(deal1[0].versions.len() > 10, "{:#?}", deal1[0].versions);
    // Anna's and Bruno's hands: one DM per deal (deal 2 has begun), edited in place.
    for p in [1001, 1002] {
        let dms = g.fake.dms(p);
        assert_eq!(dms.len(), 2, "{dms:#?}");
        assert!(dms[0].versions.len() > 2);
        assert!(dms[0]
            .versions
            .iter()
            .all(|v| v.contains("Your cards") || v.contains("sit")));
    }
    // Cilda played through ephemeral hands only.
    assert!(g.fake.dms(1003).is_empty());
    assert!(g
        .fake
        .channel(CHANNEL)
        .iter()
        .any(|m| m.ephemeral_for == Some(1003) && m.versions.len() > 1));

    // The record, attached to the answer, replays.
    let (file, replayed) = g.record().await;
    let rec: Value = serde_json::from_str(&file).unwrap();
    assert_eq!(rec["game"], "zole");
    assert_eq!(rec["players"], json!(["Anna", "Bruno", "Cilda"]));
    assert!(!replayed["deals"].as_array().unwrap().is_empty(), "{replayed}");
    g.assert_privacy_checked().await;
    g.fake.assert_nothing_refused();
    g.bot.take().unwrap().shutdown().await;
    (g.fake, g.presses)
}

/// Shows `text` and `buttons` (label, custom id) on message `id` of `channel` through the
/// fake's REST API, as the bot would edit it.
async fn show_on(fake: &Fake, channel: u64, id: u64, text: &str, buttons: &[(String, String)]) {
    let rows: Vec<Value> = buttons
        .chunks(5)
        .map(|row| {
            let row: Vec<Value> = row
                .iter()
                .map(|(l, c)| json!({"type": 2, "style": 2, "label": l, "custom_id": c}))
                .collect();
            json!({"type": 1, "components": row})
        })
        .collect();
    let r = reqwest::Client::new()
        .patch(format!("{}/api/v10/channels/{channel}/messages/{id}", fake.url))
        .json(&json!({"embeds": [{"description": text}], "components": rows}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 200, "{:?}", r.text().await);
}

/// The privacy check bites: a real public table message, mid-trick, copied with a card that
/// is still hidden put into its text (in place of a card the table shows), or into a button
/// label, is reported; the real message itself is not, and is seen to show cards. The same
/// card in a direct message (a hand, which only its owner sees) is not a leak.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_privacy_check_reports_a_hidden_card_leaked_into_a_public_message() {
    let dir = tempfile::tempdir().unwrap();
    let mut g = Play::start(&db(&dir, "leak.db")).await;
    g.open().await;
    // Until the table shows a card of a trick.
    for _ in 0..40 {
        if !card_labels(&g.table().text).is_empty() {
            break;
        }
        g.play_some(1, 1).await;
    }
    let table = g.table();
    let shown = card_labels(&table.text);
    assert!(!shown.is_empty(), "no card on the table: {}", table.text);
    assert_eq!(g.results(), 0, "mid-deal");
    g.check_privacy().await;
    assert!(g.privacy.compared.labels > 0, "{:?}", g.privacy.compared);
    let hidden = g.running().bot.host.hidden_cards(TABLE, 1).await;
    let card = hidden.first().expect("hidden cards mid-deal").clone();
    assert!(!shown.contains(&card));

    // In the text.
    let leaked = table.text.replacen(&shown[0], &card, 1);
    show_on(&g.fake, CHANNEL, table.id, &leaked, &table.buttons).await;
    let c = g.privacy().await;
    assert_eq!(c.versions, 1, "{c:?}");
    assert_eq!(c.leaks.len(), 1, "{c:?}");
    assert!(c.leaks[0].contains(&format!("hidden card {card}")), "{c:?}");

    // In a button label.
    let mut buttons = table.buttons.clone();
    buttons.push((format!("✓{card}"), "leak".into()));
    show_on(&g.fake, CHANNEL, table.id, &table.text, &buttons).await;
    let c = g.privacy().await;
    assert_eq!(c.leaks.len(), 1, "{c:?}");
    assert!(c.leaks[0].contains(&format!("hidden card {card}")), "{c:?}");

    // The real message again: nothing.
    show_on(&g.fake, CHANNEL, table.id, &table.text, &table.buttons).await;
    let c = g.privacy().await;
    assert_eq!((c.versions, c.leaks.len()), (1, 0), "{c:?}");

    // A hand in a direct message shows its owner's cards: not public.
    let dm = g.fake.dms(g.anna.id).pop().expect("Anna's hand");
    show_on(
        &g.fake,
        dm.channel,
        dm.id,
        &format!("{}\n{card}", dm.text),
        &dm.buttons,
    )
    .await;
    let c = g.privacy().await;
    assert_eq!((c.versions, c.leaks.len()), (0, 0), "{c:?}");
    g.bot.take().unwrap().shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_mid_deal_edits_the_same_messages_and_finishes_the_deal() {
    let dir = tempfile::tempdir().unwrap();
    let path = db(&dir, "r.db");
    let mut g = Play::start(&path).await;
    g.open().await;
    g.play_some(1, 12).await;
    assert_eq!(g.results(), 0, "the restart is mid-deal");
    let before = g.public().iter().filter(|m| m.text.contains("deal 1 ·")).count();
    assert_eq!(before, 1);
    let table_id = g.table().id;
    let anna_dm = g.fake.dms(1001)[0].id;
    let versions = g.table().versions.len();

    let refusals = g.fake.state.dm_refusals.load(Ordering::Relaxed);
    let notices = g.closed_notices();
    let cilda_moves = g.cilda_moves;

    g.restart(&path).await;
    // Who has closed direct messages is kept in memory only: the restarted bot learns it
    // again from the first refused hand (one more 50007) and says so again, so Cilda is never
    // left without her hand.
    assert!(g.fake.state.dm_refusals.load(Ordering::Relaxed) > refusals);
    // The notice follows the refusal (a busy machine may show it after the settle).
    for _ in 0..100 {
        if g.closed_notices() > notices {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(g.closed_notices(), notices + 1);
    // The restarted bot refreshed the same table message (its id came from the database).
    let after: Vec<Msg> = g
        .public()
        .into_iter()
        .filter(|m| m.text.contains("deal 1 ·"))
        .collect();
    assert_eq!(after.len(), 1, "{after:#?}");
    assert_eq!(after[0].id, table_id);
    assert!(
        after[0].versions.len() > versions,
        "recovery edits the table message"
    );
    assert_eq!(g.fake.dms(1001)[0].id, anna_dm);
    assert_eq!(g.fake.dms(1001).len(), 1, "no second DM for the same deal");

    g.play(1, 400).await;
    assert_eq!(
        g.public().iter().filter(|m| m.text.contains("deal 1 ·")).count(),
        1
    );
    assert!(
        g.cilda_moves > cilda_moves,
        "Cilda played on after the restart through her ephemeral hand"
    );
    g.assert_privacy_checked().await;
    g.fake.assert_nothing_refused();
    g.bot.take().unwrap().shutdown().await;
}

/// A process killed after posting a deal's result and before keeping its id leaves its claim
/// behind, and the process that takes the table over posts the result again: with the same
/// nonce, which Discord enforces, so the channel still shows it once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_result_whose_poster_died_before_keeping_its_id_is_not_shown_twice() {
    let dir = tempfile::tempdir().unwrap();
    let path = db(&dir, "n.db");
    let mut g = Play::start(&path).await;
    g.open().await;
    g.play(1, 400).await;
    assert_eq!(g.results(), 1);
    // The result's row as a process killed between posting and keeping the id leaves it: its
    // claim to post, long lapsed.
    let store = stikis_host::store::Store::open_sqlite(&path).await.unwrap();
    let key = stikis_host::table::result_key(TABLE, 1);
    let channel = CHANNEL.to_string();
    store
        .set_message_ref(
            stikis_host::store::Platform::Discord,
            &key,
            &channel,
            "sending:1:p1-gone",
        )
        .await
        .unwrap();
    drop(store);
    let repeats = g.fake.state.nonce_repeats.load(Ordering::Relaxed);

    g.restart(&path).await;
    // The restarted process owes the result as far as the database says, and posts it again.
    for _ in 0..200 {
        if g.fake.state.nonce_repeats.load(Ordering::Relaxed) > repeats {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(g.fake.state.nonce_repeats.load(Ordering::Relaxed), repeats + 1);
    assert_eq!(g.results(), 1, "{:#?}", g.public());
    g.assert_privacy_checked().await;
    g.fake.assert_nothing_refused();
    g.bot.take().unwrap().shutdown().await;
}

/// The custom id of the first button of the first message that has any (the lobby loses its
/// buttons when the game starts).
fn first_button(msgs: &[fake::Msg]) -> String {
    msgs.iter()
        .find_map(|m| m.buttons.first().map(|b| b.1.clone()))
        .expect("a message with buttons")
}

/// The table a button belongs to.
fn table_of(custom_id: &str) -> i64 {
    stikis_host::token::Token::decode(custom_id)
        .expect("a host token")
        .table
}

/// The custom ids of the buttons of every version of every message shown in `channel`.
fn buttons_shown(fake: &Fake, channel: u64) -> Vec<String> {
    fake.state
        .history
        .lock()
        .unwrap()
        .iter()
        .filter(|(c, ..)| *c == channel)
        .flat_map(|(_, _, shown, _)| {
            let ids: Vec<String> = shown
                .lines()
                .filter_map(|l| l.split_once(" ⌁").map(|(_, id)| id.to_string()))
                .collect();
            ids
        })
        .collect()
}

/// Presses `who`'s newest legal hand button, if they have one ("Take" while bidding, never an
/// already chosen card to bury). True if a move was taken.
async fn press_hand(fake: &Fake, who: &Person) -> bool {
    let Some(h) = fake.dms(who.id).into_iter().last() else {
        return false;
    };
    let Some(token) = choose(&h.buttons) else {
        return false;
    };
    let v = fake.press(who, h.id, &token).await;
    let t = v["type"].as_u64().unwrap();
    t == 6 || t == 7
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_tables_in_threads_of_one_channel_stay_apart() {
    let dir = tempfile::tempdir().unwrap();
    let fake = Fake::start().await;
    let running = stikis_discord::start(fake.config(&db(&dir, "t.db")))
        .await
        .unwrap();
    fake.wait_ready(1).await;
    let bot = running.bot.clone();
    let anna = Person::new(1001, "Anna");
    let bruno = Person::new(1002, "Bruno");

    // Both open a table in the same channel, each in a thread of its own.
    for p in [&anna, &bruno] {
        let v = fake
            .slash(
                p,
                CHANNEL,
                "zole",
                json!([{"name": "thread", "type": 5, "value": true}]),
            )
            .await;
        assert!(callback_text(&v).contains("opened a table"), "{v}");
    }
    bot.settle().await;
    let threads = fake.threads();
    assert_eq!(threads.len(), 2, "{threads:?}");
    assert!(threads.iter().all(|(_, parent, _)| *parent == CHANNEL));
    let thread_of = |name: &str| {
        threads
            .iter()
            .find(|(_, _, n)| n.contains(name))
            .unwrap_or_else(|| panic!("no thread named for {name}: {threads:?}"))
            .0
    };
    let (ta, tb) = (thread_of("Anna"), thread_of("Bruno"));
    assert_ne!(ta, tb);
    let public = |thread: u64| -> Vec<Msg> {
        fake.channel(thread)
            .into_iter()
            .filter(|m| m.ephemeral_for.is_none())
            .collect()
    };

    // Each fills its table with two computer players (pressed in its own thread) and starts.
    for (p, thread) in [(&anna, ta), (&bruno, tb)] {
        for label in ["Add computer player", "Add computer player", "Start"] {
            let lobby = public(thread)
                .into_iter()
                .find(|m| m.buttons.iter().any(|(l, _)| l == "Join"))
                .expect("a lobby in the thread");
            fake.press(p, lobby.id, &Play::button(&lobby, label)).await;
            bot.settle().await;
        }
    }

    // Both deals are played at once, a move at a time at each table.
    let results = |thread: u64| {
        public(thread)
            .iter()
            .filter(|m| m.text.starts_with("Result of deal"))
            .count()
    };
    for _ in 0..200 {
        if results(ta) >= 1 && results(tb) >= 1 {
            break;
        }
        let a = press_hand(&fake, &anna).await;
        let b = press_hand(&fake, &bruno).await;
        bot.settle().await;
        if !a && !b {
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        }
    }
    assert_eq!(results(ta), 1, "Anna's deal ended in her thread");
    assert_eq!(results(tb), 1, "Bruno's deal ended in his thread");

    // Nothing public in the channel itself (only the two ephemeral answers to the commands).
    let parent = fake.channel(CHANNEL);
    assert!(parent.iter().all(|m| m.ephemeral_for.is_some()), "{parent:#?}");
    assert_eq!(parent.len(), 2);

    // Nothing of one table shows in the other: names, and buttons of the other table.
    let table_a = table_of(&first_button(&public(ta)));
    let table_b = table_of(&first_button(&public(tb)));
    assert_ne!(table_a, table_b);
    for (thread, own, other, stranger) in [(ta, table_a, table_b, "Bruno"), (tb, table_b, table_a, "Anna")] {
        let msgs = public(thread);
        assert!(msgs.len() >= 4, "lobby, table, results in the thread: {msgs:#?}");
        for m in &msgs {
            for v in &m.versions {
                assert!(!v.contains(stranger), "{stranger} shows in the other thread: {v}");
            }
        }
        // The buttons of every version shown in the thread (the lobby's, the table's).
        let ids = buttons_shown(&fake, thread);
        assert!(ids.len() > 4, "{ids:?}");
        for id in &ids {
            assert_eq!(table_of(id), own, "a button of table {other} in the wrong thread");
        }
    }
    // Each person's hands are of their own table only: every button of every version.
    for (p, own) in [(&anna, table_a), (&bruno, table_b)] {
        let ids = buttons_shown(&fake, p.id + fake::DM_OFFSET);
        assert!(ids.len() > 4, "{ids:?}");
        for id in &ids {
            assert_eq!(table_of(id), own);
        }
    }
    fake.assert_nothing_refused();
    running.shutdown().await;
}

/// Opens a table of a game by its slash command with one person and computer players in
/// the other seats, starts it, and lets the person press pseudo-random buttons of their hand
/// until they have played `cards` cards. Returns the table's record.
async fn one_human_plays(
    command: &str,
    options: Value,
    bots: usize,
    cards: usize,
) -> stikis_core::record::Envelope {
    let dir = tempfile::tempdir().unwrap();
    let fake = Fake::start().await;
    let running = stikis_discord::start(fake.config(&db(&dir, "g.db")))
        .await
        .unwrap();
    fake.wait_ready(1).await;
    let bot = running.bot.clone();
    let anna = Person::new(1001, "Anna");
    let mut admin = Person::new(1009, "Admin");
    admin.perms = MANAGE_GUILD;
    fake.slash(
        &admin,
        CHANNEL,
        "settings",
        json!([{"name": "turn_limit", "type": 4, "value": 0}]),
    )
    .await;

    let v = fake.slash(&anna, CHANNEL, command, options).await;
    assert!(callback_text(&v).contains("Anna opened a table"), "{v}");
    bot.settle().await;
    let public = || -> Vec<Msg> {
        fake.channel(CHANNEL)
            .into_iter()
            .filter(|m| m.ephemeral_for.is_none())
            .collect()
    };
    for label in std::iter::repeat_n("Add computer player", bots).chain(["Start"]) {
        let lobby = public()
            .into_iter()
            .find(|m| m.buttons.iter().any(|(l, _)| l == "Join"))
            .expect("a lobby");
        let v = fake.press(&anna, lobby.id, &Play::button(&lobby, label)).await;
        assert!(v["type"] == 4 || v["type"] == 6, "{v}");
        bot.settle().await;
    }
    let table = table_of(&first_button(&public()));
    let mut privacy = Privacy::new(table);
    let hosts = [bot.host.clone()];
    let played = |rec: &stikis_core::record::Envelope| -> usize {
        rec.deals
            .iter()
            .flat_map(|d| d["actions"].as_array().cloned().unwrap_or_default())
            .filter(|a| a["seat"] == 0 && a.get("play").is_some())
            .count()
    };
    let mut rng: u64 = 7;
    for _ in 0..400 {
        let rec = bot.host.store().record(table).await.unwrap();
        if played(&rec) >= cards {
            break;
        }
        // Computer players move within Anna's presses: whenever the game waits, it waits
        // for her, and her hand shows the buttons of exactly what she may do.
        let h = fake.dms(anna.id).into_iter().last().expect("Anna's hand by DM");
        let choices: Vec<&(String, String)> = h.buttons.iter().filter(|(l, _)| !l.starts_with('✓')).collect();
        assert!(!choices.is_empty(), "Anna is to act and has buttons: {h:#?}");
        rng = rng
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let (_, token) = choices[(rng >> 33) as usize % choices.len()];
        let v = fake.press(&anna, h.id, token).await;
        let t = v["type"].as_u64().unwrap();
        assert!(t == 6 || t == 7, "a legal press is taken silently: {v}");
        bot.settle().await;
        privacy.check(&fake, &hosts).await;
    }
    privacy.assert_compared();
    let rec = bot.host.store().record(table).await.unwrap();
    assert!(played(&rec) >= cards, "Anna played {} cards", played(&rec));
    // The table message is in the channel, edited in place; the hands only by DM.
    let tables: Vec<Msg> = public()
        .into_iter()
        .filter(|m| m.buttons.iter().any(|(l, _)| l == "🂠"))
        .collect();
    assert!(!tables.is_empty() && tables[0].versions.len() > 2, "{tables:#?}");
    // One hand message per deal, edited in place.
    assert_eq!(fake.dms(anna.id).len(), rec.deals.len());
    fake.assert_nothing_refused();
    running.shutdown().await;
    rec
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_belote_table_with_computer_players_and_one_person() {
    // Classic belote (variant index 1) with a target of 201.
    let rec = one_human_plays(
        "belote",
        json!([{"name": "variant", "type": 4, "value": 1}, {"name": "target", "type": 4, "value": 201}]),
        3,
        4,
    )
    .await;
    assert_eq!(rec.game, "belote-classic");
    assert_eq!(rec.rules["target"], 201, "{}", rec.rules);
    assert_eq!(rec.players.len(), 4);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_polt_table_with_computer_players_and_one_person() {
    let rec = one_human_plays(
        "polt",
        json!([{"name": "players", "type": 4, "value": 5}, {"name": "bowers", "type": 5, "value": true}]),
        4,
        4,
    )
    .await;
    assert_eq!(rec.game, "polt");
    assert_eq!(rec.rules["bowers"], true, "{}", rec.rules);
    assert_eq!(rec.players.len(), 5);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bots_own_texts_follow_the_persons_or_the_servers_language() {
    use stikis_host::i18n::{t, Lang};
    let dir = tempfile::tempdir().unwrap();
    let fake = Fake::start().await;
    fake.state.closed_dms.lock().unwrap().insert(1003);
    let running = stikis_discord::start(fake.config(&db(&dir, "l.db")))
        .await
        .unwrap();
    fake.wait_ready(1).await;
    let bot = running.bot.clone();
    let mut admin = Person::new(1009, "Admin");
    admin.perms = MANAGE_GUILD;
    let (anna, bruno, cilda) = (
        Person::new(1001, "Anna"),
        Person::new(1002, "Bruno"),
        Person::new(1003, "Cilda"),
    );
    let slash = |p: &Person, name: &str, options: Value| {
        let (fake, p, name) = (fake.clone(), p.clone(), name.to_string());
        async move { callback_text(&fake.slash(&p, CHANNEL, &name, options).await) }
    };
    // The server speaks Latvian; Bruno chose Russian for himself.
    slash(
        &admin,
        "lang",
        json!([{"name": "language", "type": 4, "value": 0}, {"name": "scope", "type": 4, "value": 1}]),
    )
    .await;
    slash(
        &admin,
        "settings",
        json!([{"name": "turn_limit", "type": 4, "value": 0}]),
    )
    .await;
    slash(
        &bruno,
        "lang",
        json!([{"name": "language", "type": 4, "value": 2}]),
    )
    .await;
    assert_eq!(
        slash(&anna, "help", json!([])).await,
        t(Lang::Lv, "discord-help", &[])
    );
    assert_eq!(
        slash(&bruno, "help", json!([])).await,
        t(Lang::Ru, "discord-help", &[])
    );
    assert_eq!(
        slash(&bruno, "rules", json!([])).await,
        t(Lang::Ru, "discord-rules", &[])
    );
    assert_eq!(
        slash(&admin, "settings", json!([])).await,
        t(Lang::Lv, "discord-settings-help", &[])
    );
    assert_ne!(t(Lang::Lv, "discord-help", &[]), t(Lang::Ru, "discord-help", &[]));

    // Cilda's closed direct messages are announced in her language (the server's).
    slash(&anna, "zole", json!([])).await;
    bot.settle().await;
    let lobby = || {
        fake.channel(CHANNEL)
            .into_iter()
            .find(|m| {
                m.ephemeral_for.is_none()
                    && m.buttons.len() >= 4
                    && stikis_host::token::Token::decode(&m.buttons[0].1).is_ok_and(|t| t.action == "join")
            })
            .expect("a lobby with join, leave, add computer player, start")
    };
    for p in [&bruno, &cilda] {
        let l = lobby();
        fake.press(p, l.id, &l.buttons[0].1).await;
        bot.settle().await;
    }
    let l = lobby();
    fake.press(&anna, l.id, &l.buttons[3].1).await;
    bot.settle().await;
    let notice = t(Lang::Lv, "discord-dm-closed", &[("user", "<@1003>".into())]);
    assert!(
        fake.channel(CHANNEL).iter().any(|m| m.text == notice),
        "{notice}\n{:#?}",
        fake.channel(CHANNEL)
    );
    fake.assert_nothing_refused();
    running.shutdown().await;
}

/// A 4-person tournament of 2 short rounds (one deal a round): `/tournament 2 1`, entries
/// by button, the start, every hand in direct messages, the standings message edited after
/// each round, the final standings, and the tournament's record, which verifies.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn four_people_play_a_tournament_of_two_short_rounds() {
    let dir = tempfile::tempdir().unwrap();
    let fake = Fake::start().await;
    let bot = stikis_discord::start(fake.config(&db(&dir, "tournament.db")))
        .await
        .unwrap();
    fake.wait_ready(1).await;
    let mut admin = Person::new(1009, "Admin");
    admin.perms = MANAGE_GUILD;
    let people: Vec<Person> = ["Anna", "Bruno", "Cilda", "Dora"]
        .iter()
        .enumerate()
        .map(|(i, n)| Person::new(1001 + i as u64, n))
        .collect();
    let slash = |p: &Person, name: &str, options: Value| {
        let (fake, p, name) = (&fake, p.clone(), name.to_string());
        async move { callback_text(&fake.slash(&p, CHANNEL, &name, options).await) }
    };
    let options = |s: &str| json!([{"name": "options", "type": 3, "value": s}]);
    slash(
        &admin,
        "settings",
        json!([{"name": "turn_limit", "type": 4, "value": 0}]),
    )
    .await;
    // Opening one takes Manage Server; bad words get the usage.
    let r = slash(&people[0], "tournament", options("2 1")).await;
    assert_eq!(
        r,
        "Only an admin of this chat or the tournament's organiser may do that."
    );
    let r = slash(&admin, "tournament", options("2 1 2 3")).await;
    assert!(r.starts_with("A tournament is opened as /tournament"), "{r}");
    let r = slash(&admin, "tournament", options("2 1")).await;
    assert_eq!(r, "Admin opens a Zole tournament.");
    bot.bot.settle().await;
    let message = |fake: &Fake| {
        fake.channel(CHANNEL)
            .into_iter()
            .find(|m| m.text.starts_with("🏆 Zole tournament"))
            .expect("the tournament message")
    };
    let m = message(&fake);
    let join = Play::button(&m, "Join");
    for p in &people {
        let v = fake.press(p, m.id, &join).await;
        assert_eq!(callback_text(&v), format!("{} has entered.", p.name));
    }
    bot.bot.settle().await;
    let m = message(&fake);
    assert!(
        m.text.contains("Entered (4): Anna, Bruno, Cilda, Dora"),
        "{}",
        m.text
    );
    let v = fake.press(&people[1], m.id, &Play::button(&m, "Start")).await;
    assert_eq!(
        callback_text(&v),
        "Only an admin of this chat or the tournament's organiser may do that."
    );
    fake.press(&admin, m.id, &Play::button(&m, "Start")).await;
    bot.bot.settle().await;
    let over = |fake: &Fake| {
        fake.channel(CHANNEL)
            .iter()
            .any(|m| m.text.starts_with("🏆 The tournament is over."))
    };
    let mut presses = 0;
    let mut idle = 0;
    while !over(&fake) {
        assert!(presses < 2000, "the tournament did not end");
        let mut acted = false;
        for p in &people {
            let hand = fake.dms(p.id).into_iter().rev().find(|m| !m.buttons.is_empty());
            let Some(h) = hand else { continue };
            let Some(token) = choose(&h.buttons) else { continue };
            fake.press(p, h.id, &token).await;
            bot.bot.settle().await;
            presses += 1;
            acted = true;
            break;
        }
        if !acted {
            // The next round is opened in a task of its own.
            idle += 1;
            assert!(idle < 200, "nobody can act and the tournament is not over");
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
            bot.bot.settle().await;
        }
    }
    // Each person was told their table and seat in both rounds.
    for p in &people {
        let told = fake
            .dms(p.id)
            .iter()
            .filter(|m| m.text.contains("you play at table 1, seat"))
            .count();
        assert_eq!(told, 2, "{}", p.name);
    }
    let m = message(&fake);
    assert!(m.text.contains("Standings after round 2 of 2"), "{}", m.text);
    assert!(m.buttons.is_empty(), "a finished tournament has no buttons");
    // No hand reached the channel: no public message shows "Your cards".
    assert!(fake
        .channel(CHANNEL)
        .iter()
        .filter(|m| m.ephemeral_for.is_none())
        .all(|m| m.versions.iter().all(|v| !v.contains("Your cards"))));
    // The record, attached to the answer, verifies.
    let v = fake
        .slash(&people[2], CHANNEL, "tournament", options("record"))
        .await;
    assert_eq!(v["type"], 4);
    let file = fake
        .channel(CHANNEL)
        .into_iter()
        .rev()
        .find_map(|m| m.file)
        .expect("a record file");
    let rec: stikis_core::tournament::TournamentRecord = serde_json::from_str(&file).unwrap();
    assert_eq!(rec.rounds.len(), 2);
    stikis_core::tournament::verify(&rec).expect("the record verifies");
    fake.assert_nothing_refused();
    bot.shutdown().await;
}

/// Two processes on one database split the bot's two gateway shards (`--shards 0/2` and
/// `--shards 1-1/2`): the server's commands and table buttons reach one, the hands' buttons in
/// direct messages the other, and together they play a deal to its end on one set of messages.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_split_the_shards_and_play_one_table() {
    let dir = tempfile::tempdir().unwrap();
    let db = db(&dir, "a.db");
    let mut g = Play::start_sharded(&db).await;
    let identified = g.fake.state.identified.lock().unwrap().clone();
    assert_eq!(&identified[identified.len() - 2..], &[(0, 2), (1, 2)]);
    g.open().await;
    g.play(1, 400).await;
    let dispatched = g.fake.state.dispatched.lock().unwrap().clone();
    assert!(
        dispatched.get(&0).is_some_and(|&n| n > 5) && dispatched.get(&1).is_some_and(|&n| n > 5),
        "both shards took interactions: {dispatched:?}"
    );
    // One table message for deal 1 and one hand message per person with direct messages,
    // edited in place by both processes.
    let deal1: Vec<Msg> = g
        .public()
        .into_iter()
        .filter(|m| m.text.contains("deal 1 ·"))
        .collect();
    assert_eq!(deal1.len(), 1, "{deal1:#?}");
    assert!(deal1[0].versions.len() > 10, "{:#?}", deal1[0].versions);
    for p in [1001, 1002] {
        let dms = g.fake.dms(p);
        assert_eq!(dms.len(), 2, "one hand per deal: {dms:#?}");
    }
    assert_eq!(g.results(), 1, "the result is posted once");
    // The record, asked in the server (the other process), replays.
    g.record().await;
    g.assert_privacy_checked().await;
    g.fake.assert_nothing_refused();
    g.other.take().unwrap().shutdown().await;
    g.bot.take().unwrap().shutdown().await;
}

/// Two processes edit one table message: an edit one of them waits to send (the channel's
/// pacing) is not sent once the other has shown a newer state of the table.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_older_table_state_never_replaces_a_newer_one_shown_by_another_process() {
    use poise::serenity_prelude as serenity;
    use std::time::Duration;
    use stikis_discord::show::Shower;
    use stikis_host::store::{ChatRef, Platform, Store};
    use stikis_host::{Out, Outbox};
    let dir = tempfile::tempdir().unwrap();
    let fake = Fake::start().await;
    let store = Store::open_sqlite(dir.path().join("renders.db").to_str().unwrap())
        .await
        .unwrap();
    let http = || {
        std::sync::Arc::new(
            serenity::HttpBuilder::new("fake-token")
                .proxy(fake.url.as_str())
                .ratelimiter_disabled(true)
                .build(),
        )
    };
    let a = std::sync::Arc::new(Shower::new(http(), store.clone(), Duration::from_secs(5)));
    let b = std::sync::Arc::new(Shower::new(http(), store.clone(), Duration::ZERO));
    let chat = ChatRef::new(Platform::Discord, "500", CHANNEL.to_string());
    let state = |v: i64| {
        Outbox(vec![Out::Public {
            chat: chat.clone(),
            key: "t1.d1".into(),
            text: format!("state {v}"),
            buttons: Vec::new(),
            version: v,
        }])
    };
    a.show(&state(1)).await;
    while fake.channel(CHANNEL).is_empty() {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    // Process A showed the table a moment ago: its next edit waits for the channel's slot.
    a.show(&state(2)).await;
    // Process B, which moved the table on meanwhile, shows the newer state at once.
    b.show(&state(3)).await;
    b.settle().await;
    // A's slot comes: its state 2 is older than the one shown, and is not sent.
    a.settle().await;
    let msgs = fake.channel(CHANNEL);
    assert_eq!(msgs.len(), 1, "one table message");
    assert_eq!(msgs[0].versions, ["state 1", "state 3"]);
    // An older state shown later is not sent either.
    b.show(&state(2)).await;
    b.settle().await;
    assert_eq!(fake.channel(CHANNEL)[0].versions, ["state 1", "state 3"]);

    // A hand likewise: the process that received a handed press shows the presser's hand as
    // their move left it after the table's owner showed a later state of it (a computer
    // moved, the turn came back): the older state is not sent, the hand keeps its buttons.
    let hand = |v: i64| {
        Outbox(vec![Out::Private {
            user: "1001".into(),
            chat: chat.clone(),
            key: "t1.d1.s0".into(),
            text: format!("hand {v}"),
            buttons: vec![vec![stikis_host::Button {
                label: format!("card {v}"),
                token: format!("x{v}"),
                disabled: false,
                card: None,
            }]],
            version: v,
            delivery: stikis_host::HandDelivery::Show,
        }])
    };
    // (Two processes on one SQLite file stand for two on PostgreSQL: the store is told of
    // another live process, or it would skip a hand's claim as nobody else could show it.)
    store.set_live(vec!["another process".into()]);
    b.show(&hand(4)).await;
    b.settle().await;
    b.show(&hand(6)).await;
    b.settle().await;
    a.show(&hand(5)).await;
    a.settle().await;
    let dms = fake.dms(1001);
    assert_eq!(dms.len(), 1, "one hand message");
    assert_eq!(dms[0].versions, ["hand 4", "hand 6"]);
    fake.assert_nothing_refused();
}

/// `/web` and its options through the bot: the link for anyone; `public:<name>` and
/// `private:True` for Manage Server only, told to the channel, listing the server's pages on
/// the site's front page and taking them off again with a new link.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn web_gives_the_link_and_an_admin_makes_the_pages_public_and_private_again() {
    let dir = tempfile::tempdir().unwrap();
    let fake = Fake::start().await;
    let mut config = fake.config(&db(&dir, "web.db"));
    config.host.web_url = Some("https://cards.example.org".into());
    let running = stikis_discord::start(config).await.unwrap();
    fake.wait_ready(1).await;
    let store = running.bot.host.store().clone();
    let mut admin = Person::new(1009, "Admin");
    admin.perms = MANAGE_GUILD;
    let anna = Person::new(1001, "Anna");
    let web = |p: &Person, options: Value| {
        let (fake, p) = (&fake, p.clone());
        async move { callback_text(&fake.slash(&p, CHANNEL, "web", options).await) }
    };
    let public = json!([{"name": "public", "type": 3, "value": "Rīgas klubs"}]);
    let link = web(&anna, json!([])).await;
    assert!(link.contains("https://cards.example.org/c/"), "{link}");
    let r = web(&anna, public.clone()).await;
    assert_eq!(r, "Only the table's creator or an admin may do that.");
    assert!(store.public_communities(10).await.unwrap().is_empty());

    web(&admin, public).await;
    running.bot.settle().await;
    let told = |start: &str| {
        fake.channel(CHANNEL)
            .into_iter()
            .find(|m| m.text.starts_with(start))
            .unwrap_or_else(|| panic!("no {start:?} in the channel"))
            .text
    };
    let on = told("Admin made this community's pages public");
    assert!(on.contains("“Rīgas klubs”"), "{on}");
    let listed = store.public_communities(10).await.unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].0, "Rīgas klubs");
    assert!(link.contains(&listed[0].1), "the listed link is the server's");

    web(&admin, json!([{"name": "private", "type": 5, "value": true}])).await;
    running.bot.settle().await;
    let off = told("Admin took this community's pages off");
    assert!(store.public_communities(10).await.unwrap().is_empty());
    assert!(!off.contains(&listed[0].1), "a new link: {off}");
    fake.assert_nothing_refused();
    running.shutdown().await;
}

/// The person a personal link in `text` is for ("": a watcher's link), checking that `text`
/// starts with `words` and that the link's key is one the bot signed for the table.
fn linked(text: &str, words: &str) -> String {
    let secret = stikis_host::links::play_secret("fake-token");
    let prefix = format!(
        "{WEB_URL}/play/{}?k=",
        stikis_host::links::table_ref(&secret, TABLE)
    );
    assert!(text.starts_with(words), "{text}");
    let at = text
        .find(&prefix)
        .unwrap_or_else(|| panic!("no link in {text:?}"));
    let key: String = text[at + prefix.len()..]
        .chars()
        .take_while(|c| !c.is_whitespace())
        .collect();
    let now_s = stikis_host::store::now_ms() / 1000;
    stikis_host::links::check_play_key(&secret, TABLE, &key, now_s)
        .expect("a key the bot signed for this table")
}

/// `/play` answers with a link to the live table that only the asker sees (an ephemeral
/// answer), signed for the asker's seat; someone without a seat gets a link to watch; no link
/// reaches the channel or anyone's direct messages.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn play_gives_a_personal_link_that_only_the_asker_sees() {
    let dir = tempfile::tempdir().unwrap();
    let db = db(&dir, "play.db");
    let mut g = Play::start_web(&db).await;
    g.open().await;
    for (who, seat, words) in [
        (g.anna.clone(), "1001", "Your seat at the live table"),
        (g.dora.clone(), "", "The live table, to watch"),
    ] {
        let v = g.fake.slash(&who, CHANNEL, "play", json!([])).await;
        assert_eq!(v["data"]["flags"], 64, "only the asker sees it: {v}");
        assert_eq!(linked(&callback_text(&v), words), seat, "{}'s key", who.name);
    }
    g.settle().await;
    let leaked: Vec<fake::Msg> = g
        .fake
        .state
        .msgs
        .lock()
        .unwrap()
        .values()
        .filter(|m| m.ephemeral_for.is_none() && m.versions.iter().any(|t| t.contains("/play/")))
        .cloned()
        .collect();
    assert!(
        leaked.is_empty(),
        "a live-table link outside an ephemeral answer: {leaked:#?}"
    );
    g.fake.assert_nothing_refused();
    g.bot.take().unwrap().shutdown().await;
}

/// The Activity's set-up of the fake's application.
fn activity_config() -> stikis_discord::activity::ActivityConfig {
    stikis_discord::activity::ActivityConfig {
        client_id: fake::APP.to_string(),
        client_secret: fake::activity::CLIENT_SECRET.into(),
    }
}

impl Play {
    /// Started again with the live table served (`--web-listen`) and, with `activity`, as a
    /// Discord Activity; with `endpoint`, interactions are posted to its endpoint.
    async fn restart_served(&mut self, db: &str, activity: bool, endpoint: bool) {
        if let Some(bot) = self.bot.take() {
            bot.shutdown().await;
        }
        self.fake.disconnect();
        let n = self.fake.state.identifies.load(Ordering::Acquire);
        let mut config = if endpoint {
            self.fake.endpoint_config(db)
        } else {
            self.fake.config(db)
        };
        config.host.web_url = Some(WEB_URL.into());
        config.web_listen = Some("127.0.0.1:0".parse().unwrap());
        config.activity = activity.then(activity_config);
        self.bot = Some(stikis_discord::start(config).await.unwrap());
        self.fake.wait_ready(n + 1).await;
    }

    /// The channel's messages that carry "Open the table".
    fn opening(&self) -> Vec<Msg> {
        self.fake
            .channel(CHANNEL)
            .into_iter()
            .filter(|m| m.buttons.iter().any(|(_, id)| id == "open"))
            .collect()
    }
}

/// A running table's message carries "🃏 Open the table": pressed, it gives the presser their
/// personal link (a watcher's to one not seated) in an answer only they see; once the bot runs
/// as an Activity, the same press answers LAUNCH_ACTIVITY and nothing else. A finished deal's
/// message no longer carries the button.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn open_the_table_gives_the_personal_link_or_launches_the_activity() {
    let dir = tempfile::tempdir().unwrap();
    let db = db(&dir, "open.db");
    let mut g = Play::start_web(&db).await;
    g.open().await;
    g.settle().await;
    let opening = g.opening();
    assert_eq!(opening.len(), 1, "the running table's message opens the table");
    let first = opening[0].id;
    let label = opening[0]
        .buttons
        .iter()
        .find(|(_, id)| id == "open")
        .unwrap()
        .0
        .clone();
    assert_eq!(label, "🃏 Open the table");
    for (who, seat, words) in [
        (g.anna.clone(), "1001", "Your seat at the live table"),
        (g.dora.clone(), "", "The live table, to watch"),
    ] {
        let v = g.fake.press(&who, opening[0].id, "open").await;
        assert_eq!(
            (v["type"].clone(), v["data"]["flags"].clone()),
            (json!(4), json!(64)),
            "only the presser sees it: {v}"
        );
        assert_eq!(linked(&callback_text(&v), words), seat, "{}'s key", who.name);
    }
    // The deal is played out: its message opens nothing any more, the next deal's does.
    g.play(1, 300).await;
    g.settle().await;
    let opening = g.opening();
    let live: Vec<&Msg> = opening
        .iter()
        .filter(|m| m.buttons.iter().any(|(_, id)| id == "open"))
        .collect();
    assert_eq!(live.len(), 1, "one message opens the table: {opening:#?}");
    assert!(live[0].id != first, "the finished deal's message keeps no button");

    g.restart_served(&db, true, false).await;
    g.settle().await;
    let msg = g.opening().pop().expect("the table's message still opens it");
    let v = g.fake.press(&g.anna.clone(), msg.id, "open").await;
    assert_eq!(
        (v["type"].clone(), v["data"].clone()),
        (json!(12), Value::Null),
        "LAUNCH_ACTIVITY alone: {v}"
    );
    let log = g.fake.state.answer_log.lock().unwrap().clone();
    assert_eq!(log.last().map(|(_, s)| s.as_str()), Some("LAUNCH_ACTIVITY"));
    // The same in the reply to an interaction posted to the bot's endpoint.
    g.restart_served(&db, true, true).await;
    let msg = g.opening().pop().expect("the table's message still opens it");
    let v = g.fake.press(&g.anna.clone(), msg.id, "open").await;
    assert_eq!(v["type"], 12, "LAUNCH_ACTIVITY in the endpoint's reply: {v}");
    g.fake.assert_nothing_refused();
    g.bot.take().unwrap().shutdown().await;
}

async fn session(addr: std::net::SocketAddr, code: &str, instance: &str) -> (u16, Value) {
    let res = reqwest::Client::new()
        .post(format!("http://{addr}/play/activity/session"))
        .form(&[("code", code), ("instance", instance), ("lang", "en-US")])
        .send()
        .await
        .unwrap();
    let status = res.status().as_u16();
    (status, res.json().await.unwrap())
}

/// The Activity's sign-in against the fake Discord, strict as Discord: Anna's code is
/// exchanged with the client secret, she is read with her token, the instance is checked with
/// the bot's token, and she gets her seat's key at the table of the instance's channel; Dora,
/// in the instance but not seated, a watcher's. A forged, used or expired code, an unknown
/// instance, one she is not in, one in a direct message and one in a server with no table are
/// refused, and nothing changes at the table or in the chat. The page, its root and the SDK
/// are served.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn activity_sign_ins_are_checked_with_discord_and_a_refused_one_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let db = db(&dir, "activity.db");
    let mut g = Play::start(&db).await;
    g.restart_served(&db, true, false).await;
    let addr = g.running().web.as_ref().expect("the web face").addr;
    let (anna, dora) = (g.anna.clone(), g.dora.clone());
    let here = g.fake.launch(Some(fake::GUILD), CHANNEL, &[&anna, &dora]);
    let no_table = t_en("activity-no-table");
    let (s, v) = session(addr, &g.fake.authorize(&anna), &here).await;
    assert_eq!(
        (s, v["error"].as_str().unwrap()),
        (404, no_table.as_str()),
        "no table yet"
    );

    g.open().await;
    g.settle().await;
    let secret = stikis_host::links::play_secret("fake-token");
    let now_s = stikis_host::store::now_ms() / 1000;
    for (who, seat) in [(&anna, "1001"), (&dora, "1004")] {
        let (s, v) = session(addr, &g.fake.authorize(who), &here).await;
        assert_eq!(s, 200, "{v}");
        assert!(v["access_token"].as_str().unwrap().starts_with("at-"), "{v}");
        let tables = v["tables"].as_array().unwrap();
        assert_eq!(tables.len(), 1, "{v}");
        assert_eq!(tables[0]["table"], stikis_host::links::table_ref(&secret, TABLE));
        let key = tables[0]["k"].as_str().unwrap();
        let user = stikis_host::links::check_play_key(&secret, TABLE, key, now_s).unwrap();
        assert_eq!(user, seat);
    }
    assert_eq!(g.fake.codes_exchanged(), 3);

    let store = g.running().bot.host.store().clone();
    let before = store.table_log(TABLE).await.unwrap().actions.len();
    let messages = g.fake.state.msgs.lock().unwrap().len();
    let used = g.fake.authorize(&anna);
    assert_eq!(session(addr, &used, &here).await.0, 200);
    let forged = t_en("play-forged");
    let not_anna = g.fake.launch(Some(fake::GUILD), CHANNEL, &[&dora]);
    let in_dm = g.fake.launch(None, 700, &[&anna]);
    let elsewhere = g.fake.launch(Some(fake::GUILD + 1), 777, &[&anna]);
    for (what, code, instance, status, said) in [
        (
            "a forged code",
            "forged".to_string(),
            here.clone(),
            401,
            forged.clone(),
        ),
        ("a used code", used, here.clone(), 401, forged.clone()),
        (
            "an expired code",
            g.fake.expired_code(&anna),
            here.clone(),
            401,
            forged.clone(),
        ),
        (
            "an unknown instance",
            g.fake.authorize(&anna),
            "i-999-gc-1-2".to_string(),
            401,
            forged.clone(),
        ),
        (
            "an instance she is not in",
            g.fake.authorize(&anna),
            not_anna,
            401,
            forged.clone(),
        ),
        (
            "an instance in a direct message",
            g.fake.authorize(&anna),
            in_dm,
            401,
            forged.clone(),
        ),
        (
            "another server's instance",
            g.fake.authorize(&anna),
            elsewhere,
            404,
            no_table.clone(),
        ),
        (
            "a malformed instance",
            g.fake.authorize(&anna),
            "../../users/@me".to_string(),
            401,
            forged.clone(),
        ),
    ] {
        let (s, v) = session(addr, &code, &instance).await;
        assert_eq!(
            (s, v["error"].as_str().unwrap_or("")),
            (status, said.as_str()),
            "{what}: {v}"
        );
        assert!(
            v.get("access_token").is_none() && v.get("tables").is_none(),
            "{what}: {v}"
        );
    }
    g.settle().await;
    let after = store.table_log(TABLE).await.unwrap().actions.len();
    assert_eq!(after, before, "the refused sign-ins changed nothing at the table");
    assert_eq!(
        g.fake.state.msgs.lock().unwrap().len(),
        messages,
        "nor in the chat"
    );

    // The page (at its own address, and at the root as Discord opens it) and the SDK.
    let get = |path: &str| {
        let url = format!("http://{addr}{path}");
        async move {
            let res = reqwest::get(url).await.unwrap();
            let csp = res
                .headers()
                .get("content-security-policy")
                .map(|v| v.to_str().unwrap().to_string())
                .unwrap_or_default();
            (res.status().as_u16(), csp, res.text().await.unwrap())
        }
    };
    for path in ["/play/activity", "/?frame_id=f1&instance_id=i-1&platform=desktop"] {
        let (s, csp, html) = get(path).await;
        eprintln!("{path}: {} bytes of HTML", html.len());
        assert_eq!(s, 200, "{path}");
        assert!(
            html.contains("id=\"activity\"") && html.contains("data-client=\"4242\""),
            "{path}: {html}"
        );
        assert!(html.contains("data-sdk=\"/static/discord-sdk.mjs\""), "{path}");
        assert!(csp.contains("script-src 'self';"), "{path}: {csp}");
        assert!(
            !html.contains(fake::activity::CLIENT_SECRET),
            "{path}: the secret stays in the bot"
        );
    }
    let (s, _, home) = get("/").await;
    assert!(
        s == 200 && !home.contains("id=\"activity\""),
        "the root without Discord's frame is the front page"
    );
    let (s, _, sdk) = get("/static/discord-sdk.mjs").await;
    assert!(s == 200 && sdk.contains("@discord/embedded-app-sdk 2.5.0") && sdk.contains("DiscordSDK"));
    let (s, _, licences) = get("/static/discord-sdk.LICENSES").await;
    assert!(s == 200 && licences.contains("zod") && licences.contains("MIT"));
    g.fake.assert_nothing_refused();
    g.bot.take().unwrap().shutdown().await;
}

fn t_en(key: &str) -> String {
    stikis_host::i18n::t(stikis_host::i18n::Lang::En, key, &[])
}

/// A bot given the wrong client secret cannot sign anyone in: the person is told to try again
/// (the set-up is wrong, not their code), and the fake notes nothing the bot broke.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wrong_client_secret_answers_try_again() {
    let dir = tempfile::tempdir().unwrap();
    let db = db(&dir, "secret.db");
    let fake = Fake::start().await;
    let mut config = fake.config(&db);
    config.host.web_url = Some(WEB_URL.into());
    config.web_listen = Some("127.0.0.1:0".parse().unwrap());
    config.activity = Some(stikis_discord::activity::ActivityConfig {
        client_secret: "an-old-secret".into(),
        ..activity_config()
    });
    let running = stikis_discord::start(config).await.unwrap();
    fake.wait_ready(1).await;
    let anna = Person::new(1001, "Anna");
    let here = fake.launch(Some(fake::GUILD), CHANNEL, &[&anna]);
    let addr = running.web.as_ref().unwrap().addr;
    let (s, v) = session(addr, &fake.authorize(&anna), &here).await;
    assert_eq!(
        (s, v["error"].as_str().unwrap()),
        (503, t_en("play-platform-unavailable").as_str())
    );
    assert_eq!(fake.codes_exchanged(), 0);
    fake.assert_nothing_refused();
    running.shutdown().await;
}
