//! The web face's handlers, called through its router: the community page with its boards and
//! games, the game viewer against the table's record, the record download, the link a chat is
//! given (`/web`) and its rotation, and 404s for everything else: bad tokens, another
//! community's tables, running tables, a deal still in play, malformed paths.

use crate::browser;
use crate::common;

use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request as HttpRequest, StatusCode};
use browser::*;
use common::*;
use serde_json::{json, Value};
use stikis_core::ai::Level;
use stikis_host::store::{ChatRef, CommunityRef, Platform, Store};
use stikis_host::{Command, Host, HostConfig, TournamentVerb, User};
use tower::ServiceExt;

const BASE: &str = "https://cards.example.org";

fn web_config() -> HostConfig {
    HostConfig {
        web_url: Some(BASE.into()),
        ..config()
    }
}

struct Page {
    status: StatusCode,
    body: String,
    cache: String,
}

async fn get(store: &Store, uri: &str) -> Page {
    let app = stikis_web::router(store.clone());
    let res = app
        .oneshot(HttpRequest::get(uri).body(Body::empty()).unwrap())
        .await
        .unwrap();
    let status = res.status();
    let cache = res
        .headers()
        .get("cache-control")
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    let bytes = axum::body::to_bytes(res.into_body(), 10 << 20).await.unwrap();
    Page {
        status,
        body: String::from_utf8(bytes.to_vec()).unwrap(),
        cache,
    }
}

/// The path of a link the bot gave (`https://cards.example.org/c/<token>/...`).
fn path_of(text: &str) -> String {
    let start = text.find(BASE).unwrap_or_else(|| panic!("no link in {text:?}")) + BASE.len();
    text[start..].split_whitespace().next().unwrap().to_string()
}

/// A table of `game` with Anna, Bruno and computer players in its other seats, played by the
/// people's presses until `deals` deals are finished and the next one has begun (when the game
/// goes on); the table is left running.
async fn play_table(
    host: &Arc<Host>,
    g: ChatRef,
    game: &str,
    rules: Option<Value>,
    seats: usize,
    deals: usize,
) -> Table {
    let mut screen = Screen::default();
    let admin = user("admin", true);
    send(host, &mut screen, g.clone(), &admin, Command::SetTurnLimit(None)).await;
    let people = vec![user("anna", false), user("bruno", false)];
    send(
        host,
        &mut screen,
        g.clone(),
        &people[0],
        Command::NewTable {
            game: game.into(),
            rules,
            seats: Some(seats),
        },
    )
    .await;
    let table = table_id(&screen);
    let join = screen.lobby_token("join");
    send(host, &mut screen, g.clone(), &people[1], Command::press(join)).await;
    for _ in 2..seats {
        send(
            host,
            &mut screen,
            g.clone(),
            &people[0],
            Command::AddBot { level: Level::Basic },
        )
        .await;
    }
    send(host, &mut screen, g.clone(), &people[0], Command::Start).await;
    let mut t = Table {
        host: host.clone(),
        screen,
        table,
        people,
        g,
        checked: 0,
        finish: None,
        rng: 5,
    };
    let mut presses = 0;
    while t.deals_done() < deals && t.finish.is_none() {
        assert!(
            step(&mut t).await,
            "{game}: nobody can act after {presses} presses:\n{:?}",
            t.screen.posts.last()
        );
        presses += 1;
        assert!(presses < 3_000, "the table does not progress");
    }
    // The next deal's first move, so that its hands are in the log.
    if t.finish.is_none() {
        step(&mut t).await;
    }
    t
}

async fn zole_table(host: &Arc<Host>, g: ChatRef, deals: usize) -> Table {
    play_table(host, g, "zole", None, 3, deals).await
}

/// The texts of a viewer page's step captions, in order.
fn captions(body: &str) -> Vec<String> {
    body.split("<p class=\"caption\">")
        .skip(1)
        .map(|s| s.split("</p>").next().unwrap().to_string())
        .collect()
}

/// A deal's viewer page against the record deal it shows: a step per action and one for the
/// deal as dealt; each play captioned by its player and card; as many tricks taken as the
/// deal has, each by the seat that leads the next one.
fn check_viewer(body: &str, deal: &Value, players: &[String], active: usize) {
    let actions = deal["actions"].as_array().unwrap();
    let caps = captions(body);
    assert_eq!(caps.len(), actions.len() + 1, "{caps:?}");
    let mut plays = 0;
    for (a, cap) in actions.iter().zip(&caps[1..]) {
        let who = &players[a["seat"].as_u64().unwrap() as usize];
        assert!(cap.starts_with(who.as_str()), "{cap} is not {who}'s: {a}");
        if let Some(card) = a["play"].as_str() {
            plays += 1;
            let c: stikis_core::cards::Card = card.parse().unwrap();
            let shown = stikis_web::card_text(c);
            assert!(cap.starts_with(&format!("{who} plays {shown}.")), "{cap} for {a}");
        }
    }
    let won: Vec<(usize, &str)> = caps
        .iter()
        .enumerate()
        .filter_map(|(i, c)| {
            let (_, after) = c.split_once(". ")?;
            Some((i, after.strip_suffix(" takes the trick.")?))
        })
        .collect();
    assert_eq!(won.len(), plays / active, "{caps:?}");
    for (i, winner) in &won {
        if let Some(next) = caps[i + 1..].iter().find(|c| c.contains(" plays ")) {
            assert!(next.starts_with(winner), "{winner} took the trick, but {next}");
        }
    }
}

/// The cards of one seat's hand in a viewer step, in the order the page shows them.
/// The score sheet's player or side columns, as the page writes them.
fn score_columns(body: &str) -> Vec<String> {
    let sheet = body
        .split(r#"<table class="score">"#)
        .nth(1)
        .expect("a score sheet");
    let head = sheet.split("</thead>").next().unwrap();
    head.split(r#"<th class="n">"#)
        .skip(1)
        .map(|c| c.split("</th>").next().unwrap().to_string())
        .collect()
}

fn hand_shown(body: &str, step: usize, seat: usize) -> Vec<String> {
    let from = body.find(&format!("data-step=\"{step}\"")).unwrap();
    let to = body[from..].find("data-step=\"").map_or(body.len(), |_| {
        body[from + 1..]
            .find("data-step=\"")
            .map_or(body.len(), |i| from + 1 + i)
    });
    let step_html = &body[from..to];
    let at = step_html
        .find(&format!("data-seat=\"{seat}\""))
        .unwrap_or_else(|| panic!("no seat {seat} in step {step}"));
    let seat_html = &step_html[at..];
    let seat_html = &seat_html[..seat_html[1..]
        .find("data-seat=")
        .map_or(seat_html.len(), |i| i + 1)];
    seat_html
        .split("data-card=\"")
        .skip(1)
        .map(|s| s.split('"').next().unwrap().to_string())
        .collect()
}

/// A viewer page tells the deal as a player would: hands in the order the game's players hold
/// them, a seat that sits the deal out said so, the declarer marked, Zole's talon and burial
/// (Belote's turned card) beside the hands, every bid and exchange in words, and the deal's
/// result told with its points.
fn check_told(game: &str, body: &str, deal: &Value, result: &Value, players: &[String]) {
    use stikis_core::cards::{Card, CardSet};
    let hands = deal["hands"].as_array().unwrap();
    for (seat, hand) in hands.iter().enumerate() {
        let cards: Vec<String> = hand
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap().to_string())
            .collect();
        let shown = hand_shown(body, 0, seat);
        if cards.is_empty() {
            assert!(
                shown.is_empty(),
                "{game}: seat {seat} sits out but shows {shown:?}"
            );
            let at = body.find(&format!("data-seat=\"{seat}\"")).unwrap();
            assert!(
                body[at..]
                    .split("</div></div>")
                    .next()
                    .unwrap()
                    .contains("sits this deal out"),
                "{game}: seat {seat}"
            );
            continue;
        }
        let mut expected = cards.clone();
        expected.sort();
        let mut got = shown.clone();
        got.sort();
        assert_eq!(got, expected, "{game}: seat {seat}'s hand");
        if game == "zole" {
            let set: CardSet = cards.iter().map(|c| c.parse::<Card>().unwrap()).collect();
            let order: Vec<String> = stikis_host::games::zole::sorted(set)
                .iter()
                .map(Card::to_string)
                .collect();
            assert_eq!(shown, order, "zole: seat {seat}'s hand is not trumps first");
        }
    }
    // Zole and Belote name a declarer (null when all passed); Polt has none. A renamed key
    // fails here rather than skipping the check.
    let declarer = match (game, result.get("declarer")) {
        ("polt", None) => None,
        (_, Some(Value::Null)) if game != "polt" => None,
        (_, Some(d)) if game != "polt" => Some(d.as_u64().unwrap_or_else(|| panic!("{game}: declarer {d}"))),
        (_, other) => panic!("{game}: the result's declarer is {other:?}: {result}"),
    };
    if let Some(d) = declarer {
        assert!(
            body.contains(&format!("declarer\" data-seat=\"{d}\"")),
            "{game}: the declarer {d} is not marked"
        );
        // The steps after the bidding say the contract and who made it, as the table did.
        let who = &players[d as usize];
        assert!(
            body.split("<p class=\"contract\">Contract: ").skip(1).any(|p| p
                .split("</p>")
                .next()
                .unwrap()
                .ends_with(&format!(", {who}"))),
            "{game}: no step says the contract with its declarer {who}"
        );
    }
    // Bids are said in the table's words on the steps after them.
    if deal["actions"]
        .as_array()
        .unwrap()
        .iter()
        .any(|a| a.get("bid").is_some())
    {
        assert!(body.contains("<p class=\"bids\">Bidding: "), "{game}: no bidding");
    }
    let talon = deal["talon"].as_array().cloned().unwrap_or_default();
    if !talon.is_empty() {
        assert!(
            body.contains("<span class=\"label\">Talon</span>"),
            "zole: no talon"
        );
        for c in &talon {
            assert!(body.contains(&format!("data-card=\"{}\"", c.as_str().unwrap())));
        }
        for a in deal["actions"].as_array().unwrap() {
            if let Some(b) = a["bury"].as_array() {
                let who = &players[a["seat"].as_u64().unwrap() as usize];
                assert!(body.contains(&format!("Buried by {who}")), "zole: no burial");
                let cards: Vec<String> = b
                    .iter()
                    .map(|c| stikis_web::card_text(c.as_str().unwrap().parse().unwrap()))
                    .collect();
                assert!(
                    captions(body)
                        .iter()
                        .any(|c| c.starts_with(&format!("{who} buries "))
                            && cards.iter().all(|x| c.contains(x.as_str()))),
                    "zole: the burial is not told"
                );
            }
        }
    }
    if deal.get("turned").is_some() {
        assert!(
            body.contains(&format!(
                "<span class=\"label\">Turned card: {}</span>",
                stikis_web::card_text(deal["turned"].as_str().unwrap().parse().unwrap())
            )),
            "{game}: no turned card"
        );
    }
    // Every action that is not a card is told in words, never as the record's raw field.
    for (a, cap) in deal["actions"]
        .as_array()
        .unwrap()
        .iter()
        .zip(&captions(body)[1..])
    {
        let Some((key, value)) = a.as_object().unwrap().iter().find(|(k, _)| *k != "seat") else {
            continue;
        };
        if key == "play" {
            continue;
        }
        // Card codes (`4H`), bids with a level or a suit letter (`9 H`, `small_zole`) and
        // lists (`["AH","10H"]`) read as the table says them: cards as J♥, suits as ♥.
        let raw: Vec<String> = match value {
            Value::Array(a) => a.iter().filter_map(|c| c.as_str().map(str::to_string)).collect(),
            Value::String(v) if v.chars().any(|c| c.is_ascii_digit() || c == '_') || v.len() == 1 => {
                vec![v.clone()]
            }
            _ => Vec::new(),
        };
        for r in raw {
            let spaced = format!(" {r}");
            assert!(
                !cap.contains(&spaced) && !cap.contains(&format!("{key} ")),
                "{game}: {cap:?} tells {a} raw"
            );
        }
    }
    let told = body
        .split("<section class=\"told\">")
        .nth(1)
        .unwrap_or_else(|| panic!("{game}: the deal's result is not told"));
    let told = told.split("</section>").next().unwrap();
    if let Some(d) = declarer {
        assert!(told.contains(players[d as usize].as_str()), "{game}: {told}");
    }
    // Zole tells card points, Belote team points, Polt tricks: one of them is always there.
    let told_keys: Vec<&str> = ["card_points", "team_points", "tricks"]
        .into_iter()
        .filter(|k| result[*k].is_array())
        .collect();
    assert!(
        !told_keys.is_empty(),
        "{game}: a result with no points or tricks: {result}"
    );
    for key in ["card_points", "team_points"] {
        if let Some(points) = result[key].as_array() {
            assert!(
                points
                    .iter()
                    .filter(|p| p.as_i64() != Some(0))
                    .all(|p| told.contains(&p.to_string())),
                "{game}: {key} {points:?} are not told in {told}"
            );
        }
    }
}

/// Waits (up to two minutes) until the background analysis of a table's `deals` deals is
/// stored; returns it.
async fn analysed(store: &Store, table: i64, deals: usize) -> Vec<Value> {
    let start = std::time::Instant::now();
    loop {
        let mut all = Vec::new();
        for d in 1..=deals {
            all.extend(store.analysis(table, d).await.unwrap());
        }
        if all.len() == deals {
            eprintln!("table {table}: {deals} deals analysed in {:?}", start.elapsed());
            return all;
        }
        assert!(start.elapsed().as_secs() < 120, "table {table} is not analysed");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

/// A viewer page's analysis against the record deal: a line per card played (where the
/// contract has a solver), the played card among the options, the best at 0, the cost the
/// played card's distance from it; the summary the sum of the costs per player.
fn check_analysis(body: &str, deal: &Value, analysis: &Value, players: &[String]) {
    let actions = deal["actions"].as_array().unwrap();
    let judged = analysis.as_array().unwrap();
    assert_eq!(judged.len(), actions.len());
    let mut lost = vec![0i64; players.len()];
    let mut lines = 0;
    for (a, j) in actions.iter().zip(judged) {
        if j.is_null() {
            continue;
        }
        lines += 1;
        assert_eq!(j["played"], a["play"], "{j}");
        assert_eq!(j["seat"], a["seat"]);
        let options = j["options"].as_array().unwrap();
        assert_eq!(options[0][1], 0, "the best option first: {j}");
        let played = options
            .iter()
            .find(|o| o[0] == a["play"])
            .expect("the played card is an option");
        assert_eq!(j["cost"].as_i64().unwrap(), -played[1].as_i64().unwrap());
        lost[a["seat"].as_u64().unwrap() as usize] += j["cost"].as_i64().unwrap();
    }
    assert_eq!(body.matches("<p class=\"dd\">").count(), lines);
    if lines == 0 {
        assert!(
            body.contains("There is no double-dummy analysis"),
            "no analysis said"
        );
        return;
    }
    assert!(body.contains("Lost to mistakes"));
    for (seat, n) in lost.iter().enumerate() {
        if actions
            .iter()
            .any(|a| a["seat"] == seat && a.get("play").is_some())
        {
            let row = format!(
                "<tr data-seat=\"{seat}\"><td>{}</td><td class=\"n\">{n}</td>",
                players[seat]
            );
            assert!(body.contains(&row), "{row}");
        }
    }
}

fn hex_token(path: &str) -> String {
    path.split('/').nth(2).unwrap().to_string()
}

#[tokio::test]
async fn a_community_page_shows_its_boards_and_games_and_a_viewer_shows_every_finished_deal() {
    let dir = tempfile::tempdir().unwrap();
    let store = sqlite(&dir, "web.db").await;
    let (host, _events) = Host::new(store.clone(), web_config());
    let g = chat("g");
    let mut t = zole_table(&host, g.clone(), 2).await;
    let anna = t.people[0].clone();
    let stopped = send(&host, &mut t.screen, g.clone(), &anna, Command::Stop).await;
    // The closing post links the game's page.
    let closing = stopped
        .0
        .iter()
        .map(|o| o.text().to_string())
        .find(|x| x.contains(BASE))
        .expect("the closing post links the game");
    let game_path = path_of(&closing);
    assert_eq!(game_path, format!("/c/{}/g/{}", hex_token(&game_path), t.table));

    // `/web` gives the same community link; `/top` and `/stats` carry it too.
    let out = send(
        &host,
        &mut t.screen,
        g.clone(),
        &anna,
        Command::WebLink { rotate: false },
    )
    .await;
    let community = path_of(out.reply_text().unwrap());
    assert_eq!(community, format!("/c/{}/", hex_token(&game_path)));
    for command in [Command::Stats, Command::Leaderboard(stikis_host::Board::Rating)] {
        let out = send(&host, &mut t.screen, g.clone(), &anna, command).await;
        assert_eq!(path_of(out.reply_text().unwrap()), community);
    }

    // The community page: this season's points of Anna and Bruno, the ratings, the game.
    let page = get(&store, &community).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    assert!(page.cache.starts_with("private"), "{}", page.cache);
    for want in [
        "ANNA",
        "BRUNO",
        "Zole: points",
        "Zole: ratings",
        &format!("g/{}", t.table),
    ] {
        assert!(page.body.contains(want), "{want} missing:\n{}", page.body);
    }
    // Every period's tab answers; a season that does not exist is a 404.
    for p in ["day", "week", "month", "season", "all", "season1"] {
        let page = get(&store, &format!("{community}?p={p}")).await;
        assert_eq!(page.status, StatusCode::OK, "{p}");
        assert!(page.body.contains("ANNA"), "{p}");
    }
    assert_eq!(
        get(&store, &format!("{community}?p=season0")).await.status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        get(&store, &format!("{community}?p=yesterday")).await.status,
        StatusCode::NOT_FOUND
    );
    // The language follows the community, and `lang` switches it.
    let lv = get(&store, &format!("{community}?lang=lv")).await;
    assert!(lv.body.contains("Pēdējās spēles") && lv.body.contains("lang=\"lv\""));
    let ru = get(&store, &format!("{community}?lang=ru")).await;
    assert!(ru.body.contains("Последние игры"));

    // The record download: the two finished deals with their seeds, not the third.
    let rec = get(&store, &format!("{game_path}/record.json")).await;
    assert_eq!(rec.status, StatusCode::OK);
    let rec: Value = serde_json::from_str(&rec.body).unwrap();
    let deals = rec["deals"].as_array().unwrap();
    assert_eq!(deals.len(), 2);
    let log = log_of(&host, t.table).await;
    assert_eq!(log["deals"].as_array().unwrap().len(), 3, "deal 3 was in play");
    for (i, d) in deals.iter().enumerate() {
        assert_eq!(d["hands"], log["deals"][i]["hands"]);
        assert_eq!(d["actions"], log["deals"][i]["actions"]);
        assert_eq!(d["seed"].as_str().unwrap().len(), 64);
    }
    let replayed = stikis_core::record::replay(rec.to_string().as_bytes()).expect("it replays");
    let players: Vec<String> = serde_json::from_value(rec["players"].clone()).unwrap();

    // The viewer: one step per action plus the deal as dealt, each play named in order, the
    // seed, its commitment and the replay check shown.
    for (i, d) in deals.iter().enumerate() {
        let page = get(&store, &format!("{game_path}/{}", i + 1)).await;
        assert_eq!(page.status, StatusCode::OK);
        if i == 0 {
            assert!(
                page.body.contains("being computed"),
                "the first view starts the analysis"
            );
            assert_eq!(page.cache, "no-store");
        }
        let actions = d["actions"].as_array().unwrap();
        assert_eq!(page.body.matches("class=\"step\"").count(), actions.len() + 1);
        let seed = d["seed"].as_str().unwrap();
        assert!(page.body.contains(seed));
        let commitment = stikis_host::table::commitment(&seed.parse().unwrap());
        assert!(page.body.contains(&commitment));
        assert!(page.body.contains("✓ Checked"), "{}", page.body);
        assert!(page
            .body
            .contains(&format!("stikis replay stikis-zole-{}.json", t.table)));
        // Each card played shows in the step that plays it, in the record's order.
        let mut at = 0;
        for a in actions.iter().filter(|a| a.get("play").is_some()) {
            let card = a["play"].as_str().unwrap();
            let found = page.body[at..]
                .find(&format!("data-card=\"{card}\""))
                .unwrap_or_else(|| panic!("{card} is not shown after byte {at}"));
            at += found;
        }
        // The score row of the deal: the replay's deltas summed, each with its delta.
        let first: i64 = (0..=i)
            .map(|k| replayed["deals"][k]["deltas"][0].as_i64().unwrap())
            .sum();
        let delta = replayed["deals"][i]["deltas"][0].as_i64().unwrap();
        let cell = format!(
            ">{first} <small>({}{delta})</small>",
            if delta > 0 { "+" } else { "" }
        );
        assert!(page.body.contains(&cell), "{cell} not in the score");
        // Each deal's row says the pules on the sheet after it.
        let common = replayed["deals"][i]["pules"]["common"].as_u64().unwrap();
        let pules = format!("<td class=\"pules\">common {common}");
        assert!(page.body.contains(&pules), "{pules} not in the score");
    }
    // Shown first without it, the double-dummy analysis is computed in the background, once;
    // then every card played is judged on the page.
    let analysis = analysed(&store, t.table, 2).await;
    for (i, d) in deals.iter().enumerate() {
        let page = get(&store, &format!("{game_path}/{}", i + 1)).await;
        check_analysis(&page.body, d, &analysis[i], &players);
        assert!(!page.body.contains("being computed"));
    }
    // The first deal's page is also the game's own link.
    let first = get(&store, &game_path).await;
    assert_eq!(first.body, get(&store, &format!("{game_path}/1")).await.body);
    // Deal 3 was being played when the table stopped: never shown.
    assert_eq!(
        get(&store, &format!("{game_path}/3")).await.status,
        StatusCode::NOT_FOUND
    );
}

#[tokio::test]
async fn links_are_secret_rotatable_and_everything_else_is_a_404() {
    let dir = tempfile::tempdir().unwrap();
    let store = sqlite(&dir, "web.db").await;
    let (host, _events) = Host::new(store.clone(), web_config());
    let g = chat("g");
    let mut t = zole_table(&host, g.clone(), 1).await;
    let anna = t.people[0].clone();
    send(&host, &mut t.screen, g.clone(), &anna, Command::Stop).await;
    let out = send(
        &host,
        &mut t.screen,
        g.clone(),
        &anna,
        Command::WebLink { rotate: false },
    )
    .await;
    let community = path_of(out.reply_text().unwrap());
    let game = format!("{community}g/{}", t.table);
    assert_eq!(get(&store, &game).await.status, StatusCode::OK);

    // Only an admin makes a new link; the chat is told it, and the old one stops working.
    let out = send(
        &host,
        &mut t.screen,
        g.clone(),
        &anna,
        Command::WebLink { rotate: true },
    )
    .await;
    assert!(!out.0.iter().any(|o| o.text().contains(BASE)), "{out:?}");
    assert_eq!(get(&store, &game).await.status, StatusCode::OK);
    let admin = User {
        name: "Admin".into(),
        ..user("admin", true)
    };
    let out = send(
        &host,
        &mut t.screen,
        g.clone(),
        &admin,
        Command::WebLink { rotate: true },
    )
    .await;
    let told = out
        .0
        .iter()
        .map(|o| o.text().to_string())
        .find(|x| x.contains(BASE))
        .expect("the chat is told the new link");
    assert!(told.starts_with("Admin made a new link"), "{told}");
    let fresh = path_of(&told);
    assert_ne!(fresh, community);
    let gone = get(&store, &game).await;
    assert_eq!(gone.status, StatusCode::NOT_FOUND);
    assert!(
        gone.body.contains("Not found") && gone.body.contains("/web new"),
        "{}",
        gone.body
    );
    assert_eq!(gone.cache, "no-store");
    let game = format!("{fresh}g/{}", t.table);
    assert_eq!(get(&store, &game).await.status, StatusCode::OK);

    // A table still running, another community's table, and malformed paths: 404s.
    let running = zole_table(&host, chat("h"), 1).await;
    let other = ChatRef::new(Platform::Discord, "guild-9", "c9");
    let mut foreign = zole_table(&host, other.clone(), 1).await;
    send(&host, &mut foreign.screen, other, &anna, Command::Stop).await;
    let token = hex_token(&fresh);
    let foreign_token = store
        .web_token(&CommunityRef::new(Platform::Discord, "guild-9"))
        .await
        .unwrap();
    assert_eq!(
        get(&store, &format!("/c/{foreign_token}/g/{}", foreign.table))
            .await
            .status,
        StatusCode::OK
    );
    for bad in [
        format!("/c/{token}/g/{}", running.table),
        format!("/c/{token}/g/{}/record.json", running.table),
        format!("/c/{token}/g/{}", foreign.table),
        format!("/c/{token}/g/{}/record.json", foreign.table),
        format!("/c/{token}/g/{}/0", t.table),
        format!("/c/{token}/g/{}/2", t.table),
        format!("/c/{token}/g/{}/x", t.table),
        format!("/c/{token}/g/abc"),
        format!("/c/{token}/g/99999999999999999999"),
        format!("/c/{token}/g/{}/1/more", t.table),
        format!("/c/{}/", "0".repeat(32)),
        "/c/short/".to_string(),
        "/c/%ZZ/".to_string(),
        "/nothing/here".to_string(),
        "/static/nothing.css".to_string(),
    ] {
        let page = get(&store, &bad).await;
        assert_eq!(page.status, StatusCode::NOT_FOUND, "{bad}");
        assert!(page.body.contains("<html"), "{bad}: {}", page.body);
    }
    assert!(get(&store, "/x?lang=lv").await.body.contains("Nav atrasts"));
    // The running table's hands never reach a page: the community page lists it not.
    let page = get(&store, &fresh).await;
    assert!(!page.body.contains(&format!("g/{}", running.table)));

    // The style sheet and the viewer's script are served.
    let css = get(&store, "/static/stikis.css").await;
    assert_eq!(css.status, StatusCode::OK);
    assert!(css.body.contains(".card"));
    assert!(get(&store, "/static/viewer.js").await.body.contains("ArrowRight"));

    // Without --web-url, /web says the bot has no pages.
    let (plain, _events) = Host::new(store.clone(), config());
    let out = plain
        .handle(stikis_host::Request {
            chat: g.clone(),
            user: anna.clone(),
            command: Command::WebLink { rotate: false },
        })
        .await;
    assert!(out.reply_text().unwrap().contains("--web-url"), "{out:?}");
}

/// One router, as a running bot has: its answers with the given request headers.
async fn ask(app: &axum::Router, uri: &str, headers: &[(&str, &str)]) -> axum::response::Response {
    let mut req = HttpRequest::get(uri);
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    app.clone()
        .oneshot(req.body(Body::empty()).unwrap())
        .await
        .unwrap()
}

async fn body_of(res: axum::response::Response) -> String {
    let bytes = axum::body::to_bytes(res.into_body(), 10 << 20).await.unwrap();
    String::from_utf8(bytes.to_vec()).unwrap()
}

/// A game page kept in memory is served under a new link (`/web new`) with the new link in
/// every link, and the old link finds nothing. Every answer carries the site's headers
/// (security policy, nosniff, no referrer), is compressed when the browser asks, is tagged
/// and answered 304 when the browser has it; a query the pages cannot read gets the site's
/// own error page.
#[tokio::test]
async fn a_new_link_renews_kept_pages_and_every_answer_has_the_sites_headers() {
    let dir = tempfile::tempdir().unwrap();
    let store = sqlite(&dir, "web.db").await;
    let (host, _events) = Host::new(store.clone(), web_config());
    let g = chat("g");
    let mut t = zole_table(&host, g.clone(), 1).await;
    let anna = t.people[0].clone();
    send(&host, &mut t.screen, g.clone(), &anna, Command::Stop).await;
    let out = send(
        &host,
        &mut t.screen,
        g.clone(),
        &anna,
        Command::WebLink { rotate: false },
    )
    .await;
    let old = hex_token(&path_of(out.reply_text().unwrap()));
    let app = stikis_web::router(store.clone());
    // Once analysed, the page is kept in memory.
    assert_eq!(
        ask(&app, &format!("/c/{old}/g/{}", t.table), &[]).await.status(),
        StatusCode::OK
    );
    analysed(&store, t.table, 1).await;
    for _ in 0..2 {
        let page = body_of(ask(&app, &format!("/c/{old}/g/{}", t.table), &[]).await).await;
        assert!(page.contains(&format!("/c/{old}/")), "{page}");
    }
    let fresh = store.rotate_web_token(&g.community_ref()).await.unwrap();
    let res = ask(&app, &format!("/c/{fresh}/g/{}", t.table), &[]).await;
    assert_eq!(res.status(), StatusCode::OK);
    let page = body_of(res).await;
    assert!(page.contains(&format!("/c/{fresh}/")), "{page}");
    assert!(
        !page.contains(&old),
        "the old link in a page under the new one: {page}"
    );
    let res = ask(&app, &format!("/c/{old}/g/{}", t.table), &[]).await;
    assert_eq!(res.status(), StatusCode::NOT_FOUND);

    // The community's latest games say when each ended (to the minute), each person's points
    // as the boards counted them, and how many deals finished: lines of one day and the same
    // players can be told apart.
    let (points, deals) = store.table_result(t.table).await.unwrap();
    assert_eq!(deals, 1);
    let row = store.table(t.table).await.unwrap().unwrap();
    let minutes = row.updated_ms.rem_euclid(86_400_000) / 60_000;
    let when = format!("{:02}:{:02} UTC", minutes / 60, minutes % 60);
    let board = body_of(ask(&app, &format!("/c/{fresh}/"), &[]).await).await;
    let line = board
        .lines()
        .flat_map(|l| l.split("<li>"))
        .find(|l| l.contains(&format!("g/{}", t.table)))
        .unwrap_or_else(|| panic!("no line for the table: {board}"));
    assert!(line.contains(&when), "{line}");
    assert!(line.contains("(1 deal)"), "{line}");
    for (user, p) in &points {
        let shown = if *p > 0 { format!("+{p}") } else { p.to_string() };
        assert!(
            line.contains(&format!("{} {shown}", user.to_uppercase())),
            "{line}"
        );
    }
    assert_eq!(points.len(), 2, "Anna and Bruno are counted: {points:?}");

    // Headers, on pages, errors and static files alike.
    let game = format!("/c/{fresh}/g/{}", t.table);
    for uri in [game.as_str(), "/", "/nothing", "/static/stikis.css"] {
        let res = ask(&app, uri, &[]).await;
        let h = res.headers();
        let csp = h.get("content-security-policy").expect(uri).to_str().unwrap();
        assert!(
            csp.contains("default-src 'none'") && csp.contains("script-src 'self'"),
            "{csp}"
        );
        assert_eq!(h.get("x-content-type-options").expect(uri), "nosniff");
        assert_eq!(h.get("referrer-policy").expect(uri), "no-referrer");
    }
    // Compressed when asked, and much smaller; plain otherwise.
    let plain = ask(&app, &game, &[]).await;
    assert!(plain.headers().get("content-encoding").is_none());
    let plain_len = body_of(plain).await.len();
    let gz = ask(&app, &game, &[("accept-encoding", "gzip")]).await;
    assert_eq!(gz.headers().get("content-encoding").unwrap(), "gzip");
    let gz_len = axum::body::to_bytes(gz.into_body(), 10 << 20)
        .await
        .unwrap()
        .len();
    assert!(gz_len * 4 < plain_len, "gzip {gz_len} of {plain_len} bytes");
    // Tagged; the same tag is answered 304 with no body, another tag gets the page.
    let res = ask(&app, &game, &[]).await;
    let tag = res
        .headers()
        .get("etag")
        .expect("an ETag")
        .to_str()
        .unwrap()
        .to_string();
    assert!(tag.starts_with("W/\""), "{tag}");
    let again = ask(&app, &game, &[("if-none-match", &tag)]).await;
    assert_eq!(again.status(), StatusCode::NOT_MODIFIED);
    assert!(body_of(again).await.is_empty());
    let other = ask(&app, &game, &[("if-none-match", "W/\"0123\"")]).await;
    assert_eq!(other.status(), StatusCode::OK);
    // The other language's page is another page, with another tag.
    let lv = ask(&app, &format!("{game}?lang=lv"), &[]).await;
    assert_ne!(lv.headers().get("etag").unwrap().to_str().unwrap(), tag);

    // A key given twice: the site's own page, not a line of plain text.
    for uri in [
        format!("/c/{fresh}/?lang=lv&lang=en"),
        format!("{game}?p=week&p=day"),
    ] {
        let res = ask(&app, &uri, &[]).await;
        assert_eq!(res.status(), StatusCode::BAD_REQUEST, "{uri}");
        assert!(res
            .headers()
            .get("content-type")
            .unwrap()
            .to_str()
            .unwrap()
            .starts_with("text/html"));
        let body = body_of(res).await;
        assert!(
            body.contains("<html") && body.contains("Bad address"),
            "{uri}: {body}"
        );
    }
}

#[tokio::test]
async fn the_viewer_follows_every_game() {
    let dir = tempfile::tempdir().unwrap();
    let store = sqlite(&dir, "web.db").await;
    let (host, _events) = Host::new(store.clone(), web_config());
    let games: [(&str, Option<Value>, usize, usize); 5] = [
        ("zole", Some(json!("lv")), 4, 3),
        ("belote-bazar", None, 4, 4),
        ("belote-classic", None, 4, 4),
        ("coinche", None, 4, 4),
        ("polt", Some(json!({"preset": "default", "hands": 2})), 5, 5),
    ];
    for (i, (game, rules, seats, active)) in games.into_iter().enumerate() {
        let g = chat(&format!("g{i}"));
        let mut t = play_table(&host, g.clone(), game, rules, seats, 2).await;
        let anna = t.people[0].clone();
        if t.finish.is_none() {
            send(&host, &mut t.screen, g.clone(), &anna, Command::Stop).await;
        }
        let out = send(
            &host,
            &mut t.screen,
            g.clone(),
            &anna,
            Command::WebLink { rotate: false },
        )
        .await;
        let game_path = format!("{}g/{}", path_of(out.reply_text().unwrap()), t.table);
        let rec: Value =
            serde_json::from_str(&get(&store, &format!("{game_path}/record.json")).await.body).unwrap();
        let players: Vec<String> = serde_json::from_value(rec["players"].clone()).unwrap();
        let deals = rec["deals"].as_array().unwrap();
        assert_eq!(deals.len(), t.deals_done(), "{game}");
        let replayed = stikis_core::record::replay(rec.to_string().as_bytes()).expect("the download replays");
        // The first view starts the analysis.
        assert!(get(&store, &game_path).await.body.contains("being computed"));
        let analysis = analysed(&store, t.table, deals.len()).await;
        // The score sheet has a column per side in a game of two sides of two, else one per
        // player.
        let sides = if seats == 4 && game != "zole" {
            vec![
                format!("{} &amp; {}", players[0], players[2]),
                format!("{} &amp; {}", players[1], players[3]),
            ]
        } else {
            players.clone()
        };
        let mut sums = vec![0i64; sides.len()];
        for (k, d) in deals.iter().enumerate() {
            let page = get(&store, &format!("{game_path}/{}", k + 1)).await;
            assert_eq!(page.status, StatusCode::OK, "{game}");
            assert_eq!(score_columns(&page.body), sides, "{game}");
            check_viewer(&page.body, d, &players, active);
            check_told(game, &page.body, d, &replayed["deals"][k], &players);
            check_analysis(&page.body, d, &analysis[k], &players);
            // The deal's row of the score: each column's total after it and its change, as
            // `stikis replay` scores the record (Polt to Tzar counts tricks).
            let key = if game == "polt" { "tricks" } else { "deltas" };
            for (i, sum) in sums.iter_mut().enumerate() {
                *sum += replayed["deals"][k][key][i].as_i64().expect("a delta");
            }
            let row = page
                .body
                .split("<tr class=\"current\">")
                .nth(1)
                .and_then(|r| r.split("</tr>").next())
                .expect("the deal's row of the score");
            let mut at = 0;
            for (i, sum) in sums.iter().enumerate() {
                let delta = replayed["deals"][k][key][i].as_i64().expect("a delta");
                let cell = format!(
                    ">{sum} <small>({}{delta})</small>",
                    if delta > 0 { "+" } else { "" }
                );
                at += row[at..]
                    .find(&cell)
                    .unwrap_or_else(|| panic!("{game} deal {}: {cell} not in the row {row}", k + 1));
            }
            let plays = d["actions"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|a| a.get("play").is_some())
                .count();
            let judged = analysis[k]
                .as_array()
                .unwrap()
                .iter()
                .filter(|j| !j.is_null())
                .count();
            match game {
                // Polt to Tzar has no solver; the others judge every card of a played contract
                // (Zole's galdiņš, every player against the others, is not judged).
                "polt" => assert_eq!(judged, 0),
                "zole" if replayed["deals"][k]["contract"] == "galdins" => assert_eq!(judged, 0),
                _ => assert_eq!(judged, plays, "{game}"),
            }
            // Trumps are marked once they are known (in a suit contract).
            let contract = replayed["deals"][k]["contract"]
                .as_str()
                .unwrap_or("")
                .to_string();
            let played = d["actions"]
                .as_array()
                .unwrap()
                .iter()
                .any(|a| a.get("play").is_some());
            if played && !contract.contains("NT") {
                assert!(
                    page.body.contains("card trump"),
                    "{game} {contract}: no trump marked"
                );
            }
        }
    }
}

#[tokio::test]
async fn an_admin_lists_the_pages_on_the_front_page_and_takes_them_off_with_a_new_link() {
    let dir = tempfile::tempdir().unwrap();
    let store = sqlite(&dir, "web.db").await;
    let (host, _events) = Host::new(store.clone(), web_config());
    let g = chat("g");
    let mut screen = Screen::default();
    let anna = user("anna", false);
    let admin = User {
        name: "Admin".into(),
        ..user("admin", true)
    };
    let public = |name: Option<&str>| Command::WebPublic {
        name: name.map(str::to_string),
    };
    let front = get(&store, "/").await;
    assert_eq!(front.status, StatusCode::OK);
    assert!(!front.body.contains("/c/"), "nothing is listed yet");
    let link = path_of(
        send(
            &host,
            &mut screen,
            g.clone(),
            &anna,
            Command::WebLink { rotate: false },
        )
        .await
        .reply_text()
        .unwrap(),
    );

    // Only an admin makes the pages public, under a name that fits.
    let out = send(&host, &mut screen, g.clone(), &anna, public(Some("Rīgas klubs"))).await;
    assert!(!out.0.iter().any(|o| o.text().contains(BASE)), "{out:?}");
    for bad in ["", "   ", &"x".repeat(61)] {
        let out = send(&host, &mut screen, g.clone(), &admin, public(Some(bad))).await;
        assert!(
            out.reply_text().unwrap().starts_with("/web public <name>"),
            "{out:?}"
        );
    }
    assert!(!get(&store, "/").await.body.contains("/c/"));
    let out = send(
        &host,
        &mut screen,
        g.clone(),
        &admin,
        public(Some("  Rīgas   klubs ")),
    )
    .await;
    let told = out
        .0
        .iter()
        .map(|o| o.text().to_string())
        .find(|x| x.contains(BASE))
        .expect("the chat is told");
    assert!(
        told.starts_with("Admin made this community's pages public"),
        "{told}"
    );
    assert!(told.contains("“Rīgas klubs”"), "{told}");
    assert_eq!(path_of(&told), link, "the link stays");
    let front = get(&store, "/?lang=lv").await;
    assert!(
        front
            .body
            .contains(&format!("<a href=\"{link}?lang=lv\">Rīgas klubs</a>")),
        "{}",
        front.body
    );
    assert!(front.cache.starts_with("public"), "{}", front.cache);

    // Private again: off the front page, and the listed link stops working.
    let out = send(&host, &mut screen, g.clone(), &admin, public(None)).await;
    let told = out
        .0
        .iter()
        .map(|o| o.text().to_string())
        .find(|x| x.contains(BASE))
        .expect("the chat is told the new link");
    let fresh = path_of(&told);
    assert_ne!(fresh, link);
    assert!(!get(&store, "/").await.body.contains("Rīgas klubs"));
    assert_eq!(get(&store, &link).await.status, StatusCode::NOT_FOUND);
    assert_eq!(get(&store, &fresh).await.status, StatusCode::OK);
}

/// The `data-ratings` of the first chart after byte `from` of a page.
fn chart_after(body: &str, from: usize) -> String {
    let at = from
        + body[from..]
            .find("data-ratings=\"")
            .unwrap_or_else(|| panic!("no chart after byte {from}"))
        + "data-ratings=\"".len();
    body[at..at + body[at..].find('"').unwrap()].to_string()
}

#[tokio::test]
async fn a_player_page_charts_the_rating_after_every_rated_game_under_a_key_that_is_no_user_id() {
    let dir = tempfile::tempdir().unwrap();
    let store = sqlite(&dir, "web.db").await;
    let (host, _events) = Host::new(store.clone(), web_config());
    let g = chat("g");
    let c = g.community_ref();
    // Two tables, each stopped after a finished deal (so rated): Anna's rating after each.
    let mut shown = Vec::new();
    let mut tables = Vec::new();
    for _ in 0..2 {
        let mut t = zole_table(&host, g.clone(), 1).await;
        let anna = t.people[0].clone();
        send(&host, &mut t.screen, g.clone(), &anna, Command::Stop).await;
        let r = store.ratings_of(&c, "zole", &["anna".to_string()]).await.unwrap();
        shown.push(r[0].rating.shown().to_string());
        tables.push(t.table);
    }
    let want = shown.join(" ");
    let token = store.web_token(&c).await.unwrap();
    let key = stikis_web::player_key(&token, "anna");
    assert_eq!(key.len(), 16);
    assert!(!key.contains("anna"));
    assert_ne!(key, stikis_web::player_key(&token, "bruno"));

    // The boards link each player's page, with the rating chart beside the rating.
    let community = get(&store, &format!("/c/{token}/")).await;
    let link = format!("/c/{token}/p/{key}?lang=en");
    let at = community
        .body
        .find(&format!(
            "href=\"{link}\">ANNA</a></td><td class=\"n\">{}",
            shown[1]
        ))
        .unwrap_or_else(|| panic!("no rating line of Anna:\n{}", community.body));
    assert_eq!(chart_after(&community.body, at), want);
    assert!(!community.body.contains("/p/anna"));

    // Her page: the counts, the chart of both games, and the games.
    let page = get(&store, &format!("/c/{token}/p/{key}")).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    assert!(page.body.contains("<h1>ANNA</h1>"), "{}", page.body);
    assert!(
        page.body
            .contains(&format!("Zole: rating {} after 2 games", shown[1])),
        "{}",
        page.body
    );
    assert!(page.body.contains("Zole: rating over time"));
    let big = page.body.find("class=\"chart big\"").expect("the big chart");
    assert_eq!(chart_after(&page.body, big), want);
    for t in &tables {
        assert!(
            page.body.contains(&format!("/c/{token}/g/{t}?lang=en")),
            "game {t}"
        );
    }
    // Bruno's page is his own.
    let bruno = get(
        &store,
        &format!("/c/{token}/p/{}", stikis_web::player_key(&token, "bruno")),
    )
    .await;
    assert!(bruno.body.contains("<h1>BRUNO</h1>"));

    // Unknown, malformed and user-id keys are 404s; a new token gives new keys.
    for bad in ["0123456789abcdef", "anna", "ANNA", &key[..15], &format!("{key}0")] {
        let page = get(&store, &format!("/c/{token}/p/{bad}")).await;
        assert_eq!(page.status, StatusCode::NOT_FOUND, "{bad}");
    }
    let fresh = store.rotate_web_token(&c).await.unwrap();
    assert_eq!(
        get(&store, &format!("/c/{fresh}/p/{key}")).await.status,
        StatusCode::NOT_FOUND
    );
    let new_key = stikis_web::player_key(&fresh, "anna");
    assert_ne!(new_key, key);
    assert_eq!(
        get(&store, &format!("/c/{fresh}/p/{new_key}")).await.status,
        StatusCode::OK
    );
}

#[tokio::test]
async fn a_tournament_page_shows_the_seating_while_it_plays_and_the_recounted_standings() {
    let dir = tempfile::tempdir().unwrap();
    let store = sqlite(&dir, "web.db").await;
    let (host, mut events) = Host::new(store.clone(), web_config());
    let club = chat("club");
    let admin = user("admin", true);
    let people = [user("anna", false), user("bruno", false)];
    let mut screen = Screen::default();
    // One round of two deals: Anna, Bruno and a computer player.
    send(
        &host,
        &mut screen,
        club.clone(),
        &admin,
        Command::NewTournament {
            rules: None,
            rounds: 1,
            deals: Some(2),
            minutes: None,
            turn: None,
            computers: true,
        },
    )
    .await;
    // The tournament message links its page, which reloads itself while it is on.
    let path = path_of(&screen.tournament_text());
    let token = hex_token(&path);
    let tour = store.latest_tournament(&club).await.unwrap().unwrap();
    assert_eq!(path, format!("/c/{token}/t/{}", tour.id));
    let page = get(&store, &path).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    assert_eq!(page.cache, "no-store");
    assert!(page.body.contains("http-equiv=\"refresh\" content=\"30\""));
    assert!(page.body.contains("entries open"), "{}", page.body);
    assert!(page.body.contains(&tour.commitment));
    for who in &people {
        let join = screen.tournament_button(TournamentVerb::Join);
        send(&host, &mut screen, club.clone(), who, Command::press(join)).await;
    }
    let add = screen.tournament_button(TournamentVerb::AddComputer);
    send(&host, &mut screen, club.clone(), &admin, Command::press(add)).await;
    let start = screen.tournament_button(TournamentVerb::Start);
    send(&host, &mut screen, club.clone(), &admin, Command::press(start)).await;
    while let Ok(out) = events.try_recv() {
        screen.show(&out);
    }

    // Round 1 seated: the page names the table's three and how far it is.
    let page = get(&store, &path).await;
    assert!(page.body.contains("round 1 of 1 being played"), "{}", page.body);
    assert!(page.body.contains("No round has finished yet."));
    let seated = page.body.find("Table 1</b>: ").expect("table 1's seating");
    let line = &page.body[seated..seated + page.body[seated..].find("</li>").unwrap()];
    for name in ["ANNA", "BRUNO"] {
        assert!(line.contains(name), "{line}");
    }
    assert!(
        line.contains("playing, deal 1") || line.contains("about to start"),
        "{line}"
    );

    // Play it out: whoever has buttons presses one; the computer player comes as events.
    let mut rng = 7u64;
    let mut presses = 0;
    let mut running_seen = false;
    loop {
        while let Ok(out) = events.try_recv() {
            screen.show(&out);
        }
        // In deal 2 the table's line gives each player's points so far, as the record's
        // replay counts them.
        let playing = store.tournament_tables(tour.id).await.unwrap();
        if !running_seen && store.deals(playing[0].id).await.unwrap().len() == 2 {
            let log = log_of(&host, playing[0].id).await;
            let replayed = stikis_core::record::replay(log.to_string().as_bytes()).unwrap();
            let players: Vec<String> = serde_json::from_value(log["players"].clone()).unwrap();
            let page = get(&store, &path).await;
            let seated = page.body.find("Table 1</b>: ").expect("table 1's seating");
            let line = &page.body[seated..seated + page.body[seated..].find("</li>").unwrap()];
            let so_far: Vec<String> = players
                .iter()
                .zip(replayed["totals"].as_array().unwrap())
                .map(|(who, p)| format!("{who} {:+}", p.as_i64().unwrap()))
                .collect();
            assert!(
                line.contains(&format!(
                    "playing, deal 2</span> · <span class=\"running\">{}</span>",
                    so_far.join(", ")
                )),
                "{line}"
            );
            running_seen = true;
        }
        if store.tournament(tour.id).await.unwrap().unwrap().status
            == stikis_host::store::TournamentStatus::Finished
        {
            break;
        }
        let who = people
            .iter()
            .find(|p| !screen.my_buttons(&p.id).is_empty())
            .cloned();
        let Some(who) = who else {
            match tokio::time::timeout(std::time::Duration::from_secs(60), events.recv()).await {
                Ok(Some(out)) => screen.show(&out),
                _ => panic!("the tournament stalled after {presses} presses"),
            }
            continue;
        };
        let buttons = screen.my_buttons(&who.id);
        rng = rng
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let token = buttons[(rng >> 33) as usize % buttons.len()].1.clone();
        send(&host, &mut screen, dm(&who.id), &who, Command::press(token)).await;
        presses += 1;
        assert!(presses < 500, "the tournament does not progress");
    }

    assert!(running_seen, "the page was never read during deal 2");

    // Finished: the standings are the recount of the records, in order; the table's game is
    // linked; the page no longer reloads itself and may be cached.
    let tour = store.tournament(tour.id).await.unwrap().unwrap();
    let (record, done) = stikis_host::tournament::tournament_record(host.store(), &tour)
        .await
        .unwrap();
    assert_eq!(done, 1);
    let page = get(&store, &path).await;
    assert!(page.body.contains("finished"), "{}", page.body);
    assert!(!page.body.contains("http-equiv=\"refresh\""));
    assert!(page.cache.starts_with("private"), "{}", page.cache);
    assert!(page.body.contains("Standings after round 1 of 1"));
    let mut at = page.body.find("Standings after").unwrap();
    assert_eq!(record.standings.len(), 3);
    for (i, s) in record.standings.iter().enumerate() {
        let row = format!(
            "<td>{}</td><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{:+}</td><td class=\"n\">1</td>",
            i + 1,
            s.player,
            s.big_points,
            s.plus_minus
        );
        at += page.body[at..]
            .find(&row)
            .unwrap_or_else(|| panic!("{row} not after byte {at}:\n{}", page.body));
    }
    let table = store.tournament_tables(tour.id).await.unwrap()[0].id;
    assert!(page.body.contains(&format!("/c/{token}/g/{table}?lang=en")));
    assert_eq!(
        get(&store, &format!("/c/{token}/g/{table}")).await.status,
        StatusCode::OK
    );
    // The community page lists it.
    let community = get(&store, &format!("/c/{token}/")).await;
    assert!(community
        .body
        .contains(&format!("/c/{token}/t/{}?lang=en", tour.id)));

    // Another community's token, unknown and malformed ids: 404s.
    let other = store
        .web_token(&CommunityRef::new(Platform::Discord, "guild-9"))
        .await
        .unwrap();
    for bad in [
        format!("/c/{other}/t/{}", tour.id),
        format!("/c/{token}/t/{}", tour.id + 1),
        format!("/c/{token}/t/x{}", tour.id),
        format!("/c/{token}/t/-1"),
    ] {
        assert_eq!(get(&store, &bad).await.status, StatusCode::NOT_FOUND, "{bad}");
    }
}

async fn visible(c: &fantoccini::Client, css: &str) -> fantoccini::elements::Element {
    c.find(fantoccini::Locator::Css(&format!(".step:not([hidden]) {css}")))
        .await
        .unwrap_or_else(|e| panic!("{css}: {e}"))
}

/// In real headless Chromium: the community page, a player's page with its rating chart, a
/// game viewer stepped through a whole deal with the keyboard (each step checked against the
/// record), the buttons, a tournament's page and a 404 page, each with a screenshot. Without chromedriver the test says so and passes, unless
/// STIKIS_REQUIRE_BROWSER is set (CI sets it, having installed chromium-driver).
#[tokio::test]
async fn in_chromium_the_pages_open_and_the_viewer_steps_through_a_deal_with_the_keyboard() {
    let Some(path) = crate::browser::chromedriver_or_skip() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let store = sqlite(&dir, "web.db").await;
    let (host, _events) = Host::new(store.clone(), web_config());
    let g = chat("g");
    let mut t = zole_table(&host, g.clone(), 2).await;
    let anna = t.people[0].clone();
    send(&host, &mut t.screen, g.clone(), &anna, Command::Stop).await;
    let out = send(
        &host,
        &mut t.screen,
        g.clone(),
        &anna,
        Command::WebLink { rotate: false },
    )
    .await;
    let community = path_of(out.reply_text().unwrap());
    let rec = log_of(&host, t.table).await;
    let players: Vec<String> = serde_json::from_value(rec["players"].clone()).unwrap();

    // The analysis, started by a first view, is ready before the browser looks.
    get(&store, &format!("{community}g/{}", t.table)).await;
    let analysis = analysed(&store, t.table, 2).await;
    let web = stikis_web::Listening::start("127.0.0.1:0".parse().unwrap(), store.clone(), None)
        .await
        .unwrap();
    let base = format!("http://{}", web.addr);
    let driver = start_driver(&path).await;
    let c = browser(&driver).await;

    // The community page: the boards with Anna, the game in the list.
    c.goto(&format!("{base}{community}")).await.unwrap();
    let title = c
        .find(fantoccini::Locator::Css("h1"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert_eq!(title, "Boards");
    let cells = c.find_all(fantoccini::Locator::Css(".board td")).await.unwrap();
    let mut texts = Vec::new();
    for cell in &cells {
        texts.push(cell.text().await.unwrap());
    }
    assert!(texts.iter().any(|x| x == "ANNA"), "{texts:?}");
    shot(&c, "community.png").await;

    // A player's page from the boards: the rating chart is drawn, at a readable size.
    let mut anna_link = None;
    for a in c.find_all(fantoccini::Locator::Css(".board td a")).await.unwrap() {
        if a.text().await.unwrap() == "ANNA" {
            anna_link = Some(a);
            break;
        }
    }
    anna_link
        .expect("Anna's name links her page")
        .click()
        .await
        .unwrap();
    let h1 = c.find(fantoccini::Locator::Css("h1")).await.unwrap();
    assert_eq!(h1.text().await.unwrap(), "ANNA");
    let url = c.current_url().await.unwrap();
    let anna_page = url.path().to_string();
    assert!(!url.path().contains("anna"), "{url}");
    let chart = c
        .find(fantoccini::Locator::Css("svg.chart.big"))
        .await
        .expect("the rating chart");
    let (_, _, w, h) = chart.rectangle().await.unwrap();
    assert!(w >= 300.0 && h >= 100.0, "the chart is {w}×{h}");
    let drawn = c
        .find(fantoccini::Locator::Css("svg.chart.big polyline"))
        .await
        .unwrap()
        .attr("points")
        .await
        .unwrap()
        .unwrap_or_default();
    assert!(!drawn.is_empty());
    shot(&c, "player.png").await;
    c.back().await.unwrap();
    c.find(fantoccini::Locator::Css("ul.games a"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let url = c.current_url().await.unwrap();
    assert!(url.path().ends_with(&format!("/g/{}", t.table)), "{url}");

    // The viewer of deal 1, stepped with the arrow keys: each step's caption names the
    // record's action, a played card is on the table and gone from its player's hand.
    let deal = &rec["deals"][0];
    let actions = deal["actions"].as_array().unwrap();
    let steps = actions.len() + 1;
    let place = |c: fantoccini::Client| async move {
        c.find(fantoccini::Locator::Id("where"))
            .await
            .unwrap()
            .text()
            .await
            .unwrap()
    };
    assert_eq!(place(c.clone()).await, format!("1 / {steps}"));
    assert_eq!(
        visible(&c, ".caption").await.text().await.unwrap(),
        "The cards as dealt."
    );
    // Told as a player: the talon beside the hands, drawn; the deal's result in words.
    let aside = visible(&c, ".aside").await;
    assert!(aside.text().await.unwrap().starts_with("Talon"));
    let (_, _, w, _) = aside
        .find(fantoccini::Locator::Css("svg"))
        .await
        .unwrap()
        .rectangle()
        .await
        .unwrap();
    assert!(w >= 20.0, "the talon's card is {w} px wide");
    let told = c
        .find(fantoccini::Locator::Css(".told"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(told.starts_with("How the deal went"), "{told}");
    let body = c.find(fantoccini::Locator::Css("body")).await.unwrap();
    for (k, a) in actions.iter().enumerate() {
        body.send_keys(&fantoccini::key::Key::Right).await.unwrap();
        assert_eq!(place(c.clone()).await, format!("{} / {steps}", k + 2));
        let caption = visible(&c, ".caption").await.text().await.unwrap();
        let who = &players[a["seat"].as_u64().unwrap() as usize];
        assert!(
            caption.starts_with(who.as_str()),
            "step {}: {caption} for {a}",
            k + 2
        );
        if let Some(card) = a["play"].as_str() {
            let on_table = c
                .find_all(fantoccini::Locator::Css(".step:not([hidden]) .trick svg"))
                .await
                .unwrap();
            let mut shown = Vec::new();
            for e in &on_table {
                shown.push(e.attr("data-card").await.unwrap().unwrap_or_default());
            }
            assert_eq!(shown.last().map(String::as_str), Some(card), "step {}", k + 2);
            // The double-dummy line marks the card played, with what it cost.
            let judged = &analysis[0][k];
            let marked = visible(&c, ".dd .played").await.attr("data-card").await.unwrap();
            assert_eq!(marked.as_deref(), Some(card));
            let line = visible(&c, ".dd").await.text().await.unwrap();
            let cost = judged["cost"].as_i64().unwrap();
            assert_eq!(
                line.contains(&format!("This card lost {cost}.")),
                cost > 0,
                "{line}"
            );
            let hands = c
                .find_all(fantoccini::Locator::Css(".step:not([hidden]) .hand svg"))
                .await
                .unwrap();
            for e in &hands {
                assert_ne!(e.attr("data-card").await.unwrap().as_deref(), Some(card));
            }
        }
        if k == 10 {
            shot(&c, "viewer.png").await;
        }
    }
    // At the end the keys stop; Home and End jump; the buttons step too.
    body.send_keys(&fantoccini::key::Key::Right).await.unwrap();
    assert_eq!(place(c.clone()).await, format!("{steps} / {steps}"));
    body.send_keys(&fantoccini::key::Key::Home).await.unwrap();
    assert_eq!(place(c.clone()).await, format!("1 / {steps}"));
    c.find(fantoccini::Locator::Id("next"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    assert_eq!(place(c.clone()).await, format!("2 / {steps}"));
    c.find(fantoccini::Locator::Id("prev"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    assert_eq!(place(c.clone()).await, format!("1 / {steps}"));
    body.send_keys(&fantoccini::key::Key::End).await.unwrap();
    assert_eq!(place(c.clone()).await, format!("{steps} / {steps}"));
    // The step is in the address, so a reload (or a shared link) opens it.
    c.refresh().await.unwrap();
    assert_eq!(place(c.clone()).await, format!("{steps} / {steps}"));

    // A tournament open for entries: its page, which reloads itself.
    let admin = user("admin", true);
    let out = send(
        &host,
        &mut t.screen,
        g.clone(),
        &admin,
        Command::NewTournament {
            rules: None,
            rounds: 2,
            deals: Some(4),
            minutes: None,
            turn: None,
            computers: true,
        },
    )
    .await;
    let tour = store.latest_tournament(&g).await.unwrap().unwrap();
    assert!(format!("{out:?}").contains(&format!("/t/{}", tour.id)));
    c.goto(&format!("{base}{community}t/{}", tour.id)).await.unwrap();
    let h1 = c.find(fantoccini::Locator::Css("h1")).await.unwrap();
    assert_eq!(h1.text().await.unwrap(), format!("Tournament {}", tour.id));
    let status = c.find(fantoccini::Locator::Css(".status")).await.unwrap();
    assert_eq!(status.text().await.unwrap(), "entries open");
    c.find(fantoccini::Locator::Css("meta[http-equiv=refresh]"))
        .await
        .expect("the page reloads itself");
    shot(&c, "tournament.png").await;

    // A bad link: the 404 page.
    c.goto(&format!("{base}/c/{}/", "0".repeat(32))).await.unwrap();
    let title = c
        .find(fantoccini::Locator::Css("h1"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert_eq!(title, "Not found");
    shot(&c, "not-found.png").await;

    // On a phone (390 px wide) no page is wider than the screen, in any language: the score
    // table with its pules, the boards, a player's page and the tournament's 64-digit hash.
    c.set_window_size(390, 844).await.unwrap();
    let pages = [
        format!("{community}g/{}", t.table),
        community.clone(),
        format!("{community}t/{}", tour.id),
        anna_page.clone(),
    ];
    for lang in ["lv", "en", "ru"] {
        for page in &pages {
            c.goto(&format!("{base}{page}?lang={lang}")).await.unwrap();
            let w = c
                .execute(
                    "return [document.documentElement.scrollWidth, window.innerWidth];",
                    vec![],
                )
                .await
                .unwrap();
            let (wide, screen) = (w[0].as_f64().unwrap(), w[1].as_f64().unwrap());
            assert!(
                screen <= 400.0 && wide <= screen,
                "{page} in {lang} is {wide} px wide on a {screen} px screen"
            );
        }
    }
    c.goto(&format!("{base}{}?lang=ru", pages[0])).await.unwrap();
    shot(&c, "viewer-phone-ru.png").await;
    c.close().await.unwrap();
    web.stop().await;
}
