//! The store's contract, checked on SQLite always and on PostgreSQL when
//! STIKIS_TEST_POSTGRES_URL is set (`eval "$(bash .ci/postgres.sh)"`; with
//! STIKIS_REQUIRE_POSTGRES set, a test that needs it fails without it). Each test gets its own
//! SQLite file and its own PostgreSQL schema, so tests run in parallel.

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

use serde_json::{json, Value};
use stikis_host::i18n::Lang;
use stikis_host::store::*;
use tempfile::TempDir;

use crate::common::postgres_url;

/// A fresh database on one backend; the temp dir (SQLite) lives as long as it.
struct Db {
    store: Store,
    url: String,
    schema: Option<String>,
    _dir: Option<TempDir>,
}

impl Db {
    /// A second, independent `Store` on the same database (as a second process would have).
    async fn reopen(&self) -> Store {
        match &self.schema {
            Some(schema) => Store::connect_postgres(&self.url, Some(schema)).await.unwrap(),
            None => Store::connect(&self.url).await.unwrap(),
        }
    }
}

async fn sqlite_db() -> Db {
    let dir = tempfile::tempdir().unwrap();
    let url = dir.path().join("stikis.db").display().to_string();
    Db {
        store: Store::connect(&url).await.unwrap(),
        url,
        schema: None,
        _dir: Some(dir),
    }
}

async fn postgres_db(url: &str) -> Db {
    static N: AtomicU32 = AtomicU32::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos();
    let schema = format!(
        "t_{}_{}_{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed),
        nanos
    );
    Db {
        store: Store::connect_postgres(url, Some(&schema)).await.unwrap(),
        url: url.to_string(),
        schema: Some(schema),
        _dir: None,
    }
}

/// One fresh database per backend under test.
async fn dbs() -> Vec<Db> {
    let mut out = vec![sqlite_db().await];
    if let Some(url) = postgres_url() {
        out.push(postgres_db(&url).await);
    }
    out
}

fn chat(id: &str) -> ChatRef {
    ChatRef::new(Platform::Telegram, "group-1", id)
}

fn new_table(chat: ChatRef) -> NewTable {
    NewTable {
        chat,
        game: "zole".into(),
        rules: json!({"preset": "lv", "small_zole": true}),
        seats: 4,
        creator: "u-anna".into(),
    }
}

fn human(id: &str) -> Occupant {
    Occupant::Human { user_id: id.into() }
}

#[tokio::test]
async fn community_and_user_settings() {
    for db in dbs().await {
        let s = &db.store;
        let c = CommunityRef::new(Platform::Discord, "srv-1");
        let other = CommunityRef::new(Platform::Telegram, "srv-1");
        assert_eq!(
            s.community_settings(&c).await.unwrap(),
            CommunitySettings::default()
        );
        assert_eq!(CommunitySettings::default().turn_limit_secs, Some(60));

        let set = CommunitySettings {
            lang: Lang::Lv,
            turn_limit_secs: None,
            auto_start: true,
            computer_names: vec!["Jānis".into(), String::new(), "Ilze".into()],
            hands_in_group: false,
        };
        s.set_community_settings(&c, &set).await.unwrap();
        assert_eq!(s.community_settings(&c).await.unwrap(), set);
        // Same id on another platform is another community.
        assert_eq!(
            s.community_settings(&other).await.unwrap(),
            CommunitySettings::default()
        );
        let set2 = CommunitySettings {
            lang: Lang::Ru,
            turn_limit_secs: Some(90),
            auto_start: false,
            computer_names: Vec::new(),
            hands_in_group: true,
        };
        s.set_community_settings(&c, &set2).await.unwrap();
        assert_eq!(s.community_settings(&c).await.unwrap(), set2);

        assert_eq!(s.user_lang(Platform::Discord, "u1").await.unwrap(), None);
        s.set_user_lang(Platform::Discord, "u1", Some(Lang::Ru))
            .await
            .unwrap();
        assert_eq!(
            s.user_lang(Platform::Discord, "u1").await.unwrap(),
            Some(Lang::Ru)
        );
        assert_eq!(s.user_lang(Platform::Telegram, "u1").await.unwrap(), None);
        s.set_user_lang(Platform::Discord, "u1", None).await.unwrap();
        assert_eq!(s.user_lang(Platform::Discord, "u1").await.unwrap(), None);
    }
}

#[tokio::test]
async fn tables_open_one_per_chat_and_close_for_good() {
    for db in dbs().await {
        let s = &db.store;
        let t = s.create_table(&new_table(chat("c1"))).await.unwrap();
        assert_eq!(t.status, TableStatus::Lobby);
        assert_eq!(t.game, "zole");
        assert_eq!(t.rules, json!({"preset": "lv", "small_zole": true}));
        assert_eq!(t.creator, "u-anna");
        assert_eq!(t.seats, 4);
        assert_eq!(t.chat, chat("c1"));
        assert_eq!(s.table(t.id).await.unwrap(), Some(t.clone()));
        assert_eq!(s.table(t.id + 1000).await.unwrap(), None);

        // One open table per chat; a thread of the chat is a place of its own.
        assert!(matches!(
            s.create_table(&new_table(chat("c1"))).await,
            Err(StoreError::ChatBusy)
        ));
        let topic = chat("c1").in_thread("topic-7");
        let t2 = s.create_table(&new_table(topic.clone())).await.unwrap();
        assert_ne!(t2.id, t.id);
        assert_eq!(s.open_table(&chat("c1")).await.unwrap().unwrap().id, t.id);
        assert_eq!(s.open_table(&topic).await.unwrap().unwrap().id, t2.id);
        assert_eq!(
            s.open_table(&topic).await.unwrap().unwrap().chat.thread,
            Some("topic-7".into())
        );
        assert_eq!(s.open_table(&chat("c2")).await.unwrap(), None);
        // Another community's table does not show in this one's list.
        let far = ChatRef::new(Platform::Telegram, "group-2", "c9");
        let t3 = s.create_table(&new_table(far.clone())).await.unwrap();
        let listed: Vec<i64> = s
            .open_tables(&chat("c1").community_ref())
            .await
            .unwrap()
            .iter()
            .map(|t| t.id)
            .collect();
        assert_eq!(listed, vec![t.id, t2.id]);

        assert!(s.running_tables().await.unwrap().is_empty());
        s.set_status(t.id, TableStatus::Running).await.unwrap();
        s.set_status(t3.id, TableStatus::Running).await.unwrap();
        let running: Vec<i64> = s.running_tables().await.unwrap().iter().map(|t| t.id).collect();
        assert_eq!(running, vec![t.id, t3.id]);
        let back = s.table(t.id).await.unwrap().unwrap();
        assert_eq!(back.status, TableStatus::Running);
        assert!(back.updated_ms >= back.created_ms);

        // A finished table frees its chat and stays finished.
        s.set_status(t.id, TableStatus::Finished).await.unwrap();
        assert_eq!(s.open_table(&chat("c1")).await.unwrap(), None);
        assert!(matches!(
            s.set_status(t.id, TableStatus::Running).await,
            Err(StoreError::TableClosed(id)) if id == t.id
        ));
        assert!(matches!(
            s.set_status(t.id, TableStatus::Stopped).await,
            Err(StoreError::TableClosed(_))
        ));
        assert_eq!(
            s.table(t.id).await.unwrap().unwrap().status,
            TableStatus::Finished
        );
        let t4 = s.create_table(&new_table(chat("c1"))).await.unwrap();
        assert_eq!(s.open_table(&chat("c1")).await.unwrap().unwrap().id, t4.id);
        s.set_status(t4.id, TableStatus::Stopped).await.unwrap();
        assert_eq!(s.open_table(&chat("c1")).await.unwrap(), None);
        assert!(matches!(
            s.set_status(999_999, TableStatus::Stopped).await,
            Err(StoreError::NoTable(999_999))
        ));
    }
}

#[tokio::test]
async fn two_processes_cannot_both_open_a_chat() {
    for db in dbs().await {
        let other = db.reopen().await;
        let nt = new_table(chat("race"));
        let (a, b) = tokio::join!(db.store.create_table(&nt), other.create_table(&nt));
        let oks = [a.is_ok(), b.is_ok()].iter().filter(|x| **x).count();
        assert_eq!(oks, 1, "{a:?} {b:?}");
        assert!(matches!(a.err().or(b.err()), Some(StoreError::ChatBusy)));
    }
}

#[tokio::test]
async fn seats_hold_one_occupant_and_a_person_sits_once() {
    for db in dbs().await {
        let s = &db.store;
        let t = s.create_table(&new_table(chat("c1"))).await.unwrap().id;
        s.take_seat(t, 1, "Bruno", &human("u-bruno")).await.unwrap();
        s.take_seat(t, 0, "Anna", &human("u-anna")).await.unwrap();
        s.take_seat(t, 2, "Dators", &Occupant::Computer { level: 3 })
            .await
            .unwrap();
        assert!(matches!(
            s.take_seat(t, 1, "Cilda", &human("u-cilda")).await,
            Err(StoreError::SeatTaken { seat: 1, .. })
        ));
        assert!(matches!(
            s.take_seat(t, 3, "Anna", &human("u-anna")).await,
            Err(StoreError::AlreadySeated { ref user, .. }) if user == "u-anna"
        ));
        // Two computer players may sit at one table.
        s.take_seat(t, 3, "Dators 2", &Occupant::Computer { level: 1 })
            .await
            .unwrap();
        assert!(matches!(
            s.take_seat(424_242, 0, "Anna", &human("u-anna")).await,
            Err(StoreError::NoTable(424_242))
        ));

        let seats = s.seats(t).await.unwrap();
        assert_eq!(
            seats,
            vec![
                SeatRow {
                    seat: 0,
                    name: "Anna".into(),
                    occupant: human("u-anna"),
                    away: false
                },
                SeatRow {
                    seat: 1,
                    name: "Bruno".into(),
                    occupant: human("u-bruno"),
                    away: false
                },
                SeatRow {
                    seat: 2,
                    name: "Dators".into(),
                    occupant: Occupant::Computer { level: 3 },
                    away: false
                },
                SeatRow {
                    seat: 3,
                    name: "Dators 2".into(),
                    occupant: Occupant::Computer { level: 1 },
                    away: false
                },
            ]
        );

        assert!(s.set_away(t, 1, true).await.unwrap());
        assert!(s.seats(t).await.unwrap()[1].away);
        assert!(s.set_away(t, 1, false).await.unwrap());
        assert!(!s.seats(t).await.unwrap()[1].away);
        assert!(!s.set_away(t, 7, true).await.unwrap());

        assert!(s.leave_seat(t, 3).await.unwrap());
        assert!(!s.leave_seat(t, 3).await.unwrap());
        assert!(s.leave_seat(t, 1).await.unwrap());
        // The freed seat and the person who left can sit again.
        s.take_seat(t, 1, "Cilda", &human("u-cilda")).await.unwrap();
        s.take_seat(t, 3, "Bruno", &human("u-bruno")).await.unwrap();
        let names: Vec<String> = s.seats(t).await.unwrap().into_iter().map(|s| s.name).collect();
        assert_eq!(names, ["Anna", "Cilda", "Dators", "Bruno"]);
    }
}

/// Every change to a table's seats counts one more in its version, whichever process makes
/// it, and a refused change counts nothing: a lobby rendered from older seats carries a
/// lower version, so it never replaces a newer render.
#[tokio::test]
async fn every_change_to_the_seats_counts_in_their_version() {
    for db in dbs().await {
        let s = &db.store;
        let other = db.reopen().await;
        let t = s.create_table(&new_table(chat("c1"))).await.unwrap().id;
        let u = s.create_table(&new_table(chat("c2"))).await.unwrap().id;
        assert_eq!(s.seats_versioned(t).await.unwrap(), (0, vec![]));
        s.take_seat(t, 0, "Anna", &human("u-anna")).await.unwrap();
        other.take_seat(t, 1, "Bruno", &human("u-bruno")).await.unwrap();
        let (rev, seats) = s.seats_versioned(t).await.unwrap();
        assert_eq!((rev, seats.len()), (2, 2));
        // Refused: the seat is taken, or the seat is empty.
        assert!(s.take_seat(t, 1, "Cilda", &human("u-cilda")).await.is_err());
        assert!(!s.leave_seat(t, 2).await.unwrap());
        assert_eq!(other.seats_versioned(t).await.unwrap().0, 2);
        assert!(other.set_away(t, 1, true).await.unwrap());
        assert!(s.leave_seat(t, 0).await.unwrap());
        let (rev, seats) = other.seats_versioned(t).await.unwrap();
        assert_eq!((rev, seats.len()), (4, 1));
        assert!(seats[0].away);
        // Another table's seats are counted apart.
        s.take_seat(u, 0, "Anna", &human("u-anna")).await.unwrap();
        assert_eq!(s.seats_versioned(u).await.unwrap().0, 1);
        assert_eq!(s.seats_versioned(t).await.unwrap().0, 4);
        assert!(matches!(
            s.seats_versioned(424_242).await,
            Err(StoreError::NoTable(424_242))
        ));
    }
}

#[tokio::test]
async fn the_action_log_has_one_entry_per_sequence_number() {
    for db in dbs().await {
        let s = &db.store;
        let t = s.create_table(&new_table(chat("c1"))).await.unwrap().id;
        let u = s.create_table(&new_table(chat("c2"))).await.unwrap().id;
        assert_eq!(s.next_seq(t).await.unwrap(), 1);
        let a1 = json!({"seat": 0, "bid": "pass"});
        let a2 = json!({"seat": 1, "bid": "take"});
        let a3 = json!({"seat": 1, "bury": ["AH", "10H"]});
        s.append_action(t, 1, &a1).await.unwrap();
        s.append_action(t, 2, &a2).await.unwrap();
        // Tables count independently.
        s.append_action(u, 1, &a3).await.unwrap();
        s.append_action(t, 3, &a3).await.unwrap();

        // A committed number is refused and its action kept.
        let forged = json!({"seat": 2, "bid": "zole"});
        assert!(matches!(
            s.append_action(t, 2, &forged).await,
            Err(StoreError::SeqTaken { seq: 2, .. })
        ));
        assert!(matches!(
            s.append_action(t, 1, &forged).await,
            Err(StoreError::SeqTaken { seq: 1, .. })
        ));
        // No gaps, no numbers below 1.
        assert!(matches!(
            s.append_action(t, 5, &forged).await,
            Err(StoreError::SeqGap { seq: 5, next: 4, .. })
        ));
        assert!(matches!(
            s.append_action(t, 0, &forged).await,
            Err(StoreError::SeqGap { seq: 0, next: 4, .. })
        ));
        assert!(matches!(
            s.append_action(777_777, 1, &forged).await,
            Err(StoreError::NoTable(777_777))
        ));

        let log = s.actions(t).await.unwrap();
        let seqs: Vec<i64> = log.iter().map(|a| a.seq).collect();
        let payloads: Vec<&Value> = log.iter().map(|a| &a.payload).collect();
        assert_eq!(seqs, [1, 2, 3]);
        assert_eq!(payloads, [&a1, &a2, &a3]);
        assert!(log.windows(2).all(|w| w[0].at_ms <= w[1].at_ms));
        assert!(log[0].at_ms > 1_700_000_000_000, "at_ms is Unix milliseconds");
        assert_eq!(s.next_seq(t).await.unwrap(), 4);
        assert_eq!(s.actions(u).await.unwrap().len(), 1);
        assert!(s.actions(777_777).await.unwrap().is_empty());
    }
}

/// A press's move is bound to its time limit: once the time is up it is refused and never
/// committed, and only the first action under the limit is bound (computer players who move
/// after the person are not).
#[tokio::test]
async fn an_action_past_its_press_time_limit_is_never_committed() {
    for db in dbs().await {
        let s = &db.store;
        let t = s.create_table(&new_table(chat("c1"))).await.unwrap().id;
        let past = CommitBy::new(now_ms() - 1, None);
        let late = past
            .scope(s.append_action(t, 1, &json!({"seat": 0, "bid": "pass"})))
            .await;
        assert!(matches!(&late, Err(StoreError::Late)), "{late:?}");
        assert!(past.answered());
        assert_eq!(
            s.next_seq(t).await.unwrap(),
            1,
            "refused, so nothing was committed"
        );

        let soon = CommitBy::new(now_ms() + 60_000, None);
        assert!(!soon.answered());
        soon.scope(async {
            s.append_action(t, 1, &json!({"seat": 0, "bid": "pass"}))
                .await
                .unwrap();
            s.append_action(t, 2, &json!({"seat": 1, "bid": "pass"}))
                .await
                .unwrap();
        })
        .await;
        assert!(soon.answered());
        // A limit taken by its first action binds no other: a computer player's move after
        // the person's is committed whenever it comes.
        let used = CommitBy::new(now_ms() - 1, None);
        used.scope(async {
            let first = s.append_action(t, 3, &json!({"seat": 2, "bid": "pass"})).await;
            assert!(first.is_err());
            s.append_action(t, 3, &json!({"seat": 2, "bid": "pass"}))
                .await
                .unwrap();
        })
        .await;
        assert_eq!(s.next_seq(t).await.unwrap(), 4);
    }
}

#[tokio::test]
async fn deals_and_actions_rebuild_the_record() {
    for db in dbs().await {
        let s = &db.store;
        let t = s.create_table(&new_table(chat("c1"))).await.unwrap().id;
        s.take_seat(t, 0, "Anna", &human("u-anna")).await.unwrap();
        s.take_seat(t, 2, "Cilda", &human("u-cilda")).await.unwrap();
        s.take_seat(t, 1, "Bruno", &human("u-bruno")).await.unwrap();

        let deal1 = json!({"dealer": 2, "hands": [["QC"], ["JS"], ["AD"]], "talon": ["AH", "9S"]});
        let deal2 = json!({"dealer": 0, "hands": [["QS"], ["JC"], ["AC"]], "talon": ["KH", "9H"]});
        let seed1 = "11".repeat(32);
        let commit1 = "ab".repeat(32);
        assert_eq!(s.start_deal(t, 1, &seed1, &commit1, &deal1).await.unwrap(), 1);
        let acts1 = [
            json!({"seat": 0, "bid": "pass"}),
            json!({"seat": 1, "bid": "take"}),
            json!({"seat": 1, "bury": ["AH", "9S"]}),
        ];
        for (i, a) in acts1.iter().enumerate() {
            s.append_action(t, i as i64 + 1, a).await.unwrap();
        }
        assert!(matches!(
            s.start_deal(t, 1, &seed1, &commit1, &deal2).await,
            Err(StoreError::DealTaken { deal: 1, .. })
        ));
        assert!(matches!(
            s.start_deal(t, 3, &seed1, &commit1, &deal2).await,
            Err(StoreError::DealGap { deal: 3, next: 2, .. })
        ));
        assert!(matches!(
            s.start_deal(t, 2, &seed1, &commit1, &json!({"actions": []}))
                .await,
            Err(StoreError::BadDeal)
        ));
        assert!(matches!(
            s.start_deal(t, 2, &seed1, &commit1, &json!([1, 2])).await,
            Err(StoreError::BadDeal)
        ));
        assert!(matches!(
            s.start_deal(888_888, 1, &seed1, &commit1, &deal1).await,
            Err(StoreError::NoTable(888_888))
        ));
        assert_eq!(
            s.start_deal(t, 2, &"22".repeat(32), "cd", &deal2).await.unwrap(),
            4
        );
        s.append_action(t, 4, &json!({"seat": 1, "bid": "zole"}))
            .await
            .unwrap();

        let deals = s.deals(t).await.unwrap();
        assert_eq!(deals.len(), 2);
        assert_eq!((deals[0].deal_no, deals[0].first_seq), (1, 1));
        assert_eq!((deals[1].deal_no, deals[1].first_seq), (2, 4));
        assert_eq!(deals[0].seed_hex, seed1);
        assert_eq!(deals[0].commitment_hex, commit1);
        assert_eq!(deals[1].deal, deal2);

        let env = s.record(t).await.unwrap();
        let got = serde_json::to_value(&env).unwrap();
        let mut d1 = deal1.clone();
        d1["actions"] = json!(acts1);
        let mut d2 = deal2.clone();
        d2["actions"] = json!([{"seat": 1, "bid": "zole"}]);
        assert_eq!(
            got,
            json!({
                "game": "zole",
                "rules": {"preset": "lv", "small_zole": true},
                "players": ["Anna", "Bruno", "Cilda"],
                "deals": [d1, d2],
            })
        );
        // A table with no deal yet has an empty record; a missing one is an error.
        let empty = s.create_table(&new_table(chat("c3"))).await.unwrap().id;
        assert!(s.record(empty).await.unwrap().deals.is_empty());
        assert!(matches!(s.record(999_999).await, Err(StoreError::NoTable(_))));
    }
}

#[tokio::test]
async fn score_sheets_persist_until_closed() {
    for db in dbs().await {
        let s = &db.store;
        let c = chat("c1");
        assert_eq!(s.score_sheet(&c, "zole").await.unwrap(), None);
        let totals = vec![
            SheetTotal {
                player: "u-anna".into(),
                name: "Anna".into(),
                points: 4,
            },
            SheetTotal {
                player: "u-bruno".into(),
                name: "Bruno".into(),
                points: -2,
            },
        ];
        let pules = json!({"common": 1, "personal": {"u-anna": 1}});
        let first = s.save_score_sheet(&c, "zole", &totals, &pules).await.unwrap();
        assert_eq!(first.totals, totals);
        assert_eq!(first.pules, pules);
        assert_eq!(first.closed_ms, None);
        assert_eq!(first.chat, c);

        // A later session of the same chat continues the same sheet.
        let totals2 = vec![SheetTotal {
            player: "u-anna".into(),
            name: "Anna".into(),
            points: 7,
        }];
        let again = s
            .save_score_sheet(&c, "zole", &totals2, &json!({}))
            .await
            .unwrap();
        assert_eq!(again.id, first.id);
        assert_eq!(again.created_ms, first.created_ms);
        let reopened = db.reopen().await;
        let loaded = reopened.score_sheet(&c, "zole").await.unwrap().unwrap();
        assert_eq!(loaded.id, first.id);
        assert_eq!(loaded.totals, totals2);
        assert_eq!(loaded.pules, json!({}));

        // Other threads and other games have their own sheets.
        let topic = c.clone().in_thread("t1");
        assert_eq!(s.score_sheet(&topic, "zole").await.unwrap(), None);
        assert_eq!(s.score_sheet(&c, "belote-bazar").await.unwrap(), None);
        let other = s.save_score_sheet(&topic, "zole", &totals, &pules).await.unwrap();
        assert_ne!(other.id, first.id);

        let closed = s.close_score_sheet(&c, "zole").await.unwrap().unwrap();
        assert_eq!(closed.id, first.id);
        assert_eq!(closed.totals, totals2);
        assert!(closed.closed_ms.is_some());
        assert_eq!(s.score_sheet(&c, "zole").await.unwrap(), None);
        assert_eq!(s.close_score_sheet(&c, "zole").await.unwrap(), None);
        let fresh = s.save_score_sheet(&c, "zole", &[], &json!({})).await.unwrap();
        assert_ne!(fresh.id, first.id);
        assert!(fresh.totals.is_empty());
        assert_eq!(s.score_sheet(&topic, "zole").await.unwrap().unwrap().id, other.id);
    }
}

fn entry(user: &str, name: &str, delta: Stats) -> StatsEntry {
    StatsEntry {
        user_id: user.into(),
        name: name.into(),
        delta,
    }
}

#[tokio::test]
async fn leaderboards_count_each_deal_once() {
    for db in dbs().await {
        let s = &db.store;
        let c = CommunityRef::new(Platform::Telegram, "group-1");
        let d = |deals, wins, points, written, removed| Stats {
            games: 0,
            deals,
            declarer_wins: wins,
            points,
            pules_written: written,
            pules_removed: removed,
        };
        let deal1 = [
            entry("u-anna", "Anna", d(1, 1, 4, 0, 1)),
            entry("u-bruno", "Bruno", d(1, 0, -2, 1, 0)),
            entry("u-cilda", "Cilda", d(1, 0, -2, 0, 0)),
        ];
        assert!(s.apply_stats(1, 1, &c, "zole", &deal1).await.unwrap());
        // The same deal again (a replay after a restart, another process) counts nothing.
        assert!(!s.apply_stats(1, 1, &c, "zole", &deal1).await.unwrap());
        assert!(!db
            .reopen()
            .await
            .apply_stats(1, 1, &c, "zole", &deal1)
            .await
            .unwrap());
        let mut last = d(1, 0, 6, 0, 0);
        last.games = 1;
        let mut others = d(1, 0, -3, 0, 0);
        others.games = 1;
        let deal2 = [
            entry("u-anna", "Anna", others),
            entry("u-bruno", "Bruno K.", last),
            entry("u-cilda", "Cilda", others),
        ];
        assert!(s.apply_stats(1, 2, &c, "zole", &deal2).await.unwrap());
        // Another game and another community keep their own boards.
        let other = CommunityRef::new(Platform::Telegram, "group-2");
        assert!(s
            .apply_stats(2, 1, &other, "zole", &[entry("u-dace", "Dace", d(1, 1, 9, 0, 0))])
            .await
            .unwrap());
        assert!(s
            .apply_stats(
                3,
                1,
                &c,
                "belote-bazar",
                &[entry("u-anna", "Anna", d(1, 1, 16, 0, 0))]
            )
            .await
            .unwrap());

        let board = s.leaderboard(&c, "zole", 10).await.unwrap();
        let rows: Vec<(&str, &str, i64)> = board
            .iter()
            .map(|r| (r.user_id.as_str(), r.name.as_str(), r.stats.points))
            .collect();
        assert_eq!(
            rows,
            [
                ("u-bruno", "Bruno K.", 4),
                ("u-anna", "Anna", 1),
                ("u-cilda", "Cilda", -5)
            ]
        );
        assert_eq!(
            board[0].stats,
            Stats {
                games: 1,
                deals: 2,
                declarer_wins: 0,
                points: 4,
                pules_written: 1,
                pules_removed: 0
            }
        );
        assert_eq!(
            s.user_stats(&c, "zole", "u-anna").await.unwrap().unwrap().stats,
            Stats {
                games: 1,
                deals: 2,
                declarer_wins: 1,
                points: 1,
                pules_written: 0,
                pules_removed: 1
            }
        );
        let top1 = s.leaderboard(&c, "zole", 1).await.unwrap();
        assert_eq!(top1.len(), 1);
        assert_eq!(top1[0].user_id, "u-bruno");
        assert_eq!(s.user_stats(&c, "zole", "u-dace").await.unwrap(), None);
        assert_eq!(
            s.leaderboard(&other, "zole", 10).await.unwrap()[0].user_id,
            "u-dace"
        );
        assert_eq!(s.leaderboard(&c, "belote-bazar", 10).await.unwrap().len(), 1);
        assert!(s.leaderboard(&c, "polt", 10).await.unwrap().is_empty());
    }
}

#[tokio::test]
async fn ties_on_the_leaderboard_go_to_wins_then_games() {
    for db in dbs().await {
        let s = &db.store;
        let c = CommunityRef::new(Platform::Local, "here");
        let st = |games, wins| Stats {
            games,
            declarer_wins: wins,
            points: 10,
            ..Stats::default()
        };
        s.apply_stats(
            1,
            1,
            &c,
            "zole",
            &[
                entry("a", "A", st(1, 1)),
                entry("b", "B", st(1, 2)),
                entry("c", "C", st(3, 1)),
                entry("d", "D", st(3, 1)),
            ],
        )
        .await
        .unwrap();
        let order: Vec<String> = s
            .leaderboard(&c, "zole", 10)
            .await
            .unwrap()
            .into_iter()
            .map(|r| r.user_id)
            .collect();
        assert_eq!(order, ["b", "c", "d", "a"]);
    }
}

#[tokio::test]
async fn sqlite_file_is_created_in_wal_mode_and_survives_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sub-dir-free.db");
    assert!(!path.exists());
    let url = format!("sqlite://{}", path.display());
    let s = Store::connect(&url).await.unwrap();
    assert_eq!(s.backend_name(), "sqlite");
    let t = s.create_table(&new_table(chat("c1"))).await.unwrap().id;
    s.append_action(t, 1, &json!({"seat": 0, "play": "QC"}))
        .await
        .unwrap();
    assert!(path.exists());
    assert!(
        dir.path().join("sub-dir-free.db-wal").exists(),
        "WAL journal expected beside the database"
    );
    s.close().await;
    // Opening again runs the migrations again (a no-op) and finds everything.
    let s = Store::connect(path.to_str().unwrap()).await.unwrap();
    assert_eq!(
        s.actions(t).await.unwrap()[0].payload,
        json!({"seat": 0, "play": "QC"})
    );
    assert!(matches!(
        s.append_action(t, 1, &json!({})).await,
        Err(StoreError::SeqTaken { .. })
    ));
}

#[tokio::test]
async fn postgres_urls_open_postgres() {
    let Some(url) = postgres_url() else {
        return;
    };
    // `connect` picks the backend from the URL; the default schema is shared by design, so
    // this test only reads.
    let s = Store::connect(&url).await.unwrap();
    assert_eq!(s.backend_name(), "postgres");
    assert_eq!(s.table(-1).await.unwrap(), None);
    assert!(matches!(
        Store::connect_postgres(&url, Some("bad-name; DROP")).await,
        Err(StoreError::BadSchema(_))
    ));
}

/// Many tasks on two `Store`s (two processes' worth of pools) on one database race to commit
/// the next action of one table. Each retries on `SeqTaken` with the number it reloads, as a
/// table actor would. Every sequence number must end up committed exactly once, with no gaps,
/// and every task's every action must be there exactly once.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn racing_writers_commit_every_number_exactly_once() {
    const TASKS: usize = 12;
    const EACH: usize = 15;
    for db in dbs().await {
        let a = db.store.clone();
        let b = db.reopen().await;
        let t = a.create_table(&new_table(chat("race"))).await.unwrap().id;

        // First: every task tries the very same number at once; exactly one wins.
        let mut joins = Vec::new();
        for i in 0..TASKS {
            let s = if i % 2 == 0 { a.clone() } else { b.clone() };
            joins.push(tokio::spawn(async move {
                s.append_action(t, 1, &json!({"task": i, "n": 0})).await
            }));
        }
        let mut wins = 0;
        for j in joins {
            match j.await.unwrap() {
                Ok(()) => wins += 1,
                Err(StoreError::SeqTaken { seq: 1, .. }) => {}
                Err(e) => panic!("{}: unexpected {e}", a.backend_name()),
            }
        }
        assert_eq!(wins, 1, "{}", a.backend_name());

        // Then: everyone appends their own actions, retrying on lost races.
        let mut joins = Vec::new();
        for i in 0..TASKS {
            let s = if i % 2 == 0 { a.clone() } else { b.clone() };
            joins.push(tokio::spawn(async move {
                let mut lost = 0u32;
                for n in 1..=EACH {
                    loop {
                        let seq = s.next_seq(t).await.unwrap();
                        match s.append_action(t, seq, &json!({"task": i, "n": n})).await {
                            Ok(()) => break,
                            Err(StoreError::SeqTaken { .. }) | Err(StoreError::SeqGap { .. }) => {
                                lost += 1;
                                tokio::task::yield_now().await;
                            }
                            Err(e) => panic!("unexpected {e}"),
                        }
                    }
                }
                lost
            }));
        }
        let mut lost = 0;
        for j in joins {
            lost += j.await.unwrap();
        }
        let log = b.actions(t).await.unwrap();
        let total = 1 + TASKS * EACH;
        assert_eq!(log.len(), total, "{}", a.backend_name());
        let seqs: Vec<i64> = log.iter().map(|a| a.seq).collect();
        assert_eq!(seqs, (1..=total as i64).collect::<Vec<_>>());
        let entries: BTreeSet<(u64, u64)> = log[1..]
            .iter()
            .map(|a| {
                (
                    a.payload["task"].as_u64().unwrap(),
                    a.payload["n"].as_u64().unwrap(),
                )
            })
            .collect();
        assert_eq!(entries.len(), TASKS * EACH, "an action was committed twice");
        for i in 0..TASKS as u64 {
            for n in 1..=EACH as u64 {
                assert!(entries.contains(&(i, n)), "task {i} action {n} lost");
            }
        }
        eprintln!("{}: {lost} lost races retried", a.backend_name());
    }
}

/// A run of actions (a person's move and the computer players' after it) is committed whole
/// or not at all, at its table's next number: a run that starts at a taken number, past the
/// next, or past its press's time limit adds nothing.
#[tokio::test]
async fn a_run_of_actions_is_committed_whole_or_not_at_all() {
    for db in dbs().await {
        let s = &db.store;
        let name = s.backend_name();
        let t = s.create_table(&new_table(chat("runs"))).await.unwrap().id;
        let a = |n: i64| json!({"seat": n % 3, "n": n});
        s.append_actions(t, 1, &[a(1), a(2), a(3)]).await.unwrap();
        s.append_actions(t, 4, &[]).await.unwrap();
        s.append_action(t, 4, &a(4)).await.unwrap();
        assert!(
            matches!(
                s.append_actions(t, 3, &[a(30), a(40), a(50)]).await,
                Err(StoreError::SeqTaken { seq: 3, .. })
            ),
            "{name}"
        );
        assert!(
            matches!(
                s.append_actions(t, 6, &[a(60), a(70)]).await,
                Err(StoreError::SeqGap { seq: 6, next: 5, .. })
            ),
            "{name}"
        );
        let past = CommitBy::new(now_ms() - 1, None);
        let late = past.scope(s.append_actions(t, 5, &[a(5), a(6)])).await;
        assert!(matches!(&late, Err(StoreError::Late)), "{name}: {late:?}");
        assert!(
            matches!(
                s.append_actions(777_777, 1, &[a(1), a(2)]).await,
                Err(StoreError::NoTable(777_777))
            ),
            "{name}"
        );
        // A handed press's name is written with its move, the run's first action, only.
        let soon = CommitBy::new(now_ms() + 60_000, Some("p-receiver/7".into()));
        soon.scope(s.append_actions(t, 5, &[a(5), a(6), a(7)]))
            .await
            .unwrap();
        let made_by = [
            s.action_press(t, 4).await.unwrap(),
            s.action_press(t, 5).await.unwrap(),
            s.action_press(t, 6).await.unwrap(),
            s.action_press(t, 8).await.unwrap(),
        ];
        assert_eq!(
            made_by,
            [Some(None), Some(Some("p-receiver/7".into())), Some(None), None],
            "{name}"
        );
        let log = s.actions(t).await.unwrap();
        let got: Vec<(i64, i64)> = log
            .iter()
            .map(|e| (e.seq, e.payload["n"].as_i64().unwrap()))
            .collect();
        assert_eq!(got, (1..=7).map(|n| (n, n)).collect::<Vec<_>>(), "{name}");
    }
}

/// Runs of several actions race for one table from many tasks on two `Store`s: every run
/// that is acknowledged is in the log whole, as consecutive numbers, and a refused one left
/// nothing behind (no action of it anywhere).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn racing_runs_are_each_committed_whole_or_not_at_all() {
    const TASKS: usize = 8;
    const EACH: usize = 10;
    for db in dbs().await {
        let a = db.store.clone();
        let b = db.reopen().await;
        let name = a.backend_name();
        let t = a.create_table(&new_table(chat("race-runs"))).await.unwrap().id;
        let mut joins = Vec::new();
        for i in 0..TASKS {
            let s = if i % 2 == 0 { a.clone() } else { b.clone() };
            joins.push(tokio::spawn(async move {
                let mut refused = Vec::new();
                for n in 0..EACH {
                    // Runs of 1 to 3 actions, one try each: a lost race is refused.
                    let len = 1 + (i + n) % 3;
                    let run: Vec<Value> = (0..len).map(|k| json!({"task": i, "n": n, "k": k})).collect();
                    let seq = s.next_seq(t).await.unwrap();
                    match s.append_actions(t, seq, &run).await {
                        Ok(()) => {}
                        Err(StoreError::SeqTaken { .. }) | Err(StoreError::SeqGap { .. }) => refused.push(n),
                        Err(e) => panic!("unexpected {e}"),
                    }
                }
                refused
            }));
        }
        let mut refused = BTreeSet::new();
        for (i, j) in joins.into_iter().enumerate() {
            for n in j.await.unwrap() {
                refused.insert((i as u64, n as u64));
            }
        }
        let log = b.actions(t).await.unwrap();
        let seqs: Vec<i64> = log.iter().map(|e| e.seq).collect();
        assert_eq!(seqs, (1..=log.len() as i64).collect::<Vec<_>>(), "{name}");
        let key = |e: &stikis_host::store::ActionRow| {
            (
                e.payload["task"].as_u64().unwrap(),
                e.payload["n"].as_u64().unwrap(),
                e.payload["k"].as_u64().unwrap(),
            )
        };
        let mut i = 0;
        let mut committed = BTreeSet::new();
        while i < log.len() {
            let (task, n, k) = key(&log[i]);
            assert_eq!(k, 0, "{name}: seq {} starts inside a run", log[i].seq);
            let len = 1 + (task as usize + n as usize) % 3;
            for k in 0..len {
                let e = log
                    .get(i + k)
                    .unwrap_or_else(|| panic!("{name}: run ({task}, {n}) cut short"));
                assert_eq!(
                    key(e),
                    (task, n, k as u64),
                    "{name}: run ({task}, {n}) interleaved"
                );
            }
            assert!(
                committed.insert((task, n)),
                "{name}: run ({task}, {n}) committed twice"
            );
            assert!(
                !refused.contains(&(task, n)),
                "{name}: run ({task}, {n}) refused yet committed"
            );
            i += len;
        }
        assert_eq!(
            committed.len() + refused.len(),
            TASKS * EACH,
            "{name}: a run was lost"
        );
        assert!(!committed.is_empty(), "{name}");
        eprintln!(
            "{name}: {} runs committed, {} refused",
            committed.len(),
            refused.len()
        );
    }
}

/// On PostgreSQL the claims of renders and the notices between processes go through
/// sessions whose commits do not wait for the disk; everything else waits for it, and a
/// claim made there is seen by another process at once.
///
/// That they go through a pool of their own is shown by taking every connection of the main
/// pool (statements of the store's own, each waiting for a lock the test holds): a claim and
/// a notice still go through, while a statement on the main pool that needs no lock waits
/// for a connection until the lock is let go.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_postgres_claims_and_notices_do_not_wait_for_the_disk() {
    use sqlx::Connection;
    for db in dbs().await {
        let s = &db.store;
        let settings = s.commit_settings().await.unwrap();
        if !s.is_postgres() {
            assert_eq!(settings.1, None);
            continue;
        }
        assert_eq!(settings, ("on".to_string(), Some("off".to_string())));
        let schema = db.schema.clone().expect("a PostgreSQL schema");
        let other = db.reopen().await;
        // The store's notices are sent on its schema's channel.
        let channel = "notice";
        let heard_on = s.scoped(channel);
        assert!(
            heard_on.starts_with("notice_") && heard_on.len() <= 63,
            "{heard_on}"
        );
        let mut listener = sqlx::postgres::PgListener::connect(&db.url).await.unwrap();
        listener.listen(&heard_on).await.unwrap();

        // Every connection of the main pool waits for the table `tables`.
        let mut admin = sqlx::PgConnection::connect(&db.url).await.unwrap();
        let mut lock = admin.begin().await.unwrap();
        sqlx::query(&format!(
            "LOCK TABLE \"{schema}\".tables IN ACCESS EXCLUSIVE MODE"
        ))
        .execute(&mut *lock)
        .await
        .unwrap();
        let main = PgSizes::from_env().unwrap().main;
        let readers: Vec<_> = (0..main)
            .map(|_| {
                let s = s.clone();
                tokio::spawn(async move { s.table(1).await })
            })
            .collect();
        let mut observer = sqlx::PgConnection::connect(&db.url).await.unwrap();
        for tries in 0.. {
            let waiting: i64 = sqlx::query_scalar(
                "SELECT count(*) FROM pg_stat_activity \
                 WHERE application_name = $1 AND wait_event_type = 'Lock'",
            )
            .bind(s.process_id())
            .fetch_one(&mut observer)
            .await
            .unwrap();
            if waiting == i64::from(main) {
                break;
            }
            assert!(
                tries < 500,
                "{waiting} of the {main} main connections wait for the lock"
            );
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
        // A statement on the main pool that takes no lock: it has no connection to run on.
        let on_main = tokio::spawn({
            let s = s.clone();
            async move { s.actions(1).await }
        });

        // Meanwhile a claim and a notice go through, and the other process sees the claim.
        let through = async {
            assert!(
                s.claim_shown(Platform::Telegram, "t1.table", "c", 5, "five", &[])
                    .await
            );
            assert!(
                !other
                    .claim_shown(Platform::Telegram, "t1.table", "c", 4, "four", &[])
                    .await,
                "the claim of version 5 was committed"
            );
            s.notify(channel, "hello").await.unwrap();
            let heard = listener.recv().await.unwrap();
            assert_eq!((heard.channel(), heard.payload()), (heard_on.as_str(), "hello"));
        };
        // A deadline only for a failure (a claim or notice waiting for the main pool's
        // connections would wait until the lock is let go, which this test never does).
        tokio::time::timeout(std::time::Duration::from_secs(30), through)
            .await
            .expect("claims and notices went through while the main pool was taken");
        assert!(
            !on_main.is_finished(),
            "the main pool had a free connection: the claims proved nothing"
        );

        lock.commit().await.unwrap();
        for r in readers {
            r.await.unwrap().unwrap();
        }
        on_main.await.unwrap().unwrap();
        let newer = other.newer_shown(Platform::Telegram, "t1.table", "c", 4).await;
        assert_eq!(newer.map(|(v, text, _)| (v, text)), Some((5, "five".to_string())));
    }
}

/// A pooled connection is not tested before each use (sqlx tests it on its way back), but
/// one idle for over a second is: a process that was quiet while the server dropped its
/// sessions (a restart, an idle timeout, an administrator) finds its next statements
/// answered, not failed on a connection that is gone.
#[tokio::test]
async fn on_postgres_a_connection_dropped_while_idle_is_not_used() {
    let Some(url) = postgres_url() else {
        return;
    };
    let db = postgres_db(&url).await;
    let s = &db.store;
    // Both pools have a session open.
    s.commit_settings().await.unwrap();
    let mut admin = <sqlx::PgConnection as sqlx::Connection>::connect(&url)
        .await
        .unwrap();
    let dropped: Vec<bool> = sqlx::query_scalar(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1",
    )
    .bind(s.process_id())
    .fetch_all(&mut admin)
    .await
    .unwrap();
    assert!(
        !dropped.is_empty(),
        "the store's sessions carry its process's name"
    );
    tokio::time::sleep(std::time::Duration::from_millis(1_300)).await;
    let settings = s.commit_settings().await.unwrap();
    assert_eq!(settings, ("on".to_string(), Some("off".to_string())));
    s.table(1).await.unwrap();
}

/// Appends that arrive together share one commit on SQLite; each caller still gets the answer
/// for its own action, whatever the others in the batch were.
#[tokio::test]
async fn appends_arriving_together_each_get_their_own_answer() {
    for db in dbs().await {
        let s = &db.store;
        let a = s.create_table(&new_table(chat("a"))).await.unwrap().id;
        let b = s.create_table(&new_table(chat("b"))).await.unwrap().id;
        let p = |n: i64| json!({"seat": 0, "n": n});
        let ps: Vec<Value> = (1..=6).map(p).collect();
        let (r1, r2, r3, r4, r5, r6) = tokio::join!(
            s.append_action(a, 1, &ps[0]),
            s.append_action(a, 1, &ps[1]),
            s.append_action(b, 1, &ps[2]),
            s.append_action(555_555, 1, &ps[3]),
            s.append_action(a, 9, &ps[4]),
            s.append_action(b, 2, &ps[5]),
        );
        // Of the two writers of (a, 1) exactly one wins.
        match (&r1, &r2) {
            (Ok(()), Err(StoreError::SeqTaken { seq: 1, .. }))
            | (Err(StoreError::SeqTaken { seq: 1, .. }), Ok(())) => {}
            other => panic!("{}: {other:?}", s.backend_name()),
        }
        assert!(r3.is_ok(), "{r3:?}");
        assert!(matches!(r4, Err(StoreError::NoTable(555_555))), "{r4:?}");
        // Whether (a, 1) was committed when (a, 9) was refused depends on the timing (on
        // PostgreSQL they run on different connections), so `next` is 1 or 2.
        assert!(
            matches!(
                r5,
                Err(StoreError::SeqGap {
                    seq: 9,
                    next: 1 | 2,
                    ..
                })
            ),
            "{r5:?}"
        );
        // (b, 2) depends on (b, 1) having been committed first; join! starts them in order
        // but the database decides, so either outcome is allowed, and the log must agree.
        let b_log = s.actions(b).await.unwrap();
        match r6 {
            Ok(()) => assert_eq!(b_log.len(), 2),
            Err(StoreError::SeqGap { .. }) => assert_eq!(b_log.len(), 1),
            Err(e) => panic!("{e}"),
        }
        let a_log = s.actions(a).await.unwrap();
        assert_eq!(a_log.len(), 1);
        let winner = if r1.is_ok() { p(1) } else { p(2) };
        assert_eq!(a_log[0].payload, winner);
    }
}

/// A record read while the table plays on is always a consistent prefix: every action sits
/// in its own deal, and every deal but the last is complete.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn records_read_during_play_are_consistent() {
    const DEALS: i64 = 12;
    const ACTIONS: i64 = 6;
    for db in dbs().await {
        let s = db.store.clone();
        let t = s.create_table(&new_table(chat("live"))).await.unwrap().id;
        let writer = {
            let s = s.clone();
            tokio::spawn(async move {
                let mut seq = 1;
                for d in 1..=DEALS {
                    s.start_deal(t, d, "00", "11", &json!({"dealer": d}))
                        .await
                        .unwrap();
                    for n in 0..ACTIONS {
                        s.append_action(t, seq, &json!({"deal": d, "n": n}))
                            .await
                            .unwrap();
                        seq += 1;
                    }
                }
            })
        };
        let mut reads = 0;
        loop {
            let done = writer.is_finished();
            let env = s.record(t).await.unwrap();
            reads += 1;
            let count = env.deals.len();
            for (i, deal) in env.deals.iter().enumerate() {
                let d = i as i64 + 1;
                assert_eq!(deal["dealer"], json!(d));
                let acts = deal["actions"].as_array().unwrap();
                for (n, a) in acts.iter().enumerate() {
                    assert_eq!(a, &json!({"deal": d, "n": n}), "{}", s.backend_name());
                }
                if i + 1 < count {
                    assert_eq!(acts.len() as i64, ACTIONS, "deal {d} of {count} incomplete");
                }
            }
            if done {
                assert_eq!(count as i64, DEALS);
                break;
            }
        }
        writer.await.unwrap();
        assert!(reads > 1);
    }
}

/// A restarted host loads every running table at once; what it gets equals what it would read
/// table by table, and tables that are not running are left out.
#[tokio::test]
async fn running_logs_load_every_running_table() {
    for db in dbs().await {
        let s = &db.store;
        let mut running = Vec::new();
        let mut lobby = 0;
        for (i, name) in ["c1", "c2", "c3", "c4"].iter().enumerate() {
            let t = s.create_table(&new_table(chat(name))).await.unwrap().id;
            for seat in 0..3u8 {
                let occ = if seat == 2 {
                    Occupant::Computer { level: 2 }
                } else {
                    human(&format!("u{i}-{seat}"))
                };
                s.take_seat(t, seat, &format!("P{seat}"), &occ).await.unwrap();
            }
            let mut seq = 1;
            for d in 1..=(i as i64 + 1) {
                s.start_deal(t, d, "aa", "bb", &json!({"dealer": d % 3}))
                    .await
                    .unwrap();
                for n in 0..(3 + i as i64) {
                    s.append_action(t, seq, &json!({"seat": n % 3, "n": n}))
                        .await
                        .unwrap();
                    seq += 1;
                }
            }
            match i {
                0 => lobby = t, // stays in the lobby
                3 => {
                    s.set_status(t, TableStatus::Running).await.unwrap();
                    s.set_status(t, TableStatus::Finished).await.unwrap();
                }
                _ => {
                    s.set_status(t, TableStatus::Running).await.unwrap();
                    running.push(t);
                }
            }
        }
        s.set_away(running[0], 1, true).await.unwrap();

        let logs = s.running_logs().await.unwrap();
        assert_eq!(logs.iter().map(|l| l.table.id).collect::<Vec<_>>(), running);
        for log in &logs {
            let one = s.table_log(log.table.id).await.unwrap();
            assert_eq!(log, &one);
            let json = |e: stikis_core::record::Envelope| serde_json::to_value(e).unwrap();
            assert_eq!(
                json(log.record().unwrap()),
                json(s.record(log.table.id).await.unwrap())
            );
            assert_eq!(log.next_seq(), s.next_seq(log.table.id).await.unwrap());
            assert_eq!(log.seats.len(), 3);
        }
        assert!(logs[0].seats[1].away);
        // Table 2 (index 1) has two deals of 4 actions each.
        let rec = logs[0].record().unwrap();
        assert_eq!(rec.deals.len(), 2);
        assert_eq!(rec.deals[1]["actions"].as_array().unwrap().len(), 4);
        assert_eq!(rec.players, ["P0", "P1", "P2"]);

        // Only some of them (a process among others reads the tables it owns): those of
        // them that run, each whole; none for none.
        let some = s.running_logs_of(Some(&[running[1], lobby])).await.unwrap();
        assert_eq!(some, logs[1..2], "{}", db.url);
        assert!(s.running_logs_of(Some(&[])).await.unwrap().is_empty());
        assert_eq!(s.running_logs_of(None).await.unwrap(), logs);
    }
}

/// Two bots (two processes) may start at once on a fresh SQLite file: both must come up.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_stores_can_open_a_fresh_sqlite_file_at_once() {
    for round in 0..5 {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("fresh.db").display().to_string();
        let (a, b) = tokio::join!(Store::connect(&path), Store::connect(&path));
        let (a, b) = (a.unwrap(), b.unwrap());
        let t = a.create_table(&new_table(chat("c1"))).await.unwrap().id;
        assert_eq!(b.table(t).await.unwrap().unwrap().id, t, "round {round}");
    }
}

/// Two processes may start at once on a fresh PostgreSQL schema: both must come up.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_stores_can_open_a_fresh_postgres_schema_at_once() {
    let Some(url) = postgres_url() else {
        return;
    };
    for round in 0..3 {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .subsec_nanos();
        let schema = format!("fresh_{}_{round}_{nanos}", std::process::id());
        let (a, b) = tokio::join!(
            Store::connect_postgres(&url, Some(&schema)),
            Store::connect_postgres(&url, Some(&schema))
        );
        let (a, b) = (a.unwrap(), b.unwrap());
        let t = a.create_table(&new_table(chat("c1"))).await.unwrap().id;
        assert_eq!(b.table(t).await.unwrap().unwrap().id, t, "round {round}");
    }
}

#[tokio::test]
async fn message_refs_are_remembered_and_replaced() {
    for db in dbs().await {
        let s = &db.store;
        assert_eq!(
            s.message_ref(Platform::Telegram, "t1.d1", "chat-1")
                .await
                .unwrap(),
            None
        );
        s.set_message_ref(Platform::Telegram, "t1.d1", "chat-1", "100")
            .await
            .unwrap();
        s.set_message_ref(Platform::Telegram, "t1.d1.s0", "user-1", "7")
            .await
            .unwrap();
        assert_eq!(
            s.message_ref(Platform::Telegram, "t1.d1", "chat-1")
                .await
                .unwrap()
                .as_deref(),
            Some("100")
        );
        s.set_message_ref(Platform::Telegram, "t1.d1", "chat-1", "101")
            .await
            .unwrap();
        assert_eq!(
            s.message_ref(Platform::Telegram, "t1.d1", "chat-1")
                .await
                .unwrap()
                .as_deref(),
            Some("101")
        );
        // Platforms and recipients keep their own.
        assert_eq!(
            s.message_ref(Platform::Discord, "t1.d1", "chat-1").await.unwrap(),
            None
        );
        assert_eq!(
            s.message_ref(Platform::Telegram, "t1.d1.s0", "user-1")
                .await
                .unwrap()
                .as_deref(),
            Some("7")
        );
    }
}

#[tokio::test]
async fn a_render_is_claimed_only_if_no_newer_one_was() {
    for db in dbs().await {
        let s = &db.store;
        let claim = |v: i64, body: &'static str| async move {
            s.claim_render(Platform::Telegram, "t1.d1", "chat-1", v, body, None)
                .await
                .unwrap()
        };
        assert!(claim(3, "three").await, "the first version is claimed");
        assert!(claim(5, "five").await, "a newer version is claimed");
        assert!(!claim(4, "four").await, "an older version is refused");
        assert!(claim(5, "five again").await, "the same version is claimed again");
        let newer = |v: i64| async move {
            s.newer_render(Platform::Telegram, "t1.d1", "chat-1", v)
                .await
                .unwrap()
        };
        assert_eq!(newer(3).await, Some((5, "five again".to_string())));
        assert_eq!(newer(5).await, None);
        assert_eq!(newer(7).await, None);
        // Each platform, message and recipient has its own versions.
        assert!(s
            .claim_render(Platform::Discord, "t1.d1", "chat-1", 1, "one", None)
            .await
            .unwrap());
        assert!(s
            .claim_render(Platform::Telegram, "t1.d1", "chat-2", 1, "one", None)
            .await
            .unwrap());
        assert!(s
            .claim_render(Platform::Telegram, "t1.d2", "chat-1", 1, "one", None)
            .await
            .unwrap());
        assert_eq!(newer(0).await.map(|(v, _)| v), Some(5));
    }
}

/// A post kept under a key (a deal's result) that this process claimed and is still sending
/// (a chat's flood control may hold it past its claim's time) is not posted by it again; given
/// up, it is; sent and kept, it is not.
#[tokio::test]
async fn a_keyed_post_this_process_is_sending_is_not_posted_by_it_again() {
    for db in dbs().await {
        let s = &db.store;
        let (p, key, to) = (Platform::Telegram, "t1.d1.result", "group-1");
        assert!(
            s.claim_once(p, key, to).await,
            "nobody posted it: this process does"
        );
        assert!(!s.claim_once(p, key, to).await, "{}: still being sent", db.url);
        s.release_first_post(p, key, to).await.unwrap();
        assert!(
            s.claim_once(p, key, to).await,
            "{}: given up, posted again",
            db.url
        );
        s.set_message_ref(p, key, to, "77").await.unwrap();
        assert!(!s.claim_once(p, key, to).await, "{}: sent and kept", db.url);
    }
}

#[tokio::test]
async fn one_process_sends_the_first_version_of_a_message() {
    use stikis_host::store::FirstPost;
    for db in dbs().await {
        let s = &db.store;
        let claim = || async {
            s.claim_first_post(Platform::Telegram, "t1.d1.s0", "user-1")
                .await
                .unwrap()
        };
        assert_eq!(claim().await, FirstPost::Mine);
        assert_eq!(claim().await, FirstPost::Sending, "another process waits");
        assert_eq!(
            s.message_ref(Platform::Telegram, "t1.d1.s0", "user-1")
                .await
                .unwrap(),
            None,
            "no id while it is being sent"
        );
        s.set_message_ref(Platform::Telegram, "t1.d1.s0", "user-1", "42")
            .await
            .unwrap();
        assert_eq!(claim().await, FirstPost::Sent("42".into()));
        // A claim whose process died before sending lapses, and another takes it over once.
        s.set_message_ref(Platform::Telegram, "t1.d2.s0", "user-1", "sending:1000")
            .await
            .unwrap();
        let lapsed = || async {
            s.claim_first_post(Platform::Telegram, "t1.d2.s0", "user-1")
                .await
                .unwrap()
        };
        assert_eq!(lapsed().await, FirstPost::Mine);
        assert_eq!(lapsed().await, FirstPost::Sending);
        // A claim names its process: one of a process the host knows to be gone lapses
        // after `DEAD_CLAIM_MS`, one of a live process (or of this one) holds its full time.
        let now = stikis_host::store::now_ms();
        let claimed_by = |key: &'static str, process: &'static str, ago: i64| async move {
            let mark = format!("sending:{}:{process}", now - ago);
            s.set_message_ref(Platform::Telegram, key, "user-1", &mark)
                .await
                .unwrap();
            s.claim_first_post(Platform::Telegram, key, "user-1")
                .await
                .unwrap()
        };
        let dead = stikis_host::store::DEAD_CLAIM_MS;
        assert_eq!(
            claimed_by("t1.d4.s0", "p1-gone", dead + 500).await,
            FirstPost::Sending,
            "no live set known yet"
        );
        s.set_live(vec!["p2-alive".to_string()]);
        assert_eq!(
            claimed_by("t1.d4.s0", "p1-gone", dead - 1_000).await,
            FirstPost::Sending,
            "too young"
        );
        assert_eq!(
            claimed_by("t1.d4.s0", "p1-gone", dead + 500).await,
            FirstPost::Mine
        );
        assert_eq!(
            claimed_by("t1.d5.s0", "p2-alive", dead + 500).await,
            FirstPost::Sending
        );
        let me: &'static str = Box::leak(s.process_id().to_string().into_boxed_str());
        assert_eq!(claimed_by("t1.d6.s0", me, dead + 500).await, FirstPost::Sending);
        // A claim whose send failed is given up: the next showing sends it at once.
        s.release_first_post(Platform::Telegram, "t1.d2.s0", "user-1")
            .await
            .unwrap();
        assert_eq!(lapsed().await, FirstPost::Mine);
        // Giving up leaves a message that was sent alone.
        s.release_first_post(Platform::Telegram, "t1.d1.s0", "user-1")
            .await
            .unwrap();
        assert_eq!(claim().await, FirstPost::Sent("42".into()));
        // Two first sends of one message (the store was away while both claimed): the first
        // id kept stands over the claim, the second is told it, and nothing replaces it but a
        // deliberate re-send.
        let keep = |id: &'static str| async move {
            s.keep_first_post(Platform::Telegram, "t1.d3.s0", "user-1", id)
                .await
                .unwrap()
        };
        let claimed = s
            .claim_first_post(Platform::Telegram, "t1.d3.s0", "user-1")
            .await
            .unwrap();
        assert_eq!(claimed, FirstPost::Mine);
        assert_eq!(keep("70").await, "70");
        assert_eq!(keep("71").await, "70", "the first id kept stands");
        s.remember_message_ref(Platform::Telegram, "t1.d3.s0", "user-1", "72")
            .await
            .unwrap();
        assert_eq!(keep("73").await, "72");
    }
}

#[tokio::test]
async fn a_process_waits_for_another_that_sends_a_first_version() {
    use stikis_host::store::FirstPost;
    for db in dbs().await {
        let s = db.store.clone();
        assert_eq!(
            s.first_post(Platform::Discord, "t1.d1", "chan-1").await,
            FirstPost::Mine
        );
        // The other process asks while the first sends, and gets the id once it is kept.
        let waiting = tokio::spawn({
            let s = s.clone();
            async move { s.first_post(Platform::Discord, "t1.d1", "chan-1").await }
        });
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        assert!(!waiting.is_finished(), "it waits while the message is being sent");
        s.set_message_ref(Platform::Discord, "t1.d1", "chan-1", "77")
            .await
            .unwrap();
        assert_eq!(waiting.await.unwrap(), FirstPost::Sent("77".into()));
    }
}

#[tokio::test]
async fn a_newer_table_state_is_read_back_with_its_text_and_buttons() {
    use stikis_host::Button;
    for db in dbs().await {
        let s = &db.store;
        let buttons = vec![vec![Button {
            label: "♠A".into(),
            token: "s1.2.3".into(),
            disabled: false,
            card: None,
        }]];
        let (p, key, to) = (Platform::Discord, "t1.d1", "chan-1");
        assert!(s.claim_shown(p, key, to, 4, "state 4", &[]).await);
        assert!(s.claim_shown(p, key, to, 6, "state 6", &buttons).await);
        assert!(
            !s.claim_shown(p, key, to, 5, "state 5", &[]).await,
            "older than 6"
        );
        assert_eq!(
            s.newer_shown(p, key, to, 4).await,
            Some((6, "state 6".to_string(), buttons))
        );
        assert_eq!(s.newer_shown(p, key, to, 6).await, None);
    }
}

#[tokio::test]
async fn a_post_kept_under_a_key_is_claimed_once() {
    for db in dbs().await {
        let s = &db.store;
        let (p, once, to) = (Platform::Telegram, "t1.r1", "chat-1");
        assert!(s.claim_once(p, once, to).await, "the first to ask posts it");
        // Its post failed: the claim goes, and the next showing posts it.
        s.release_first_post(p, once, to).await.unwrap();
        assert!(s.claim_once(p, once, to).await);
        s.set_message_ref(p, once, to, "9").await.unwrap();
        assert!(!s.claim_once(p, once, to).await, "posted: never again");
    }
}

#[tokio::test]
async fn web_links_closed_tables_and_analyses() {
    for db in dbs().await {
        let s = &db.store;
        let c = CommunityRef::new(Platform::Telegram, "group-1");
        let other = CommunityRef::new(Platform::Discord, "group-1");
        // A token is made once per community, 32 hexadecimal digits, and opens only it.
        let token = s.web_token(&c).await.unwrap();
        assert_eq!(token.len(), 32);
        assert!(token.bytes().all(|b| b.is_ascii_hexdigit()));
        assert_eq!(s.web_token(&c).await.unwrap(), token);
        let theirs = s.web_token(&other).await.unwrap();
        assert_ne!(theirs, token);
        assert_eq!(s.web_community(&token).await.unwrap(), Some(c.clone()));
        assert_eq!(s.web_community(&theirs).await.unwrap(), Some(other.clone()));
        assert_eq!(s.web_community("nope").await.unwrap(), None);
        // A rotation ends the old token.
        let fresh = s.rotate_web_token(&c).await.unwrap();
        assert_ne!(fresh, token);
        assert_eq!(s.web_community(&token).await.unwrap(), None);
        assert_eq!(s.web_community(&fresh).await.unwrap(), Some(c.clone()));
        assert_eq!(s.web_token(&c).await.unwrap(), fresh);

        // Closed tables of the community, the latest first; open ones and others' are not.
        let a = s.create_table(&new_table(chat("c1"))).await.unwrap();
        s.set_status(a.id, TableStatus::Finished).await.unwrap();
        let b = s.create_table(&new_table(chat("c1"))).await.unwrap();
        s.set_status(b.id, TableStatus::Stopped).await.unwrap();
        let open = s.create_table(&new_table(chat("c1"))).await.unwrap();
        let far = s
            .create_table(&new_table(ChatRef::new(Platform::Discord, "group-1", "c1")))
            .await
            .unwrap();
        s.set_status(far.id, TableStatus::Finished).await.unwrap();
        let closed: Vec<i64> = s
            .closed_tables(&c, 10)
            .await
            .unwrap()
            .iter()
            .map(|t| t.id)
            .collect();
        assert_eq!(closed, vec![b.id, a.id]);
        assert_eq!(s.closed_tables(&c, 1).await.unwrap().len(), 1);
        assert!(!closed.contains(&open.id));

        // An analysis is kept once: the first one stays.
        assert_eq!(s.analysis(a.id, 1).await.unwrap(), None);
        s.save_analysis(a.id, 1, &json!([null, {"cost": 3}]))
            .await
            .unwrap();
        s.save_analysis(a.id, 1, &json!([])).await.unwrap();
        assert_eq!(
            s.analysis(a.id, 1).await.unwrap(),
            Some(json!([null, {"cost": 3}]))
        );
        assert_eq!(s.analysis(a.id, 2).await.unwrap(), None);
    }
}

#[tokio::test]
async fn period_boards_sum_the_results_of_their_time() {
    for db in dbs().await {
        let s = &db.store;
        let c = CommunityRef::new(Platform::Telegram, "group-1");
        let entry = |user: &str, points: i64, win: i64| StatsEntry {
            user_id: user.into(),
            name: user.to_uppercase(),
            delta: Stats {
                deals: 1,
                points,
                declarer_wins: win,
                ..Stats::default()
            },
        };
        let t = s.create_table(&new_table(chat("c1"))).await.unwrap();
        s.apply_stats(t.id, 1, &c, "zole", &[entry("anna", 4, 1), entry("bruno", -2, 0)])
            .await
            .unwrap();
        s.apply_stats(t.id, 2, &c, "zole", &[entry("anna", -1, 0), entry("bruno", 6, 1)])
            .await
            .unwrap();
        let rows = s.period_board(&c, "zole", 0, i64::MAX, 10).await.unwrap();
        let got: Vec<(String, i64, i64, i64)> = rows
            .iter()
            .map(|r| (r.user_id.clone(), r.points, r.deals, r.declarer_wins))
            .collect();
        assert_eq!(
            got,
            vec![("bruno".to_string(), 4, 2, 1), ("anna".to_string(), 3, 2, 1)],
            "{}",
            s.backend_name()
        );
        assert!(s.period_board(&c, "zole", 0, 1, 10).await.unwrap().is_empty());
        assert!(s
            .period_board(&c, "polt", 0, i64::MAX, 10)
            .await
            .unwrap()
            .is_empty());
    }
}

#[tokio::test]
async fn ratings_leave_a_history_once_per_table() {
    for db in dbs().await {
        let s = &db.store;
        let c = CommunityRef::new(Platform::Telegram, "group-1");
        let row = |mu: f64, games: i64| RatingRow {
            player: "anna".into(),
            name: "Anna".into(),
            rating: stikis_core::rating::Rating { mu, sigma: 5.0 },
            games,
            change: 0,
        };
        assert!(s.apply_ratings(7, &c, "zole", &[row(26.0, 1)]).await.unwrap());
        // The same table again changes nothing, its history included.
        assert!(!s.apply_ratings(7, &c, "zole", &[row(40.0, 9)]).await.unwrap());
        assert!(s.apply_ratings(8, &c, "zole", &[row(27.5, 2)]).await.unwrap());
        let mus = |h: Vec<(i64, stikis_core::rating::Rating)>| -> Vec<f64> {
            h.iter().map(|(_, r)| r.mu).collect()
        };
        let history = s.rating_history(&c, "zole", "anna", 10).await.unwrap();
        assert!(history[0].0 <= history[1].0, "oldest first");
        assert_eq!(mus(history), vec![26.0, 27.5]);
        assert_eq!(
            mus(s.rating_history(&c, "zole", "anna", 1).await.unwrap()),
            vec![27.5],
            "the latest"
        );
        assert!(s
            .rating_history(&c, "belote", "anna", 10)
            .await
            .unwrap()
            .is_empty());
        let other = CommunityRef::new(Platform::Discord, "group-1");
        assert!(s
            .rating_history(&other, "zole", "anna", 10)
            .await
            .unwrap()
            .is_empty());
    }
}

/// A bot started while PostgreSQL is down waits for it: `connect_waiting` tries again, saying
/// so, until the server answers (here a forwarder to the test server opens on a port where
/// nothing listened); what waiting does not mend (a missing database) ends it at once.
#[tokio::test]
async fn a_start_waits_for_a_database_that_is_down_and_not_for_one_that_is_missing() {
    let Some(url) = postgres_url() else {
        return;
    };
    let target = url
        .split_once('@')
        .map(|(_, r)| r.split('/').next().unwrap().to_string())
        .unwrap();
    // A free port, closed again: nothing listens there until the forwarder starts.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let down_url = url.replacen(&target, &format!("127.0.0.1:{port}"), 1);
    let waits = std::sync::Arc::new(AtomicU32::new(0));
    let counted = waits.clone();
    let connecting = tokio::spawn(async move {
        Store::connect_waiting(&down_url, move |e| {
            assert!(e.is_unreachable(), "{e}");
            counted.fetch_add(1, Ordering::SeqCst);
        })
        .await
    });
    while waits.load(Ordering::SeqCst) < 2 {
        assert!(!connecting.is_finished(), "it gave up: {:?}", connecting.await);
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    // The server "comes back": the port forwards to it.
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await.unwrap();
    let forward = tokio::spawn(async move {
        loop {
            let (mut inbound, _) = listener.accept().await.unwrap();
            let target = target.clone();
            tokio::spawn(async move {
                let mut outbound = tokio::net::TcpStream::connect(target).await.unwrap();
                let _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound).await;
            });
        }
    });
    let store = connecting
        .await
        .unwrap()
        .expect("connected once the server answered");
    assert_eq!(store.table(-1).await.unwrap(), None);
    assert!(waits.load(Ordering::SeqCst) >= 2);
    forward.abort();

    // A database that does not exist is not waited for.
    let base = url.rsplit_once('/').unwrap().0;
    let missing = format!("{base}/stikis_no_such_database");
    let waited = AtomicU32::new(0);
    let Err(e) = Store::connect_waiting(&missing, |_| {
        waited.fetch_add(1, Ordering::SeqCst);
    })
    .await
    else {
        panic!("a missing database opened");
    };
    assert!(!e.is_unreachable(), "{e}");
    assert_eq!(waited.load(Ordering::SeqCst), 0);
}

/// Table changes are told to the other processes several at once: each id in a notice reaches
/// the listener. PostgreSQL only (SQLite has one process).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_postgres_changed_tables_are_heard_one_by_one() {
    let Some(url) = postgres_url() else {
        return;
    };
    let db = postgres_db(&url).await;
    let heard = Arc::new(std::sync::Mutex::new(Vec::new()));
    let (ready_tx, mut ready) = tokio::sync::mpsc::unbounded_channel();
    let task = {
        let heard = heard.clone();
        db.store
            .listen_changes(move |id| match id {
                None => {
                    let _ = ready_tx.send(());
                }
                Some(id) => heard.lock().unwrap().push(id),
            })
            .expect("a listener on PostgreSQL")
    };
    ready.recv().await.expect("the listener connects");
    db.store.notify_changed(&[3, 5]).await.unwrap();
    let many: Vec<i64> = (1..=1000).collect();
    db.store.notify_changed(&many).await.unwrap();
    for _ in 0..100 {
        if heard.lock().unwrap().len() >= 1002 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    task.abort();
    let heard = heard.lock().unwrap().clone();
    assert_eq!(heard[..2], [3, 5]);
    assert_eq!(heard[2..], many[..], "a long list goes in parts, none lost");
}

/// A process counts as alive while its heartbeat is fresh and it has a session open: one
/// whose sessions closed (killed: the server closes its connections) is gone at once, though
/// its last beat is fresh. PostgreSQL only (SQLite has one process, and no sessions to see).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_postgres_a_process_is_alive_while_it_has_a_session() {
    let Some(url) = postgres_url() else {
        return;
    };
    let db = postgres_db(&url).await;
    let other = Store::connect_postgres(&url, db.schema.as_deref()).await.unwrap();
    // A store beats once at its opening; a hosting process beats again at its sweeps.
    tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    // "Fresh" is every beat since just before these: however long the server then takes,
    // the other's beat stays fresh, so only its sessions can make it gone.
    let since = stikis_host::store::now_ms() - 1_000;
    let fresh = || since;
    db.store.beat().await.unwrap();
    other.beat().await.unwrap();
    let mut both = vec![db.store.process_id().to_string(), other.process_id().to_string()];
    both.sort();
    assert_eq!(db.store.live_process_ids(fresh()).await.unwrap(), both);
    other.close().await;
    // The server ends a closed session's backend on its own time (slower on a busy machine:
    // up to 30 s here, which a loaded 2-core machine has needed more than 10 of).
    let mut left = Vec::new();
    for _ in 0..1500 {
        // This process beats on, as a hosting one does: its own beat must not go stale while
        // the server takes its time.
        db.store.beat().await.unwrap();
        left = db.store.live_process_ids(fresh()).await.unwrap();
        if left.len() == 1 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert_eq!(
        left,
        vec![db.store.process_id().to_string()],
        "gone with its sessions"
    );
    assert_eq!(
        db.store.live_processes(fresh()).await.unwrap(),
        2,
        "its heartbeat is still fresh"
    );
}

/// A hand's version needs no claim where its table's owner alone shows hands: alone on the
/// database, or the owner by a live set that has not changed for the time given (the
/// previous owner learns of a change and claims what it still shows meanwhile); any other
/// process, and the owner itself within that time of a change, claims.
#[tokio::test]
async fn only_a_settled_owner_shows_hands_without_claiming_them() {
    use std::time::Duration;
    let db = sqlite_db().await;
    let store = &db.store;
    // SQLite: one process, which shows everything.
    assert!(store.shows_alone(1, Duration::from_secs(3600)));
    let me = store.process_id().to_string();
    let other = format!("{me}-other");
    store.set_live(vec![me.clone(), other.clone()]);
    let live = [me.clone(), other.clone()];
    let mine = (1..100)
        .find(|t| stikis_host::owner::owner_among(*t, &live) == Some(me.as_str()))
        .expect("a table of this process's");
    let theirs = (1..100)
        .find(|t| stikis_host::owner::owner_among(*t, &live) == Some(other.as_str()))
        .expect("a table of the other's");
    // Just changed: everyone claims.
    assert!(!store.shows_alone(mine, Duration::from_secs(3600)));
    tokio::time::sleep(Duration::from_millis(30)).await;
    assert!(store.shows_alone(mine, Duration::from_millis(20)));
    assert!(
        !store.shows_alone(theirs, Duration::from_millis(20)),
        "not the owner"
    );
    // The same set read again is no change.
    store.set_live(vec![me.clone(), other.clone()]);
    assert!(store.shows_alone(mine, Duration::from_millis(20)));
    // A process that comes is a change, for the tables that stay this process's too.
    let third = format!("{me}-third");
    let three = [me.clone(), other.clone(), third.clone()];
    let still_mine = (1..1000)
        .find(|t| {
            stikis_host::owner::owner_among(*t, &live) == Some(me.as_str())
                && stikis_host::owner::owner_among(*t, &three) == Some(me.as_str())
        })
        .expect("a table that stays this process's");
    store.set_live(three.to_vec());
    assert!(!store.shows_alone(still_mine, Duration::from_millis(20)));
    tokio::time::sleep(Duration::from_millis(30)).await;
    assert!(store.shows_alone(still_mine, Duration::from_millis(20)));
    // Reads that stopped (the database away) are as good as a change: the others may have
    // seen this process gone and moved its tables meanwhile.
    tokio::time::sleep(Duration::from_millis(2100)).await;
    assert!(
        !store.shows_alone(still_mine, Duration::from_millis(20)),
        "not read lately"
    );
    store.set_live(three.to_vec());
    assert!(
        !store.shows_alone(still_mine, Duration::from_millis(20)),
        "read after a gap"
    );
    tokio::time::sleep(Duration::from_millis(30)).await;
    assert!(store.shows_alone(still_mine, Duration::from_millis(20)));
    // Alone again, a moment ago: the others may be back a moment later (a database restart),
    // so it claims still (`a_process_just_left_alone_still_claims_the_hands_it_shows`).
    store.set_live(vec![me.clone()]);
    assert!(
        !store.shows_alone(theirs, Duration::from_secs(3600)),
        "just left alone"
    );
}

/// A process that finds itself the only one alive right after the live set changed (every
/// other process's sessions gone at once: a database restart, while they connect again)
/// still claims its hands' versions: the others, back a moment later, may have shown newer
/// versions meanwhile, and an older one must not replace them.
#[tokio::test]
async fn a_process_just_left_alone_still_claims_the_hands_it_shows() {
    let db = sqlite_db().await;
    let store = &db.store;
    let me = store.process_id().to_string();
    store.set_live(vec![me.clone(), format!("{me}-other")]);
    store.set_live(vec![me.clone()]);
    let claim =
        |version: i64| store.claim_hand(Platform::Telegram, "t1.h:anna", "anna", version, "hand", &[]);
    assert!(claim(5).await, "the newest version is shown");
    assert!(
        !claim(3).await,
        "an older version is refused: the newer one was claimed"
    );
    // Alone for 10 s of reads (one a second here): nobody else shows anything, and the
    // claim, a write for every hand shown, is left out.
    for _ in 0..11 {
        tokio::time::sleep(std::time::Duration::from_secs(1)).await;
        store.set_live(vec![me.clone()]);
    }
    assert!(claim(2).await, "alone: shown without a claim");
    assert!(store.shows_alone(1, std::time::Duration::from_secs(3600)));
}

/// A hand is not shown at a state older than its table's log: a process that loaded a table
/// while the previous owner, not yet aware of the change, went on moving it and showing its
/// hands unclaimed (a settled Telegram owner) must not send its older hand over theirs.
#[tokio::test]
async fn a_hand_older_than_its_tables_log_is_not_claimed() {
    for db in dbs().await {
        let s = &db.store;
        let me = s.process_id().to_string();
        // Another process alive: hands are claimed.
        s.set_live(vec![me.clone(), format!("{me}-other")]);
        let t = s.create_table(&new_table(chat("c1"))).await.unwrap().id;
        for seq in 1..=4 {
            s.append_action(t, seq, &json!({"seat": 0, "bid": "pass"}))
                .await
                .unwrap();
        }
        let key = format!("t{t}.d1.s0");
        let claim = |version: i64| s.claim_hand(Platform::Telegram, &key, "anna", version, "hand", &[]);
        assert!(
            !claim(2).await,
            "{:?}: a hand of action 2 while the log is at 4",
            db.url
        );
        assert!(claim(4).await, "{:?}: the log's newest state", db.url);
        assert!(!claim(3).await, "{:?}: older than the one claimed", db.url);
        // Another table's log says nothing about this one.
        let u = s.create_table(&new_table(chat("c2"))).await.unwrap().id;
        let other = format!("t{u}.d1.s0");
        assert!(
            s.claim_hand(Platform::Telegram, &other, "anna", 1, "hand", &[])
                .await,
            "{:?}: a table with an empty log",
            db.url
        );
    }
}

/// Hands are looked at again after sending only right after the live processes changed (or
/// while they were not read): then a table's previous and next owners may both show them.
#[tokio::test]
async fn hands_are_looked_at_after_sending_only_while_the_live_set_settles() {
    use std::time::Duration;
    let db = sqlite_db().await;
    let store = &db.store;
    // SQLite before any read: alone, nothing to cross.
    assert!(!store.live_changed_within(Duration::from_secs(3600)));
    let me = store.process_id().to_string();
    store.set_live(vec![me.clone(), format!("{me}-other")]);
    assert!(
        store.live_changed_within(Duration::from_millis(50)),
        "just changed"
    );
    tokio::time::sleep(Duration::from_millis(80)).await;
    store.set_live(vec![me.clone(), format!("{me}-other")]);
    assert!(
        !store.live_changed_within(Duration::from_millis(50)),
        "the same set read again, past the window"
    );
    tokio::time::sleep(Duration::from_millis(2100)).await;
    assert!(
        store.live_changed_within(Duration::from_millis(50)),
        "not read for over 2 s"
    );
}

/// The oldest result of a table never posted, looked for back from its last deal: found
/// behind many that were posted when the window covers it (a process killed with deal 12's
/// post still waiting for its group's budget while another posted deals 13 to 40), further
/// back while the oldest looked at is not posted either, and none when all were posted. A
/// claim whose post may not have gone out ("sending") does not count as posted.
#[tokio::test]
async fn the_oldest_unposted_result_is_found_behind_posted_ones() {
    for db in dbs().await {
        let s = &db.store;
        let key = |deal: usize| format!("t7.d{deal}.result");
        for deal in (1..=40).filter(|d| *d != 12) {
            s.set_message_ref(Platform::Telegram, &key(deal), "chat-1", &deal.to_string())
                .await
                .unwrap();
        }
        let oldest = |window| s.oldest_unposted_result(Platform::Telegram, 7, 40, window);
        assert_eq!(oldest(500).await.unwrap(), Some(12), "behind 28 posted results");
        assert_eq!(
            oldest(20).await.unwrap(),
            None,
            "outside the last 20, which were all posted"
        );
        // Another platform's posts are not this one's.
        assert_eq!(
            s.oldest_unposted_result(Platform::Discord, 7, 3, 20)
                .await
                .unwrap(),
            Some(1)
        );
        s.set_message_ref(Platform::Telegram, &key(12), "chat-1", "sending:p1")
            .await
            .unwrap();
        assert_eq!(oldest(500).await.unwrap(), Some(12), "a claim is not a post");
        s.set_message_ref(Platform::Telegram, &key(12), "chat-1", "12")
            .await
            .unwrap();
        assert_eq!(oldest(500).await.unwrap(), None);
        // Deals 41 to 60 never posted: looked for further back than the window while the
        // oldest looked at was not posted either, as far as the first one not posted.
        assert_eq!(
            s.oldest_unposted_result(Platform::Telegram, 7, 60, 5)
                .await
                .unwrap(),
            Some(41)
        );
    }
}
