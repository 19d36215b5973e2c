//! The live table under attack: for each way in (personal link page, events feed, taps, Mini
//! App session), forged, expired, replayed, other-table, other-chat, non-member,
//! watcher-tapping, wrong-token and malformed requests. Each must be refused with the status
//! its kind names, change nothing (the table's version and what the chat is sent), and leak
//! nothing (the refusal holds no seated person's name and no card). A scan walks table
//! numbers and made-up references through every way in and finds nothing.
//!
//! A child of `play` (its helpers are private there).

use super::*;
use std::sync::atomic::{AtomicUsize, Ordering};

/// People with names a leak would show.
fn person(id: &str, name: &str) -> User {
    User {
        id: id.into(),
        name: name.into(),
        admin: id == "101",
    }
}

/// Telegram's word on chat membership, as strict as `getChatMember`: members of each chat
/// are listed; anybody else is not in it. Counts the calls.
#[derive(Default)]
struct Platform {
    members: std::sync::Mutex<Vec<(String, String)>>,
    calls: AtomicUsize,
}

impl stikis_web::play::Members for Platform {
    fn is_member<'a>(
        &'a self,
        chat: &'a ChatRef,
        user: &'a str,
    ) -> futures_util::future::BoxFuture<'a, Result<bool, String>> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        let member = self
            .members
            .lock()
            .unwrap()
            .iter()
            .any(|(c, u)| *c == chat.chat && u == user);
        Box::pin(async move { Ok(member) })
    }
}

/// The bot with the platform's membership answers.
async fn start_bot_with(store: &Store, platform: Arc<Platform>) -> Bot {
    let (host, events) = Host::new(store.clone(), config());
    host.recover().await.expect("recover");
    let mut play = PlayConfig::new(host.clone(), BOT_TOKEN, true);
    play.telegram_script = "/static/telegram-stub.js".into();
    play.hold_hands = false;
    play.members = Some(platform);
    let web = stikis_web::Listening::start("127.0.0.1:0".parse().unwrap(), store.clone(), Some(play))
        .await
        .unwrap();
    Bot { host, web, events }
}

/// Sends a raw request; status and body.
async fn raw(bot: &Bot, method: &str, path: &str, content_type: &str, body: &str) -> (u16, String) {
    let res = client()
        .request(
            axum::http::Request::builder()
                .method(method)
                .uri(format!("http://{}{path}", bot.web.addr))
                .header("content-type", content_type)
                .header("accept-language", "en-GB,en;q=0.8")
                .body(body.to_string())
                .unwrap(),
        )
        .await
        .unwrap();
    let status = res.status().as_u16();
    let bytes = res.into_body().collect().await.unwrap().to_bytes();
    (status, String::from_utf8_lossy(&bytes).to_string())
}

/// The scene: two Telegram groups, a running Zole table in each.
struct Scene {
    bot: Bot,
    screen: Screen,
    platform: Arc<Platform>,
    /// Group A's table and its three players; group B's table and its players.
    a: i64,
    b: i64,
    people_a: Vec<User>,
    people_b: Vec<User>,
    /// Every seated person's name (what no refusal may hold).
    names: Vec<String>,
    cases: usize,
}

const GROUP_A: &str = "-100";
const GROUP_B: &str = "-200";

impl Scene {
    async fn new(dir: &tempfile::TempDir) -> Scene {
        let store = sqlite(dir, "adversarial.db").await;
        let platform = Arc::new(Platform::default());
        let bot = start_bot_with(&store, platform.clone()).await;
        let mut screen = Screen::default();
        let ga = ChatRef::new(stikis_host::store::Platform::Telegram, GROUP_A, GROUP_A);
        let gb = ChatRef::new(stikis_host::store::Platform::Telegram, GROUP_B, GROUP_B);
        let people_a = vec![
            person("101", "Anna Ozola"),
            person("102", "Bruno Kalns"),
            person("103", "Cilda Liepa"),
        ];
        let people_b = vec![
            person("201", "Dace Egle"),
            person("202", "Edgars Priede"),
            person("203", "Fricis Vītols"),
        ];
        let a = zole_table(&bot.host, &mut screen, &ga, &people_a).await;
        // Group B's lobby on a screen of its own (the lobby buttons are read off it).
        let b = zole_table(&bot.host, &mut Screen::default(), &gb, &people_b).await;
        let names = people_a.iter().chain(&people_b).map(|p| p.name.clone()).collect();
        let mut scene = Scene {
            bot,
            screen,
            platform,
            a,
            b,
            people_a,
            people_b,
            names,
            cases: 0,
        };
        to_chat(&mut scene.bot, &mut scene.screen);
        scene
    }

    /// Both tables' versions and the number of outboxes sent to the chat since the last look.
    async fn state(&mut self) -> (i64, i64, usize) {
        (
            version_of(&self.bot.host, self.a).await,
            version_of(&self.bot.host, self.b).await,
            to_chat(&mut self.bot, &mut self.screen),
        )
    }

    /// Checks one attack's answer: it must be `want`, have changed neither table nor sent
    /// the chat anything since `before`, and hold no name and no card.
    async fn check(
        &mut self,
        what: &str,
        want: u16,
        (status, body): (u16, String),
        before: (i64, i64, usize),
    ) {
        let after = self.state().await;
        assert_eq!(status, want, "{what}: status; body {body}");
        assert_eq!((after.0, after.1), (before.0, before.1), "{what}: a table moved");
        assert_eq!(after.2, 0, "{what}: the chat was sent something");
        for name in &self.names {
            assert!(
                !body.contains(name.as_str()),
                "{what}: the refusal names {name}: {body}"
            );
        }
        for leak in ['♣', '♦', '♥', '♠'] {
            assert!(!body.contains(leak), "{what}: the refusal shows a card: {body}");
        }
        assert!(
            !body.contains("class=\"card"),
            "{what}: the refusal draws a card: {body}"
        );
        self.cases += 1;
    }
}

/// Runs one attack on the scene `s` (see `Scene::check`).
macro_rules! refused {
    ($s:expr, $what:expr, $want:expr, $attack:expr) => {{
        let before = $s.state().await;
        let answer = $attack.await;
        $s.check(&$what, $want, answer, before).await;
    }};
}

async fn get_body(bot: &Bot, path: &str) -> (u16, String) {
    let (s, b, _) = get(bot, path).await;
    (s, b)
}

async fn tap(bot: &Bot, table: i64, key: &str, token: &str) -> (u16, String) {
    let (s, v) = press(bot, table, key, token).await;
    (s, v.to_string())
}

async fn open_session(bot: &Bot, init: &str) -> (u16, String) {
    let (s, v) = session(bot, init).await;
    (s, v.to_string())
}

/// A token the page of `user` at `table` offers now (the first decision), if any.
async fn offered(bot: &Bot, table: i64, user: &str) -> Option<String> {
    let view = bot.host.table_view(table, Some(user)).await.unwrap().unwrap();
    view.hand
        .iter()
        .find_map(|h| h.token.clone())
        .or_else(|| view.buttons.iter().flatten().next().map(|b| b.token.clone()))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_way_in_refuses_what_is_not_yours_changes_nothing_and_leaks_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = Scene::new(&dir).await;
    let secret = play_secret(BOT_TOKEN);
    let (a, b) = (s.a, s.b);
    let now = now_s();
    let actor = s.people_a[to_act(&s.bot.host, a).await].id.clone();
    let idle = s
        .people_a
        .iter()
        .map(|p| p.id.clone())
        .find(|p| *p != actor)
        .unwrap();
    let good = play_key(&secret, a, &actor, now + 3600);
    let token = offered(&s.bot, a, &actor)
        .await
        .expect("the actor has a decision");

    // Keys: forged (another bot), expired, altered, another table's, no key; through the
    // page, the feed and a tap.
    let (expiry, rest) = good.split_once('.').unwrap();
    let keys = [
        ("forged", play_key(&play_secret("9:other"), a, &actor, now + 3600)),
        ("expired", play_key(&secret, a, &actor, now - 1)),
        (
            "altered",
            format!("{}.{rest}", expiry.parse::<i64>().unwrap() + 1),
        ),
        ("other-table", play_key(&secret, b, &s.people_b[0].id, now + 3600)),
        ("none", String::new()),
    ];
    for (what, key) in &keys {
        let (page, feed) = (
            format!("/play/{}?k={key}", at(a)),
            format!("/play/{}/events?k={key}", at(a)),
        );
        refused!(s, format!("page, {what} key"), 401, get_body(&s.bot, &page));
        refused!(s, format!("feed, {what} key"), 401, get_body(&s.bot, &feed));
        refused!(s, format!("tap, {what} key"), 401, tap(&s.bot, a, key, &token));
    }
    // A good key on another table's address, or on the table's number.
    for path in [
        format!("/play/{}?k={good}", at(b)),
        format!("/play/{}/events?k={good}", at(b)),
        format!("/play/{a}?k={good}"),
        format!("/play/{a}/events?k={good}"),
    ] {
        refused!(s, format!("GET {path}"), 401, get_body(&s.bot, &path));
    }
    let on_number = format!("/play/{a}/press");
    refused!(s, "tap on the table's number", 401, async {
        let (status, v) = post_form(&s.bot, &on_number, &[("k", &good), ("token", &token)]).await;
        (status, v.to_string())
    });

    // Watchers tapping: a spectator's key, and a Mini App watcher's key (a member of the
    // chat, not seated): one status, 403.
    let spectator = play_key(&secret, a, "", now + 3600);
    refused!(s, "tap, spectator's key", 403, tap(&s.bot, a, &spectator, &token));
    s.platform
        .members
        .lock()
        .unwrap()
        .push((GROUP_A.into(), "777".into()));
    let (status, body) = open_session(&s.bot, &init_data(BOT_TOKEN, 777, now - 60, &at(a))).await;
    assert_eq!(status, 200, "a member of the chat may watch: {body}");
    let url: serde_json::Value = serde_json::from_str(&body).unwrap();
    let member_key = url["url"]
        .as_str()
        .unwrap()
        .split("k=")
        .nth(1)
        .unwrap()
        .split('&')
        .next()
        .unwrap()
        .to_string();
    let (status, page, _) = get(&s.bot, &format!("/play/{}?k={member_key}", at(a))).await;
    assert_eq!(status, 200);
    assert!(
        buttons(&page).is_empty(),
        "a watcher's page offers nothing:\n{page}"
    );
    refused!(
        s,
        "tap, Mini App watcher",
        403,
        tap(&s.bot, a, &member_key, &token)
    );

    // Wrong tokens from a seated key: one of another seat's turn, a lobby verb never offered
    // mid-game (it once made the seat leave with a blank name), another table's, an unknown
    // card, a token of an old version, garbage.
    let idle_key = play_key(&secret, a, &idle, now + 3600);
    let version = version_of(&s.bot.host, a).await;
    let wrong = [
        ("another seat's turn", idle_key.clone(), token.clone()),
        (
            "a lobby verb",
            idle_key.clone(),
            stikis_host::token::Token::new(a, version, "leave")
                .encode()
                .unwrap(),
        ),
        (
            "a lobby verb, old version",
            good.clone(),
            stikis_host::token::Token::new(a, 0, "leave").encode().unwrap(),
        ),
        (
            "another table's",
            good.clone(),
            stikis_host::token::Token::new(b, version_of(&s.bot.host, b).await, "b:take")
                .encode()
                .unwrap(),
        ),
        (
            "a card not in the hand",
            good.clone(),
            stikis_host::token::Token::new(a, version, "p:XX")
                .encode()
                .unwrap(),
        ),
        (
            "another version",
            good.clone(),
            stikis_host::token::Token::new(a, version + 1, action(&token))
                .encode()
                .unwrap(),
        ),
        ("garbage", good.clone(), "not a token".to_string()),
    ];
    for (what, key, tok) in &wrong {
        refused!(s, format!("tap, {what}"), 409, tap(&s.bot, a, key, tok));
    }
    // The seat is still a person's, not handed to a computer player.
    let view = s
        .bot
        .host
        .table_view(a, Some(idle.as_str()))
        .await
        .unwrap()
        .unwrap();
    assert!(view.seats.iter().all(|x| !x.away), "no seat went away");

    // Malformed requests: answered as the site does (JSON for taps and sessions, a page for
    // the pages), in the browser's language.
    let (press_at, twice) = (
        format!("/play/{}/press", at(a)),
        format!("k={good}&k={good}&token={token}"),
    );
    let form = "application/x-www-form-urlencoded";
    refused!(
        s,
        "tap, a field twice",
        400,
        raw(&s.bot, "POST", &press_at, form, &twice)
    );
    refused!(
        s,
        "tap, not a form",
        400,
        raw(&s.bot, "POST", &press_at, "application/json", "{}")
    );
    let page_twice = format!("/play/{}?k=1&k=2", at(a));
    refused!(
        s,
        "page, a field twice",
        400,
        raw(&s.bot, "GET", &page_twice, "text/plain", "")
    );
    let (status, body) = raw(&s.bot, "POST", "/play/app/session", "text/plain", "x").await;
    assert_eq!(status, 400);
    let said: serde_json::Value = serde_json::from_str(&body).expect("a JSON answer");
    assert_eq!(said["error"], t(Lang::En, "play-bad-request", &[]), "in English");
    let (status, html) = raw(
        &s.bot,
        "GET",
        &format!("/play/{}?k=1&k=2", at(a)),
        "text/plain",
        "",
    )
    .await;
    assert_eq!(status, 400);
    assert!(
        html.contains("<html") && html.contains(&t(Lang::En, "play-bad-request", &[])),
        "the site's page, in English:\n{html}"
    );

    // The Mini App: forged, expired, replayed with another table's name written in, a number
    // for a name, another chat's table, a non-member, a closed table.
    let in_a = init_data(BOT_TOKEN, actor.parse().unwrap(), now - 60, &at(a));
    let sessions = [
        (
            "forged",
            init_data("9:other", actor.parse().unwrap(), now - 60, &at(a)),
            401,
        ),
        (
            "expired",
            init_data(BOT_TOKEN, actor.parse().unwrap(), now - 3 * 86_400, &at(a)),
            401,
        ),
        (
            "replayed for another table",
            in_a.replacen(&at(a), &at(b), 1),
            401,
        ),
        (
            "a number",
            init_data(BOT_TOKEN, actor.parse().unwrap(), now - 60, &a.to_string()),
            403,
        ),
        (
            "another chat's table",
            init_data(BOT_TOKEN, actor.parse().unwrap(), now - 60, &at(b)),
            403,
        ),
        ("a stranger", init_data(BOT_TOKEN, 999, now - 60, &at(a)), 403),
        ("no table", init_data(BOT_TOKEN, 999, now - 60, ""), 403),
    ];
    for (what, init, want) in &sessions {
        refused!(s, format!("session, {what}"), *want, open_session(&s.bot, init));
    }
    // One answer whether or not the table exists: a stranger asking for a real table and
    // for a made-up one are told the same.
    let real = open_session(&s.bot, &init_data(BOT_TOKEN, 999, now - 60, &at(a))).await;
    let made_up = open_session(&s.bot, &init_data(BOT_TOKEN, 999, now - 60, &"ab".repeat(16))).await;
    assert_eq!(real, made_up, "a refusal does not tell whether the table exists");

    // The seated person's own session opens their seat, and their tap is made in their name.
    let (status, body) = open_session(&s.bot, &in_a).await;
    assert_eq!(status, 200, "{body}");
    let (status, reply) = tap(&s.bot, a, &good, &token).await;
    assert_eq!(status, 200, "{reply}");
    assert!(
        to_chat(&mut s.bot, &mut s.screen) > 0,
        "the tap showed the chat the move"
    );
    // The same tap again (a replay) is out of date and changes nothing.
    refused!(s, "tap, replayed", 409, tap(&s.bot, a, &good, &token));

    // A closed table: the Mini App answers as for a stranger.
    let gb = ChatRef::new(stikis_host::store::Platform::Telegram, GROUP_B, GROUP_B);
    send(&s.bot.host, &mut s.screen, gb, &s.people_b[0], Command::Stop).await;
    to_chat(&mut s.bot, &mut s.screen);
    let closed = open_session(
        &s.bot,
        &init_data(BOT_TOKEN, s.people_b[0].id.parse().unwrap(), now - 60, &at(b)),
    )
    .await;
    assert_eq!(closed, made_up, "a closed table is refused as a made-up one");
    eprintln!("adversarial cases refused: {}", s.cases);
    assert!(s.cases >= 40, "the suite ran its cases ({})", s.cases);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_scan_of_table_numbers_and_references_finds_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = Scene::new(&dir).await;
    let secret = play_secret(BOT_TOKEN);
    let now = now_s();
    // The scanner has a seat of their own at table A, and a key for it.
    let own = play_key(&secret, s.a, &s.people_a[0].id, now + 3600);
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let mut refs: Vec<String> = (1..=40).map(|n| n.to_string()).collect();
    refs.extend((0..40).map(|_| {
        (0..32)
            .map(|_| char::from_digit(rng.random_range(0..16), 16).unwrap())
            .collect::<String>()
    }));
    let mut tried = 0;
    for r in &refs {
        for path in [
            format!("/play/{r}"),
            format!("/play/{r}?k={own}"),
            format!("/play/{r}/events?k={own}"),
        ] {
            refused!(s, format!("scan GET {path}"), 401, get_body(&s.bot, &path));
            tried += 1;
        }
        let init = init_data(BOT_TOKEN, 999, now - 60, r);
        refused!(s, format!("scan session {r}"), 403, open_session(&s.bot, &init));
        tried += 1;
    }
    assert_eq!(tried, refs.len() * 4);
    // The platform was asked about nobody: no reference named a table.
    assert_eq!(s.platform.calls.load(Ordering::SeqCst), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn membership_is_asked_of_the_platform_once_and_kept_briefly() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = Scene::new(&dir).await;
    let now = now_s();
    let a = s.a;
    // Seated people and people the store knows in the chat (they played at group B's table
    // and sit nowhere here: known only in B) are not asked about.
    for p in &s.people_a.clone() {
        let (status, body) = open_session(
            &s.bot,
            &init_data(BOT_TOKEN, p.id.parse().unwrap(), now - 60, &at(a)),
        )
        .await;
        assert_eq!(status, 200, "{}: {body}", p.name);
    }
    assert_eq!(
        s.platform.calls.load(Ordering::SeqCst),
        0,
        "seated people are not asked about"
    );
    // A member the store does not know: the platform is asked once, however often they open
    // the table within the cache's time.
    s.platform
        .members
        .lock()
        .unwrap()
        .push((GROUP_A.into(), "555".into()));
    for _ in 0..10 {
        let (status, body) = open_session(&s.bot, &init_data(BOT_TOKEN, 555, now - 60, &at(a))).await;
        assert_eq!(status, 200, "{body}");
    }
    assert_eq!(
        s.platform.calls.load(Ordering::SeqCst),
        1,
        "one call for ten pages"
    );
    // A non-member is asked about once too, and refused each time.
    for _ in 0..5 {
        let init = init_data(BOT_TOKEN, 556, now - 60, &at(a));
        refused!(s, "a non-member", 403, open_session(&s.bot, &init));
    }
    assert_eq!(
        s.platform.calls.load(Ordering::SeqCst),
        2,
        "one more call for five refusals"
    );
    // Group B's players are members of group B only.
    let b_player: i64 = s.people_b[1].id.parse().unwrap();
    let init = init_data(BOT_TOKEN, b_player, now - 60, &at(a));
    refused!(s, "another chat's player", 403, open_session(&s.bot, &init));
    assert_eq!(s.platform.calls.load(Ordering::SeqCst), 3);
}

/// While a computer player holds a seat for its away owner, the owner's page offers "I'm
/// back" (as the group's message does); a tap on it gives the seat back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_away_seat_gets_i_am_back_on_its_page() {
    let dir = tempfile::tempdir().unwrap();
    let s = Scene::new(&dir).await;
    let (a, secret) = (s.a, play_secret(BOT_TOKEN));
    let anna = s.people_a[0].clone();
    let store = s.bot.host.store().clone();
    let key = play_key(&secret, a, &anna.id, now_s() + 3600);
    let (_, page, _) = get(&s.bot, &format!("/play/{}?k={key}", at(a))).await;
    let is_back = |token: &String| action(token) == "back";
    assert!(
        !buttons(&page).iter().any(|(_, tok)| is_back(tok)),
        "no \"I'm back\" while the seat is hers:\n{page}"
    );
    // She is marked away (as too many timeouts do), and the bot starts again from the store.
    assert!(store.set_away(a, 0, true).await.unwrap());
    let platform = s.platform.clone();
    s.bot.web.stop().await;
    let bot = start_bot_with(&store, platform).await;
    let (status, page, _) = get(&bot, &format!("/play/{}?k={key}", at(a))).await;
    assert_eq!(status, 200);
    let (_, token) = buttons(&page)
        .into_iter()
        .find(|(_, tok)| is_back(tok))
        .unwrap_or_else(|| panic!("her page offers \"I'm back\":\n{page}"));
    assert!(
        page.contains(&t(Lang::Lv, "button-back", &[])) || page.contains(&t(Lang::En, "button-back", &[])),
        "with its words:\n{page}"
    );
    let (status, reply) = press(&bot, a, &key, &token).await;
    assert_eq!(status, 200, "{reply}");
    let view = bot
        .host
        .table_view(a, Some(anna.id.as_str()))
        .await
        .unwrap()
        .unwrap();
    assert!(!view.seats[0].away, "the seat is hers again");
    assert!(!view.offers(&token), "and \"I'm back\" is no longer offered");
}

/// Browsers ask every site for `/favicon.ico`: it is the site's icon, not a 404 in the log.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_site_has_an_icon() {
    let dir = tempfile::tempdir().unwrap();
    let store = sqlite(&dir, "icon.db").await;
    let bot = start_bot(&store).await;
    for path in ["/favicon.ico", "/favicon.svg"] {
        let (status, body, headers) = get(&bot, path).await;
        assert_eq!(status, 200, "{path}");
        assert_eq!(headers["content-type"], "image/svg+xml", "{path}");
        assert!(body.starts_with("<svg"), "{path}: {body}");
    }
    let (_, page, _) = get(&bot, "/play/app").await;
    assert!(page.contains("rel=\"icon\""), "pages name the icon:\n{page}");
}
