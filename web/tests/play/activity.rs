//! The live table as a Discord Activity, in headless Chromium: the page opened at the site's
//! root as Discord opens it (its `frame_id`, `instance_id`), the Embedded App SDK replaced by
//! the test's own module (served from another origin, as the vendored file would be from this
//! one), the sign-in answered by a platform of the test's (`Signer`: Discord's own half is
//! tested against the fake Discord in the Discord bot's tests).

use super::*;
use stikis_web::activity::{Activity, SignInError, SignedIn};

/// The test's platform: codes `code-<user>-<n>` (each good once), instances by id with the
/// people in them and their channel.
struct Signer {
    used: std::sync::Mutex<std::collections::HashSet<String>>,
    instances: HashMap<String, (ChatRef, Vec<String>)>,
}

impl Activity for Signer {
    fn client_id(&self) -> &str {
        "4242"
    }

    fn sign_in<'a>(
        &'a self,
        code: &'a str,
        instance: &'a str,
    ) -> futures_util::future::BoxFuture<'a, Result<SignedIn, SignInError>> {
        Box::pin(async move {
            let Some(user) = code.strip_prefix("code-").and_then(|r| r.split('-').next()) else {
                return Err(SignInError::Refused("activity_code"));
            };
            if !self.used.lock().unwrap().insert(code.to_string()) {
                return Err(SignInError::Refused("activity_code"));
            }
            let Some((chat, users)) = self.instances.get(instance) else {
                return Err(SignInError::Refused("activity_instance"));
            };
            if !users.iter().any(|u| u == user) {
                return Err(SignInError::Refused("activity_not_in_instance"));
            }
            Ok(SignedIn {
                user: user.to_string(),
                access_token: format!("token-{user}"),
                chat: chat.clone(),
            })
        })
    }
}

/// The SDK as the page uses it: `ready`, `authorize` (the code comes from the page's address,
/// where the test puts it) and `authenticate`, each noted in `window` for the test.
const SDK_STUB: &str = r#"const q = new URLSearchParams(location.search);
export class DiscordSDK {
  constructor(clientId) {
    this.clientId = clientId;
    this.instanceId = q.get("instance_id");
    this.commands = {
      authorize: async (o) => {
        window.__authorize = o;
        if (!window.__ready || o.client_id !== clientId || o.response_type !== "code"
            || JSON.stringify(o.scope) !== '["identify"]') throw new Error("authorize before ready, or asked wrongly");
        return { code: q.get("code") };
      },
      authenticate: async (o) => { window.__authenticated = o.access_token; return { user: {} }; }
    };
  }
  async ready() { window.__ready = true; }
}
"#;

/// Serves `SDK_STUB` at `/sdk.mjs` on a port of its own, with the CORS header a module
/// script from another origin needs.
async fn serve_sdk() -> std::net::SocketAddr {
    let app = axum::Router::new().route(
        "/sdk.mjs",
        axum::routing::get(|| async {
            (
                [
                    ("content-type", "text/javascript"),
                    ("access-control-allow-origin", "*"),
                ],
                SDK_STUB,
            )
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    addr
}

async fn start_activity_bot(store: &Store, sdk: &str, signer: Signer) -> Bot {
    let (host, events) = Host::new(store.clone(), config());
    host.recover().await.expect("recover");
    let mut play = PlayConfig::new(host.clone(), BOT_TOKEN, false);
    play.hold_hands = false;
    play.discord_sdk = sdk.into();
    play.activity = Some(Arc::new(signer));
    let web = stikis_web::Listening::start("127.0.0.1:0".parse().unwrap(), store.clone(), Some(play))
        .await
        .unwrap();
    Bot { host, web, events }
}

/// Three people open the Activity in Discord's frame (three Chromium sessions, the SDK
/// stubbed) and play a whole Zole deal by tapping in it: each is signed in through the SDK
/// (`ready`, `authorize` for `identify`, the code posted, `authenticate` with the answer's
/// token) and seated at the table of the instance's channel. Every page's HTML and every
/// frame its feed is pushed (the page's `EventSource` spied on) hold no card of another hand
/// or of the talon at any step. A forged code, a code used again, a foreign instance and an
/// instance the person is not in are refused in the page, and nothing changes at the table.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_chromium_three_people_play_a_zole_deal_in_the_discord_activity_and_forgeries_are_refused() {
    let Some(path) = browser::chromedriver_or_skip() else {
        return;
    };
    let sdk = format!("http://{}/sdk.mjs", serve_sdk().await);
    let dir = tempfile::tempdir().unwrap();
    let store = sqlite(&dir, "activity.db").await;
    let g = ChatRef::new(Platform::Discord, "500", "600");
    let elsewhere = ChatRef::new(Platform::Discord, "501", "700");
    let people = vec![user("101", true), user("102", false), user("103", false)];
    let ids: Vec<String> = people.iter().map(|p| p.id.clone()).collect();
    let signer = Signer {
        used: Default::default(),
        instances: HashMap::from([
            (
                "i-1-gc-500-600".to_string(),
                (g.clone(), [ids.clone(), vec!["104".to_string()]].concat()),
            ),
            // A voice channel with no table of its own: Anna sits at two tables of the server.
            (
                "i-4-gc-500-800".to_string(),
                (
                    ChatRef::new(Platform::Discord, "500", "800"),
                    vec!["101".to_string()],
                ),
            ),
            ("i-2-gc-500-600".to_string(), (g.clone(), vec!["104".to_string()])),
            ("i-3-gc-501-700".to_string(), (elsewhere, ids.clone())),
        ]),
    };
    let bot = start_activity_bot(&store, &sdk, signer).await;
    let (host, addr) = (bot.host.clone(), bot.web.addr);
    let mut screen = Screen::default();
    let table = zole_table(&host, &mut screen, &g, &people).await;
    let other = ChatRef::new(Platform::Discord, "500", "601");
    let others = vec![user("101", false), user("105", true), user("106", false)];
    let second = zole_table(&host, &mut Screen::default(), &other, &others).await;
    let at_start = version_of(&host, table).await;

    let driver = browser::start_driver(&path).await;
    let (a, b, c, d) = tokio::join!(
        browser::browser_sized(&driver, 390, 844),
        browser::browser_sized(&driver, 390, 844),
        browser::browser_sized(&driver, 390, 844),
        browser::browser_sized(&driver, 390, 844),
    );
    let open =
        |code: &str, instance: &str| format!("http://{addr}/?frame_id=f1&instance_id={instance}&code={code}");
    let status = "(document.getElementById('status') || {}).textContent";

    // Refused, each in the page, changing nothing: a forged code, a foreign instance (another
    // server's channel: no table there for this person), an instance Anna is not in, and a
    // code used a second time.
    let forged = t(Lang::En, "play-forged", &[]);
    let refusals = [
        ("forged", open("forged-101-1", "i-1-gc-500-600"), forged.clone()),
        ("not in it", open("code-101-1", "i-2-gc-500-600"), forged.clone()),
        ("used again", open("code-101-1", "i-1-gc-500-600"), forged.clone()),
        (
            "unknown instance",
            open("code-102-1", "i-9-gc-500-600"),
            forged.clone(),
        ),
        (
            "foreign instance",
            open("code-103-1", "i-3-gc-501-700"),
            t(Lang::En, "activity-no-table", &[]),
        ),
    ];
    for (what, url, said) in refusals {
        a.goto(&url).await.unwrap();
        let probe = Tab {
            c: a.clone(),
            user: what.to_string(),
            read: 0,
            feed: Vec::new(),
            clicks: 0,
        };
        probe
            .until(
                &format!("{status} == {}", serde_json::json!(said)),
                &format!("{what}: refused"),
            )
            .await;
        assert_eq!(
            a.execute("return [!!window.__ready, window.__authenticated || null, !!document.getElementById('play')];", vec![])
                .await
                .unwrap(),
            serde_json::json!([true, null, false]),
            "{what}: signed in to nothing"
        );
    }
    assert_eq!(
        version_of(&host, table).await,
        at_start,
        "the refusals changed nothing"
    );

    // Launched in a channel without a table, Anna chooses between the two she sits at.
    a.goto(&open("code-101-3", "i-4-gc-500-800")).await.unwrap();
    let chooser = Tab {
        c: a.clone(),
        user: "101".into(),
        read: 0,
        feed: Vec::new(),
        clicks: 0,
    };
    chooser
        .until(
            "document.querySelectorAll('#activity button.choice').length == 2",
            "two tables to choose from",
        )
        .await;
    let titles = a
        .execute(
            "return Array.prototype.map.call(document.querySelectorAll('#activity button.choice'), function (b) { return b.textContent; });",
            vec![],
        )
        .await
        .unwrap();
    let title = |id: i64| {
        t(
            Lang::En,
            "play-title",
            &[("game", "Zole".into()), ("table", id.into())],
        )
    };
    assert_eq!(titles, serde_json::json!([title(table), title(second)]));
    a.find(fantoccini::Locator::Css("#activity button.choice:nth-of-type(2)"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    chooser
        .until("document.querySelector('#play #view .hand')", "the chosen table")
        .await;
    assert_eq!(
        a.execute("return document.getElementById('play').dataset.table;", vec![])
            .await
            .unwrap(),
        serde_json::json!(at(second)),
        "the second table opened"
    );

    // The three players, and Dora, who watches from the channel.
    let mut tabs = Vec::new();
    for (i, c) in [a, b, c, d].into_iter().enumerate() {
        spy_on_feeds(&driver, &c).await;
        // Each person's own new code (Anna's first ones were used above).
        let who = people.get(i).map_or("104".to_string(), |p| p.id.clone());
        c.goto(&open(&format!("code-{who}-2"), "i-1-gc-500-600"))
            .await
            .unwrap();
        tabs.push(Tab {
            c,
            user: who,
            read: 0,
            feed: Vec::new(),
            clicks: 0,
        });
    }
    for tab in &tabs[..3] {
        tab.until(
            "document.querySelector('#view .hand') && (window.__feed || []).length > 0",
            "its hand, from its feed",
        )
        .await;
    }
    tabs[3]
        .until(
            "document.querySelector('#view .playhead') && (window.__feed || []).length > 0",
            "the table, from its feed",
        )
        .await;
    for tab in &tabs {
        let signed = tab
            .c
            .execute(
                "return [window.__authorize.scope, window.__authenticated, \
                 document.documentElement.classList.contains('activity'), \
                 getComputedStyle(document.querySelector('header')).display, location.pathname];",
                vec![],
            )
            .await
            .unwrap();
        assert_eq!(
            signed,
            serde_json::json!([["identify"], format!("token-{}", tab.user), true, "none", "/"]),
            "{} is signed in through the SDK, and the table is drawn in Discord's frame, in place",
            tab.user
        );
    }
    // On a phone, Discord gives the safe area as CSS variables: the page keeps out of it.
    let padded = tabs[1]
        .c
        .execute(
            "document.documentElement.style.setProperty('--discord-safe-area-inset-top', '40px'); \
             document.documentElement.style.setProperty('--discord-safe-area-inset-bottom', '21px'); \
             var b = getComputedStyle(document.body); return [b.paddingTop, b.paddingBottom];",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(
        padded,
        serde_json::json!(["40px", "21px"]),
        "Discord's safe-area insets"
    );
    browser::shot(&tabs[0].c, "activity-phone-bids.png").await;

    let (mut checked, mut plays, mut buried) = (0, 0, 0);
    for step in 0.. {
        assert!(step < 40, "the deal does not end");
        let (view, looks) = in_step(&mut tabs, &host, table, &mut checked).await;
        if view.deal_no >= 2 {
            break;
        }
        let i = view.to_act.expect("a seat to act") as usize;
        let turn: Vec<usize> = (0..3).filter(|&i| looks[i].mine).collect();
        assert_eq!(turn, [i], "only the page of the seat to act says it is its turn");
        assert!(
            !looks[3].mine && looks[3].buttons.is_empty() && looks[3].hand.is_empty(),
            "the watcher sees the public table only"
        );
        let offered = |prefix: &str, class: &str| {
            looks[i]
                .buttons
                .iter()
                .find(|(c, t)| c.contains(class) && action(t).starts_with(prefix))
                .map(|(_, t)| t.clone())
        };
        let token = offered("b:take", "")
            .or_else(|| offered("y:", ""))
            .or_else(|| offered("p:", "legal"))
            .unwrap_or_else(|| {
                panic!(
                    "{} is to act and has nothing to tap:\n{}",
                    tabs[i].user, looks[i].html
                )
            });
        tabs[i].tap(&token).await;
        if action(&token).starts_with("y:") {
            // A pick is no move: the second card buries both.
            tabs[i]
                .until(
                    "document.querySelector('#view .hand button.picked')",
                    "a card picked",
                )
                .await;
            let (look, n) = tabs[i].look(&host, table, true).await;
            checked += n;
            let second = look
                .buttons
                .iter()
                .find(|(c, t)| !c.contains("picked") && action(t).starts_with("y:"))
                .expect("a second card to bury")
                .1
                .clone();
            tabs[i].tap(&second).await;
            buried += 1;
        } else if action(&token).starts_with("p:") {
            plays += 1;
        }
        moved_from(&host, table, view.version).await;
    }
    assert_eq!(
        (buried, plays),
        (1, 24),
        "(burials, cards played) through the Activity"
    );
    assert!(
        checked > 100,
        "hidden cards checked against the pages and frames: {checked}"
    );
    let frames: usize = tabs
        .iter()
        .map(|t| t.feed.iter().filter(|(e, _)| e == "view").count())
        .sum();
    eprintln!("{frames} pushed frames and {checked} hidden cards checked");
    browser::shot(&tabs[0].c, "activity-phone-end.png").await;
    // Discord's small frame (picture in picture): smaller cards, nothing wider than the frame.
    tabs[0].c.set_window_size(480, 270).await.unwrap();
    tabs[0]
        .until(
            "document.querySelector('#view .card') && document.querySelector('#view .card').getBoundingClientRect().width < 40",
            "the small frame's cards",
        )
        .await;
    let fits = tabs[0]
        .c
        .execute(
            "return [document.documentElement.scrollWidth, window.innerWidth];",
            vec![],
        )
        .await
        .unwrap();
    assert!(
        fits[0].as_f64() <= fits[1].as_f64(),
        "nothing wider than the small frame: {fits}"
    );
    browser::shot(&tabs[0].c, "activity-small-frame.png").await;
    for tab in tabs {
        tab.c.close().await.unwrap();
    }
}
