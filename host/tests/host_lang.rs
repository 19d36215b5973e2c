//! The community's language reaches an open table at its next message: after `/lang group ru`
//! a table that was playing in Latvian shows its next public message in Russian, while each
//! player's private hand stays in the player's own language.

use crate::common;

use common::{chat, config, dm, send, sqlite, table_id, user, Screen};
use stikis_host::i18n::Lang;
use stikis_host::{Command, Host, Out, Outbox};

/// The text of the table message of deal 1 in an outbox, if it shows it.
fn table_message(out: &Outbox, table: i64) -> Option<String> {
    let key = format!("t{table}.d1");
    out.0.iter().find_map(|o| match o {
        Out::Public { key: k, text, .. } if *k == key => Some(text.clone()),
        _ => None,
    })
}

/// The text of `user`'s hand message in an outbox, if it shows it.
fn hand_message(out: &Outbox, who: &str) -> Option<String> {
    out.0.iter().find_map(|o| match o {
        Out::Private { user, text, .. } if user == who => Some(text.clone()),
        _ => None,
    })
}

#[tokio::test]
async fn a_new_community_language_reaches_an_open_table_at_its_next_message() {
    let dir = tempfile::tempdir().unwrap();
    let (host, _events) = Host::new(sqlite(&dir, "lang.db").await, config());
    let mut screen = Screen::default();
    let g = chat("g");
    let admin = user("admin", true);
    send(&host, &mut screen, g.clone(), &admin, Command::SetTurnLimit(None)).await;
    send(
        &host,
        &mut screen,
        g.clone(),
        &admin,
        Command::SetCommunityLang(Lang::Lv),
    )
    .await;
    let people = [user("anna", false), user("bruno", false), user("cilda", false)];
    // Bruno reads in English whatever the community's language.
    send(
        &host,
        &mut screen,
        g.clone(),
        &people[1],
        Command::SetUserLang(Lang::En),
    )
    .await;
    let new_table = Command::NewTable {
        game: "zole".into(),
        rules: None,
        seats: None,
    };
    send(&host, &mut screen, g.clone(), &people[0], new_table).await;
    let table = table_id(&screen);
    for p in &people[1..] {
        let join = screen.lobby_token("join");
        send(&host, &mut screen, g.clone(), p, Command::press(join)).await;
    }
    let out = send(&host, &mut screen, g.clone(), &people[0], Command::Start).await;
    let shown = table_message(&out, table).expect("the table message");
    assert!(shown.starts_with("Zole · 1. dalījums"), "{shown}");

    let out = send(
        &host,
        &mut screen,
        g.clone(),
        &admin,
        Command::SetCommunityLang(Lang::Ru),
    )
    .await;
    assert_eq!(out.reply_text(), Some("Язык: русский"));

    // The next move: the table's message is in Russian from now on.
    let who = people
        .iter()
        .find(|p| !screen.my_buttons(&p.id).is_empty())
        .expect("somebody bids first")
        .clone();
    let token = screen.my_buttons(&who.id)[0].1.clone();
    let out = send(&host, &mut screen, dm(&who.id), &who, Command::press(token)).await;
    let shown = table_message(&out, table).expect("the table message after a move");
    assert!(shown.starts_with("Золе · раздача 1"), "{shown}");
    assert!(shown.contains("Заявки:") && shown.contains("Ход:"), "{shown}");

    // Private hands: Anna has no language of her own and reads the community's, now Russian;
    // Bruno keeps his English.
    let out = send(&host, &mut screen, g.clone(), &people[0], Command::ShowHand).await;
    let anna = hand_message(&out, "anna").expect("Anna's hand");
    assert!(anna.starts_with("Ваши карты:"), "{anna}");
    let out = send(&host, &mut screen, g.clone(), &people[1], Command::ShowHand).await;
    let bruno = hand_message(&out, "bruno").expect("Bruno's hand");
    assert!(bruno.starts_with("Your cards:"), "{bruno}");
}
