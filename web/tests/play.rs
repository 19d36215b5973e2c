//! The live table (`/play`) over real HTTP: three people play Zole through their pages alone,
//! reading the server-sent-events feed and tapping what it draws; the bot restarts mid-deal
//! and the pages go on; then a deal is played with one seat in the chat and two on the page.
//! Every event each page is sent is checked against the cards it must never hold. Keys and
//! Telegram `initData` are checked: forged, expired, altered and other-table credentials are
//! refused and change nothing.

mod activity;
mod adversarial;

use crate::browser;
use crate::common;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use common::*;
use http_body_util::BodyExt;
use stikis_host::i18n::{t, Lang};
use stikis_host::links::{play_key, play_secret};
use stikis_host::store::{ChatRef, Platform, Store};
use stikis_host::{Command, Host, Outbox, User};
use stikis_web::play::PlayConfig;
use tokio::sync::mpsc;

const BOT_TOKEN: &str = "4242:test-token";

/// Table `table`'s name in the live table's addresses.
fn at(table: i64) -> String {
    stikis_host::links::table_ref(&play_secret(BOT_TOKEN), table)
}

fn now_s() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64
}

/// The bot's process: a host on the store, its web face with the live table, and the
/// outboxes the host gives the chat adapter (moves made on the page among them).
struct Bot {
    host: Arc<Host>,
    web: stikis_web::Listening,
    events: mpsc::UnboundedReceiver<Outbox>,
}

async fn start_bot(store: &Store) -> Bot {
    start_bot_at(store, "127.0.0.1:0", "/static/telegram-stub.js").await
}

/// The bot listening on `addr`, its Mini App pages loading Telegram's script from `script`.
async fn start_bot_at(store: &Store, addr: &str, script: &str) -> Bot {
    let (host, events) = Host::new(store.clone(), config());
    host.recover().await.expect("recover");
    let mut play = PlayConfig::new(host.clone(), BOT_TOKEN, true);
    play.telegram_script = script.into();
    // These pages play beside the chat (a seat with its page open plays a deal from the chat
    // too): the chat is sent every hand. Holding them back is tested in the host
    // (`watching`) and the Telegram bot (`everyone_on_the_live_page_…`).
    play.hold_hands = false;
    let web = stikis_web::Listening::start(addr.parse().unwrap(), store.clone(), Some(play))
        .await
        .unwrap();
    Bot { host, web, events }
}

fn client() -> hyper_util::client::legacy::Client<hyper_util::client::legacy::connect::HttpConnector, String>
{
    hyper_util::client::legacy::Client::builder(hyper_util::rt::TokioExecutor::new()).build_http()
}

/// One event of a feed: its name, id (the table's version) and data.
#[derive(Debug, Clone)]
struct Sent {
    event: String,
    id: i64,
    data: String,
}

/// A page's feed, read in a task of its own: every event it is sent, in order.
struct Feed {
    rx: mpsc::UnboundedReceiver<Sent>,
    last: Option<Sent>,
    all: Vec<Sent>,
    /// How many of `all` were handed to a check (`unchecked`).
    checked: usize,
}

/// The deal a page shows ("Deal 3" in its head), if it shows one.
fn deal_of_page(html: &str) -> Option<usize> {
    let p = html.split("<p class=\"deal\">").nth(1)?.split('<').next()?;
    p.chars()
        .filter(|c| c.is_ascii_digit())
        .collect::<String>()
        .parse()
        .ok()
}

async fn open_feed(bot: &Bot, table: i64, key: &str) -> Feed {
    open_feed_in(bot, table, key, "").await
}

/// The feed of a page in language `lang` (as the page asks for it; empty: the viewer's own).
async fn open_feed_in(bot: &Bot, table: i64, key: &str, lang: &str) -> Feed {
    let uri = format!(
        "http://{}/play/{}/events?k={key}&lang={lang}",
        bot.web.addr,
        at(table)
    );
    let res = client()
        .request(
            axum::http::Request::get(uri)
                .header("accept", "text/event-stream")
                .body(String::new())
                .unwrap(),
        )
        .await
        .unwrap();
    assert_eq!(res.status(), 200, "the feed opens");
    let (tx, rx) = mpsc::unbounded_channel();
    let mut body = res.into_body();
    tokio::spawn(async move {
        let mut buf = String::new();
        while let Some(Ok(frame)) = body.frame().await {
            let Ok(bytes) = frame.into_data() else { continue };
            buf.push_str(&String::from_utf8_lossy(&bytes));
            while let Some(end) = buf.find("\n\n") {
                let block: String = buf.drain(..end + 2).collect();
                let mut sent = Sent {
                    event: String::new(),
                    id: -1,
                    data: String::new(),
                };
                let mut data = Vec::new();
                for line in block.lines() {
                    if let Some(e) = line.strip_prefix("event: ") {
                        sent.event = e.to_string();
                    } else if let Some(i) = line.strip_prefix("id: ") {
                        sent.id = i.parse().unwrap_or(-1);
                    } else if let Some(d) = line.strip_prefix("data: ").or(line.strip_prefix("data:")) {
                        data.push(d.to_string());
                    }
                }
                sent.data = data.join("\n");
                if !sent.event.is_empty() && tx.send(sent).is_err() {
                    return;
                }
            }
        }
    });
    Feed {
        rx,
        last: None,
        all: Vec::new(),
        checked: 0,
    }
}

impl Feed {
    /// Waits for the feed to show version `v` or newer; returns its page.
    /// Every view sent is kept in `all`; the caller checks each of them (`check_all`), not
    /// only the one returned.
    async fn at_least(&mut self, v: i64) -> String {
        loop {
            if let Some(s) = &self.last {
                if s.id >= v {
                    return s.data.clone();
                }
            }
            let s = tokio::time::timeout(Duration::from_secs(20), self.rx.recv())
                .await
                .unwrap_or_else(|_| {
                    panic!(
                        "the feed did not show version {v} (last {:?})",
                        self.last.as_ref().map(|s| s.id)
                    )
                })
                .expect("the feed is open");
            self.all.push(s.clone());
            if s.event == "view" {
                self.last = Some(s);
            }
        }
    }
}

/// What a button's token does (`b:take`, `p:QC`).
fn action(token: &str) -> String {
    stikis_host::token::Token::decode(token)
        .map(|t| t.action)
        .unwrap_or_default()
}

impl Feed {
    /// The views the feed was sent since the last call, in order.
    fn unchecked(&mut self) -> Vec<String> {
        let new: Vec<String> = self.all[self.checked..]
            .iter()
            .filter(|s| s.event == "view")
            .map(|s| s.data.clone())
            .collect();
        self.checked = self.all.len();
        new
    }

    /// Waits for the word that the table is over; returns it.
    async fn over(&mut self) -> String {
        loop {
            let s = tokio::time::timeout(Duration::from_secs(20), self.rx.recv())
                .await
                .expect("the feed says the table is over")
                .unwrap_or_else(|| {
                    let got: Vec<&str> = self.all.iter().map(|s| s.event.as_str()).collect();
                    panic!("the feed ended without saying the table is over (it sent {got:?})")
                });
            self.all.push(s.clone());
            if s.event == "over" {
                return s.data;
            }
        }
    }

    /// Waits for the next page the feed is sent (a change that is not a move: a pick).
    async fn next_page(&mut self) -> String {
        loop {
            let s = tokio::time::timeout(Duration::from_secs(20), self.rx.recv())
                .await
                .expect("the feed redraws the page")
                .expect("the feed is open");
            self.all.push(s.clone());
            if s.event == "view" {
                self.last = Some(s.clone());
                return s.data;
            }
        }
    }
}

/// The attributes of every `<button>` of a page: (class, data-token).
fn buttons(html: &str) -> Vec<(String, String)> {
    let attr = |tag: &str, name: &str| -> String {
        tag.split(&format!("{name}=\""))
            .nth(1)
            .and_then(|r| r.split('"').next())
            .unwrap_or_default()
            .replace("&amp;", "&")
    };
    html.split("<button")
        .skip(1)
        .map(|b| {
            let tag = b.split('>').next().unwrap_or_default();
            (attr(tag, "class"), attr(tag, "data-token"))
        })
        .filter(|(_, t)| !t.is_empty())
        .collect()
}

/// What `html` (seat `viewer`'s page, or a spectator's) may not hold: the cards of the deal no
/// one else may see now, less the viewer's own (their hand and what their private text names).
async fn check_page(host: &Arc<Host>, table: i64, viewer: Option<&str>, html: &str) -> usize {
    let own = host.table_view(table, viewer).await.unwrap().expect("the table");
    let mine: Vec<String> = own.hand.iter().map(|h| stikis_web::card_text(h.card)).collect();
    let private = own.hand_text.clone().unwrap_or_default();
    // The result shown during a deal is the last deal's, posted to the group when it ended
    // (its talon and burial are public then): its cards are another deal's.
    let html = match (own.in_deal, html.find("<details class=\"result\"")) {
        (true, Some(start)) => {
            let end = start + html[start..].find("</details>").expect("the result ends");
            format!("{}{}", &html[..start], &html[end..])
        }
        _ => html.to_string(),
    };
    // So is the end of the last deal (its last trick), shown until this deal's first move.
    let (html, ended) = match html.find("<section class=\"ended\"") {
        Some(start) => {
            let end = start + html[start..].find("</section>").expect("the end of a deal ends");
            (
                format!("{}{}", &html[..start], &html[end..]),
                html[start..end].to_string(),
            )
        }
        None => (html, String::new()),
    };
    let html = html.as_str();
    let mut checked = 0;
    for label in host.hidden_cards(table, own.deal_no).await {
        if mine.contains(&label) || (viewer.is_some() && private.contains(&label)) {
            continue;
        }
        checked += 1;
        assert!(
            !html.contains(&label),
            "{viewer:?}'s page holds the hidden card {label}:\n{html}"
        );
    }
    // Cards drawn as pictures are named by code (`data-card`, the symbols' ids).
    // (A card of the last deal's end is drawn from a symbol too.)
    for code in html
        .split("data-card=\"")
        .skip(1)
        .chain(html.split("id=\"c").skip(1))
        .filter_map(|r| r.split('"').next())
        .filter(|code| !ended.contains(&format!("data-card=\"{code}\"")))
    {
        let card: stikis_core::cards::Card = code.parse().unwrap_or_else(|_| panic!("a card code {code}"));
        let label = stikis_web::card_text(card);
        assert!(
            mine.contains(&label) || !host.hidden_cards(table, own.deal_no).await.contains(&label),
            "{viewer:?}'s page draws the hidden card {label}"
        );
    }
    checked
}

/// Drains the outboxes the host gave the chat adapter into the chat's screen.
fn to_chat(bot: &mut Bot, screen: &mut Screen) -> usize {
    let mut n = 0;
    while let Ok(out) = bot.events.try_recv() {
        screen.show(&out);
        n += 1;
    }
    n
}

/// The table's version (its last action's number).
async fn version_of(host: &Arc<Host>, table: i64) -> i64 {
    host.table_view(table, None)
        .await
        .unwrap()
        .expect("an open table")
        .version
}

/// The seat to act at the table.
async fn to_act(host: &Arc<Host>, table: i64) -> usize {
    let view = host
        .table_view(table, None)
        .await
        .unwrap()
        .expect("an open table");
    view.to_act.expect("someone to act") as usize
}

/// POSTs a form to the bot's web face; its status and JSON answer.
async fn post_form(bot: &Bot, path: &str, form: &[(&str, &str)]) -> (u16, serde_json::Value) {
    let res = client()
        .request(
            axum::http::Request::post(format!("http://{}{path}", bot.web.addr))
                .header("content-type", "application/x-www-form-urlencoded")
                .body(serde_urlencoded::to_string(form).unwrap())
                .unwrap(),
        )
        .await
        .unwrap();
    let status = res.status().as_u16();
    let bytes = res.into_body().collect().await.unwrap().to_bytes();
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(serde_json::Value::Null),
    )
}

async fn press(bot: &Bot, table: i64, key: &str, token: &str) -> (u16, serde_json::Value) {
    post_form(
        bot,
        &format!("/play/{}/press", at(table)),
        &[("k", key), ("token", token)],
    )
    .await
}

async fn get(bot: &Bot, path: &str) -> (u16, String, axum::http::HeaderMap) {
    let res = client()
        .request(
            axum::http::Request::get(format!("http://{}{path}", bot.web.addr))
                .body(String::new())
                .unwrap(),
        )
        .await
        .unwrap();
    let status = res.status().as_u16();
    let headers = res.headers().clone();
    let bytes = res.into_body().collect().await.unwrap().to_bytes();
    (status, String::from_utf8_lossy(&bytes).to_string(), headers)
}

/// A table of `game` for `people` in a Telegram group, started.
async fn open_table(host: &Arc<Host>, screen: &mut Screen, g: &ChatRef, people: &[User], game: &str) -> i64 {
    send(host, screen, g.clone(), &people[0], Command::SetTurnLimit(None)).await;
    send(
        host,
        screen,
        g.clone(),
        &people[0],
        Command::NewTable {
            game: game.into(),
            rules: None,
            seats: Some(people.len()),
        },
    )
    .await;
    let table = table_id(screen);
    for p in &people[1..] {
        let join = screen.lobby_token("join");
        send(host, screen, g.clone(), p, Command::press(join)).await;
    }
    send(host, screen, g.clone(), &people[0], Command::Start).await;
    table
}

async fn zole_table(host: &Arc<Host>, screen: &mut Screen, g: &ChatRef, people: &[User]) -> i64 {
    open_table(host, screen, g, people, "zole").await
}

/// People at one table, each with a page (and a spectator's page last), and the chat.
struct Game {
    bot: Bot,
    store: Store,
    g: ChatRef,
    people: Vec<User>,
    screen: Screen,
    table: i64,
    keys: Vec<String>,
    feeds: Vec<Feed>,
    _dir: tempfile::TempDir,
}

/// What playing through pages counted.
#[derive(Default)]
struct Played {
    checked: usize,
    /// The views of the pages' feeds that were checked.
    views: usize,
    chat_moves: usize,
    page_moves: usize,
    restarted: bool,
    /// Every action a page tapped, by kind (`b`, `p`, `y`, `g`, `r`, `t`, `l`, ...).
    kinds: HashMap<String, usize>,
}

impl Game {
    async fn new(game: &str, seats: usize) -> Game {
        let dir = tempfile::tempdir().unwrap();
        let store = sqlite(&dir, "play.db").await;
        let bot = start_bot(&store).await;
        let g = ChatRef::new(Platform::Telegram, "group-1", "-100");
        let people: Vec<User> = (0..seats)
            .map(|i| user(&format!("{}", 101 + i), i == 0))
            .collect();
        let mut screen = Screen::default();
        let table = open_table(&bot.host, &mut screen, &g, &people, game).await;
        let secret = play_secret(BOT_TOKEN);
        let keys: Vec<String> = people
            .iter()
            .map(|p| p.id.clone())
            .chain([String::new()])
            .map(|u| play_key(&secret, table, &u, now_s() + 3600))
            .collect();
        let mut feeds = Vec::new();
        for k in &keys {
            feeds.push(open_feed(&bot, table, k).await);
        }
        Game {
            bot,
            store,
            g,
            people,
            screen,
            table,
            keys,
            feeds,
            _dir: dir,
        }
    }

    /// Plays until deal `until` begins: each person taps on their page what it offers (a card
    /// first, else a bid that is not a pass, else a level, else the first decision), except
    /// the first seat in deal `chat_deal`, who plays from the chat; the bot restarts after
    /// `restart_at` moves. Every page is checked at every state.
    async fn play(&mut self, until: usize, restart_at: Option<usize>, chat_deal: Option<usize>) -> Played {
        let mut played = Played::default();
        let table = self.table;
        let viewers: Vec<Option<String>> = self
            .people
            .iter()
            .map(|p| Some(p.id.clone()))
            .chain([None])
            .collect();
        let mut last = (-1, 0);
        loop {
            let view = self
                .bot
                .host
                .table_view(table, None)
                .await
                .unwrap()
                .expect("running");
            if view.deal_no >= until {
                break;
            }
            // A pick does not move the table; anything else that does not is stuck.
            last = if view.version == last.0 {
                (last.0, last.1 + 1)
            } else {
                (view.version, 0)
            };
            assert!(
                last.1 < 4,
                "the table does not move from version {}",
                view.version
            );
            let mut pages = Vec::new();
            for (f, who) in self.feeds.iter_mut().zip(&viewers) {
                let html = f.at_least(view.version).await;
                // Every view the feed was sent since the last look, not only the newest: each
                // of this deal is checked (hidden sets only shrink within a deal, so a card
                // hidden now was hidden then); one of an earlier deal was checked in its deal.
                for sent in f.unchecked() {
                    if deal_of_page(&sent) == Some(view.deal_no) {
                        played.checked += check_page(&self.bot.host, table, who.as_deref(), &sent).await;
                        played.views += 1;
                    }
                }
                pages.push(html);
            }
            let seat = view.to_act.expect("someone is to act") as usize;
            if chat_deal == Some(view.deal_no) && seat == 0 {
                to_chat(&mut self.bot, &mut self.screen);
                let offered = self.screen.my_buttons(&self.people[0].id);
                let token = offered
                    .iter()
                    .find(|(_, t)| action(t) == "b:pass")
                    .or_else(|| offered.iter().find(|(l, _)| !l.starts_with('✓')))
                    .expect("the chat's hand has buttons")
                    .1
                    .clone();
                let who = self.people[0].clone();
                send(
                    &self.bot.host,
                    &mut self.screen,
                    self.g.clone(),
                    &who,
                    Command::press(token),
                )
                .await;
                played.chat_moves += 1;
            } else {
                let offered = buttons(&pages[seat]);
                let token = offered
                    .iter()
                    .find(|(c, _)| c.contains("play") && !c.contains("picked"))
                    .or_else(|| {
                        offered
                            .iter()
                            .find(|(_, t)| action(t).starts_with("b:") && action(t) != "b:pass")
                    })
                    .or_else(|| {
                        offered.iter().find(|(_, t)| {
                            action(t)
                                .strip_prefix("l:")
                                .is_some_and(|l| l.chars().all(|c| c.is_ascii_digit()))
                        })
                    })
                    .or_else(|| offered.iter().find(|(c, _)| c.contains("act")))
                    .unwrap_or_else(|| panic!("seat {seat} to act has nothing to tap:\n{}", pages[seat]))
                    .1
                    .clone();
                let kind = action(&token).split(':').next().unwrap_or_default().to_string();
                *played.kinds.entry(kind.clone()).or_default() += 1;
                let (status, reply) = press(&self.bot, table, &self.keys[seat], &token).await;
                assert_eq!(status, 200, "{reply}");
                let now = version_of(&self.bot.host, table).await;
                if now == view.version {
                    // A choice that is not a move (the first card of a burial, Belote's bid
                    // level): the page is redrawn with it.
                    let page = self.feeds[seat].next_page().await;
                    assert_ne!(page, pages[seat], "the page shows the choice");
                    if kind == "y" {
                        assert!(
                            buttons(&page)
                                .iter()
                                .any(|(c, t)| c.contains("picked") && action(t).starts_with("n:")),
                            "the picked card is marked and takes the pick back:\n{page}"
                        );
                    }
                } else {
                    // The same tap again is the stale button it now is: refused as out of
                    // date (the page no longer offers it), applied once.
                    let (status, again) = press(&self.bot, table, &self.keys[seat], &token).await;
                    assert_eq!(status, 409, "{again}");
                    assert_eq!(
                        again["reply"],
                        t(Lang::Lv, "button-stale", &[]),
                        "a stale tap is answered: {again}"
                    );
                    let after = version_of(&self.bot.host, table).await;
                    assert_eq!(after, now, "a tap sent twice is applied once");
                }
                // The chat is shown the move made on the page.
                assert!(
                    to_chat(&mut self.bot, &mut self.screen) > 0,
                    "the chat adapter is given the page's move"
                );
                played.page_moves += 1;
            }
            if restart_at == Some(played.page_moves + played.chat_moves) && !played.restarted {
                // The bot restarts: the pages connect again (as a browser's EventSource does)
                // and are sent the table as it is.
                played.restarted = true;
                let old = std::mem::replace(&mut self.bot, start_bot(&self.store).await);
                old.web.stop().await;
                let mut again = Vec::new();
                for k in &self.keys {
                    again.push(open_feed(&self.bot, table, k).await);
                }
                self.feeds = again;
            }
        }
        played
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_pages_play_zole_through_a_restart_and_beside_the_chat_and_never_see_a_hidden_card() {
    let mut game = Game::new("zole", 3).await;
    let table = game.table;
    // The page itself: the seat's hand is drawn in it at once, the feed's address in it.
    let first = to_act(&game.bot.host, table).await;
    let (status, html, _) = get(&game.bot, &format!("/play/{}?k={}", at(table), game.keys[first])).await;
    assert_eq!(status, 200);
    assert!(
        html.contains("id=\"view\"") && html.contains("/static/play.js"),
        "{html}"
    );
    assert!(
        !buttons(&html).is_empty(),
        "the first bidder's page offers the bids:\n{html}"
    );

    let played = game.play(3, Some(12), Some(2)).await;
    assert!(
        played.restarted && played.chat_moves >= 3,
        "chat moves {}",
        played.chat_moves
    );
    assert!(
        played.checked > 100,
        "only {} hidden cards were checked",
        played.checked
    );
    assert!(played.views > 0, "no view a feed was sent was checked");
    for kind in ["b", "y", "p"] {
        assert!(
            played.kinds.contains_key(kind),
            "no {kind} tap in {:?}",
            played.kinds
        );
    }
    // The totals the pages show are the record's replay.
    let rec = record_of(&game.bot.host, &mut game.screen, game.g.clone(), &game.people[0]).await;
    let replayed = stikis_core::record::replay(rec.to_string().as_bytes()).expect("the record replays");
    let view = game
        .bot
        .host
        .table_view(table, Some("101"))
        .await
        .unwrap()
        .unwrap();
    let totals: Vec<i64> = replayed["totals"]
        .as_array()
        .expect("totals")
        .iter()
        .map(|v| v.as_i64().unwrap())
        .collect();
    assert_eq!(
        totals,
        view.totals.iter().map(|&n| i64::from(n)).collect::<Vec<_>>()
    );
    let spectator_page = game.feeds[3].at_least(view.version).await;
    for n in &view.totals {
        let shown = if *n > 0 { format!("+{n}") } else { n.to_string() };
        assert!(spectator_page.contains(&shown), "the totals {shown} on the page");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_pages_show_the_end_of_a_deal_then_the_contract_its_declarer_and_the_burial_prompt() {
    use stikis_host::i18n::Arg;
    let mut game = Game::new("zole", 3).await;
    game.play(2, None, None).await;
    let (host, table) = (game.bot.host.clone(), game.table);
    let watcher = game.keys.len() - 1;
    // Deal 2 has had no move: deal 1's last trick, its taker and its result are on the table.
    let v = host.table_view(table, None).await.unwrap().unwrap();
    assert_eq!(v.deal_no, 2);
    let ended = v.ended.clone().expect("deal 1's end is on the table");
    assert_eq!(ended.deal_no, 1);
    let last = ended.last_trick.clone().expect("deal 1's last trick");
    let taker = last.winner.expect("the last trick's taker");
    let page = game.feeds[watcher].at_least(v.version).await;
    let over = t(v.lang, "play-deal-ended", &[("deal", Arg::from(1))]);
    let took = t(
        v.lang,
        "play-last-trick",
        &[("name", v.names[taker as usize].clone().into())],
    );
    assert!(
        page.contains(&over) && page.contains(&took),
        "{over} / {took} on the page:\n{page}"
    );
    let result = v.result.clone().expect("deal 1's result");
    let first_line = result.lines().next().expect("a result line");
    assert!(
        page.contains(first_line),
        "the result {first_line:?} on the page:\n{page}"
    );
    // How deal 1 ended, typed: what was played, and each seat's change and total after it,
    // which are the table's totals while deal 2 has had no move.
    let r = ended.result.clone().expect("deal 1's typed result");
    let how = v.say(r.ended.as_ref().expect("how deal 1 ended"));
    assert!(
        page.contains(&format!("<b>{how}</b>")),
        "{how} on the page:\n{page}"
    );
    let totals: Vec<i64> = v.totals.iter().map(|&n| i64::from(n)).collect();
    assert_eq!(r.totals, totals, "deal 1's totals are the table's");
    for (s, (d, total)) in r.deltas.iter().zip(&r.totals).enumerate() {
        let d = if *d > 0 { format!("+{d}") } else { d.to_string() };
        let line = format!("{} <b>{d}</b> → {total}", v.names[s]);
        assert!(page.contains(&line), "{line} on the page:\n{page}");
    }
    // The first bidder takes: every page names the contract and its declarer, the end of
    // deal 1 is gone, and only the declarer's page asks for two cards to bury.
    let first = to_act(&host, table).await;
    let mine = host
        .table_view(table, Some(&game.people[first].id))
        .await
        .unwrap()
        .unwrap();
    let take = t(mine.lang, "button-take", &[]);
    let token = mine
        .buttons
        .iter()
        .flatten()
        .find(|b| b.label == take)
        .map(|b| b.token.clone())
        .unwrap_or_else(|| panic!("no {take} among {:?}", mine.buttons));
    let (status, _) = press(&game.bot, table, &game.keys[first], &token).await;
    assert_eq!(status, 200);
    let v = host.table_view(table, None).await.unwrap().unwrap();
    assert_eq!(v.picture.declarer, Some(first as u8));
    assert!(v.ended.is_none(), "the end of deal 1 is still shown after a move");
    let contract = t(
        v.lang,
        "play-contract",
        &[
            ("contract", t(v.lang, "contract-take", &[]).into()),
            ("name", v.names[first].clone().into()),
        ],
    );
    let page = game.feeds[watcher].at_least(v.version).await;
    assert!(
        page.contains(&contract),
        "{contract} on the watcher's page:\n{page}"
    );
    assert!(
        !page.contains(&over),
        "deal 1's end after the first move of deal 2:\n{page}"
    );
    for (i, feed) in game.feeds.iter_mut().enumerate().take(3) {
        let page = feed.at_least(v.version).await;
        let bury = t(v.lang, "zole-bury-pick", &[]);
        assert_eq!(
            page.contains(&bury),
            i == first,
            "seat {i}'s page and {bury:?}:\n{page}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_belote_deal_is_bid_and_played_through_the_pages() {
    let mut game = Game::new("belote-bazar", 4).await;
    let played = game.play(2, None, None).await;
    assert!(
        played.kinds.contains_key("l")
            && played.kinds.contains_key("b")
            && played.kinds.get("p") >= Some(&32),
        "{:?}",
        played.kinds
    );
    assert!(
        played.checked > 100,
        "only {} hidden cards were checked",
        played.checked
    );
    assert!(played.views > 0, "no view a feed was sent was checked");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_polt_hand_with_its_exchanges_is_played_through_the_pages() {
    let mut game = Game::new("polt", 5).await;
    let played = game.play(2, None, None).await;
    for kind in ["g", "r", "p"] {
        assert!(
            played.kinds.contains_key(kind),
            "no {kind} tap in {:?}",
            played.kinds
        );
    }
    assert!(
        played.checked > 100,
        "only {} hidden cards were checked",
        played.checked
    );
    assert!(played.views > 0, "no view a feed was sent was checked");
}

/// Telegram's `initData` for `user`, signed with `token` as Telegram signs it.
fn init_data(token: &str, user: i64, auth_date: i64, start: &str) -> String {
    let user_json = format!("{{\"id\":{user},\"first_name\":\"Ilze\",\"language_code\":\"lv\"}}");
    stikis_web::play::sign_init_data(
        token,
        &[
            ("auth_date", &auth_date.to_string()),
            ("query_id", "AAH-test"),
            ("start_param", start),
            ("user", &user_json),
        ],
    )
}

async fn session(bot: &Bot, init: &str) -> (u16, serde_json::Value) {
    post_form(bot, "/play/app/session", &[("init_data", init)]).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn keys_and_mini_app_sessions_are_checked_and_a_refused_one_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let store = sqlite(&dir, "keys.db").await;
    let mut bot = start_bot(&store).await;
    let g = ChatRef::new(Platform::Telegram, "group-1", "-100");
    let people = vec![user("101", true), user("102", false), user("103", false)];
    let mut screen = Screen::default();
    let table = zole_table(&bot.host, &mut screen, &g, &people).await;
    let secret = play_secret(BOT_TOKEN);
    let view = bot.host.table_view(table, None).await.unwrap().unwrap();
    let (version, first) = (view.version, people[view.to_act.unwrap() as usize].id.clone());
    let good = play_key(&secret, table, &first, now_s() + 3600);
    let (_, page, _) = get(&bot, &format!("/play/{}?k={good}", at(table))).await;
    let token = buttons(&page).first().expect("the first bidder's bids").1.clone();

    let forged = play_key(&play_secret("9999:other-bot"), table, &first, now_s() + 3600);
    let expired = play_key(&secret, table, &first, now_s() - 1);
    // The key with a later expiry written in: its signature no longer holds.
    let (expiry, rest) = good.split_once('.').unwrap();
    let altered = format!("{}.{rest}", expiry.parse::<i64>().unwrap() + 86_400);
    // A key of another table is not a key of this one.
    let other_table = play_key(&secret, table + 1, &first, now_s() + 3600);
    for (key, status) in [
        (&forged, 401),
        (&expired, 401),
        (&altered, 401),
        (&other_table, 401),
    ] {
        assert_eq!(
            get(&bot, &format!("/play/{}?k={key}", at(table))).await.0,
            status,
            "page, {key}"
        );
        assert_eq!(
            get(&bot, &format!("/play/{}/events?k={key}", at(table))).await.0,
            status,
            "feed, {key}"
        );
        assert_eq!(press(&bot, table, key, &token).await.0, status, "press, {key}");
    }
    assert_eq!(
        get(&bot, &format!("/play/{}", at(table))).await.0,
        401,
        "no key at all"
    );
    // A spectator may watch, not play; a token of another table is refused.
    let watcher = play_key(&secret, table, "", now_s() + 3600);
    let (status, html, _) = get(&bot, &format!("/play/{}?k={watcher}", at(table))).await;
    assert_eq!(status, 200);
    assert!(
        buttons(&html).is_empty(),
        "a spectator's page has nothing to tap:\n{html}"
    );
    assert_eq!(press(&bot, table, &watcher, &token).await.0, 403);
    let foreign = stikis_host::token::Token::new(table + 7, version, "b:take")
        .encode()
        .unwrap();
    assert_eq!(
        press(&bot, table, &good, &foreign).await.0,
        409,
        "a token the page does not offer is out of date"
    );
    let after = version_of(&bot.host, table).await;
    assert_eq!(after, version, "no refused credential moved the table");
    assert_eq!(to_chat(&mut bot, &mut screen), 0, "nor showed the chat anything");

    // The Mini App: its page loads Telegram's script (stubbed here) under a policy that allows it.
    let (status, app, headers) = get(&bot, "/play/app").await;
    assert_eq!(status, 200);
    assert!(
        app.contains("/static/telegram-stub.js") && app.contains("/static/play.js"),
        "{app}"
    );
    assert!(headers["content-security-policy"]
        .to_str()
        .unwrap()
        .contains("script-src 'self'"));
    // initData signed as Telegram signs it opens the person's seat.
    let (status, s) = session(&bot, &init_data(BOT_TOKEN, 102, now_s() - 60, &at(table))).await;
    assert_eq!(status, 200, "{s}");
    let url = s["url"].as_str().unwrap().to_string();
    let (status, seat_page, _) = get(&bot, &url).await;
    assert_eq!(status, 200);
    assert!(
        seat_page.contains("class=\"hand\""),
        "the Mini App opens Bruno's seat:\n{seat_page}"
    );
    assert!(
        seat_page.contains("/static/telegram-stub.js"),
        "inside Telegram the page loads its script"
    );
    // Forged, expired, another bot's, altered and other-table initData are refused.
    let fresh = init_data(BOT_TOKEN, 102, now_s() - 60, &at(table));
    for (init, status) in [
        (init_data("9999:other-bot", 102, now_s() - 60, &at(table)), 401),
        (
            init_data(BOT_TOKEN, 102, now_s() - 2 * 86_400, &table.to_string()),
            401,
        ),
        (fresh.replacen("102", "101", 1), 401),
        (fresh.replacen("hash=", "hash=00", 1), 401),
        ("user=%7B%7D".to_string(), 401),
        (init_data(BOT_TOKEN, 102, now_s() - 60, "99999"), 403),
        // The table's number is not its name.
        (init_data(BOT_TOKEN, 102, now_s() - 60, &table.to_string()), 403),
    ] {
        let (got, body) = session(&bot, &init).await;
        assert_eq!(got, status, "{init}: {body}");
        assert!(body.get("url").is_none());
    }
    let after = version_of(&bot.host, table).await;
    assert_eq!(after, version);

    // A refusal is worded in the page's language (the page sends it), Latvian by default.
    for (lang, code) in [(Lang::En, "en"), (Lang::Ru, "ru-RU"), (Lang::Lv, "")] {
        let (status, body) = post_form(
            &bot,
            &format!("/play/{}/press", at(table)),
            &[("k", forged.as_str()), ("token", token.as_str()), ("lang", code)],
        )
        .await;
        assert_eq!(status, 401);
        assert_eq!(body["reply"], t(lang, "play-forged", &[]), "{code}");
        let (status, body) = post_form(
            &bot,
            "/play/app/session",
            &[("init_data", "user=%7B%7D"), ("lang", code)],
        )
        .await;
        assert_eq!(status, 401);
        assert_eq!(body["error"], t(lang, "play-forged", &[]), "{code}");
    }
    // A page asked for in English gets its feed in English, down to the word that the table
    // is over.
    let mut feed = open_feed_in(&bot, table, &good, "en").await;
    let page = feed.at_least(version).await;
    assert!(
        page.contains(&t(Lang::En, "play-your-turn", &[])),
        "the bidder's page in English:\n{page}"
    );
    send(&bot.host, &mut screen, g.clone(), &people[0], Command::Stop).await;
    assert_eq!(feed.over().await, t(Lang::En, "play-over", &[]));
    // Before that word, the page was drawn as the table was left: nobody's turn, nothing to
    // press (its last picture had "Your turn" and the bids).
    let left = feed
        .all
        .iter()
        .rev()
        .find(|s| s.event == "view")
        .expect("a view")
        .data
        .clone();
    assert_ne!(left, page, "the stopped table is drawn once more");
    assert!(
        !left.contains(&t(Lang::En, "play-your-turn", &[])) && !left.contains("data-token="),
        "the stopped table's page still offers a move:\n{left}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn play_gives_a_personal_link_privately_and_never_to_the_group() {
    let dir = tempfile::tempdir().unwrap();
    let store = sqlite(&dir, "link.db").await;
    let (host, _events) = Host::new(
        store.clone(),
        stikis_host::HostConfig {
            web_url: Some("https://cards.example.org".into()),
            play_secret: Some(play_secret(BOT_TOKEN)),
            ..config()
        },
    );
    let g = ChatRef::new(Platform::Telegram, "group-1", "-100");
    let people = vec![user("101", true), user("102", false), user("103", false)];
    let mut screen = Screen::default();
    let table = zole_table(&host, &mut screen, &g, &people).await;
    let out = send(&host, &mut screen, g.clone(), &people[1], Command::PlayLink).await;
    let (text, to) = out
        .0
        .iter()
        .find_map(|o| match o {
            stikis_host::Out::Personal { text, user, .. } => Some((text.clone(), user.clone())),
            _ => None,
        })
        .expect("a personal message");
    assert_eq!(to, "102");
    assert!(
        out.0.iter().all(|o| !o.is_public()),
        "nothing of it is public: {out:?}"
    );
    let key = text
        .split("?k=")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .expect("the link");
    assert!(
        text.contains(&format!("/play/{}?k=", at(table))),
        "the link names the table by its reference: {text}"
    );
    let u = stikis_host::links::check_play_key(&play_secret(BOT_TOKEN), table, key, now_s()).unwrap();
    assert_eq!(u, "102");
    // One not seated gets a spectator's link.
    let out = send(
        &host,
        &mut screen,
        g.clone(),
        &user("555", false),
        Command::PlayLink,
    )
    .await;
    let text = out.0.iter().find_map(|o| match o {
        stikis_host::Out::Personal { text, .. } => Some(text.clone()),
        _ => None,
    });
    let key = text.as_deref().and_then(|t| t.split("?k=").nth(1)).unwrap();
    assert_eq!(
        stikis_host::links::check_play_key(
            &play_secret(BOT_TOKEN),
            table,
            key.split_whitespace().next().unwrap(),
            now_s()
        )
        .unwrap(),
        ""
    );
}

/// Telegram's web-app script as a test stands it in: `initData` signed for `user` and
/// `table`, theme colours, and the back button and haptic taps counted where the test reads
/// them.
fn telegram_stub(user: i64, table: i64) -> String {
    telegram_stub_themed(user, table, DARK)
}

/// Telegram's dark theme as it sends it to a Mini App (no second background: the page must
/// be readable without it), and its light theme with one.
const DARK: &str =
    "bg_color: '#102030', text_color: '#f0f0f0', hint_color: '#8a9aa9', button_color: '#3390ec'";
const LIGHT: &str =
    "bg_color: '#ffffff', text_color: '#000000', hint_color: '#707579', button_color: '#3390ec', \
                     secondary_bg_color: '#f1f1f1'";

fn telegram_stub_themed(user: i64, table: i64, theme: &str) -> String {
    let init = init_data(BOT_TOKEN, user, now_s() - 5, &at(table));
    format!(
        "window.__back = 0; window.__haptic = 0;\n\
         window.Telegram = {{ WebApp: {{ initData: {init:?}, ready: function () {{}}, expand: function () {{}},\n\
           themeParams: {{ {theme} }},\n\
           BackButton: {{ show: function () {{ window.__back = 1; }}, onClick: function () {{}} }},\n\
           HapticFeedback: {{ impactOccurred: function () {{ window.__haptic += 1; }} }} }} }};\n"
    )
}

/// Checks that every seat name, total, decision button and status line of the page reads at
/// WCAG's 4.5:1 contrast against what is behind it (the nearest ancestor with a background);
/// the number of texts checked.
async fn readable(c: &fantoccini::Client, theme: &str) -> u64 {
    let found = c
        .execute(
            "function rgb(s) { var m = s.match(/[\\d.]+/g) || []; return m.map(Number); }\n\
             function lum(c) { var a = c.slice(0, 3).map(function (v) { v /= 255;\n\
               return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });\n\
               return 0.2126 * a[0] + 0.7152 * a[1] + 0.0722 * a[2]; }\n\
             function behind(el) { for (; el; el = el.parentElement) { var b = rgb(getComputedStyle(el).backgroundColor);\n\
               if (b.length >= 3 && (b.length < 4 || b[3] > 0.5)) return b; } return [255, 255, 255]; }\n\
             var out = [], n = 0;\n\
             document.querySelectorAll('ol.seats .name, ol.seats .total, .decide button, .playhead p').forEach(function (el) {\n\
               if (!el.textContent.trim()) return; n += 1;\n\
               var f = lum(rgb(getComputedStyle(el).color)), b = lum(behind(el));\n\
               var r = (Math.max(f, b) + 0.05) / (Math.min(f, b) + 0.05);\n\
               if (r < 4.5) out.push(el.textContent.trim() + ': ' + r.toFixed(2)); });\n\
             return [n, out];",
            vec![],
        )
        .await
        .unwrap();
    let n = found[0].as_u64().unwrap();
    assert!(
        n >= 4,
        "{theme}: the seats and the turn line were checked ({n} texts)"
    );
    assert_eq!(
        found[1],
        serde_json::json!([]),
        "{theme}: texts below 4.5:1 contrast"
    );
    n
}

/// Serves `script` at `/telegram-web-app.js` on a port of its own (Telegram's origin).
async fn serve_stub(script: Arc<std::sync::Mutex<String>>) -> std::net::SocketAddr {
    let app = axum::Router::new().route(
        "/telegram-web-app.js",
        axum::routing::get(move || {
            let js = script.lock().unwrap().clone();
            async move { ([("content-type", "text/javascript")], js) }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    addr
}

/// In headless Chromium on a phone's screen (390×844): the Mini App opened with `initData`
/// (Telegram's script stubbed) seats the person, takes Telegram's colours and back button; a
/// tap on the page plays, with a haptic tap; nothing is wider than the screen and every
/// control is on it; the bot restarts and the page reconnects by itself and shows the move
/// made meanwhile in the chat.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_chromium_on_a_phone_the_mini_app_seats_the_player_who_plays_by_tapping() {
    let Some(path) = browser::chromedriver_or_skip() else {
        return;
    };
    let stub = Arc::new(std::sync::Mutex::new(String::new()));
    let stub_addr = serve_stub(stub.clone()).await;
    let script = format!("http://{stub_addr}/telegram-web-app.js");
    let dir = tempfile::tempdir().unwrap();
    let store = sqlite(&dir, "phone.db").await;
    let mut bot = start_bot_at(&store, "127.0.0.1:0", &script).await;
    let addr = bot.web.addr;
    let g = ChatRef::new(Platform::Telegram, "group-1", "-100");
    let people = vec![user("101", true), user("102", false), user("103", false)];
    let mut screen = Screen::default();
    let table = zole_table(&bot.host, &mut screen, &g, &people).await;
    let first = to_act(&bot.host, table).await;
    *stub.lock().unwrap() = telegram_stub(people[first].id.parse().unwrap(), table);

    let driver = browser::start_driver(&path).await;
    let c = browser::browser_sized(&driver, 390, 844).await;
    c.goto(&format!("http://{addr}/play/app")).await.unwrap();
    // The session is made and the page of the person's seat opens, with its feed.
    let hand = c
        .wait()
        .at_most(Duration::from_secs(20))
        .for_element(fantoccini::Locator::Css("#view .hand"))
        .await
        .expect("the Mini App opens the seat's hand");
    drop(hand);
    assert!(c.current_url().await.unwrap().as_str().contains("tg=1"));
    let theme = c
        .execute(
            "return [getComputedStyle(document.documentElement).getPropertyValue('--bg').trim(), window.__back];",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(
        theme,
        serde_json::json!(["#102030", 1]),
        "Telegram's colours and back button"
    );
    // Seat names, totals and buttons are readable in Telegram's dark theme, and in its light
    // one (the same page opened again with the light theme).
    let checked = readable(&c, "dark").await;
    let dark_url = c.current_url().await.unwrap();
    *stub.lock().unwrap() = telegram_stub_themed(people[first].id.parse().unwrap(), table, LIGHT);
    c.goto(dark_url.as_str()).await.unwrap();
    c.wait()
        .at_most(Duration::from_secs(20))
        .for_element(fantoccini::Locator::Css("#view .hand"))
        .await
        .expect("the seat's page again");
    let bg = c
        .execute(
            "return getComputedStyle(document.documentElement).getPropertyValue('--bg').trim();",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(bg, "#ffffff", "the light theme is taken");
    assert_eq!(
        readable(&c, "light").await,
        checked,
        "the same texts in both themes"
    );
    // Every control is on the screen, and nothing is wider than it.
    let fits = c
        .execute(
            "var w = window.innerWidth; var out = [];\n\
             document.querySelectorAll('#view button').forEach(function (b) {\n\
               var r = b.getBoundingClientRect(); if (r.left < 0 || r.right > w + 0.5) out.push(b.textContent || b.getAttribute('aria-label')); });\n\
             return [document.documentElement.scrollWidth, w, document.querySelectorAll('#view button').length, out];",
            vec![],
        )
        .await
        .unwrap();
    let (width, screen_w, controls) = (
        fits[0].as_f64().unwrap(),
        fits[1].as_f64().unwrap(),
        fits[2].as_u64().unwrap(),
    );
    assert!(
        width <= screen_w,
        "the page is {width} px wide on a {screen_w} px screen"
    );
    assert!(
        controls > 0 && fits[3].as_array().unwrap().is_empty(),
        "controls off the screen: {fits}"
    );
    browser::shot(&c, "play-phone-bids.png").await;

    // A tap on the page plays: a bid that takes, the table moves, the phone gives a haptic tap.
    let before = version_of(&bot.host, table).await;
    let offered = c
        .find_all(fantoccini::Locator::Css("#view button[data-token]"))
        .await
        .unwrap();
    let mut tapped = false;
    for b in offered {
        let token = b.attr("data-token").await.unwrap().unwrap_or_default();
        if action(&token) == "b:take" {
            b.click().await.unwrap();
            tapped = true;
            break;
        }
    }
    assert!(tapped, "the first bidder is offered to take");
    let mut moved = false;
    for _ in 0..100 {
        if version_of(&bot.host, table).await > before {
            moved = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(moved, "the tap moved the table");
    assert_eq!(
        c.execute("return window.__haptic;", vec![]).await.unwrap(),
        serde_json::json!(1)
    );
    // The page is redrawn from its feed: the declarer now buries, two cards picked by taps.
    for _ in 0..2 {
        let card = c
            .wait()
            .at_most(Duration::from_secs(20))
            .for_element(fantoccini::Locator::Css("#view .hand button.play:not(.picked)"))
            .await
            .expect("a card to bury");
        card.click().await.unwrap();
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
    browser::shot(&c, "play-phone-buried.png").await;

    // The bot restarts on the same address; meanwhile a move is made in the chat. The page
    // reconnects by itself and shows it.
    let Bot { host, web, events } = bot;
    web.stop().await;
    drop((host, events));
    bot = start_bot_at(&store, &addr.to_string(), &script).await;
    let view = bot.host.table_view(table, None).await.unwrap().unwrap();
    assert!(view.in_deal);
    let seat = view.to_act.unwrap() as usize;
    let mine = bot
        .host
        .table_view(table, Some(&people[seat].id))
        .await
        .unwrap()
        .unwrap();
    let token = mine
        .hand
        .iter()
        .find_map(|h| h.token.clone())
        .or_else(|| {
            mine.buttons
                .first()
                .and_then(|r| r.first())
                .map(|b| b.token.clone())
        })
        .expect("the seat to act may do something");
    send(
        &bot.host,
        &mut screen,
        g.clone(),
        &people[seat],
        Command::press(token),
    )
    .await;
    let now = version_of(&bot.host, table).await;
    let mut shown = 0;
    for _ in 0..200 {
        shown = c
            .execute(
                "var h = document.querySelector('#view .playhead'); return h ? +h.dataset.version : -1;",
                vec![],
            )
            .await
            .unwrap()
            .as_i64()
            .unwrap_or(-1);
        if shown >= now {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(
        shown, now,
        "the page reconnected by itself and shows the table as it is"
    );
    browser::shot(&c, "play-phone-after-restart.png").await;
    c.close().await.unwrap();
}

/// Put into every document a session opens, before the page's own scripts: the page's
/// `EventSource` keeps every event it is sent in `window.__feed` as `[event, id, data]`,
/// where the test reads it.
const FEED_SPY: &str = r#"(function () {
  var Real = window.EventSource;
  if (!Real || window.__feed) return;
  window.__feed = [];
  function Spy(url, opts) {
    var es = new Real(url, opts);
    ["view", "over", "message"].forEach(function (name) {
      es.addEventListener(name, function (e) { window.__feed.push([name, e.lastEventId, e.data]); });
    });
    return es;
  }
  Spy.prototype = Real.prototype;
  Spy.CONNECTING = Real.CONNECTING;
  Spy.OPEN = Real.OPEN;
  Spy.CLOSED = Real.CLOSED;
  window.EventSource = Spy;
})();"#;

/// Has chromedriver evaluate `FEED_SPY` in every document session `c` opens from now on
/// (Chrome DevTools' `Page.addScriptToEvaluateOnNewDocument`, through chromedriver's own
/// endpoint for it).
async fn spy_on_feeds(driver: &browser::Driver, c: &fantoccini::Client) {
    let id = c.session_id().await.unwrap().expect("a session");
    let body = serde_json::json!({
        "cmd": "Page.addScriptToEvaluateOnNewDocument",
        "params": { "source": FEED_SPY },
    });
    let res = client()
        .request(
            axum::http::Request::post(format!(
                "http://127.0.0.1:{}/session/{id}/goog/cdp/execute",
                driver.1
            ))
            .header("content-type", "application/json")
            .body(body.to_string())
            .unwrap(),
        )
        .await
        .unwrap();
    let status = res.status();
    let bytes = res.into_body().collect().await.unwrap().to_bytes();
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&bytes));
}

/// One person's Chromium session at the table.
struct Tab {
    c: fantoccini::Client,
    user: String,
    /// How many of the events in `window.__feed` were checked.
    read: usize,
    /// Every event the page was sent: (event, data).
    feed: Vec<(String, String)>,
    clicks: usize,
}

/// What a tab shows.
struct Look {
    version: i64,
    mine: bool,
    /// The page's controls: (class, token).
    buttons: Vec<(String, String)>,
    /// The cards in the hand (codes).
    hand: Vec<String>,
    status: String,
    html: String,
}

const LOOK_JS: &str = r#"var head = document.querySelector('#view .playhead');
var st = document.getElementById('status');
var feed = window.__feed || [];
return {
  version: head ? +head.dataset.version : -1,
  mine: !!document.querySelector('#view .turn.mine'),
  buttons: Array.prototype.map.call(document.querySelectorAll('#view button[data-token]'),
    function (b) { return [b.className, b.dataset.token]; }),
  hand: Array.prototype.map.call(document.querySelectorAll('#view .hand [data-card]'),
    function (e) { return e.dataset.card; }),
  status: st ? st.textContent : '',
  html: document.documentElement.outerHTML,
  feed: feed.slice(arguments[0])
};"#;

impl Tab {
    /// What the page shows now, its whole HTML and every event its feed was sent since the
    /// last look checked against the cards it must not hold (`check`: while the table is
    /// open). Returns the look and how many hidden cards were checked.
    async fn look(&mut self, host: &Arc<Host>, table: i64, check: bool) -> (Look, usize) {
        let v = self
            .c
            .execute(LOOK_JS, vec![serde_json::json!(self.read)])
            .await
            .unwrap();
        let strings = |v: &serde_json::Value| -> Vec<String> {
            v.as_array()
                .unwrap()
                .iter()
                .map(|s| s.as_str().unwrap_or_default().to_string())
                .collect()
        };
        let look = Look {
            version: v["version"].as_i64().unwrap_or(-1),
            mine: v["mine"].as_bool().unwrap(),
            buttons: v["buttons"]
                .as_array()
                .unwrap()
                .iter()
                .map(|b| {
                    let b = strings(b);
                    (b[0].clone(), b[1].clone())
                })
                .collect(),
            hand: strings(&v["hand"]),
            status: v["status"].as_str().unwrap_or_default().to_string(),
            html: v["html"].as_str().unwrap().to_string(),
        };
        let mut checked = 0;
        let viewer = Some(self.user.as_str());
        for e in v["feed"].as_array().unwrap() {
            let e = strings(e);
            self.read += 1;
            if check && e[0] == "view" {
                checked += check_page(host, table, viewer, &e[2]).await;
            }
            self.feed.push((e[0].clone(), e[2].clone()));
        }
        if check {
            checked += check_page(host, table, viewer, &look.html).await;
        }
        (look, checked)
    }

    /// Polls `js` (an expression) until it is true.
    async fn until(&self, js: &str, what: &str) {
        let script = format!("return !!({js});");
        for _ in 0..1000 {
            if self.c.execute(&script, vec![]).await.unwrap() == serde_json::json!(true) {
                return;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        panic!("{}'s page never showed {what} ({js})", self.user);
    }

    /// Taps (a WebDriver click) the page's control whose token is `token`.
    async fn tap(&mut self, token: &str) {
        let css = format!(
            "#view button[data-token=\"{}\"]",
            token.replace('\\', "\\\\").replace('"', "\\\"")
        );
        self.c
            .find(fantoccini::Locator::Css(&css))
            .await
            .unwrap_or_else(|e| panic!("{}'s page has no {token}: {e}", self.user))
            .click()
            .await
            .unwrap();
        self.clicks += 1;
    }
}

/// Waits until every tab shows the table's version; each tab's look, checked.
async fn in_step(
    tabs: &mut [Tab],
    host: &Arc<Host>,
    table: i64,
    checked: &mut usize,
) -> (stikis_host::view::TableView, Vec<Look>) {
    let view = host.table_view(table, None).await.unwrap().expect("the table");
    let mut looks = Vec::new();
    for tab in tabs.iter_mut() {
        tab.until(
            &format!(
                "(document.querySelector('#view .playhead') || {{dataset: {{}}}}).dataset.version == '{}'",
                view.version
            ),
            &format!("version {}", view.version),
        )
        .await;
        let (look, n) = tab.look(host, table, true).await;
        *checked += n;
        looks.push(look);
    }
    (view, looks)
}

/// Waits until the table's version is past `v`.
async fn moved_from(host: &Arc<Host>, table: i64, v: i64) -> i64 {
    for _ in 0..500 {
        let now = version_of(host, table).await;
        if now > v {
            return now;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("the tap did not move the table from version {v}");
}

/// Three people, each in a Chromium session of their own (one chromedriver), play a whole
/// Zole deal at one table by clicking in their pages alone: two open their personal signed
/// links, the third the Mini App with its `initData`. The test looks at the pages to see
/// whose turn it is and what they may do: the bids (pass until the seeded bidder takes),
/// the burial (a card picked, taken back, two others picked) and every trick (a seeded
/// choice among the raised cards). After every step every page's whole HTML, and every
/// event each page's feed was sent (the page's `EventSource` is spied on), hold no card of
/// another hand or of the talon; the result the pages show is the record's replay.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_chromium_three_people_play_a_whole_zole_deal_by_clicking_and_no_page_sees_a_hidden_card() {
    use rand::{Rng, SeedableRng};
    let Some(path) = browser::chromedriver_or_skip() else {
        return;
    };
    let seed: u64 = std::env::var("STIKIS_TEST_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| now_s() as u64);
    eprintln!("seed {seed} (STIKIS_TEST_SEED={seed} makes the same choices)");
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let started = std::time::Instant::now();

    let stub = Arc::new(std::sync::Mutex::new(String::new()));
    let stub_addr = serve_stub(stub.clone()).await;
    let script = format!("http://{stub_addr}/telegram-web-app.js");
    let dir = tempfile::tempdir().unwrap();
    let store = sqlite(&dir, "three.db").await;
    let mut bot = start_bot_at(&store, "127.0.0.1:0", &script).await;
    let (host, addr) = (bot.host.clone(), bot.web.addr);
    let g = ChatRef::new(Platform::Telegram, "group-1", "-100");
    let people = vec![user("101", true), user("102", false), user("103", false)];
    let mut screen = Screen::default();
    let table = zole_table(&host, &mut screen, &g, &people).await;
    *stub.lock().unwrap() = telegram_stub(103, table);

    let driver = browser::start_driver(&path).await;
    let (a, b, c) = tokio::join!(
        browser::browser_sized(&driver, 390, 844),
        browser::browser_sized(&driver, 390, 844),
        browser::browser_sized(&driver, 390, 844),
    );
    let secret = play_secret(BOT_TOKEN);
    let mut tabs = Vec::new();
    for (i, c) in [a, b, c].into_iter().enumerate() {
        spy_on_feeds(&driver, &c).await;
        let url = if i < 2 {
            let key = play_key(&secret, table, &people[i].id, now_s() + 3600);
            format!("http://{addr}/play/{}?k={key}", at(table))
        } else {
            format!("http://{addr}/play/app")
        };
        c.goto(&url).await.unwrap();
        tabs.push(Tab {
            c,
            user: people[i].id.clone(),
            read: 0,
            feed: Vec::new(),
            clicks: 0,
        });
    }
    for tab in &tabs {
        tab.until(
            "document.querySelector('#view .hand') && (window.__feed || []).length > 0",
            "its hand, from its feed",
        )
        .await;
    }
    assert!(
        tabs[2].c.current_url().await.unwrap().as_str().contains("tg=1"),
        "the Mini App opened the third person's seat"
    );
    eprintln!("three sessions open in {:.1} s", started.elapsed().as_secs_f64());

    let taker = rng.random_range(0..3);
    let (mut bids, mut buried, mut plays, mut checked) = (0, 0, 0, 0);
    let mut buried_cards = Vec::new();
    for step in 0.. {
        assert!(step < 40, "the deal does not end");
        let (view, looks) = in_step(&mut tabs, &host, table, &mut checked).await;
        if view.deal_no >= 2 {
            break;
        }
        // Whose turn it is, as the pages show it: one page says it is its own.
        let turn: Vec<usize> = (0..3).filter(|&i| looks[i].mine).collect();
        assert_eq!(turn.len(), 1, "pages saying it is their turn: {turn:?}");
        let i = turn[0];
        assert_eq!(
            Some(i),
            view.to_act.map(|s| s as usize),
            "the page of the seat to act says so"
        );
        let look = &looks[i];
        let of = |prefix: &str| -> Vec<String> {
            look.buttons
                .iter()
                .filter(|(_, t)| action(t).starts_with(prefix))
                .map(|(_, t)| t.clone())
                .collect()
        };
        let (bid, bury, play) = (of("b:"), of("y:"), of("p:"));
        if !bid.is_empty() {
            // Pass until the seeded bidder, who picks the talon up.
            let want = if bids == taker { "b:take" } else { "b:pass" };
            let token = bid
                .iter()
                .find(|t| action(t) == want)
                .unwrap_or_else(|| panic!("no {want} among {bid:?}"));
            tabs[i].tap(token).await;
            bids += 1;
            moved_from(&host, table, view.version).await;
        } else if !bury.is_empty() {
            // The declarer picks a card, takes it back, then buries two others.
            assert_eq!(look.hand.len(), 10, "the talon is in the hand: {:?}", look.hand);
            let mut cards: Vec<String> = bury.iter().map(|t| action(t)[2..].to_string()).collect();
            let mut pick = || cards.remove(rng.random_range(0..cards.len()));
            let (first, second, third) = (pick(), pick(), pick());
            let picked = |card: &str| {
                format!(
                    "Array.prototype.map.call(document.querySelectorAll('#view .hand button.picked [data-card]'), function (e) {{ return e.dataset.card; }}).join() == '{card}'"
                )
            };
            let token = |card: &str| {
                bury.iter()
                    .find(|t| action(t) == format!("y:{card}"))
                    .unwrap()
                    .clone()
            };
            let feed = tabs[i].read;
            tabs[i].tap(&token(&first)).await;
            tabs[i].until(&picked(&first), &format!("{first} picked")).await;
            let (look, n) = tabs[i].look(&host, table, true).await;
            checked += n;
            assert!(tabs[i].read > feed, "the pick came through the feed");
            assert_eq!(look.version, view.version, "a pick is not a move");
            let back = look
                .buttons
                .iter()
                .find(|(c, t)| c.contains("picked") && action(t) == format!("n:{first}"))
                .unwrap_or_else(|| panic!("the picked {first} takes the pick back: {:?}", look.buttons))
                .1
                .clone();
            tabs[i].tap(&back).await;
            tabs[i].until(&picked(""), &format!("{first} taken back")).await;
            let (look, n) = tabs[i].look(&host, table, true).await;
            checked += n;
            assert_eq!(look.version, view.version, "taking a pick back is not a move");
            assert!(look
                .buttons
                .iter()
                .any(|(_, t)| action(t) == format!("y:{first}")));
            tabs[i].tap(&token(&second)).await;
            tabs[i].until(&picked(&second), &format!("{second} picked")).await;
            let (look, n) = tabs[i].look(&host, table, true).await;
            checked += n;
            let last = look
                .buttons
                .iter()
                .find(|(_, t)| action(t) == format!("y:{third}"))
                .expect("the third card may still be picked")
                .1
                .clone();
            tabs[i].tap(&last).await;
            moved_from(&host, table, view.version).await;
            let (_, looks) = in_step(&mut tabs, &host, table, &mut checked).await;
            let hand = &looks[i].hand;
            assert!(
                hand.len() == 8 && hand.contains(&first) && !hand.contains(&second) && !hand.contains(&third),
                "{second} and {third} buried, {first} kept: {hand:?}"
            );
            buried += 1;
            buried_cards = vec![second, third];
        } else if !play.is_empty() {
            // Only the raised cards may be played: a seeded choice among them.
            let legal: Vec<&(String, String)> = look
                .buttons
                .iter()
                .filter(|(c, t)| c.contains("legal") && action(t).starts_with("p:"))
                .collect();
            assert_eq!(legal.len(), play.len(), "every card that may be played is raised");
            let token = legal[rng.random_range(0..legal.len())].1.clone();
            tabs[i].tap(&token).await;
            plays += 1;
            moved_from(&host, table, view.version).await;
        } else {
            panic!(
                "{} is to act and has nothing to tap:\n{}",
                tabs[i].user, look.html
            );
        }
    }
    assert_eq!(
        (bids, buried, plays),
        (taker + 1, 1, 24),
        "(bids, burials, cards played)"
    );

    // The result the pages show is the record's replay.
    let rec = record_of(&host, &mut screen, g.clone(), &people[0]).await;
    let replayed = stikis_core::record::replay(rec.to_string().as_bytes()).expect("the record replays");
    let deal = &replayed["deals"][0];
    let (_, looks) = in_step(&mut tabs, &host, table, &mut checked).await;
    let totals: Vec<String> = replayed["totals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| {
            let n = v.as_i64().unwrap();
            if n > 0 {
                format!("+{n}")
            } else {
                n.to_string()
            }
        })
        .collect();
    for (tab, look) in tabs.iter().zip(&looks) {
        let shown: Vec<String> = look
            .html
            .split("class=\"total\">")
            .skip(1)
            .map(|r| r.split('<').next().unwrap().to_string())
            .collect();
        assert_eq!(shown, totals, "{}'s page shows the replay's totals", tab.user);
        // The deal's end stays on the table, with its result, until the next deal's first move.
        let result = look
            .html
            .split("<section class=\"ended\"")
            .nth(1)
            .and_then(|r| r.split("<pre>").nth(1))
            .and_then(|r| r.split("</pre>").next())
            .unwrap_or_else(|| panic!("{}'s page shows the result", tab.user));
        let name = |seat: &serde_json::Value| people[seat.as_u64().unwrap() as usize].name.clone();
        let mut want = vec![format!(
            "Declarer: {}, {}",
            name(&deal["declarer"]),
            deal["contract"].as_str().unwrap()
        )];
        for (s, p) in people.iter().enumerate() {
            // English says "1 trick" and "0 tricks", "3 tricks".
            let tricks = deal["tricks"][s].as_u64().unwrap();
            let noun = if tricks == 1 { "trick" } else { "tricks" };
            want.push(format!(
                "{}: {} card points, {tricks} {noun}",
                p.name, deal["card_points"][s]
            ));
        }
        let deltas: Vec<String> = people
            .iter()
            .enumerate()
            .map(|(s, p)| {
                let n = deal["deltas"][s].as_i64().unwrap();
                format!(
                    "{} {}",
                    p.name,
                    if n > 0 { format!("+{n}") } else { n.to_string() }
                )
            })
            .collect();
        want.push(format!("This deal: {}", deltas.join(" · ")));
        let labels: Vec<String> = buried_cards
            .iter()
            .map(|c: &String| stikis_web::card_text(c.parse().unwrap()))
            .collect();
        let burial = format!("Buried by {}: ", name(&deal["declarer"]));
        assert!(
            result
                .lines()
                .any(|l| l.starts_with(&burial) && labels.iter().all(|c| l.contains(c.as_str()))),
            "{}'s page names the buried {labels:?}:\n{result}",
            tab.user
        );
        for line in want {
            assert!(
                result.lines().any(|l| l.starts_with(&line)),
                "{}'s page: the replay says {line:?}; the page shows\n{result}",
                tab.user
            );
        }
    }
    for (i, tab) in tabs.iter().enumerate() {
        browser::shot(&tab.c, &format!("play-three-{i}.png")).await;
    }
    // The table is stopped: every page is told so by its feed.
    send(&host, &mut screen, g.clone(), &people[0], Command::Stop).await;
    for tab in &mut tabs {
        tab.until(
            "(window.__feed || []).some(function (e) { return e[0] == 'over'; })",
            "the table over",
        )
        .await;
        let (look, _) = tab.look(&host, table, false).await;
        let over = tab.feed.iter().find(|(e, _)| e == "over").unwrap().1.clone();
        assert_eq!(look.status, over, "the page says what its feed said");
    }
    assert_eq!(
        tabs[2]
            .c
            .execute("return window.__haptic;", vec![])
            .await
            .unwrap(),
        serde_json::json!(tabs[2].clicks),
        "a haptic tap for every click in the Mini App"
    );
    assert!(checked > 500, "only {checked} hidden cards were checked");
    for tab in &tabs {
        let views = tab.feed.iter().filter(|(e, _)| e == "view").count();
        assert!(
            views > bids + plays,
            "{}'s feed pushed {views} views for {} moves",
            tab.user,
            bids + plays + 1
        );
    }
    let events: usize = tabs.iter().map(|t| t.feed.len()).sum();
    eprintln!(
        "{events} events and every page checked ({checked} hidden cards) in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    to_chat(&mut bot, &mut screen);
    for tab in tabs {
        tab.c.close().await.unwrap();
    }
}

/// Two processes on one PostgreSQL database: moves made through the first (its chat) reach the
/// pages the second serves, told by `NOTIFY`. Skipped without STIKIS_TEST_POSTGRES_URL.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_postgres_a_move_made_in_one_process_reaches_the_pages_of_another() {
    let Some(url) = std::env::var("STIKIS_TEST_POSTGRES_URL")
        .ok()
        .filter(|u| !u.is_empty())
    else {
        eprintln!("STIKIS_TEST_POSTGRES_URL is not set: PostgreSQL not tested");
        return;
    };
    let schema = format!("play_{}_{}", std::process::id(), now_s());
    let one = Store::connect_postgres(&url, Some(&schema)).await.unwrap();
    let two = Store::connect_postgres(&url, Some(&schema)).await.unwrap();
    let (host, _events) = Host::new(one, config());
    let bot = start_bot(&two).await;
    let g = ChatRef::new(Platform::Telegram, "group-1", "-100");
    let people = vec![user("101", true), user("102", false), user("103", false)];
    let mut screen = Screen::default();
    let table = zole_table(&host, &mut screen, &g, &people).await;
    // Its heartbeat, as a running bot beats: the second process counts it among the live
    // ones only after its second beat, and tells only those of its open pages (`Host::follow`).
    host.sweep(std::time::Duration::from_secs(600)).await.unwrap();
    let secret = play_secret(BOT_TOKEN);
    let mut feeds = Vec::new();
    for u in ["101", "102", "103", ""] {
        feeds.push(open_feed(&bot, table, &play_key(&secret, table, u, now_s() + 600)).await);
    }
    let mut moves = 0;
    while moves < 8 {
        let view = host.table_view(table, None).await.unwrap().unwrap();
        for f in &mut feeds {
            let page = f.at_least(view.version).await;
            assert!(page.contains(&format!("data-version=\"{}\"", view.version)));
        }
        let seat = view.to_act.unwrap() as usize;
        let mine = host
            .table_view(table, Some(&people[seat].id))
            .await
            .unwrap()
            .unwrap();
        let token = mine
            .hand
            .iter()
            .find(|h| h.token.is_some() && !h.picked)
            .and_then(|h| h.token.clone())
            .or_else(|| {
                mine.buttons
                    .iter()
                    .flatten()
                    .find(|b| action(&b.token) == "b:take")
                    .map(|b| b.token.clone())
            })
            .expect("something to do");
        send(
            &host,
            &mut screen,
            g.clone(),
            &people[seat],
            Command::press(token),
        )
        .await;
        moves += 1;
    }
    let last = version_of(&host, table).await;
    assert!(last >= 5, "the table moved ({last})");
    for f in &mut feeds {
        f.at_least(last).await;
    }
}

/// The pages' privacy check bites: a spectator's real page passes, and the same page with a
/// hidden card's label put into it fails.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_privacy_check_reports_a_hidden_card_put_into_a_page() {
    let dir = tempfile::tempdir().unwrap();
    let store = sqlite(&dir, "leak.db").await;
    let bot = start_bot(&store).await;
    let g = ChatRef::new(Platform::Telegram, "group-1", "-100");
    let people = vec![user("101", true), user("102", false), user("103", false)];
    let mut screen = Screen::default();
    let table = zole_table(&bot.host, &mut screen, &g, &people).await;
    let watcher = play_key(&play_secret(BOT_TOKEN), table, "", now_s() + 3600);
    let (status, page, _) = get(&bot, &format!("/play/{}?k={watcher}", at(table))).await;
    assert_eq!(status, 200);
    assert!(
        check_page(&bot.host, table, None, &page).await > 0,
        "the real page was compared"
    );
    let view = bot.host.table_view(table, None).await.unwrap().unwrap();
    let card = bot.host.hidden_cards(table, view.deal_no).await[0].clone();
    let leaked = page.replacen("</ol>", &format!("</ol><p>{card}</p>"), 1);
    assert_ne!(leaked, page);
    let host = bot.host.clone();
    let caught = tokio::spawn(async move { check_page(&host, table, None, &leaked).await }).await;
    assert!(
        caught.is_err_and(|e| e.is_panic()),
        "the check let the hidden card {card} through"
    );
}
