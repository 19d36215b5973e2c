//! `stikis play` as a terminal game, driven through a pseudo-terminal the way a person uses
//! it: keys in, the screen (as a terminal emulator draws it) checked.

use std::io::{Read, Write};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use portable_pty::{native_pty_system, Child, CommandBuilder, MasterPty, PtySize};

/// The screen sizes the games are played at: (columns, rows).
const WIDE: (u16, u16) = (160, 40);
const SIZES: [(u16, u16); 2] = [(80, 24), (120, 40)];

/// A `stikis play` running in a pseudo-terminal, and the screen it has drawn.
struct Term {
    child: Box<dyn Child + Send + Sync>,
    _master: Box<dyn MasterPty + Send>,
    writer: Box<dyn Write + Send>,
    screen: Arc<Mutex<vt100::Parser>>,
}

impl Term {
    /// Starts `stikis play ARGS` in `dir` on a screen of `cols` × `rows`.
    fn start(dir: &std::path::Path, (cols, rows): (u16, u16), args: &[&str]) -> Term {
        let pair = native_pty_system()
            .openpty(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("a pseudo-terminal");
        let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_stikis"));
        cmd.arg("play");
        cmd.args(args);
        cmd.cwd(dir);
        cmd.env("TERM", "xterm-256color");
        cmd.env_remove("DATABASE_URL");
        let child = pair.slave.spawn_command(cmd).expect("stikis starts");
        drop(pair.slave);
        let mut reader = pair.master.try_clone_reader().unwrap();
        let writer = pair.master.take_writer().unwrap();
        let screen = Arc::new(Mutex::new(vt100::Parser::new(rows, cols, 0)));
        let s = screen.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 8192];
            while let Ok(n) = reader.read(&mut buf) {
                if n == 0 {
                    break;
                }
                s.lock().unwrap().process(&buf[..n]);
            }
        });
        Term {
            child,
            _master: pair.master,
            writer,
            screen,
        }
    }

    fn contents(&self) -> String {
        self.screen.lock().unwrap().screen().contents()
    }

    /// Waits until the screen satisfies `ok` (a minute at most, then fails showing it).
    fn wait(&self, what: &str, ok: impl Fn(&str) -> bool) -> String {
        let end = Instant::now() + Duration::from_secs(60);
        loop {
            let c = self.contents();
            if ok(&c) {
                return c;
            }
            assert!(Instant::now() < end, "the screen never showed {what}:\n{c}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Types `keys` and waits until the screen changed.
    fn keys(&mut self, keys: &str) -> String {
        let before = self.contents();
        self.writer.write_all(keys.as_bytes()).unwrap();
        self.writer.flush().unwrap();
        self.wait(&format!("a change after {keys:?}"), |c| c != before)
    }

    fn kill(&mut self) {
        let pid = self.child.process_id().expect("a pid");
        std::process::Command::new("kill")
            .args(["-9", &pid.to_string()])
            .status()
            .unwrap();
        self.child.wait().unwrap();
    }

    fn exits(&mut self) {
        let end = Instant::now() + Duration::from_secs(60);
        while self.child.try_wait().unwrap().is_none() {
            assert!(Instant::now() < end, "stikis did not exit:\n{}", self.contents());
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// The number that follows `prefix` in `line`.
fn number_after(line: &str, prefix: &str) -> i64 {
    let rest = line
        .split(prefix)
        .nth(1)
        .unwrap_or_else(|| panic!("no {prefix:?} in {line:?}"));
    rest.split_whitespace().next().unwrap().parse().unwrap()
}

fn is_card(s: &str) -> bool {
    let mut chars = s.chars();
    let Some(suit) = chars.next_back() else {
        return false;
    };
    ['♠', '♥', '♦', '♣'].contains(&suit)
        && ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"].contains(&chars.as_str())
}

fn cards_in(line: &str) -> Vec<String> {
    line.split(|c: char| c.is_whitespace() || ",;:.()[]*│".contains(c))
        .filter(|w| is_card(w))
        .map(String::from)
        .collect()
}

/// The rows of the screen's panes: (table and score sheet, your hand, messages).
fn panes(screen: &str) -> (Vec<&str>, Vec<&str>, Vec<&str>) {
    let rows: Vec<&str> = screen.lines().collect();
    let hand = rows
        .iter()
        .position(|r| r.contains(" Your hand "))
        .expect("a hand pane");
    let log = rows
        .iter()
        .position(|r| r.contains(" Messages "))
        .expect("a message pane");
    (
        rows[..hand].to_vec(),
        rows[hand..log].to_vec(),
        rows[log..].to_vec(),
    )
}

/// The rows inside the table pane (left of the score sheet), without its frame.
fn table_rows(screen: &str) -> Vec<String> {
    let (top, _, _) = panes(screen);
    top.iter()
        .filter_map(|r| r.split('│').nth(1))
        .map(|r| r.trim_end().to_string())
        .collect()
}

/// The table pane's row that names the deal ("Deal 3 · dealer Computer 1").
fn deal_row(screen: &str) -> String {
    table_rows(screen)
        .into_iter()
        .find(|r| r.starts_with("Deal "))
        .unwrap_or_else(|| panic!("no deal row:\n{screen}"))
}

/// The number of the button labelled `label` on the screen, if there is one.
fn button(screen: &str, label: &str) -> Option<String> {
    let (_, hand, _) = panes(screen);
    hand.iter().find_map(|row| {
        let i = row.find(&format!("] {label}"))?;
        let open = row[..i].rfind('[')?;
        Some(row[open + 1..i].to_string())
    })
}

/// The line of your cards, as the hand pane shows it.
fn hand_line(screen: &str) -> Option<String> {
    let (_, hand, _) = panes(screen);
    hand.iter().find(|r| r.contains("Your cards:")).map(|r| {
        r.trim_matches(|c: char| c == '│' || c.is_whitespace())
            .to_string()
    })
}

/// Checks what every screen of a deal in play must show, and that no card of another seat
/// (or of the talon) is on it: a card outside your hand pane is one you held or one on a
/// trick line.
fn check_screen(screen: &str, held: &mut std::collections::HashSet<String>) {
    let (top, hand, log) = panes(screen);
    assert!(top.iter().any(|r| r.contains(" Table ")), "{screen}");
    assert!(top.iter().any(|r| r.contains(" Score sheet ")), "{screen}");
    assert!(
        hand.iter().any(|r| r.contains("Your cards:")),
        "the hand is always shown:\n{screen}"
    );
    for r in &hand {
        held.extend(cards_in(r));
    }
    // A deal's result (shown until Enter) names the talon and what was buried.
    let ended = screen.contains("Enter next deal");
    let log = if ended { &[][..] } else { &log[..] };
    // A trick's line and the rows it goes on in (two spaces in) show cards played.
    let mut trick = false;
    let rows: Vec<String> = top
        .iter()
        .map(|r| r.to_string())
        .chain(log.iter().map(|r| r.to_string()))
        .collect();
    for r in &rows {
        let inside = r.split('│').nth(1).unwrap_or("");
        trick = r.contains("rick") || (trick && inside.starts_with("  "));
        if trick {
            continue;
        }
        for card in cards_in(r) {
            assert!(
                held.contains(&card),
                "{card} is on the screen outside a trick line and was never yours:\n{screen}"
            );
        }
    }
}

/// How many buttons the footer offers ("1-N"; none when it offers no number).
fn offered(screen: &str) -> usize {
    let Some(i) = screen.find("Enter press · 1-") else {
        return 0;
    };
    let rest = &screen[i + "Enter press · 1-".len()..];
    let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    digits
        .parse()
        .unwrap_or_else(|_| panic!("no number in the footer:\n{screen}"))
}

/// Checks that your cards and every button number the footer offers are in the hand pane,
/// and that the message pane keeps a few rows.
fn check_buttons(screen: &str) {
    let (_, hand, log) = panes(screen);
    let hand = hand.join("\n");
    // All of the hand: your cards as well as the buttons below them.
    assert!(hand.contains("Your cards:"), "the hand is cut off:\n{screen}");
    for n in 1..=offered(screen) {
        assert!(
            hand.contains(&format!("[{n}]")),
            "button {n} is offered but not in sight:\n{screen}"
        );
    }
    // The message pane's frame and a row of messages at least, then the status and footer.
    assert!(log.len() >= 5, "the message pane is too small:\n{screen}");
}

/// Plays `args` at every size by pressing the first button, checking every screen's
/// buttons, until `enough` screens were seen and `seen` held on one of them.
fn buttons_in_sight(args: &[&str], what: &str, seen: impl Fn(&str) -> bool) {
    for size in SIZES {
        let dir = tempfile::tempdir().unwrap();
        let mut t = Term::start(dir.path(), size, args);
        let mut screen = t.wait("the first buttons", |c| offered(c) > 0);
        let mut found = false;
        for _ in 0..400 {
            check_buttons(&screen);
            found |= offered(&screen) > 0 && seen(&screen);
            if found {
                break;
            }
            screen = t.keys("\r");
        }
        assert!(found, "never saw {what} at {size:?}:\n{screen}");
        t.kill();
    }
}

#[test]
fn bazar_bids_are_all_in_sight() {
    // The bids (up to thirteen buttons) and later the cards.
    buttons_in_sight(&["belote", "--db", "t.db"], "the bids", |c| offered(c) >= 10);
}

#[test]
fn polt_buttons_stay_in_sight_after_an_exchange() {
    buttons_in_sight(
        &["polt", "--db", "t.db"],
        "a card to play after an exchange",
        |c| {
            let (_, hand, _) = panes(c);
            hand.iter()
                .any(|r| r.contains("You returned") || r.contains("You gave"))
                && hand.iter().any(|r| r.contains("Your turn"))
                && c.contains("Trumps:")
        },
    );
}

#[test]
fn the_newest_message_is_in_sight_and_pgup_shows_older_ones() {
    let dir = tempfile::tempdir().unwrap();
    let mut t = Term::start(dir.path(), (80, 24), &["belote", "--db", "t.db"]);
    let first = "The game of Bazar belote begins.";
    t.wait("the first message", |c| c.contains(first));
    // The record's note is the newest message and long enough to push the first out.
    let messages = |c: &str| -> String {
        let rows: Vec<&str> = panes(c)
            .2
            .iter()
            .map(|r| r.trim_matches(|c: char| c == '│' || c.is_whitespace()))
            .collect();
        rows.join(" ")
    };
    t.keys("r");
    let screen = t.wait("the record's note", |c| messages(c).contains("revealed seed."));
    assert!(!messages(&screen).contains(first), "{screen}");
    let screen = t.keys("\x1b[5~"); // PgUp
    assert!(screen.contains("Messages (older"), "{screen}");
    let mut screen = screen;
    for _ in 0..10 {
        if messages(&screen).contains(first) {
            break;
        }
        screen = t.keys("\x1b[5~");
    }
    assert!(
        messages(&screen).contains(first),
        "PgUp shows the oldest:\n{screen}"
    );
    assert!(!messages(&screen).contains("revealed seed"), "{screen}");
    let screen = t.keys("\x1b[F"); // End
    assert!(messages(&screen).contains("revealed seed"), "{screen}");
    assert!(!screen.contains("Messages (older"), "{screen}");
    t.kill();
}

#[test]
fn a_deals_last_trick_and_result_stay_until_enter() {
    for size in SIZES {
        let dir = tempfile::tempdir().unwrap();
        let mut t = Term::start(dir.path(), size, &["zole", "--db", "t.db"]);
        let mut screen = t.wait("the first bid", |c| offered(c) > 0);
        let title = |c: &str| -> String { deal_row(c) };
        // Your last card: the only one left in your hand when you press it.
        let mut last = None;
        let mut checked = false;
        for _ in 0..400 {
            if screen.contains("Enter next deal") {
                let (top, _, _) = panes(&screen);
                let table: Vec<&str> = top.iter().map(|r| r.split('│').nth(1).unwrap_or("")).collect();
                if let Some(card) = last.take() {
                    assert!(table.iter().any(|r| r.contains("Last trick")), "{screen}");
                    assert!(
                        table.iter().any(|r| cards_in(r).contains(&card)),
                        "the last trick shows your last card {card}:\n{screen}"
                    );
                    // The result from its first line (all of it on a tall screen).
                    assert!(screen.contains("Result of deal"), "{screen}");
                    if size.1 >= 40 {
                        assert!(screen.contains("Totals: "), "{screen}");
                    }
                    let before = title(&screen);
                    screen = t.keys("\r");
                    let screen = t.wait("the next deal", |c| title(c) != before && offered(c) > 0);
                    assert!(!screen.contains("Enter next deal"), "{screen}");
                    checked = true;
                    break;
                }
                screen = t.keys("\r");
                continue;
            }
            if let Some(cards) = hand_line(&screen).map(|h| cards_in(&h)) {
                if cards.len() == 1 && offered(&screen) == 1 {
                    last = cards.into_iter().next();
                }
            }
            let chosen = panes(&screen).1.iter().any(|r| r.contains("[1] ✓"));
            let key = match button(&screen, "Take") {
                Some(n) => n,
                None if chosen => "\x1b[C\r".to_string(),
                None => "\r".to_string(),
            };
            screen = t.keys(&key);
        }
        assert!(
            checked,
            "no deal was played to its last card at {size:?}:\n{screen}"
        );
        t.kill();
    }
}

/// The record files in `dir`.
fn records(dir: &std::path::Path) -> usize {
    std::fs::read_dir(dir)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .ends_with(".json")
        })
        .count()
}

#[test]
fn r_saves_the_last_tables_record_and_a_rerun_offers_c() {
    let dir = tempfile::tempdir().unwrap();
    let mut t = Term::start(dir.path(), (120, 40), &["zole", "--db", "t.db"]);
    t.wait("the first bid", |c| offered(c) > 0);
    let screen = t.keys("s");
    assert!(screen.contains("Turn: You"), "{screen}");
    let screen = t.keys("y");
    assert!(screen.contains("The table is stopped."), "{screen}");
    // Nobody's turn any more: the table and the hand say so no longer.
    assert!(
        !screen.contains("Turn: You") && !screen.contains("Your turn."),
        "{screen}"
    );
    // After the stop and after c, r saves the last table's record.
    t.keys("r");
    let screen = t.wait("the saved record", |c| c.contains("The game record is saved in"));
    assert!(!screen.contains("no open table"), "{screen}");
    assert_eq!(records(dir.path()), 1);
    std::thread::sleep(Duration::from_millis(1100)); // a new file name (by the second)
    let screen = t.keys("c");
    assert!(screen.contains("No table is open."), "{screen}");
    assert!(screen.contains("r save the record"), "{screen}");
    t.keys("r");
    t.wait("the second record", |_| records(dir.path()) == 2);
    assert!(!t.contents().contains("no open table"), "{}", t.contents());
    t.keys("q");
    t.exits();
    for e in std::fs::read_dir(dir.path()).unwrap() {
        let path = e.unwrap().path();
        if path.extension().is_some_and(|x| x == "json") {
            let replay = std::process::Command::new(env!("CARGO_BIN_EXE_stikis"))
                .arg("replay")
                .arg(&path)
                .output()
                .unwrap();
            assert!(replay.status.success(), "{path:?}: {replay:?}");
        }
    }

    // A new game on a fresh sheet; stopped, then quit: the rerun says the sheet is open
    // and offers c, with no table opened unasked and no record to save.
    let mut t = Term::start(dir.path(), (120, 40), &["zole", "--db", "t.db"]);
    t.wait("a new game", |c| c.contains("Deal 1 begins") && offered(c) > 0);
    t.keys("s");
    t.keys("y");
    t.keys("q");
    t.exits();
    let mut t = Term::start(dir.path(), (120, 40), &["zole", "--db", "t.db"]);
    let screen = t.wait("the open sheet", |c| c.contains("score sheet is (its totals"));
    assert!(!screen.contains("Deal 1 begins"), "{screen}");
    assert!(screen.contains("c close the score sheet"), "{screen}");
    assert!(!screen.contains("r save the record"), "{screen}");
    let screen = t.keys("r");
    assert!(screen.contains("There is no record to save here"), "{screen}");
    let screen = t.keys("c");
    assert!(screen.contains("No table is open."), "{screen}");
    t.keys("q");
    t.exits();
    let mut t = Term::start(dir.path(), (120, 40), &["zole", "--db", "t.db"]);
    t.wait("a new game on a fresh sheet", |c| {
        c.contains("Deal 1 begins") && c.contains("No deal finished yet.")
    });
    t.kill();
}

#[test]
fn a_zole_deal_played_by_keys_then_killed_resumed_stopped_and_closed() {
    let dir = tempfile::tempdir().unwrap();
    let mut t = Term::start(dir.path(), WIDE, &["zole", "--db", "t.db"]);
    // The footer is drawn last: a screen read in the middle of drawing has the hand without it.
    let mut screen = t.wait("the first bid", |c| {
        c.contains("Your cards:") && c.contains("[1]") && c.contains("q quit")
    });
    assert!(
        screen.contains("←/→ choose"),
        "the footer shows the keys:\n{screen}"
    );
    assert!(screen.contains("No deal finished yet."), "{screen}");
    // Play deals until one is played out with cards (not passed by everybody): take when
    // offered, otherwise the first button.
    let mut held = std::collections::HashSet::new();
    let mut played_cards = false;
    let deal_of = |screen: &str| -> u32 { number_after(&deal_row(screen), "Deal ") as u32 };
    let mut deal = deal_of(&screen);
    for _ in 0..300 {
        check_screen(&screen, &mut held);
        if screen.contains("Trick 1:") || screen.contains("Last trick") {
            played_cards = true;
        }
        // A card chosen to bury is marked ✓ and pressing it again undoes it: move on first.
        let chosen = panes(&screen).1.iter().any(|r| r.contains("[1] ✓"));
        // A number presses its button at once when no longer number starts with it; Enter
        // presses the chosen one (the first, until the arrows move it).
        let key = match button(&screen, "Take") {
            Some(n) => n,
            None if chosen => "\x1b[C\r".to_string(),
            None => "\r".to_string(),
        };
        screen = t.keys(&key);
        if deal_of(&screen) != deal {
            if played_cards {
                break;
            }
            deal = deal_of(&screen);
            held.clear();
        }
    }
    assert!(played_cards && deal_of(&screen) != deal, "{screen}");
    assert!(screen.contains(&format!("Result of deal {deal}")), "{screen}");
    // The score sheet pane holds the totals the result posted.
    let totals = screen
        .lines()
        .find(|l| l.contains("Totals: "))
        .expect("the result's totals");
    let you = number_after(totals, "You ");
    let (top, _, _) = panes(&screen);
    let sheet_you = top
        .iter()
        .find_map(|r| {
            let sheet = r.rsplit('│').nth(1)?.trim();
            sheet.strip_prefix("You")?.trim().parse::<i64>().ok()
        })
        .unwrap_or_else(|| panic!("no total of You in the score sheet pane:\n{screen}"));
    assert_eq!(sheet_you, you, "{screen}");

    // Into the next deal, then kill -9: the same hand comes back.
    let screen = t.wait("the next deal's hand", |c| {
        hand_line(c).is_some() && c.contains("[1]")
    });
    let before = hand_line(&screen).unwrap();
    t.kill();
    let mut t = Term::start(dir.path(), WIDE, &["zole", "--db", "t.db"]);
    let screen = t.wait("the resumed game", |c| c.contains("Resuming your game."));
    assert_eq!(hand_line(&screen).unwrap(), before, "{screen}");

    // s asks first; n goes on; s and y stop; c then closes the score sheet.
    let screen = t.keys("s");
    assert!(screen.contains("Stop the table now"), "{screen}");
    let screen = t.keys("n");
    assert!(screen.contains("The game goes on."), "{screen}");
    t.keys("s");
    let screen = t.keys("y");
    assert!(screen.contains("The table is stopped."), "{screen}");
    let screen = t.keys("c");
    assert!(screen.contains("No table is open."), "{screen}");
    let screen = t.keys("x");
    assert!(
        screen.contains("Type n (new game)"),
        "a bad key names the valid ones:\n{screen}"
    );
    t.keys("q");
    t.exits();

    // The sheet is closed: the next run starts a new game on a fresh sheet.
    let mut t = Term::start(dir.path(), WIDE, &["zole", "--db", "t.db"]);
    let screen = t.wait("a new game", |c| c.contains("Deal 1 begins"));
    assert!(!screen.contains("Resuming"), "{screen}");
    assert!(screen.contains("No deal finished yet."), "{screen}");
    t.writer.write_all(&[3]).unwrap(); // Ctrl-C quits; the game is kept.
    t.exits();
    assert!(t.contents().contains("Your game is kept"), "{}", t.contents());
}

/// Plays (taking when offered, else the chosen button) until a deal's end is held on the
/// screen and `ok` holds for it; a deal's end it does not want is passed with Enter.
fn play_to_result(t: &mut Term, mut screen: String, ok: impl Fn(&str) -> bool) -> String {
    for _ in 0..1500 {
        if screen.contains("Enter next deal") {
            if ok(&screen) {
                return screen;
            }
            screen = t.keys("\r");
            continue;
        }
        let chosen = panes(&screen).1.iter().any(|r| r.contains("[1] ✓"));
        let key = match button(&screen, "Take") {
            Some(n) => n,
            None if chosen => "\x1b[C\r".to_string(),
            None => "\r".to_string(),
        };
        screen = t.keys(&key);
    }
    panic!("no such deal's end was played:\n{screen}");
}

/// The messages on the screen as lines, without the pane's frame.
fn message_lines(screen: &str) -> Vec<String> {
    panes(screen)
        .2
        .iter()
        .map(|r| {
            r.trim_matches(|c: char| c == '│' || c.is_whitespace())
                .to_string()
        })
        .collect()
}

/// The newest "Totals: " line's (name, points) pairs.
fn totals_line(screen: &str) -> Vec<(String, i64)> {
    let line = message_lines(screen)
        .into_iter()
        .rev()
        .find(|l| l.starts_with("Totals: "))
        .unwrap_or_else(|| panic!("no Totals line:\n{screen}"));
    line["Totals: ".len()..]
        .split(" · ")
        .map(|e| {
            let (name, points) = e.rsplit_once(' ').unwrap();
            (name.to_string(), points.parse().unwrap())
        })
        .collect()
}

#[test]
fn a_zole_deals_end_says_how_its_score_came_about() {
    let dir = tempfile::tempdir().unwrap();
    let mut t = Term::start(dir.path(), WIDE, &["zole", "--db", "t.db"]);
    let screen = t.wait("the first bid", |c| offered(c) > 0);
    assert!(
        screen.contains("Table · Zole · preset lv"),
        "the preset is named:\n{screen}"
    );
    // A contract played out (not a pule redeal).
    let screen = play_to_result(&mut t, screen, |c| c.contains("Declarer: "));
    let said = message_lines(&screen).join("\n");
    assert!(
        said.contains("card points ("),
        "the declarer's card points:\n{screen}"
    );
    let bands = [
        "A plain win.",
        "A plain loss.",
        "Jaņi (schneider): 91 card points or more.",
        "Lost in jaņi (schneider): 30 card points or fewer.",
        "Bezstiķis: the opponents took no trick.",
        "Bezstiķis: the declarer took no trick.",
    ];
    assert!(
        bands.iter().any(|b| said.contains(b)),
        "the reason of the score is named:\n{screen}"
    );
    assert!(
        said.contains("Each opponent pays the declarer ")
            || said.contains("The declarer pays each opponent "),
        "{screen}"
    );
    // The deal's points per seat, apart from the running totals.
    let this: Vec<&str> = said.lines().filter(|l| l.starts_with("This deal: ")).collect();
    assert_eq!(this.len(), 1, "{screen}");
    assert!(this[0].contains("You ") && this[0].contains('+'), "{screen}");
    assert!(said.contains("Totals: You "), "{screen}");
    t.kill();
}

#[test]
fn a_belote_deals_end_says_how_its_score_came_about() {
    let dir = tempfile::tempdir().unwrap();
    let mut t = Term::start(dir.path(), WIDE, &["belote", "--db", "t.db"]);
    let screen = t.wait("the first bid", |c| offered(c) > 0);
    assert!(
        screen.contains("Table · Bazar belote · rules default"),
        "the rules are named:\n{screen}"
    );
    let screen = play_to_result(&mut t, screen, |c| c.contains("Declarer: "));
    let said = message_lines(&screen).join("\n");
    assert!(
        said.contains("The contract is made.") || said.contains("The contract fails."),
        "{screen}"
    );
    assert!(said.contains("for combinations and belote"), "{screen}");
    // The deal's score (a signed delta per team) and the totals (plain numbers), each on a
    // line of its own: no "+16 (16)".
    let this = said
        .lines()
        .find(|l| l.starts_with("This deal: "))
        .unwrap_or_else(|| panic!("no deal's score:\n{screen}"));
    assert!(this.contains('+') || this.contains('-'), "{screen}");
    let totals = said.lines().find(|l| l.starts_with("Totals: ")).unwrap();
    assert!(!totals.contains('(') && !totals.contains('+'), "{screen}");
    assert_eq!(totals_line(&screen).len(), 2, "{screen}");
    t.kill();
}

/// The points the score sheet pane shows for `name`: its first column (the table's own
/// when the table went on from a sheet).
fn sheet_points(screen: &str, name: &str) -> i64 {
    let (top, _, _) = panes(screen);
    top.iter()
        .find_map(|r| {
            let sheet = r.rsplit('│').nth(1)?.trim();
            sheet.strip_prefix(name)?.split_whitespace().next()?.parse().ok()
        })
        .unwrap_or_else(|| panic!("no total of {name} in the score sheet pane:\n{screen}"))
}

#[test]
fn after_a_stop_and_a_new_table_the_sheet_pane_agrees_with_the_totals() {
    let dir = tempfile::tempdir().unwrap();
    let mut t = Term::start(dir.path(), WIDE, &["zole", "--db", "t.db", "--preset", "rondo"]);
    let screen = t.wait("the first bid", |c| offered(c) > 0);
    assert!(screen.contains("Table · Zole · preset rondo"), "{screen}");
    // A deal that moved the totals, so that the sheet the next table goes on from has some.
    let screen = play_to_result(&mut t, screen, |c| totals_line(c).iter().any(|(_, p)| *p != 0));
    let before = totals_line(&screen);
    t.keys("s");
    let screen = t.keys("y");
    assert!(screen.contains("The table is stopped."), "{screen}");
    let screen = t.keys("n");
    let screen = if offered(&screen) > 0 {
        screen
    } else {
        t.wait("the new table's first bid", |c| offered(c) > 0)
    };
    assert!(screen.contains("Table · Zole · preset rondo"), "{screen}");
    let screen = play_to_result(&mut t, screen, |c| c.contains("Result of deal 1"));
    let totals = totals_line(&screen);
    assert_eq!(totals.len(), 3, "{screen}");
    for (name, points) in &totals {
        assert_eq!(
            sheet_points(&screen, name),
            *points,
            "{name}: the sheet pane's table column against the Totals line:\n{screen}"
        );
    }
    // Beside it, the sheet: the stopped table's totals and this one's.
    assert!(screen.contains("table  sheet"), "{screen}");
    for (name, points) in &totals {
        let was = before.iter().find(|(n, _)| n == name).map_or(0, |(_, p)| *p);
        let (top, _, _) = panes(&screen);
        let row = top
            .iter()
            .filter_map(|r| r.rsplit('│').nth(1))
            .find_map(|s| s.trim().strip_prefix(name.as_str()).map(str::to_string))
            .unwrap();
        let sheet: i64 = row.split_whitespace().nth(1).unwrap().parse().unwrap();
        assert_eq!(sheet, was + points, "{name}:\n{screen}");
    }
    t.kill();
}

/// Waits until the screen has stayed the same for a moment: a frame read while it is being
/// written has parts of the one before.
fn settled(t: &Term) -> String {
    let mut last = t.contents();
    loop {
        std::thread::sleep(Duration::from_millis(60));
        let now = t.contents();
        if now == last {
            return now;
        }
        last = now;
    }
}

/// The plays of the table pane's line that starts with `head`, with the rows it goes on in
/// (two spaces in): the line's words before ": ", and each play's (name, card) in order.
fn plays_of(rows: &[String], head: &str) -> Option<(String, Vec<(String, String)>)> {
    let i = rows.iter().position(|r| r.starts_with(head))?;
    let mut text = rows[i].clone();
    for r in &rows[i + 1..] {
        if !r.starts_with("  ") || r.trim().is_empty() {
            break;
        }
        text.push_str(" · ");
        text.push_str(r.trim());
    }
    let (words, rest) = text.split_once(": ")?;
    let plays = rest
        .split(" · ")
        .map(str::trim)
        .filter(|u| *u != "—" && !u.is_empty())
        .map(|u| {
            let (name, card) = u
                .rsplit_once(' ')
                .unwrap_or_else(|| panic!("a play without a card: {u:?} in {text:?}"));
            let card = card.trim_end_matches('*');
            assert!(is_card(card) || card == "🃏", "{card:?} in {text:?}");
            (name.to_string(), card.to_string())
        })
        .collect();
    Some((words.to_string(), plays))
}

/// Who took the last trick, as its line names them.
fn taker(words: &str) -> &str {
    words
        .strip_prefix("Last trick (taken by ")
        .and_then(|w| w.strip_suffix(')'))
        .unwrap_or_else(|| panic!("the last trick does not name who took it: {words:?}"))
}

/// What one decision's screen showed of the trick.
#[derive(Default, Debug)]
struct Seen {
    /// Decisions checked.
    decisions: usize,
    /// Decisions in the play of the cards (a trick line on the screen).
    plays: usize,
    /// Of them, those whose trick was checked against the last trick's seat order.
    ordered: usize,
    /// Plays after an exchange (Polt: the hand says what you gave or got).
    after_exchange: usize,
    /// Deal ends shown, and those whose last trick named who took it.
    ends: usize,
    ends_named: usize,
}

/// Checks a decision's screen: the trumps, that it is your turn, and the whole trick — at
/// trick 2 and later exactly the players from the last trick's taker round to you, each
/// with a card, in the seat order the last trick (every seat's card) shows.
fn check_decision(screen: &str, seats: usize, seen: &mut Seen) {
    let rows = table_rows(screen);
    let trumps = rows
        .iter()
        .find(|r| r.starts_with("Trumps: "))
        .unwrap_or_else(|| panic!("the trumps are not on the screen:\n{screen}"));
    assert!(
        rows.iter().any(|r| r.trim() == "Turn: You"),
        "whose turn it is is not on the screen:\n{screen}"
    );
    let (_, hand, _) = panes(screen);
    // The hand pane wraps its words: read it as one text.
    let hand_text = hand
        .iter()
        .map(|r| r.trim_matches(|c: char| c == '│' || c.is_whitespace()))
        .collect::<Vec<_>>()
        .join(" ");
    assert!(hand_text.contains("Your turn."), "{screen}");
    seen.decisions += 1;
    let Some((words, trick)) = plays_of(&rows, "Trick ") else {
        return;
    };
    seen.plays += 1;
    assert!(words.starts_with("Trick "), "{screen}");
    assert!(
        !trumps.contains("not named yet"),
        "cards are played and the trumps are not named:\n{screen}"
    );
    if hand_text.contains("You gave") || hand_text.contains("You returned") {
        seen.after_exchange += 1;
    }
    let names: Vec<&str> = trick.iter().map(|(n, _)| n.as_str()).collect();
    assert!(!names.contains(&"You"), "you have not played yet:\n{screen}");
    assert!(trick.len() < seats, "{screen}");
    let Some((words, last)) = plays_of(&rows, "Last trick") else {
        return;
    };
    assert_eq!(
        last.len(),
        seats,
        "every seat's card in the last trick:\n{screen}"
    );
    let order: Vec<&str> = last.iter().map(|(n, _)| n.as_str()).collect();
    let from = order
        .iter()
        .position(|n| *n == taker(&words))
        .unwrap_or_else(|| panic!("the taker did not play in the last trick:\n{screen}"));
    let before_you: Vec<&str> = (from..from + seats)
        .map(|k| order[k % seats])
        .take_while(|n| *n != "You")
        .collect();
    assert_eq!(
        names, before_you,
        "the trick shows every card played before yours, with who played it:\n{screen}"
    );
    seen.ordered += 1;
}

/// Plays `args` at 80 × 24 (taking when offered, else the chosen button), checking every
/// decision's screen (`check_decision`) and every deal's end, until `enough` says so; then
/// stops the table, and checks that nobody's turn is shown any more.
fn decisions_at_80x24(args: &[&str], seats: usize, enough: impl Fn(&Seen) -> bool) -> Seen {
    let dir = tempfile::tempdir().unwrap();
    let mut t = Term::start(dir.path(), (80, 24), args);
    t.wait("the first decision", |c| offered(c) > 0 && c.contains("q quit"));
    let mut screen = settled(&t);
    let mut seen = Seen::default();
    for _ in 0..600 {
        // A deal's end, or the game's end (a coinched or capot deal can end a game at once):
        // both show the last trick and its taker, and nobody's turn.
        let over = screen.contains("No table is open. n new game");
        if screen.contains("Enter next deal") || over {
            let rows = table_rows(&screen);
            seen.ends += 1;
            if let Some((words, last)) = plays_of(&rows, "Last trick") {
                let who = taker(&words);
                assert!(
                    last.iter().any(|(n, _)| n == who),
                    "the last trick's taker played in it:\n{screen}"
                );
                seen.ends_named += 1;
            }
            assert!(
                !rows.iter().any(|r| r.starts_with("Turn: ")),
                "a deal's end shows nobody's turn:\n{screen}"
            );
            t.keys(if over { "n" } else { "\r" });
            screen = settled(&t);
            continue;
        }
        if offered(&screen) > 0 {
            check_decision(&screen, seats, &mut seen);
            if enough(&seen) {
                break;
            }
        }
        let chosen = panes(&screen).1.iter().any(|r| r.contains("[1] ✓"));
        let key = match button(&screen, "Take") {
            Some(n) => n,
            None if chosen => "\x1b[C\r".to_string(),
            None => "\r".to_string(),
        };
        t.keys(&key);
        screen = settled(&t);
    }
    assert!(enough(&seen), "not enough was played to check:\n{screen}");
    // A stop in the middle of a deal: the table stays, nobody's turn.
    t.keys("s");
    t.keys("y");
    let screen = settled(&t);
    assert!(screen.contains("The table is stopped."), "{screen}");
    assert!(
        !screen.contains("Turn: ") && !screen.contains("Your turn."),
        "a stopped table shows nobody's turn:\n{screen}"
    );
    t.kill();
    seen
}

#[test]
fn zole_at_80x24_shows_the_trick_turn_and_trumps_and_who_took_each_last_trick() {
    let seen = decisions_at_80x24(&["zole", "--db", "t.db"], 3, |s| {
        s.ends_named >= 1 && s.ordered >= 3
    });
    assert!(seen.plays >= 3);
    // Zole's trumps are fixed: they are named on every screen, from the first bid.
    let dir = tempfile::tempdir().unwrap();
    let t = Term::start(dir.path(), (80, 24), &["zole", "--db", "t.db"]);
    let screen = t.wait("the first bid", |c| offered(c) > 0 && c.contains("q quit"));
    let screen = if screen.contains("Trumps:") {
        screen
    } else {
        settled(&t)
    };
    assert!(
        table_rows(&screen)
            .iter()
            .any(|r| r.starts_with("Trumps: Q, J, ♦")),
        "{screen}"
    );
}

#[test]
fn bazar_at_80x24_shows_the_trick_turn_and_trumps_through_bidding_and_play() {
    decisions_at_80x24(&["belote", "--db", "t.db"], 4, |s| s.ordered >= 4 && s.ends >= 1);
}

#[test]
fn coinche_at_80x24_shows_the_trick_turn_and_trumps_through_bidding_and_play() {
    decisions_at_80x24(&["belote", "coinche", "--db", "t.db"], 4, |s| {
        s.ordered >= 4 && s.ends >= 1
    });
}

#[test]
fn a_game_that_ends_after_a_deal_shows_its_last_trick_and_n_starts_the_next() {
    // At target 1 every deal ends the game: the end shows who took the last trick and nobody's
    // turn, and `n` opens the next table (the path a coinched or capot first deal takes).
    let seen = decisions_at_80x24(&["belote", "classic", "--target", "1", "--db", "t.db"], 4, |s| {
        s.ordered >= 2 && s.ends >= 2
    });
    assert!(seen.ends_named >= 2, "{seen:?}");
}

#[test]
fn polt_at_80x24_shows_the_trick_turn_and_trumps_after_the_exchange() {
    decisions_at_80x24(&["polt", "--db", "t.db"], 5, |s| {
        s.ordered >= 3 && s.after_exchange >= 2 && s.ends >= 1
    });
}

#[test]
fn polt_with_seven_at_80x24_shows_the_whole_trick_and_every_total() {
    // Who is in a hand's exchange depends on the ranks the deal draws: play on until one of
    // yours has been seen (600 decisions bound the run; `enough` failing then fails the test).
    decisions_at_80x24(&["polt", "--players", "7", "--db", "t.db"], 7, |s| {
        s.ordered >= 3 && s.ends >= 1 && s.after_exchange >= 1
    });
    // After a hand, the sheet holds every player's total, all in sight.
    let dir = tempfile::tempdir().unwrap();
    let mut t = Term::start(dir.path(), (80, 24), &["polt", "--players", "7", "--db", "t.db"]);
    t.wait("the first decision", |c| offered(c) > 0 && c.contains("q quit"));
    let mut screen = settled(&t);
    for _ in 0..300 {
        if !screen.contains("No deal finished yet.") && !screen.contains("Enter next deal") {
            break;
        }
        t.keys("\r");
        screen = settled(&t);
    }
    for _ in 0..300 {
        if !screen.contains("No deal finished yet.") {
            break;
        }
        t.keys("\r");
        screen = settled(&t);
    }
    let (top, _, _) = panes(&screen);
    let sheet: Vec<&str> = top
        .iter()
        .filter_map(|r| r.rsplit('│').nth(1))
        .map(str::trim)
        .collect();
    for name in [
        "You",
        "Computer 7",
        "Computer 2",
        "Computer 3",
        "Computer 4",
        "Computer 5",
        "Computer 6",
    ] {
        assert!(
            sheet.iter().any(|r| r
                .strip_prefix(name)
                .is_some_and(|p| p.trim().parse::<i64>().is_ok())),
            "{name}'s total is not in sight on the sheet:\n{screen}"
        );
    }
    t.kill();
}
