//! `stikis play` on a terminal: one screen redrawn in place (ratatui with crossterm). The table
//! pane shows the table message (seats, the trick being played with who played what, the last
//! trick and who took it), the score-sheet pane the chat's running totals and open pules, the
//! hand pane your cards (coloured by suit, trumps marked, the cards you may play bright and the
//! others dim) with the buttons (the pane grows to hold them all), and the message pane what
//! the table posted (newest at the bottom; PgUp and PgDn scroll back). Keys are in the footer.
//! A deal's end stays on the screen (its last trick and result) until you press Enter.
//! Pipes and tests get the line mode of `play.rs` instead.

use std::cell::Cell;
use std::collections::HashSet;

use ratatui::crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use ratatui::layout::{Constraint, Layout};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Wrap};
use ratatui::Frame;
use stikis_host::store::{ScoreSheetRow, SheetTotal};
use stikis_host::Command;

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

/// Everything the screen shows.
struct Screen {
    game: String,
    table: String,
    hand: String,
    buttons: Vec<(String, String)>,
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
    /// What came after a deal's end (the next deal's table, hand and notes), shown when
    /// you press Enter, so that the last trick and the result stay in sight until then.
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
    let mut screen = Screen {
        game: session.opts.game.clone(),
        table: String::new(),
        hand: String::new(),
        buttons: Vec::new(),
        selected: 0,
        typed: String::new(),
        log: notes,
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
    };
    screen.absorb(session.view(&out));
    screen.refresh(rt, session);
    if screen.mode == Mode::Over && screen.sheet.is_some() {
        // No table, but the last one's score sheet is open: c closes it, n goes on from it.
        screen.mode = Mode::Stopped;
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
                    screen.absorb(session.view(&out));
                    if stop {
                        screen.mode = Mode::Stopped;
                    }
                    screen.refresh(rt, session);
                }
                Act::SaveOpenRecord => {
                    let shown = rt.block_on(session.save_open_record());
                    screen.absorb(shown);
                }
                Act::SaveRecord(id) => {
                    let text = rt.block_on(session.save_record(id));
                    screen.log.push(text);
                }
                Act::NewTable => {
                    let out = rt.block_on(session.new_table())?;
                    screen.table.clear();
                    screen.hand.clear();
                    screen.buttons.clear();
                    screen.mode = Mode::Playing;
                    screen.absorb(session.view(&out));
                    screen.refresh(rt, session);
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

impl Screen {
    /// Takes in what an outbox shows.
    /// After a deal's result, what follows it (the next deal's notes, table and hand) is
    /// held back until Enter, so that the last trick and the result stay in sight; notes
    /// that come while something is held (a saved record's) are shown at once.
    fn absorb(&mut self, shown: Vec<Shown>) {
        let mut shown = shown.into_iter();
        while let Some(s) = shown.next() {
            if !self.held.is_empty() {
                match s {
                    Shown::Note(text) | Shown::Saved(text) => self.log.push(text),
                    other => self.held.push(other),
                }
                continue;
            }
            match s {
                Shown::Table(text) => self.table = text,
                Shown::Hand(text, buttons) => {
                    self.hand = text;
                    if buttons != self.buttons {
                        self.selected = 0;
                    }
                    self.buttons = buttons;
                }
                Shown::Note(text) => {
                    let result = text.starts_with(RESULT);
                    self.log.push(text);
                    let rest: Vec<Shown> = shown.by_ref().collect();
                    // A next deal follows (not on a resumed game's first screen, which
                    // shows no deal's end): hold it back.
                    let next = rest.iter().any(|s| matches!(s, Shown::Table(_)));
                    if result && next && !self.table.is_empty() {
                        self.held = rest;
                        self.anchor = Some(self.log.len() - 1);
                        self.buttons.clear();
                        self.status = "The deal is over. Press Enter for the next one.".into();
                        return;
                    }
                    shown = rest.into_iter();
                }
                Shown::Saved(text) => self.log.push(text),
            }
        }
    }

    /// Shows what was held back (Enter after a deal's end).
    fn release(&mut self) {
        let held = std::mem::take(&mut self.held);
        self.anchor = None;
        self.absorb(held);
    }

    /// Reads the score sheet and whether the table still runs.
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
        if !running && self.mode != Mode::Stopped {
            self.mode = Mode::Over;
            self.buttons.clear();
        }
        if self.mode != Mode::Playing {
            self.buttons.clear();
        }
    }

    fn valid_keys(&self) -> String {
        match self.mode {
            Mode::Playing if !self.held.is_empty() => {
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
            (KeyCode::Enter | KeyCode::Char(' '), Mode::Playing) if !self.held.is_empty() => {
                self.release();
                Act::Nothing
            }
            (KeyCode::Char('r' | 's'), _) | (_, Mode::Stopped | Mode::Over) => self.act(k),
            _ if !self.held.is_empty() => {
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
            Some((_, token)) => Act::Host(Command::Press { token: token.clone() }),
            None => {
                self.status = self.valid_keys();
                Act::Nothing
            }
        }
    }

    fn footer(&self) -> String {
        let trump = if self.game == "polt" || self.game.contains("belote") || self.game == "coinche" {
            " · * trump"
        } else {
            " · * trump (Q, J, ♦)"
        };
        let keys = match self.mode {
            Mode::Playing if !self.held.is_empty() => {
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

    fn draw(&self, f: &mut Frame) {
        let area = f.area();
        let [table_w, sheet_w] = split_top(area.width);
        let trumps = Trumps::of(&self.game, &self.table);
        let plain = |text: &str| -> Vec<Line<'static>> {
            text.lines().map(|l| cards_line(l, &trumps, None)).collect()
        };
        // The table and the sheet as tall as they need (wrapped), the hand as tall as it
        // needs (every button in sight), the messages the rest but never fewer than a few
        // rows; the footer may wrap onto a second row on a narrow screen.
        let footer_rows = wrapped_rows(&[Line::from(self.footer())], area.width).min(2) as u16;
        let top_need = wrapped_rows(&plain(&self.table), table_w.saturating_sub(2))
            .max(wrapped_rows(&self.sheet_lines(), sheet_w.saturating_sub(2)))
            .max(7)
            + 2;
        let hand_lines = self.hand_lines(&trumps, area.width.saturating_sub(2));
        let hand_need = wrapped_rows(&hand_lines, area.width.saturating_sub(2)) + 2;
        let (top_rows, hand_rows) = heights(
            area.height.saturating_sub(1 + footer_rows),
            top_need.min(u16::MAX as usize) as u16,
            hand_need.min(u16::MAX as usize) as u16,
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
        f.render_widget(
            Paragraph::new(plain(&self.table))
                .block(Block::bordered().title(format!(" Table · {} ", self.title)))
                .wrap(Wrap { trim: false }),
            table,
        );
        f.render_widget(
            Paragraph::new(self.sheet_lines())
                .block(Block::bordered().title(" Score sheet "))
                .wrap(Wrap { trim: false }),
            sheet,
        );
        // Too little room for the whole hand: its end (the buttons) stays in sight.
        let hidden = hand_need.saturating_sub(hand.height as usize);
        f.render_widget(
            Paragraph::new(hand_lines)
                .block(Block::bordered().title(" Your hand "))
                .wrap(Wrap { trim: false })
                .scroll((hidden.min(u16::MAX as usize) as u16, 0)),
            hand,
        );
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

    fn sheet_lines(&self) -> Vec<Line<'static>> {
        let Some(sheet) = &self.sheet else {
            return vec![Line::from("No deal finished yet.")];
        };
        sheet_totals(sheet, &self.carried)
            .into_iter()
            .map(Line::from)
            .chain(pules_lines(sheet))
            .collect()
    }

    /// Your hand's text and its buttons, laid out in rows of `width` columns (a button is
    /// never broken over two rows, so that every number the footer offers is in sight).
    fn hand_lines(&self, trumps: &Trumps, width: u16) -> Vec<Line<'static>> {
        let labels: HashSet<&str> = self.buttons.iter().map(|(l, _)| l.as_str()).collect();
        let cards_are_buttons = self.buttons.iter().any(|(l, _)| is_card(l));
        let mut lines: Vec<Line> = self
            .hand
            .lines()
            .map(|l| cards_line(l, trumps, cards_are_buttons.then_some(&labels)))
            .collect();
        if self.hand.is_empty() {
            lines.push(Line::from("Your cards come when the deal starts."));
        }
        let mut row: Vec<Span> = Vec::new();
        let mut used = 0;
        for (i, (label, _)) in self.buttons.iter().enumerate() {
            let style = if i == self.selected {
                Style::new().add_modifier(Modifier::REVERSED | Modifier::BOLD)
            } else {
                Style::new()
            };
            let mut spans = vec![Span::styled(format!("[{}] ", i + 1), style)];
            spans.extend(cards_line(label, trumps, None).spans);
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

/// How a deal's result begins (the host's English, which the terminal's chat speaks).
const RESULT: &str = "Result of ";

/// The widths of the table pane and the score-sheet pane side by side.
fn split_top(width: u16) -> [u16; 2] {
    let table = (width as u32 * 64 / 100) as u16;
    [table, width - table]
}

/// The fewest rows the message pane keeps (borders included), and the table pane.
const LOG_MIN: u16 = 5;
const TOP_MIN: u16 = 6;

/// The heights of the table pane and the hand pane in `rows` (the message pane gets the
/// rest): the hand as tall as it needs, then the table, while the messages keep `LOG_MIN`
/// rows; when even that is too much the table gives way down to `TOP_MIN` rows.
fn heights(rows: u16, top_need: u16, hand_need: u16) -> (u16, u16) {
    let free = rows.saturating_sub(LOG_MIN);
    let hand = hand_need.min(free.saturating_sub(top_need.min(TOP_MIN)));
    let top = top_need.min(free - hand);
    (top, hand)
}

/// How many screen rows lines take when wrapped at `width`, as a wrapping `Paragraph`
/// draws them.
fn wrapped_rows(lines: &[Line], width: u16) -> usize {
    Paragraph::new(lines.to_vec())
        .wrap(Wrap { trim: false })
        .line_count(width.max(1))
}

/// Which cards are trumps now.
#[derive(Debug, Clone, PartialEq)]
enum Trumps {
    None,
    /// Zole: every queen, jack and diamond.
    Zole,
    Suit(char),
    All,
}

impl Trumps {
    /// From the game and its table message (the contract's or the trump line's suit).
    fn of(game: &str, table: &str) -> Trumps {
        if game == "zole" {
            return Trumps::Zole;
        }
        let key = if game == "polt" { "Trumps:" } else { "Contract:" };
        let Some(line) = table.lines().find(|l| l.starts_with(key)) else {
            return Trumps::None;
        };
        if line.contains("all trumps") {
            return Trumps::All;
        }
        if line.contains("no trumps") {
            return Trumps::None;
        }
        line.chars()
            .find(|c| SUITS.contains(c))
            .map_or(Trumps::None, Trumps::Suit)
    }

    fn holds(&self, card: &str) -> bool {
        let suit = card.chars().last().unwrap_or(' ');
        match self {
            Trumps::None => false,
            Trumps::All => true,
            Trumps::Suit(s) => suit == *s,
            Trumps::Zole => suit == '♦' || card.starts_with('Q') || card.starts_with('J'),
        }
    }
}

const SUITS: [char; 4] = ['♠', '♥', '♦', '♣'];

/// True for a card's name such as `10♥` or `Q♠`.
fn is_card(s: &str) -> bool {
    let mut chars = s.chars();
    let Some(suit) = chars.next_back() else {
        return false;
    };
    let rank = chars.as_str();
    SUITS.contains(&suit)
        && matches!(
            rank,
            "A" | "K" | "Q" | "J" | "10" | "9" | "8" | "7" | "6" | "5" | "4" | "3" | "2"
        )
}

/// A line with its cards coloured by suit and trumps marked with `*`. With `legal`, the
/// cards among it are bright and bold and the others dim (your hand while you must play).
fn cards_line(text: &str, trumps: &Trumps, legal: Option<&HashSet<&str>>) -> Line<'static> {
    let mut spans = Vec::new();
    let mut plain = String::new();
    for (i, word) in text.split(' ').enumerate() {
        if i > 0 {
            plain.push(' ');
        }
        let card = word.trim_end_matches([',', ';', '.', ':', ')']);
        if !is_card(card) {
            plain.push_str(word);
            continue;
        }
        if !plain.is_empty() {
            spans.push(Span::raw(std::mem::take(&mut plain)));
        }
        let red = card.ends_with('♥') || card.ends_with('♦');
        let mut style = Style::new().fg(if red { Color::LightRed } else { Color::Reset });
        match legal {
            Some(l) if l.contains(card) => style = style.add_modifier(Modifier::BOLD),
            Some(_) => style = style.fg(Color::DarkGray),
            None => {}
        }
        spans.push(Span::styled(card.to_string(), style));
        if trumps.holds(card) {
            spans.push(Span::styled("*", Style::new().fg(Color::Yellow)));
        }
        plain.push_str(&word[card.len()..]);
    }
    if !plain.is_empty() {
        spans.push(Span::raw(plain));
    }
    Line::from(spans)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(line: &Line) -> String {
        line.spans.iter().map(|s| s.content.as_ref()).collect()
    }

    #[test]
    fn cards_are_found_coloured_and_trumps_marked() {
        assert!(is_card("10♥") && is_card("Q♠") && !is_card("Q") && !is_card("11♥"));
        let l = cards_line("Trick 2: Anna 10♥, Computer 2 Q♠;", &Trumps::Zole, None);
        assert_eq!(text(&l), "Trick 2: Anna 10♥, Computer 2 Q♠*;");
        let heart = l.spans.iter().find(|s| s.content == "10♥").unwrap();
        assert_eq!(heart.style.fg, Some(Color::LightRed));
        let legal: HashSet<&str> = ["A♣"].into();
        let l = cards_line("Your cards: A♣ 7♥", &Trumps::Suit('♥'), Some(&legal));
        let seven = l.spans.iter().find(|s| s.content == "7♥").unwrap();
        assert_eq!(seven.style.fg, Some(Color::DarkGray));
        assert_eq!(text(&l), "Your cards: A♣ 7♥*");
    }

    #[test]
    fn the_hand_grows_into_the_messages_and_the_table_gives_way_last() {
        // Room for all: each pane as tall as it needs, the messages the rest.
        assert_eq!(heights(38, 9, 8), (9, 8));
        // The hand takes the messages' rows down to their least.
        assert_eq!(heights(22, 9, 8), (9, 8));
        assert_eq!(heights(22, 9, 10), (7, 10));
        // Then the table gives way down to its least; the hand gets what remains.
        assert_eq!(heights(22, 12, 20), (TOP_MIN, 22 - LOG_MIN - TOP_MIN));
        assert_eq!(heights(3, 9, 8), (0, 0));
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

    #[test]
    fn trumps_come_from_the_contract_or_the_trump_line() {
        assert_eq!(Trumps::of("zole", ""), Trumps::Zole);
        assert_eq!(
            Trumps::of("belote-bazar", "x\nContract: 100 ♥ (Anna)"),
            Trumps::Suit('♥')
        );
        assert_eq!(
            Trumps::of("coinche", "Contract: 120 all trumps (Anna)"),
            Trumps::All
        );
        assert_eq!(Trumps::of("belote-classic", "Turned card: J♣"), Trumps::None);
        assert_eq!(Trumps::of("polt", "Trumps: ♣"), Trumps::Suit('♣'));
        assert!(Trumps::Zole.holds("J♣") && Trumps::Zole.holds("7♦") && !Trumps::Zole.holds("A♥"));
    }
}
