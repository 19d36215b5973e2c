//! `stikis play` on a terminal: one screen redrawn in place (ratatui with crossterm). Every
//! pane is drawn from the host's typed picture of the table (`Host::table_view`), read again
//! after each change; nothing is learnt from the chat's text. The table pane shows the deal:
//! the trumps, the contract, the bidding, the trick being played with who played what, the
//! last trick and who took it, and whose turn it is; the score-sheet pane the chat's running
//! totals and open pules; the hand pane your cards (coloured by suit, trumps marked, the cards
//! you may play bright and the others dim) with the buttons (the pane grows to hold them
//! all); the message pane what the table posted (newest at the bottom; PgUp and PgDn scroll
//! back). Keys are in the footer.
//!
//! The layout adapts to the screen: the trumps, the whole trick and the turn are always in
//! sight (at 80 × 24 too, with seven players); lines that do not fit give way, the least
//! needed first, and the pane's frame says how many are hidden. A deal's end stays on the
//! screen (its last trick, who took it, and the result) until you press Enter. Once the
//! table stops, nobody's turn is shown. Pipes and tests get the line mode of `play.rs`.

use std::cell::Cell;

use ratatui::crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use ratatui::layout::{Constraint, Layout};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Wrap};
use ratatui::Frame;
use stikis_core::cards::{Card, CardSet, Rank, Suit};
use stikis_core::Seat;
use stikis_host::picture::{Choice, Phase, Picture};
use stikis_host::store::{ScoreSheetRow, SheetTotal};
use stikis_host::view::TableView;
use stikis_host::{Command, Out, Outbox};

use crate::play::{PlayArgs, Session, Shown, KEPT, NO_RECORD, STOP_QUESTION};

/// Where the screen is in the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Playing,
    /// `s` was pressed: y stops the table, anything else goes on.
    ConfirmStop,
    /// The table is stopped: c closes the score sheet, n opens a new table.
    Stopped,
    /// No table is open any more (the game ended or the sheet was closed).
    Over,
}

/// A button of yours: what it shows (a card, or words) and the token that presses it.
#[derive(Debug, Clone, PartialEq)]
struct Press {
    label: String,
    /// The card of your hand it plays or picks.
    card: Option<Card>,
    /// It takes back the pick of `card` (a burial's first card).
    unpick: bool,
    token: String,
}

/// A deal's end drawn instead of the table.
struct Ended {
    picture: Picture,
    /// Your cards as the deal ended.
    hand: Vec<Card>,
    /// The next deal has begun and waits for Enter.
    next: bool,
}

/// Everything the screen shows.
struct Screen {
    /// The table as the host shows it to you, the newest; kept when the table closes
    /// (stopped, or its game ended), and drawn then without anybody's turn.
    view: Option<TableView>,
    /// `view` is of the open, running table.
    live: bool,
    /// A deal's end, drawn instead of `view`: until Enter while the next deal waits, or
    /// the last deal of a game that ended.
    end: Option<Ended>,
    buttons: Vec<Press>,
    selected: usize,
    /// Digits typed so far (for button numbers above 9).
    typed: String,
    log: Vec<String>,
    sheet: Option<ScoreSheetRow>,
    /// The sheet's totals the last table started from (`n` after a stop goes on from the
    /// sheet): the sheet pane shows the table's own totals beside the sheet's.
    carried: Vec<SheetTotal>,
    /// The game and its rules (the Zole preset), in the table pane's title.
    title: String,
    mode: Mode,
    /// The answer to the last key, if it needs one (a bad key names the valid ones).
    status: String,
    /// How many rows the message pane is scrolled back from the newest (PgUp, PgDn).
    back: usize,
    /// The messages that came after a deal's result (the next deal's), shown when you
    /// press Enter, so that the result stays in sight until then.
    held: Vec<Shown>,
    /// The last table open since the program started: `r` saves its record once it is
    /// closed (stopped, ended, or its sheet closed).
    last_table: Option<i64>,
    /// While a deal's end is held: the result's message, shown from its first line (the
    /// message pane scrolled back to it unless PgUp, PgDn or End moved it).
    anchor: Option<usize>,
    /// What the last drawing knew of the message pane: (the most rows it can scroll back,
    /// the rows it shows, the rows it was scrolled back).
    log_rows: Cell<(usize, usize, usize)>,
}

/// What a key asks of the game.
enum Act {
    Nothing,
    Host(Command),
    /// Save the record of the open table.
    SaveOpenRecord,
    /// Save the record of a table no longer open.
    SaveRecord(i64),
    NewTable,
    Quit,
}

pub fn run(rt: &tokio::runtime::Runtime, session: &Session, args: &PlayArgs) -> Result<(), String> {
    let (out, notes) = rt.block_on(session.begin(args))?;
    let mut screen = Screen::new(notes);
    screen.take(rt, session, out);
    if screen.mode == Mode::Over && screen.sheet.is_some() {
        // No table, but the last one's score sheet is open: c closes it, n goes on from it.
        screen.mode = Mode::Stopped;
        screen.set_buttons();
    }
    let mut terminal = ratatui::init();
    let result = (|| -> Result<bool, String> {
        loop {
            terminal.draw(|f| screen.draw(f)).map_err(|e| e.to_string())?;
            let key = match event::read().map_err(|e| e.to_string())? {
                Event::Key(k) if k.kind != KeyEventKind::Release => k,
                _ => continue,
            };
            match screen.key(key) {
                Act::Nothing => {}
                Act::Quit => return Ok(screen.mode != Mode::Over),
                Act::Host(c) => {
                    let stop = c == Command::Stop;
                    if stop {
                        // The next deal held back is the one stopped: show it first.
                        screen.release();
                    }
                    let out = rt.block_on(session.handle(c));
                    if stop {
                        screen.mode = Mode::Stopped;
                    }
                    screen.take(rt, session, out);
                }
                Act::SaveOpenRecord => {
                    let shown = rt.block_on(session.save_open_record());
                    screen.notes(shown);
                }
                Act::SaveRecord(id) => {
                    let text = rt.block_on(session.save_record(id));
                    screen.notes(vec![Shown::Note(text)]);
                }
                Act::NewTable => {
                    let out = rt.block_on(session.new_table())?;
                    screen.view = None;
                    screen.end = None;
                    screen.held.clear();
                    screen.mode = Mode::Playing;
                    screen.take(rt, session, out);
                }
            }
        }
    })();
    ratatui::restore();
    if result? {
        println!("{KEPT}");
    }
    Ok(())
}

/// The picture of deal `deal_no` of table `id` as it ended, replayed from the table's log:
/// the host's view keeps a deal's end only until the next deal's first move, which
/// computer players make at once, while the terminal shows it until Enter.
async fn ended_picture(session: &Session, id: i64, deal_no: usize) -> Option<Picture> {
    let log = session.store.table_log(id).await.ok()?;
    let mut game = stikis_host::games::new_game(&log.table.game, &log.table.rules, log.seats.len()).ok()?;
    for (i, d) in log.deals.iter().enumerate() {
        game.restore_deal(&d.deal).ok()?;
        let end = log.deals.get(i + 1).map_or(i64::MAX, |n| n.first_seq);
        for a in log.actions.iter().filter(|a| a.seq >= d.first_seq && a.seq < end) {
            if game.apply(&a.payload).ok()?.is_some() && game.deal_no() == deal_no {
                return Some(game.picture());
            }
        }
    }
    None
}

/// Your buttons in the view, in the order the host offers the decisions: each card's with
/// the token of that card, each other with the next of the other buttons.
fn presses(v: &TableView) -> Vec<Press> {
    let Some(mine) = &v.mine else {
        return Vec::new();
    };
    let mut others = v.buttons.iter().flatten();
    let mut all = Vec::new();
    for d in mine.decisions.iter().flatten() {
        let card = d.choice.card();
        let held = card
            .and_then(|c| v.hand.iter().find(|h| h.card == c))
            .and_then(|h| h.token.clone());
        let (card, token) = match held {
            Some(token) => (card, token),
            None => match others.next() {
                Some(b) => (None, b.token.clone()),
                None => continue,
            },
        };
        all.push(Press {
            label: d.choice.label(v.lang, &v.names),
            card,
            unpick: matches!(d.choice, Choice::Unpick(_)),
            token,
        });
    }
    // What is no decision of the game ("I'm back").
    all.extend(others.map(|b| Press {
        label: b.label.clone(),
        card: None,
        unpick: false,
        token: b.token.clone(),
    }));
    all
}

impl Screen {
    /// The screen before the first table is read: `log` in the message pane.
    fn new(log: Vec<String>) -> Screen {
        Screen {
            view: None,
            live: false,
            end: None,
            buttons: Vec::new(),
            selected: 0,
            typed: String::new(),
            log,
            sheet: None,
            carried: Vec::new(),
            title: String::new(),
            mode: Mode::Playing,
            status: String::new(),
            back: 0,
            held: Vec::new(),
            last_table: None,
            anchor: None,
            log_rows: Cell::new((0, 0, 0)),
        }
    }

    /// While a deal's end is shown and the next deal waits for Enter.
    fn holding(&self) -> bool {
        self.end.as_ref().is_some_and(|e| e.next)
    }

    /// Takes in a change: reads the table again, and shows the messages of `out`. When the
    /// deal shown before ended (its result is among them) and the next one has begun, the
    /// deal's end stays on the table, and the messages after its result wait, until Enter.
    fn take(&mut self, rt: &tokio::runtime::Runtime, session: &Session, out: Outbox) {
        let before = self
            .view
            .as_ref()
            .filter(|v| self.live && v.picture.phase != Phase::Waiting)
            .map(|v| {
                let hand = v.mine.as_ref().map(|m| m.hand.clone()).unwrap_or_default();
                (v.table, v.picture.deal_no, hand)
            });
        self.refresh(rt, session);
        let key = before
            .as_ref()
            .map(|(id, no, _)| stikis_host::table::result_key(*id, *no));
        let mut shown = Vec::new();
        let mut result = None;
        for o in out.0 {
            if matches!(&o, Out::Post { once: Some(k), .. } if Some(k) == key.as_ref()) {
                result = Some(shown.len());
            }
            shown.extend(session.view(&Outbox(vec![o])));
        }
        let (Some(i), Some((id, no, hand))) = (result, before) else {
            self.notes(shown);
            self.set_buttons();
            return;
        };
        let rest = shown.split_off(i + 1);
        self.notes(shown);
        let next = self.live && self.view.as_ref().is_some_and(|v| v.picture.deal_no > no);
        let picture = match self.view.as_ref().and_then(|v| v.ended.clone()) {
            Some(p) if p.deal_no == no => Some(p),
            _ => rt.block_on(ended_picture(session, id, no)),
        };
        if let Some(picture) = picture.filter(|_| next || !self.live) {
            let played: Vec<Card> = picture
                .trick
                .iter()
                .chain(picture.last_trick.iter().flat_map(|t| &t.cards))
                .map(|(_, c)| *c)
                .collect();
            let hand = hand.into_iter().filter(|c| !played.contains(c)).collect();
            self.end = Some(Ended { picture, hand, next });
        }
        if self.holding() && self.mode == Mode::Playing {
            self.anchor = Some(self.log.len() - 1);
            self.held = rest;
            self.status = "The deal is over. Press Enter for the next one.".into();
        } else if !self.live && self.end.is_some() {
            // The game's end: its last result stays in sight from its first line, above the
            // messages after it (the game's end, the totals, where the record is); End or
            // PgDn shows them all.
            let a = self.log.len() - 1;
            self.notes(rest);
            self.anchor = Some(a);
        } else {
            self.notes(rest);
        }
        self.set_buttons();
    }

    /// Shows messages in the message pane: the newest in sight (a result kept in sight from
    /// its first line is let go).
    fn notes(&mut self, shown: Vec<Shown>) {
        self.anchor = None;
        for s in shown {
            match s {
                Shown::Note(text) | Shown::Saved(text) => self.log.push(text),
                // The table and your hand are drawn from the view.
                Shown::Table(_) | Shown::Hand(..) => {}
            }
        }
    }

    /// Your buttons now: none while a deal's end is held, once the table is no longer
    /// running, or while the screen asks something else.
    fn set_buttons(&mut self) {
        let buttons = match &self.view {
            Some(v) if self.live && self.mode == Mode::Playing && self.end.is_none() => presses(v),
            _ => Vec::new(),
        };
        if buttons != self.buttons {
            self.selected = 0;
        }
        self.buttons = buttons;
    }

    /// Shows what was held back (Enter after a deal's end): the next deal.
    fn release(&mut self) {
        if !self.holding() {
            return;
        }
        self.end = None;
        self.anchor = None;
        let held = std::mem::take(&mut self.held);
        self.notes(held);
        self.set_buttons();
    }

    /// Reads the table, the score sheet and whether the table still runs.
    fn refresh(&mut self, rt: &tokio::runtime::Runtime, session: &Session) {
        self.sheet = rt.block_on(session.sheet());
        let open = rt.block_on(session.table_id());
        let running = open.is_some();
        self.last_table = open.or(self.last_table);
        self.carried = match self.last_table {
            Some(id) => rt.block_on(session.carried(id)),
            None => Vec::new(),
        };
        self.title = rt.block_on(session.rules_title());
        let view = open.and_then(|id| {
            rt.block_on(session.host.table_view(id, Some(session.me.id.as_str())))
                .ok()
                .flatten()
        });
        // The host gives no view of a table that is no longer open (stopped, or ended).
        self.live = view.is_some();
        if view.is_some() {
            self.view = view;
        }
        if !running && self.mode != Mode::Stopped {
            self.mode = Mode::Over;
        }
    }

    fn valid_keys(&self) -> String {
        match self.mode {
            Mode::Playing if self.holding() => {
                "Type Enter (the next deal), r (save the record), s (stop the table), q (quit).".into()
            }
            Mode::Playing => {
                let numbers = match self.buttons.len() {
                    0 => String::new(),
                    1 => "1, Enter, or ".to_string(),
                    n => format!("1-{n}, ←/→ and Enter, or "),
                };
                format!("Type {numbers}r (save the record), s (stop the table), q (quit).")
            }
            Mode::ConfirmStop => "Type y to stop the table, n to go on.".into(),
            Mode::Stopped => format!(
                "Type c (close the score sheet), n (new table), {}or q (quit).",
                self.r_key("r (save the record), ")
            ),
            Mode::Over => format!(
                "Type n (new game), {}or q (quit).",
                self.r_key("r (save the record), ")
            ),
        }
    }

    /// `text` when `r` has a record to save: no table is open and none was played since the
    /// program started, `r` has none.
    fn r_key(&self, text: &'static str) -> &'static str {
        if self.mode == Mode::Playing || self.last_table.is_some() {
            text
        } else {
            ""
        }
    }

    fn key(&mut self, k: KeyEvent) -> Act {
        let ctrl = k.modifiers.contains(KeyModifiers::CONTROL);
        if ctrl && matches!(k.code, KeyCode::Char('c') | KeyCode::Char('d')) {
            return Act::Quit;
        }
        self.status.clear();
        // PgUp and PgDn scroll the messages; End or any other key goes back to the newest.
        let (most, page, back) = self.log_rows.get();
        let page = page.saturating_sub(1).max(1);
        match k.code {
            KeyCode::PageUp => {
                self.anchor = None;
                self.back = (back + page).min(most);
                return Act::Nothing;
            }
            KeyCode::PageDown => {
                self.anchor = None;
                self.back = back.saturating_sub(page);
                return Act::Nothing;
            }
            KeyCode::End => {
                self.anchor = None;
                self.back = 0;
                return Act::Nothing;
            }
            _ => self.back = 0,
        }
        if self.mode == Mode::ConfirmStop {
            return match k.code {
                KeyCode::Char('y') | KeyCode::Char('Y') => Act::Host(Command::Stop),
                _ => {
                    self.mode = Mode::Playing;
                    self.status = "The game goes on.".into();
                    Act::Nothing
                }
            };
        }
        match (k.code, self.mode) {
            (KeyCode::Char('q'), _) => Act::Quit,
            (KeyCode::Enter | KeyCode::Char(' '), Mode::Playing) if self.holding() => {
                self.release();
                Act::Nothing
            }
            (KeyCode::Char('r' | 's'), _) | (_, Mode::Stopped | Mode::Over) => self.act(k),
            _ if self.holding() => {
                self.status = self.valid_keys();
                Act::Nothing
            }
            _ => self.act(k),
        }
    }

    /// What a key does (on no held deal).
    fn act(&mut self, k: KeyEvent) -> Act {
        match (k.code, self.mode) {
            (KeyCode::Char('r'), Mode::Playing) => Act::SaveOpenRecord,
            // No table is open: the last one's record, if one was played here.
            (KeyCode::Char('r'), _) => match self.last_table {
                Some(id) => Act::SaveRecord(id),
                None => {
                    self.status = NO_RECORD.into();
                    Act::Nothing
                }
            },
            (KeyCode::Char('s'), Mode::Playing) => {
                self.mode = Mode::ConfirmStop;
                Act::Nothing
            }
            (KeyCode::Char('c'), Mode::Stopped) => {
                self.mode = Mode::Over;
                Act::Host(Command::CloseSheet)
            }
            (KeyCode::Char('n'), Mode::Stopped | Mode::Over) => Act::NewTable,
            (KeyCode::Left | KeyCode::Up, Mode::Playing) if !self.buttons.is_empty() => {
                self.typed.clear();
                self.selected = self.selected.checked_sub(1).unwrap_or(self.buttons.len() - 1);
                Act::Nothing
            }
            (KeyCode::Right | KeyCode::Down | KeyCode::Tab, Mode::Playing) if !self.buttons.is_empty() => {
                self.typed.clear();
                self.selected = (self.selected + 1) % self.buttons.len();
                Act::Nothing
            }
            (KeyCode::Backspace, Mode::Playing) => {
                self.typed.pop();
                Act::Nothing
            }
            (KeyCode::Enter, Mode::Playing) if !self.buttons.is_empty() => {
                let n = if self.typed.is_empty() {
                    self.selected + 1
                } else {
                    self.typed.parse().unwrap_or(0)
                };
                self.typed.clear();
                self.press(n)
            }
            (KeyCode::Char(d), Mode::Playing) if d.is_ascii_digit() && !self.buttons.is_empty() => {
                self.typed.push(d);
                let n: usize = self.typed.parse().unwrap_or(0);
                if n == 0 || n > self.buttons.len() {
                    self.typed.clear();
                    self.status = self.valid_keys();
                    Act::Nothing
                } else if n * 10 > self.buttons.len() {
                    // No longer number starts with these digits: press at once.
                    self.typed.clear();
                    self.press(n)
                } else {
                    self.status = format!("{n}… (Enter, or another digit)");
                    Act::Nothing
                }
            }
            _ => {
                self.typed.clear();
                self.status = self.valid_keys();
                Act::Nothing
            }
        }
    }

    /// Presses button `n` (from 1).
    fn press(&mut self, n: usize) -> Act {
        match self.buttons.get(n.wrapping_sub(1)) {
            Some(b) => Act::Host(Command::press(b.token.clone())),
            None => {
                self.status = self.valid_keys();
                Act::Nothing
            }
        }
    }

    fn footer(&self) -> String {
        let trump = " · * trump";
        let keys = match self.mode {
            Mode::Playing if self.holding() => {
                "Enter next deal · r save the record · s stop the table · q quit".into()
            }
            Mode::Playing if self.buttons.is_empty() => {
                format!("r save the record · s stop the table · q quit{trump}")
            }
            Mode::Playing => format!(
                "←/→ choose · Enter press · 1-{} · r save the record · s stop the table · q quit{trump}",
                self.buttons.len()
            ),
            Mode::ConfirmStop => return format!("{STOP_QUESTION} y / n"),
            Mode::Stopped => format!(
                "{} c close the score sheet (settling open pules) · n new table · {}q quit",
                if self.last_table.is_some() {
                    "The table is stopped."
                } else {
                    "The score sheet is open."
                },
                self.r_key("r save the record · ")
            ),
            Mode::Over => format!(
                "No table is open. n new game · {}q quit",
                self.r_key("r save the record · ")
            ),
        };
        format!("{keys} · PgUp/PgDn messages")
    }

    /// The picture the table pane draws (a deal's end while it is shown), and whether
    /// somebody's turn may be shown on it (the table runs, and it is not a deal's end).
    fn picture(&self) -> Option<(&Picture, bool)> {
        match (&self.end, &self.view) {
            (Some(e), _) => Some((&e.picture, false)),
            (None, Some(v)) => Some((&v.picture, self.live && self.mode != Mode::Stopped)),
            (None, None) => None,
        }
    }

    fn draw(&self, f: &mut Frame) {
        let area = f.area();
        let (sheet_lines, sheet_keep, sheet_width) = self.sheet_pane();
        let [table_w, sheet_w] = split_top(area.width, sheet_width);
        let items = self.table_items(table_w.saturating_sub(2) as usize);
        // The footer may wrap onto a second row on a narrow screen.
        let footer_rows = wrapped_rows(&[Line::from(self.footer())], area.width).min(2) as u16;
        // The table as tall as it needs, but never less than its essential lines (the
        // trumps, the trick and the turn) and all the sheet's totals; the hand as tall as it
        // needs (every button in sight); the messages the rest, but never fewer than a few
        // rows.
        let inner = table_w.saturating_sub(2);
        let (table_least, table_all) = item_rows(&items, inner);
        let sheet_inner = sheet_w.saturating_sub(2);
        let sheet_all = wrapped_rows(&sheet_lines, sheet_inner);
        let sheet_least = wrapped_rows(&sheet_lines[..sheet_keep], sheet_inner);
        let top_least = table_least.max(sheet_least).max(1) + 2;
        let top_all = table_all.max(sheet_all).max(5) + 2;
        let hand_lines = self.hand_lines(area.width.saturating_sub(2));
        let hand_need = wrapped_rows(&hand_lines, area.width.saturating_sub(2)) + 2;
        let cap = |n: usize| n.min(u16::MAX as usize) as u16;
        let (top_rows, hand_rows) = heights(
            area.height.saturating_sub(1 + footer_rows),
            cap(top_least),
            cap(top_all),
            cap(hand_need),
        );
        let [top, hand, log, status, footer] = Layout::vertical([
            Constraint::Length(top_rows),
            Constraint::Length(hand_rows),
            Constraint::Fill(1),
            Constraint::Length(1),
            Constraint::Length(footer_rows),
        ])
        .areas(area);
        let [table, sheet] =
            Layout::horizontal([Constraint::Length(table_w), Constraint::Length(sheet_w)]).areas(top);
        let (lines, hidden) = fit(items, inner, table.height.saturating_sub(2) as usize);
        let mut block = Block::bordered().title(format!(" Table · {} ", self.title));
        if hidden > 0 {
            block = block.title_bottom(hidden_sign(hidden, "a taller window shows all"));
        }
        f.render_widget(
            Paragraph::new(lines).block(block).wrap(Wrap { trim: false }),
            table,
        );
        let mut block = Block::bordered().title(" Score sheet ");
        let sheet_cut = sheet_all.saturating_sub(sheet.height.saturating_sub(2) as usize);
        if sheet_cut > 0 {
            block = block.title_bottom(hidden_sign(sheet_cut, "more"));
        }
        f.render_widget(
            Paragraph::new(sheet_lines)
                .block(block)
                .wrap(Wrap { trim: false }),
            sheet,
        );
        // Too little room for the whole hand: its end (the buttons) stays in sight, and the
        // frame says what is hidden above.
        let hidden = hand_need.saturating_sub(hand.height as usize);
        let mut block = Block::bordered().title(" Your hand ");
        if hidden > 0 {
            block = block.title_bottom(hidden_sign(hidden, "above"));
        }
        f.render_widget(
            Paragraph::new(hand_lines)
                .block(block)
                .wrap(Wrap { trim: false })
                .scroll((hidden.min(u16::MAX as usize) as u16, 0)),
            hand,
        );
        let plain =
            |text: &str| -> Vec<Line<'static>> { text.lines().map(|l| Line::from(l.to_string())).collect() };
        let log_lines: Vec<Line> = self.log.iter().flat_map(|n| plain(n)).collect();
        // The newest line at the bottom, unless PgUp scrolled back.
        let inner = log.height.saturating_sub(2) as usize;
        let width = log.width.saturating_sub(2);
        let most = wrapped_rows(&log_lines, width).saturating_sub(inner);
        let back = match self.anchor {
            // A deal's end: its result from the first line.
            Some(a) if self.back == 0 => {
                let before: Vec<Line> = self.log[..a].iter().flat_map(|n| plain(n)).collect();
                most - wrapped_rows(&before, width).min(most)
            }
            _ => self.back.min(most),
        };
        self.log_rows.set((most, inner, back));
        let skip = most - back;
        let title = if back > 0 {
            " Messages (older; PgDn newer, End newest) ".to_string()
        } else {
            " Messages ".to_string()
        };
        f.render_widget(
            Paragraph::new(log_lines)
                .block(Block::bordered().title(title))
                .wrap(Wrap { trim: false })
                .scroll((skip.min(u16::MAX as usize) as u16, 0)),
            log,
        );
        f.render_widget(
            Paragraph::new(self.status.as_str()).style(Style::new().fg(Color::Yellow)),
            status,
        );
        f.render_widget(
            Paragraph::new(self.footer())
                .style(Style::new().add_modifier(Modifier::REVERSED))
                .wrap(Wrap { trim: true }),
            footer,
        );
    }

    /// The table pane's lines, each with how much it is needed (`Item::keep`): the deal, the
    /// bidding, the contract and trumps, the exchange, the trick, the last trick and who
    /// took it, the tricks taken, and whose turn it is. `width`: the pane's inside.
    fn table_items(&self, width: usize) -> Vec<Item> {
        let (Some((p, live)), Some(v)) = (self.picture(), &self.view) else {
            return vec![Item::text(0, "No table is open.")];
        };
        let name = |s: Seat| stikis_host::games::name(&v.names, s);
        let say = |w: &stikis_host::picture::Word| v.say(w);
        if p.phase == Phase::Waiting {
            return vec![Item::text(0, "The first deal has not been dealt yet.")];
        }
        let bidding = p.phase == Phase::Bidding;
        let done = p.phase == Phase::Done;
        let mut items = Vec::new();
        let mut head = format!("Deal {}", p.deal_no);
        if let Some(d) = p.dealer {
            head.push_str(&format!(" · dealer {}", name(d)));
        }
        if !p.sitting_out.is_empty() {
            let out: Vec<String> = p.sitting_out.iter().map(|&s| name(s)).collect();
            head.push_str(&format!(" · sitting out: {}", out.join(", ")));
        }
        if done {
            head.push_str(" · over");
        }
        items.push(Item::text(0, head));
        if !p.teams.is_empty() {
            let teams: Vec<String> = p
                .teams
                .iter()
                .map(|t| t.iter().map(|&s| name(s)).collect::<Vec<_>>().join(" & "))
                .collect();
            items.push(Item::text(4, format!("Teams: {}", teams.join(" · "))));
        }
        if !p.ranks.is_empty() {
            let ranks: Vec<String> = p
                .ranks
                .iter()
                .map(|(w, s)| format!("{} {}", say(w), name(*s)))
                .collect();
            items.push(Item::text(3, format!("Ranks: {}", ranks.join(" · "))));
        }
        for (w, _) in &p.face_up {
            items.push(Item::text(if bidding { 1 } else { 3 }, say(w)));
        }
        if !p.bids.is_empty() {
            let bids: Vec<String> = p
                .bids
                .iter()
                .map(|(s, w)| format!("{} {}", name(*s), say(w)))
                .collect();
            let keep = if bidding { 1 } else { 4 };
            items.push(Item::text(keep, format!("Bids: {}", bids.join(", "))));
        }
        let mut trumps = format!("Trumps: {}", trumps_words(p));
        if let Some(c) = &p.contract {
            trumps.push_str(&format!(" · Contract: {}", say(c)));
            if let Some(d) = p.declarer {
                trumps.push_str(&format!(", {}", name(d)));
            }
        }
        items.push(Item::text(0, trumps));
        let announced = p.said_by_seat();
        if !announced.is_empty() {
            let said: Vec<String> = announced
                .iter()
                .map(|(s, w)| format!("{} {}", name(*s), say(w)))
                .collect();
            items.push(Item::text(2, format!("Announced: {}", said.join(", "))));
        }
        if !p.exchange.is_empty() {
            let keep = if p.phase == Phase::Exchange { 1 } else { 3 };
            let steps: Vec<String> = p.exchange.iter().map(say).collect();
            items.push(Item::text(keep, steps.join(" · ")));
        }
        if let Some(n) = p.trick_no {
            let plays = plays(&p.trick, p.trumps, &name);
            let plays = if plays.is_empty() {
                vec![vec![Span::raw("—")]]
            } else {
                plays
            };
            items.push(Item {
                keep: 0,
                lines: packed(format!("Trick {n}: "), plays, width),
            });
        }
        if let Some(t) = &p.last_trick {
            let head = match t.winner {
                Some(w) => format!("Last trick (taken by {}): ", name(w)),
                None => "Last trick: ".to_string(),
            };
            // Needed most while the next trick has no card yet, and at the deal's end.
            let keep = if done || p.trick.is_empty() { 0 } else { 1 };
            items.push(Item {
                keep,
                lines: packed(head, plays(&t.cards, p.trumps, &name), width),
            });
        }
        if !p.taken.is_empty() {
            let taken: Vec<String> = p.taken.iter().map(|(w, n)| format!("{} {n}", say(w))).collect();
            let keep = if done { 1 } else { 3 };
            items.push(Item::text(keep, format!("Tricks: {}", taken.join(" · "))));
        }
        if let Some(r) = &p.result {
            // How the deal ended and each column's change, needed at the deal's end.
            let mut units = Vec::new();
            if let Some(w) = &r.ended {
                let mut how = say(w);
                if let Some(d) = r.declarer {
                    how.push_str(&format!(", {}", name(d)));
                }
                match r.declarer_won {
                    Some(true) => how.push_str(" ✔"),
                    Some(false) => how.push_str(" ✘"),
                    None => {}
                }
                units.push(vec![Span::raw(how)]);
            }
            let columns: Vec<String> = match p.teams.is_empty() {
                true => (0..r.deltas.len() as Seat).map(name).collect(),
                false => p
                    .teams
                    .iter()
                    .map(|t| t.iter().map(|&s| name(s)).collect::<Vec<_>>().join(" & "))
                    .collect(),
            };
            for (c, d) in columns.iter().zip(&r.deltas) {
                let d = if *d > 0 { format!("+{d}") } else { d.to_string() };
                units.push(vec![Span::raw(format!("{c} {d}"))]);
            }
            items.push(Item {
                keep: 1,
                lines: packed("Result: ".to_string(), units, width),
            });
        }
        if let Some(w) = &p.standing {
            items.push(Item::text(4, say(w)));
        }
        if let Some(s) = p.to_act.filter(|_| live) {
            items.push(Item::text(0, format!("Turn: {}", name(s))));
        }
        items
    }

    /// The sheet pane's lines, how many of the first ones must be in sight (the totals),
    /// and the width they need.
    fn sheet_pane(&self) -> (Vec<Line<'static>>, usize, usize) {
        let Some(sheet) = &self.sheet else {
            let text = "No deal finished yet.";
            return (vec![Line::from(text)], 1, text.len());
        };
        let mut totals = sheet_totals(sheet, &self.carried);
        let keep = totals.len() - usize::from(totals.len() > sheet.totals.len() + 1);
        let width = totals[..keep]
            .iter()
            .map(|l| l.chars().count())
            .max()
            .unwrap_or(0);
        let lines = totals
            .drain(..)
            .map(Line::from)
            .chain(pules_lines(sheet))
            .collect();
        (lines, keep, width)
    }

    /// Your hand: your cards, what you know and are asked, and your buttons, laid out in rows
    /// of `width` columns (a button is never broken over two rows, so that every number the
    /// footer offers is in sight).
    fn hand_lines(&self, width: u16) -> Vec<Line<'static>> {
        let mut lines: Vec<Line> = Vec::new();
        let (Some((p, live)), Some(v)) = (self.picture(), &self.view) else {
            lines.push(Line::from("Your cards come when the deal starts."));
            return lines;
        };
        let trumps = p.trumps;
        let mine = v.mine.as_ref().filter(|_| self.end.is_none());
        let playing = self.buttons.iter().any(|b| b.card.is_some());
        let cards: Vec<(Card, bool)> = match &self.end {
            Some(e) => e.hand.iter().map(|&c| (c, false)).collect(),
            None => v.hand.iter().map(|h| (h.card, h.token.is_some())).collect(),
        };
        if p.phase == Phase::Waiting {
            lines.push(Line::from("Your cards come when the deal starts."));
        } else if mine.is_some_and(|m| m.sitting_out) {
            lines.push(Line::from("Your cards: none (you sit this deal out)"));
        } else {
            let mut spans = vec![Span::raw("Your cards:")];
            if cards.is_empty() {
                spans.push(Span::raw(" —"));
            }
            for (c, may) in cards {
                spans.push(Span::raw(" "));
                let look = match (playing && self.end.is_none(), may) {
                    (false, _) => Look::Plain,
                    (true, true) => Look::Bright,
                    (true, false) => Look::Dim,
                };
                spans.extend(card_spans(c, trumps, look));
            }
            lines.push(Line::from(spans));
        }
        // What only you know (the burial, your rank, the cards you gave and got), what you
        // are asked, and whether it is your turn: one paragraph.
        let mut said: Vec<String> = Vec::new();
        if let Some(m) = mine {
            said.extend(m.notes.iter().map(|w| v.say(w)));
            if live && m.to_act {
                said.extend(m.prompt.iter().map(|w| v.say(w)));
                said.push("Your turn.".into());
            }
        }
        if !said.is_empty() {
            lines.push(Line::from(said.join("  ")));
        }
        let mut row: Vec<Span> = Vec::new();
        let mut used = 0;
        for (i, b) in self.buttons.iter().enumerate() {
            let style = if i == self.selected {
                Style::new().add_modifier(Modifier::REVERSED | Modifier::BOLD)
            } else {
                Style::new()
            };
            let mut spans = vec![Span::styled(format!("[{}] ", i + 1), style)];
            match b.card {
                Some(c) => {
                    if b.unpick {
                        spans.push(Span::raw("✓"));
                    }
                    spans.extend(card_spans(c, trumps, Look::Plain));
                }
                None => spans.push(Span::raw(b.label.clone())),
            }
            for s in &mut spans[1..] {
                s.style = s.style.patch(style);
            }
            let w: usize = spans.iter().map(|s| s.width()).sum();
            if used > 0 && used + 2 + w > width as usize {
                lines.push(Line::from(std::mem::take(&mut row)));
                used = 0;
            }
            if used > 0 {
                row.push(Span::raw("  "));
                used += 2;
            }
            row.extend(spans);
            used += w;
        }
        if !row.is_empty() {
            lines.push(Line::from(row));
        }
        lines
    }
}

/// A line (or a few) of the table pane, and how much it is needed: 0 always shown (the
/// trumps, the trick, the turn); the higher, the sooner it gives way on a small screen.
struct Item {
    keep: u8,
    lines: Vec<Line<'static>>,
}

impl Item {
    fn text(keep: u8, text: impl Into<String>) -> Item {
        Item {
            keep,
            lines: vec![Line::from(text.into())],
        }
    }
}

/// The rows the items' lines take at `width`: (the essential ones', all of them).
fn item_rows(items: &[Item], width: u16) -> (usize, usize) {
    let rows = |i: &Item| wrapped_rows(&i.lines, width);
    let least = items.iter().filter(|i| i.keep == 0).map(rows).sum();
    (least, items.iter().map(rows).sum())
}

/// The items' lines that fit in `rows` rows at `width` (the least needed give way first, the
/// later of equals first), and how many rows are not shown.
fn fit(items: Vec<Item>, width: u16, rows: usize) -> (Vec<Line<'static>>, usize) {
    let sizes: Vec<usize> = items.iter().map(|i| wrapped_rows(&i.lines, width)).collect();
    let mut shown = vec![true; items.len()];
    let mut total: usize = sizes.iter().sum();
    let mut hidden = 0;
    while total > rows {
        let Some(j) = (0..items.len())
            .filter(|&j| shown[j] && items[j].keep > 0)
            .max_by_key(|&j| (items[j].keep, j))
        else {
            break;
        };
        shown[j] = false;
        total -= sizes[j];
        hidden += sizes[j];
    }
    // Even the essential lines do not fit: the pane cuts them, and says so.
    hidden += total.saturating_sub(rows);
    let lines = items
        .into_iter()
        .zip(shown)
        .filter(|(_, s)| *s)
        .flat_map(|(i, _)| i.lines)
        .collect();
    (lines, hidden)
}

/// The sign in a pane's frame that rows are not shown.
fn hidden_sign(rows: usize, why: &str) -> String {
    let s = if rows == 1 { "" } else { "s" };
    format!(" … {rows} row{s} hidden ({why}) ")
}

/// The plays of a trick, each its player's name and the card.
fn plays(cards: &[(Seat, Card)], trumps: CardSet, name: &dyn Fn(Seat) -> String) -> Vec<Vec<Span<'static>>> {
    cards
        .iter()
        .map(|&(s, c)| {
            let mut spans = vec![Span::raw(format!("{} ", name(s)))];
            spans.extend(card_spans(c, trumps, Look::Plain));
            spans
        })
        .collect()
}

/// `head` and then `units` separated by " · ", in rows of `width` columns, a unit never
/// broken over two rows; the rows after the first start with two spaces.
fn packed(head: String, units: Vec<Vec<Span<'static>>>, width: usize) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    let mut used = head.chars().count();
    let mut row = vec![Span::raw(head)];
    let mut first = true;
    for unit in units {
        let w: usize = unit.iter().map(|s| s.width()).sum();
        if !first && used + 3 + w > width {
            lines.push(Line::from(std::mem::take(&mut row)));
            row.push(Span::raw("  "));
            used = 2;
        } else if !first {
            row.push(Span::raw(" · "));
            used += 3;
        }
        row.extend(unit);
        used += w;
        first = false;
    }
    lines.push(Line::from(row));
    lines
}

/// How a card is drawn.
#[derive(Clone, Copy, PartialEq)]
enum Look {
    Plain,
    /// One you may play now.
    Bright,
    /// One you may not play now.
    Dim,
}

/// A card coloured by suit, and `*` after it when it is a trump.
fn card_spans(c: Card, trumps: CardSet, look: Look) -> Vec<Span<'static>> {
    let red = matches!(c.suit(), Some(Suit::Hearts | Suit::Diamonds));
    let mut style = Style::new().fg(if red { Color::LightRed } else { Color::Reset });
    match look {
        Look::Plain => {}
        Look::Bright => style = style.add_modifier(Modifier::BOLD),
        Look::Dim => style = style.fg(Color::DarkGray),
    }
    let mut spans = vec![Span::styled(stikis_host::games::zole::card_label(c), style)];
    if trumps.contains(c) {
        spans.push(Span::styled("*", Style::new().fg(Color::Yellow)));
    }
    spans
}

fn suit_symbol(s: Suit) -> char {
    match s {
        Suit::Clubs => '♣',
        Suit::Diamonds => '♦',
        Suit::Hearts => '♥',
        Suit::Spades => '♠',
    }
}

/// The trumps of a picture in words: the suits whose ace is a trump, after the ranks that
/// are trumps in every other suit ("Q, J, ♦" in Zole, "♥", "all"), "none" once a contract
/// without trumps is made, else "not named yet".
fn trumps_words(p: &Picture) -> String {
    let t = p.trumps;
    if t.is_empty() {
        return if p.contract.is_some() {
            "none"
        } else {
            "not named yet"
        }
        .into();
    }
    let suits: Vec<Suit> = [Suit::Spades, Suit::Hearts, Suit::Diamonds, Suit::Clubs]
        .into_iter()
        .filter(|&s| t.contains(Card::new(Rank::Ace, s)))
        .collect();
    if suits.len() == 4 {
        return "all".into();
    }
    let others: Vec<Suit> = Suit::ALL.into_iter().filter(|s| !suits.contains(s)).collect();
    let mut words: Vec<String> = Rank::ALL
        .iter()
        .rev()
        .filter(|&&r| others.iter().all(|&s| t.contains(Card::new(r, s))))
        .map(|r| r.symbol().to_string())
        .collect();
    words.extend(suits.iter().map(|&s| suit_symbol(s).to_string()));
    if words.is_empty() {
        // No rule of a game says this; the cards, then.
        words = t.iter().map(stikis_host::games::zole::card_label).collect();
    }
    words.join(", ")
}

/// The sheet's totals, a row per player. When the table went on from a sheet (`n` after a
/// stop), the sheet's totals are no longer the table's own "Totals" (which, like its record,
/// start at 0): then each row shows both, the table's first, and says which is which.
fn sheet_totals(sheet: &ScoreSheetRow, carried: &[SheetTotal]) -> Vec<String> {
    let width = sheet
        .totals
        .iter()
        .map(|t| t.name.chars().count())
        .max()
        .unwrap_or(0);
    let before = |key: &str| carried.iter().find(|c| c.player == key).map_or(0, |c| c.points);
    if carried.iter().all(|c| c.points == 0) {
        return sheet
            .totals
            .iter()
            .map(|t| format!("{:<width$}  {:>+5}", t.name, t.points))
            .collect();
    }
    let mut lines = vec![format!("{:<width$}  {:>5}  {:>5}", "", "table", "sheet")];
    lines.extend(sheet.totals.iter().map(|t| {
        format!(
            "{:<width$}  {:>+5}  {:>+5}",
            t.name,
            t.points - before(&t.player),
            t.points
        )
    }));
    lines.push("table: this table's Totals; sheet: with the tables before it".into());
    lines
}

/// The open pules of a Zole sheet, after a blank line.
fn pules_lines(sheet: &ScoreSheetRow) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    let p = &sheet.pules;
    let name_of = |key: &str| {
        sheet
            .totals
            .iter()
            .find(|t| t.player == key)
            .map(|t| t.name.clone())
            .unwrap_or_else(|| key.to_string())
    };
    if let Some(common) = p.get("common").and_then(|v| v.as_u64()) {
        let mut open = vec![format!("{common} common")];
        if let Some(tree) = p.get("tree").and_then(|v| v.as_u64()).filter(|&t| t > 0) {
            open.push(format!("{tree} on the tree"));
        }
        let personal: Vec<String> = p
            .get("personal")
            .and_then(|v| v.as_array())
            .map(|a| a.iter().filter_map(|k| k.as_str()).map(name_of).collect())
            .unwrap_or_default();
        if !personal.is_empty() {
            open.push(format!("personal: {}", personal.join(", ")));
        }
        lines.push(Line::from(""));
        lines.push(Line::from(format!("Open pules: {}", open.join("; "))));
    }
    lines
}

/// The widths of the table pane and the score-sheet pane side by side: the sheet as wide
/// as its totals need (`need` columns inside), at least 20 and at most about a third, the
/// table the rest.
fn split_top(width: u16, need: usize) -> [u16; 2] {
    let most = (width as u32 * 36 / 100) as u16;
    let sheet = (need.min(u16::MAX as usize - 4) as u16 + 4)
        .max(20)
        .min(most.max(20))
        .min(width);
    [width - sheet, sheet]
}

/// The fewest rows the message pane keeps (borders included).
const LOG_MIN: u16 = 5;

/// The heights of the table pane and the hand pane in `rows` (the message pane gets the
/// rest, never fewer than `LOG_MIN` while there is room): the table's essential rows
/// (`top_least`) first, then the hand as tall as it needs, then the rest of the table.
fn heights(rows: u16, top_least: u16, top_all: u16, hand_need: u16) -> (u16, u16) {
    let free = rows.saturating_sub(LOG_MIN);
    let top = top_least.min(free);
    let hand = hand_need.min(free - top);
    let top = top_all.max(top).min(free - hand);
    (top, hand)
}

/// How many screen rows lines take when wrapped at `width`, as a wrapping `Paragraph`
/// draws them.
fn wrapped_rows(lines: &[Line], width: u16) -> usize {
    Paragraph::new(lines.to_vec())
        .wrap(Wrap { trim: false })
        .line_count(width.max(1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use stikis_core::cards::card;

    fn text(line: &Line) -> String {
        line.spans.iter().map(|s| s.content.as_ref()).collect()
    }

    #[test]
    fn cards_are_coloured_and_trumps_marked() {
        let zole = stikis_core::cards::cards("QC JS 7D AD");
        let s = card_spans(card("10H"), zole, Look::Plain);
        assert_eq!(s[0].content, "10♥");
        assert_eq!(s[0].style.fg, Some(Color::LightRed));
        assert_eq!(s.len(), 1);
        let s = card_spans(card("QC"), zole, Look::Dim);
        assert_eq!(text(&Line::from(s.clone())), "Q♣*");
        assert_eq!(s[0].style.fg, Some(Color::DarkGray));
    }

    fn picture(trumps: CardSet, contract: bool) -> Picture {
        let mut p = Picture::waiting("x", 3);
        p.trumps = trumps;
        p.contract = contract.then(|| stikis_host::picture::Word::Plain("c".into()));
        p
    }

    #[test]
    fn trumps_are_said_from_the_set() {
        use stikis_core::cards::{suit_mask, ZOLE_DECK};
        let zole = ZOLE_DECK.intersect(
            suit_mask(Suit::Diamonds).union(stikis_core::cards::ranks_mask(&[Rank::Queen, Rank::Jack])),
        );
        assert_eq!(trumps_words(&picture(zole, false)), "Q, J, ♦");
        let hearts = stikis_core::cards::PIQUET_PACK.intersect(suit_mask(Suit::Hearts));
        assert_eq!(trumps_words(&picture(hearts, true)), "♥");
        assert_eq!(
            trumps_words(&picture(stikis_core::cards::PIQUET_PACK, true)),
            "all"
        );
        assert_eq!(trumps_words(&picture(CardSet::EMPTY, true)), "none");
        assert_eq!(trumps_words(&picture(CardSet::EMPTY, false)), "not named yet");
    }

    #[test]
    fn a_trick_is_packed_in_rows_without_breaking_a_play() {
        let name = |s: Seat| format!("Computer {s}");
        let trick: Vec<(Seat, Card)> = (0..7).map(|s| (s, card("10H"))).collect();
        let lines = packed("Trick 3: ".into(), plays(&trick, CardSet::EMPTY, &name), 40);
        let rows: Vec<String> = lines.iter().map(text).collect();
        assert_eq!(rows[0], "Trick 3: Computer 0 10♥ · Computer 1 10♥");
        assert!(rows[1..].iter().all(|r| r.starts_with("  Computer ")), "{rows:?}");
        assert!(rows.iter().all(|r| r.chars().count() <= 40), "{rows:?}");
        assert_eq!(rows.join(" ").matches("10♥").count(), 7);
    }

    #[test]
    fn the_least_needed_lines_give_way_and_the_sign_counts_them() {
        let items = || {
            vec![
                Item::text(0, "Deal 1"),
                Item::text(4, "Bids: …"),
                Item::text(0, "Trumps: ♥"),
                Item::text(1, "Last trick"),
                Item::text(0, "Turn: You"),
            ]
        };
        let (lines, hidden) = fit(items(), 40, 5);
        assert_eq!((lines.len(), hidden), (5, 0));
        let (lines, hidden) = fit(items(), 40, 4);
        let rows: Vec<String> = lines.iter().map(text).collect();
        assert_eq!(rows, ["Deal 1", "Trumps: ♥", "Last trick", "Turn: You"]);
        assert_eq!(hidden, 1);
        let (lines, hidden) = fit(items(), 40, 2);
        assert_eq!((lines.len(), hidden), (3, 3));
        assert_eq!(item_rows(&items(), 40), (3, 5));
    }

    #[test]
    fn the_table_keeps_its_essentials_then_the_hand_grows_then_the_table() {
        // Room for all: each pane as tall as it needs, the messages the rest.
        assert_eq!(heights(38, 5, 9, 8), (9, 8));
        // The hand takes the messages' rows down to their least.
        assert_eq!(heights(22, 5, 9, 8), (9, 8));
        assert_eq!(heights(22, 5, 9, 10), (7, 10));
        // The table's essential rows stay; the hand gets what remains.
        assert_eq!(heights(22, 9, 12, 20), (9, 22 - LOG_MIN - 9));
        assert_eq!(heights(3, 5, 9, 8), (0, 0));
        // The sheet is as wide as its totals, at least 20, at most about a third.
        assert_eq!(split_top(80, 10), [60, 20]);
        assert_eq!(split_top(80, 40), [52, 28]);
        assert_eq!(split_top(160, 20), [136, 24]);
    }

    #[test]
    fn a_sheet_gone_on_from_shows_the_tables_totals_beside_the_sheets() {
        use stikis_host::store::{ChatRef, Platform};
        let total = |player: &str, points| SheetTotal {
            player: player.into(),
            name: player.into(),
            points,
        };
        let sheet = ScoreSheetRow {
            id: 1,
            chat: ChatRef::new(Platform::Local, "terminal", "terminal"),
            game: "zole".into(),
            totals: vec![total("You", 10), total("Ann", -10)],
            pules: serde_json::Value::Null,
            created_ms: 0,
            updated_ms: 0,
            closed_ms: None,
        };
        // A fresh sheet: the table's totals are the sheet's, one column.
        assert_eq!(sheet_totals(&sheet, &[]), ["You    +10", "Ann    -10"]);
        assert_eq!(sheet_totals(&sheet, &[total("You", 0)]).len(), 2);
        // Gone on from a sheet with You +6, Ann -6: the table's own +4 and -4 first.
        let lines = sheet_totals(&sheet, &[total("You", 6), total("Ann", -6)]);
        assert_eq!(
            lines[..3],
            ["     table  sheet", "You     +4    +10", "Ann     -4    -10"]
        );
        assert!(lines[3].starts_with("table: this table's Totals"));
    }

    /// The text of a terminal's screen, row by row.
    fn screen_text(t: &ratatui::Terminal<ratatui::backend::TestBackend>) -> String {
        let buf = t.backend().buffer();
        let area = buf.area;
        (0..area.height)
            .map(|y| (0..area.width).map(|x| buf[(x, y)].symbol()).collect::<String>())
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// A page's HTML with maud's escapes read back.
    fn unescaped(html: &str) -> String {
        html.replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&quot;", "\"")
            .replace("&#39;", "'")
            .replace("&amp;", "&")
    }

    /// One game at an 80×24 terminal, the chat's table message and the live page, all drawn
    /// from the table's one picture: at a decision in the play with cards on the trick, the
    /// contract (or the trumps named), every card of the trick with its player, and whose
    /// turn it is are in all three; at the deal's end, its result is in all three. Returns
    /// how many moments were compared.
    fn same_table_everywhere(game: &str) -> usize {
        use clap::Parser;
        use stikis_host::i18n::{t, Lang};
        use stikis_host::picture::{card_label, Word};
        #[derive(clap::Parser)]
        struct T {
            #[command(flatten)]
            a: PlayArgs,
        }
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("t.db");
        let line = format!("{game} --db {}", db.display());
        let args = T::try_parse_from(std::iter::once("play").chain(line.split_whitespace()))
            .unwrap()
            .a;
        // Seeded deals (the computer players draw from the deal's seed): said, so that a
        // failure can be replayed with STIKIS_TEST_SEED.
        let seed: u64 = std::env::var("STIKIS_TEST_SEED")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(rand::random);
        eprintln!("{game}: STIKIS_TEST_SEED={seed}");
        let config = stikis_host::HostConfig {
            seeds: std::sync::Arc::new(move |table, deal| {
                stikis_core::Seed::from_u64(seed ^ ((table as u64) << 16 | deal as u64))
            }),
            ..Default::default()
        };
        let rt = tokio::runtime::Runtime::new().unwrap();
        let session = rt
            .block_on(Session::open(crate::play::parse(&args).unwrap(), config))
            .unwrap();
        let (out, notes) = rt.block_on(session.begin(&args)).unwrap();
        let mut screen = Screen::new(notes);
        screen.take(&rt, &session, out);
        let mut terminal = ratatui::Terminal::new(ratatui::backend::TestBackend::new(80, 24)).unwrap();
        // A live page of your seat, as the web adapter's feed keeps it: the views pushed with
        // each change (the last one drawn as the table was left).
        let table = screen.view.as_ref().expect("a table").table;
        let mut page_of = session.host.follow(table);
        page_of.draws(Some(session.me.id.as_str()), Lang::En);
        let mut changes = session.host.changes();
        let mut pushed: Option<TableView> = None;
        let (mut mid, mut ended) = (0, 0);
        // The chat's result of each deal, as it was posted.
        let mut results: Vec<String> = Vec::new();
        for _ in 0..400 {
            if mid > 0 && ended > 0 {
                break;
            }
            terminal.draw(|f| screen.draw(f)).unwrap();
            let term = screen_text(&terminal);
            while let Ok(c) = changes.try_recv() {
                if let Some(v) = c
                    .drawn
                    .as_ref()
                    .and_then(|d| d.view(Some(&session.me.id), Lang::En))
                {
                    pushed = Some(v.clone());
                }
            }
            let v = screen.view.as_ref().expect("a table");
            let p = &v.picture;
            let lang = Lang::En;
            let say = |w: &Word| w.say(lang, &v.names);
            // Once the table is closed the host gives no view: the page keeps the last one pushed.
            let page_view = match &pushed {
                Some(p) if !screen.live => {
                    assert!(
                        !p.status.is_open() && p.to_act.is_none() && p.buttons.is_empty(),
                        "{game}: the page of the closed table offers a move: {p:?}"
                    );
                    p
                }
                _ => v,
            };
            let page = unescaped(&stikis_web::play::fragment(page_view).into_string());
            let chat = &v.public_text;
            if screen.end.is_none() && p.phase == Phase::Play && !p.trick.is_empty() {
                mid += 1;
                let named = p
                    .contract
                    .as_ref()
                    .or(p.trump_line.as_ref())
                    .map(say)
                    .unwrap_or_default();
                assert!(!named.is_empty(), "{game}: the play goes on with nothing named");
                for (surface, text) in [("chat", chat.as_str()), ("page", &page), ("terminal", &term)] {
                    assert!(
                        text.contains(&named),
                        "{game}: {surface} lacks {named:?}:\n{text}"
                    );
                    for (seat, c) in &p.trick {
                        let who = stikis_host::games::name(&v.names, *seat);
                        assert!(text.contains(&who), "{game}: {surface} lacks {who}:\n{text}");
                        let card = match surface {
                            "page" => format!("data-card=\"{c}\""),
                            _ => card_label(*c),
                        };
                        assert!(text.contains(&card), "{game}: {surface} lacks {card}:\n{text}");
                    }
                }
                // Computer players move at once: a settled table waits for you.
                assert_eq!(p.to_act, v.me, "{game}");
                let turn = p.lines.turn.expect("a turn line");
                let you = stikis_host::games::name(&v.names, v.me.unwrap());
                let said = t(lang, turn, &[("name", you.clone().into())]);
                assert!(chat.contains(&said), "{game}: the chat lacks {said:?}:\n{chat}");
                assert!(page.contains(&t(lang, "play-your-turn", &[])), "{game}: {page}");
                assert!(term.contains(&format!("Turn: {you}")), "{game}:\n{term}");
            }
            if let Some(end) = &screen.end {
                ended += 1;
                // How the deal ended, typed: what was played and each column's change, on
                // the terminal and on the page.
                let r = end.picture.result.as_ref().expect("the ended deal's result");
                let columns: Vec<String> = match end.picture.teams.is_empty() {
                    true => (0..r.deltas.len() as Seat)
                        .map(|s| stikis_host::games::name(&v.names, s))
                        .collect(),
                    false => end
                        .picture
                        .teams
                        .iter()
                        .map(|t| {
                            t.iter()
                                .map(|&s| stikis_host::games::name(&v.names, s))
                                .collect::<Vec<_>>()
                                .join(" & ")
                        })
                        .collect(),
                };
                assert!(
                    term.contains("Result: "),
                    "{game}: no result on the terminal:\n{term}"
                );
                if let Some(w) = &r.ended {
                    let how = say(w);
                    assert!(term.contains(&how), "{game}: the terminal lacks {how:?}:\n{term}");
                    assert!(page.contains(&how), "{game}: the page lacks {how:?}:\n{page}");
                }
                for ((c, d), total) in columns.iter().zip(&r.deltas).zip(&r.totals) {
                    let d = if *d > 0 { format!("+{d}") } else { d.to_string() };
                    let on_term = format!("{c} {d}");
                    assert!(
                        term.contains(&on_term),
                        "{game}: the terminal lacks {on_term:?}:\n{term}"
                    );
                    let on_page = format!("{c} <b>{d}</b> → {total}");
                    assert!(
                        page.contains(&on_page),
                        "{game}: the page lacks {on_page:?}:\n{page}"
                    );
                }
                let result = results.last().expect("the deal's result was posted");
                // Its first words, which fit a row of the terminal's message pane.
                let head: String = result.lines().next().unwrap().chars().take(40).collect();
                assert!(
                    term.contains(head.trim_end()),
                    "{game}: the terminal lacks {head:?}:\n{term}"
                );
                // The page has the result as the chat tells it (the seed's line aside).
                for line in result.lines().take(2) {
                    assert!(page.contains(line), "{game}: the page lacks {line:?}:\n{page}");
                }
                screen.release();
                continue;
            }
            let Some(b) = screen
                .buttons
                .iter()
                .find(|b| b.token.ends_with("b:take"))
                .or(screen.buttons.iter().find(|b| !b.unpick))
            else {
                panic!("{game}: nothing to press:\n{term}");
            };
            let out = rt.block_on(session.handle(Command::press(b.token.clone())));
            for o in &out.0 {
                if let Out::Post {
                    text, once: Some(k), ..
                } = o
                {
                    use stikis_host::msgkey::MsgKey;
                    if matches!(MsgKey::parse(k), Some(MsgKey::Result { .. })) {
                        results.push(text.clone());
                    }
                }
            }
            screen.take(&rt, &session, out);
        }
        assert!(mid > 0 && ended > 0, "{game}: mid-trick {mid}, deal ends {ended}");
        mid + ended
    }

    #[test]
    fn the_chat_the_page_and_the_terminal_draw_the_same_table_in_every_game() {
        for game in [
            "zole",
            "belote",
            "belote classic",
            "belote h2h",
            "belote coinche",
            // A game that ends with its first deal (a coinched capot can): its end is drawn
            // the same way.
            "belote coinche --target 1",
            "polt --players 5 --hands 2",
            "polt --players 7 --hands 2",
        ] {
            let n = same_table_everywhere(game);
            eprintln!("{game}: {n} moments compared");
        }
    }
}
