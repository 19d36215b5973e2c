//! What a chat shows stays true after the moment it was drawn for: a hand message sent
//! before its person opened the live table keeps no live-looking button once its deal is
//! over (the page took its later states), and a press on such an old button is answered out
//! of date, never played into another deal.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use stikis_core::Seed;
use stikis_host::i18n::{t, Lang};
use stikis_host::store::{ChatRef, Platform, Store};
use stikis_host::token::Token;
use stikis_host::{Button, Command, HandDelivery, Host, HostConfig, Out, Outbox, Request, User};
use tokio::sync::mpsc::UnboundedReceiver;

fn person(id: &str) -> User {
    User {
        id: id.into(),
        name: id.to_uppercase(),
        admin: false,
    }
}

/// A message as the chat shows it: its text and buttons.
type Look = (String, Vec<Vec<Button>>);

/// A chat as an adapter keeps it: the newest text and buttons of every keyed message, by
/// (recipient, key). A hand shown only if shown (`HandDelivery::IfShown`) edits a message
/// that exists and never makes one; one the table's owner showed elsewhere is not shown here.
#[derive(Default)]
struct Chat {
    shown: HashMap<(String, String), Look>,
    /// Every key in the order it was first shown.
    order: Vec<(String, String)>,
}

impl Chat {
    fn apply(&mut self, out: &Outbox) {
        for o in &out.0 {
            let (to, key, text, buttons) = match o {
                Out::Public {
                    key, text, buttons, ..
                } => ("group".to_string(), key, text, buttons),
                Out::Private {
                    user,
                    key,
                    text,
                    buttons,
                    delivery,
                    ..
                } => {
                    let k = (user.clone(), key.clone());
                    match delivery {
                        HandDelivery::Shown => continue,
                        HandDelivery::IfShown if !self.shown.contains_key(&k) => continue,
                        _ => {}
                    }
                    (user.clone(), key, text, buttons)
                }
                _ => continue,
            };
            let k = (to, key.clone());
            if !self.shown.contains_key(&k) {
                self.order.push(k.clone());
            }
            self.shown.insert(k, (text.clone(), buttons.clone()));
        }
    }

    /// The newest hand message of `user`, with its key.
    fn hand(&self, user: &str) -> Option<(&String, &Look)> {
        self.order
            .iter()
            .rev()
            .find(|(to, _)| to == user)
            .map(|k| (&k.1, &self.shown[k]))
    }

    fn drain(&mut self, events: &mut UnboundedReceiver<Outbox>) {
        while let Ok(out) = events.try_recv() {
            self.apply(&out);
        }
    }
}

/// A move of `buttons` to press: the bid that takes the talon where there is one (so that
/// someone buries), else the first button that is not `last` (a burial's first card, picked
/// already) and takes back nothing.
fn a_move(buttons: &[Vec<Button>], last: Option<&str>) -> Option<String> {
    let all: Vec<&Button> = buttons
        .iter()
        .flatten()
        .filter(|b| {
            !b.disabled
                && !b.label.starts_with('✓')
                && Some(b.token.as_str()) != last
                && Token::decode(&b.token).is_ok_and(|t| !t.action.starts_with("n:"))
        })
        .collect();
    let take = all
        .iter()
        .find(|b| Token::decode(&b.token).is_ok_and(|t| t.action == "b:take"));
    take.or(all.first()).map(|b| b.token.clone())
}

/// Anna, Bruno and Cilda at a Zole table of group `g`, started, with no turn limit (the
/// group's admin set none): its first messages shown in `chat`.
async fn zole_of_three(
    host: &Arc<Host>,
    g: &ChatRef,
    chat: &mut Chat,
    events: &mut UnboundedReceiver<Outbox>,
) {
    let ask = |u: &str, command: Command| {
        host.handle(Request {
            chat: g.clone(),
            user: person(u),
            command,
        })
    };
    host.handle(Request {
        chat: g.clone(),
        user: User {
            admin: true,
            ..person("admin")
        },
        command: Command::SetTurnLimit(None),
    })
    .await;
    let new = Command::NewTable {
        game: "zole".into(),
        rules: None,
        seats: Some(3),
    };
    chat.apply(&ask("anna", new).await);
    chat.apply(&ask("bruno", Command::Join).await);
    chat.apply(&ask("cilda", Command::Join).await);
    chat.apply(&ask("anna", Command::Start).await);
    chat.drain(events);
}

/// Anna takes the talon and is asked to bury (her hand message in the chat says so, with the
/// cards as buttons); she opens the live table then and plays the deal out there, and closes
/// it in the next deal. Her chat hand message of the first deal ends without buttons (the
/// deal's last state, as an edit of that message: no new message for a deal she played on
/// the page), and a press on its old burial button is answered out of date. Before, it kept
/// "Choose two cards to bury." and its buttons for good.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hand_message_left_behind_by_the_live_table_ends_without_buttons() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_sqlite(dir.path().join("page.db").to_str().unwrap())
        .await
        .unwrap();
    let config = HostConfig {
        bot_budget_ms: 10,
        seeds: Arc::new(|table, deal| Seed::from_u64((table as u64) << 16 | deal as u64)),
        ..HostConfig::default()
    };
    let (host, mut events) = Host::new(store, config);
    let g = ChatRef::new(Platform::Telegram, "group-1", "g");
    let ask = |u: &str, command: Command| {
        let host = host.clone();
        let req = Request {
            chat: g.clone(),
            user: person(u),
            command,
        };
        async move { host.handle(req).await }
    };
    let mut chat = Chat::default();
    zole_of_three(&host, &g, &mut chat, &mut events).await;
    let people = ["anna", "bruno", "cilda"];
    let bury = t(Lang::En, "zole-bury-pick", &[]);

    // Chat presses (the take where offered) until someone is asked to bury.
    let mut asked = None;
    for _ in 0..60 {
        asked = people.iter().find_map(|&u| {
            let (key, (text, buttons)) = chat.hand(u)?;
            (text.contains(&bury) && !buttons.is_empty()).then(|| (u, key.clone(), buttons.clone()))
        });
        if asked.is_some() {
            break;
        }
        let Some((who, token)) = people.iter().find_map(|&u| {
            chat.hand(u)
                .and_then(|(_, (_, b))| a_move(b, None))
                .map(|t| (u, t))
        }) else {
            panic!("nobody may act: {:?}", chat.shown);
        };
        chat.apply(&ask(who, Command::press(token)).await);
        chat.drain(&mut events);
    }
    let (declarer, key, old_buttons) = asked.expect("someone takes the talon and is asked to bury");
    let table = Token::decode(&old_buttons[0][0].token).unwrap().table;
    let old = old_buttons[0][0].token.clone();

    // The declarer opens the live table and plays there (a tap is handled, and what it
    // shows is forwarded to the chat, as the page does); the others play in the chat.
    let page = host.watch(table, declarer);
    let next_deal = format!("t{table}.d2");
    let mut last: Option<String> = None;
    for _ in 0..200 {
        if chat.shown.contains_key(&("group".to_string(), next_deal.clone())) {
            break;
        }
        // The declarer's choices now, as the page knows them (never shown in the chat).
        let mine = ask(declarer, Command::ShowHand).await;
        let theirs = mine.0.iter().find_map(|o| match o {
            Out::Private { user, buttons, .. } if user == declarer => a_move(buttons, last.as_deref()),
            _ => None,
        });
        if let Some(token) = theirs {
            last = Some(token.clone());
            // A tap on the page: the chat gets what it changed through the events.
            host.tap(Request {
                chat: g.clone(),
                user: person(declarer),
                command: Command::press(token),
            })
            .await;
        } else {
            let Some((who, token)) = people.iter().filter(|&&u| u != declarer).find_map(|&u| {
                chat.hand(u)
                    .and_then(|(_, (_, b))| a_move(b, None))
                    .map(|t| (u, t))
            }) else {
                panic!("nobody may act: {:?}", chat.shown);
            };
            chat.apply(&ask(who, Command::press(token)).await);
        }
        chat.drain(&mut events);
    }
    assert!(
        chat.shown.contains_key(&("group".to_string(), next_deal.clone())),
        "deal 2 started"
    );
    // The page closes in deal 2; the chat is given the declarer's hand again.
    drop(page);
    tokio::time::sleep(Duration::from_secs(3)).await;
    chat.drain(&mut events);

    let (text, buttons) = &chat.shown[&(declarer.to_string(), key.clone())];
    assert!(
        buttons.is_empty() && !text.contains(&bury),
        "{declarer}'s hand message of deal 1 still looks live: {text:?} {buttons:?}"
    );
    // No hand message of deal 1 is left with a button, nor any table message but deal 2's.
    for ((to, k), (text, buttons)) in &chat.shown {
        let current = k.starts_with(&format!("t{table}.d2"));
        assert!(current || buttons.is_empty(), "{to} {k}: {text:?} {buttons:?}");
    }
    // The first deal's messages made no new message for the declarer: deal 1's hand is the
    // one sent before the page opened.
    assert_eq!(
        chat.order
            .iter()
            .filter(|(to, k)| to == declarer && k.contains(".d1."))
            .count(),
        1
    );
    // A press on its old burial button is out of date.
    let out = ask(declarer, Command::press(old)).await;
    assert_eq!(
        out.reply_text(),
        Some(t(Lang::En, "button-stale", &[]).as_str()),
        "{out:?}"
    );
}

/// The live pages of a table get each move made here pushed, drawn once at the commit: for
/// each (viewer, language) a page draws, the view is the one a read of the table gives then
/// (a seated person's with their hand, a watcher's without), and a view no page draws is not
/// drawn. Once the pages close, a move pushes nothing (a page would read the table).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_pushes_to_the_pages_the_views_drawn_at_its_commit() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_sqlite(dir.path().join("push.db").to_str().unwrap())
        .await
        .unwrap();
    let (host, mut events) = Host::new(store, HostConfig::default());
    let g = ChatRef::new(Platform::Telegram, "group-1", "g");
    let ask = |u: &str, command: Command| {
        let host = host.clone();
        let req = Request {
            chat: g.clone(),
            user: person(u),
            command,
        };
        async move { host.handle(req).await }
    };
    let mut chat = Chat::default();
    zole_of_three(&host, &g, &mut chat, &mut events).await;
    let people = ["anna", "bruno", "cilda"];
    let table = people
        .iter()
        .find_map(|&u| chat.hand(u).and_then(|(_, (_, b))| a_move(b, None)))
        .and_then(|token| Token::decode(&token).ok())
        .expect("someone may act")
        .table;
    // The person to act and a move of theirs (a card's pick, or the first other decision).
    let some_move = || {
        let host = host.clone();
        async move {
            for u in people {
                let v = host.table_view(table, Some(u)).await.unwrap().unwrap();
                if v.to_act.is_some() && v.to_act == v.me {
                    let card = v.hand.iter().find_map(|h| h.token.clone());
                    let other = v.buttons.iter().flatten().map(|b| b.token.clone()).next();
                    return Some((u, card.or(other)?));
                }
            }
            None
        }
    };

    let mut anna_page = host.follow(table);
    anna_page.draws(Some("anna"), Lang::En);
    let mut watcher_page = host.follow(table);
    watcher_page.draws(None, Lang::Lv);
    let mut changes = host.changes();
    let mut pushed = 0;
    for _ in 0..8 {
        let (who, token) = some_move().await.expect("someone may act");
        chat.apply(&ask(who, Command::press(token)).await);
        chat.drain(&mut events);
        let mut last = None;
        while let Ok(change) = changes.try_recv() {
            if change.table == table {
                last = Some(change);
            }
        }
        let drawn = last
            .expect("the move is announced")
            .drawn
            .expect("the move made here is drawn for its pages");
        let anna = host
            .table_view_in(table, Some("anna"), Some(Lang::En))
            .await
            .unwrap();
        let watcher = host.table_view_in(table, None, Some(Lang::Lv)).await.unwrap();
        assert_eq!(drawn.version, anna.as_ref().unwrap().version);
        assert_eq!(drawn.view(Some("anna"), Lang::En), anna.as_ref());
        assert_eq!(drawn.view(None, Lang::Lv), watcher.as_ref());
        assert!(!drawn.view(Some("anna"), Lang::En).unwrap().hand.is_empty());
        assert!(drawn.view(None, Lang::Lv).unwrap().hand.is_empty());
        // Nobody draws Bruno's view, nor Anna's in Latvian.
        assert!(drawn.view(Some("bruno"), Lang::En).is_none());
        assert!(drawn.view(Some("anna"), Lang::Lv).is_none());
        pushed += 1;
    }
    assert_eq!(pushed, 8);

    // Anna's page now draws her view in Latvian; the watcher's page closes.
    anna_page.draws(Some("anna"), Lang::Lv);
    drop(watcher_page);
    let (who, token) = some_move().await.expect("someone may act");
    chat.apply(&ask(who, Command::press(token)).await);
    chat.drain(&mut events);
    let drawn = std::iter::from_fn(|| changes.try_recv().ok())
        .filter(|c| c.table == table)
        .last()
        .and_then(|c| c.drawn)
        .expect("drawn for Anna's page");
    assert!(drawn.view(Some("anna"), Lang::Lv).is_some());
    assert!(drawn.view(Some("anna"), Lang::En).is_none());
    assert!(drawn.view(None, Lang::Lv).is_none());

    // No page: the move is announced, with nothing drawn.
    drop(anna_page);
    let (who, token) = some_move().await.expect("someone may act");
    chat.apply(&ask(who, Command::press(token)).await);
    chat.drain(&mut events);
    let changes: Vec<_> = std::iter::from_fn(|| changes.try_recv().ok())
        .filter(|c| c.table == table)
        .collect();
    assert!(!changes.is_empty(), "the move is announced");
    assert!(changes.iter().all(|c| c.drawn.is_none()), "{changes:?}");
}
