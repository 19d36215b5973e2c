//! What one person sees of a table, as data: for the live table (the web adapter's `/play`
//! pages). A seated person sees their own hand and the decisions the chat would offer them,
//! with the same tokens as the chat's buttons (so a tap sent twice is applied once); anybody
//! else sees exactly what the group sees. Nothing here ever holds another seat's card or a
//! card still in the talon: the view is built from the public table text, the played tricks
//! and the viewer's own hand only.
//!
//! What the host does for the pages (a view asked for, the changes pushed, a tap) is in
//! `crate::pages`; a commit made here draws, once, the views its pages here draw
//! (`Follow::draws`) and pushes them with the change (`Drawn`).

use stikis_core::cards::{Card, CardSet};
use stikis_core::Seat;

use crate::games::DealReport;
use crate::i18n::Lang;
use crate::msgkey::MsgKey;
use crate::outbox::{Button, Out, Outbox};
use crate::picture::{Choice, Phase, Picture, SeatPicture, Word};
use crate::store::{Occupant, Platform, TableStatus};
use crate::table::Live;

/// A card of the viewer's hand: with the token that plays (or picks) it when it may be
/// tapped now, and whether it is the half-made pick of a burial.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HandCard {
    pub card: Card,
    pub token: Option<String>,
    pub picked: bool,
}

/// A seat as everyone sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatView {
    pub seat: Seat,
    pub name: String,
    pub computer: bool,
    /// A computer player holds the seat for its away owner.
    pub away: bool,
}

/// One person's view of a table (`Host::table_view`).
#[derive(Debug, Clone, PartialEq)]
pub struct TableView {
    pub table: i64,
    /// The table's last action number: a view with a higher one is newer.
    pub version: i64,
    pub lang: Lang,
    pub platform: Platform,
    pub game: String,
    /// The game's name as people read it in `lang`.
    pub title: String,
    pub status: TableStatus,
    pub seats: Vec<SeatView>,
    /// The viewer's seat, if they sit at the table.
    pub me: Option<Seat>,
    pub deal_no: usize,
    pub in_deal: bool,
    pub to_act: Option<Seat>,
    /// When the turn of `to_act` runs out (Unix ms), if the chat has a turn limit.
    pub turn_ends_ms: Option<i64>,
    /// The group's table message, as the chat shows it.
    pub public_text: String,
    /// The trick being played, in playing order.
    pub trick: Vec<(Seat, Card)>,
    /// The last finished trick of the deal and who took it.
    pub last_trick: Option<(Vec<(Seat, Card)>, Seat)>,
    /// The deal's trumps, where they are known.
    pub trumps: CardSet,
    /// The viewer's cards, in the order players of the game sort them.
    pub hand: Vec<HandCard>,
    /// The viewer's private text (their hand and what they may do), as the chat shows it.
    pub hand_text: Option<String>,
    /// Every other decision the chat offers the viewer now (bids, surrender, levels, "I'm
    /// back" while a computer player holds their seat, ...).
    pub buttons: Vec<Vec<Button>>,
    /// The running totals by seat.
    pub totals: Vec<i32>,
    /// The result of the last deal that ended, as the chat posted it.
    pub result: Option<String>,
    /// How the last deal that ended ended, typed (its picture's result).
    pub last_result: Option<crate::picture::DealResult>,
    /// The public part of the table, typed: what every surface draws.
    pub picture: Picture,
    /// The viewer's private part (their hand, decisions and what they are asked), if seated.
    pub mine: Option<SeatPicture>,
    /// The deal that ended last, as it ended, while the next deal has had no move yet (or
    /// no next deal follows): its last trick, its taker and the result stay on the table.
    pub ended: Option<Picture>,
    /// The seats' names in `lang`, by seat: what the picture's words name seats with.
    pub names: Vec<String>,
}

impl TableView {
    /// Every token this view offers its viewer now: the cards they may tap and every other
    /// decision. A page may send these and nothing else.
    pub fn offers(&self, token: &str) -> bool {
        self.hand.iter().any(|h| h.token.as_deref() == Some(token))
            || self.buttons.iter().flatten().any(|b| b.token == token)
    }

    /// Every card this view draws as a card (the hand, the trick, the last trick, the last
    /// deal's end); the picture's words name others (`Picture::cards`, `SeatPicture::cards`).
    pub fn cards(&self) -> Vec<Card> {
        let mut v: Vec<Card> = self.hand.iter().map(|h| h.card).collect();
        v.extend(self.trick.iter().map(|(_, c)| *c));
        if let Some((t, _)) = &self.last_trick {
            v.extend(t.iter().map(|(_, c)| *c));
        }
        if let Some(t) = self.ended.as_ref().and_then(|e| e.last_trick.as_ref()) {
            v.extend(t.cards.iter().map(|(_, c)| *c));
        }
        v
    }

    /// Words of the picture said in the view's language.
    pub fn say(&self, w: &Word) -> String {
        w.say(self.lang, &self.names)
    }
}

/// Whose view of a table a page draws, and in which language: a seated person's (their
/// user id) or a watcher's (None).
pub type ViewKey = (Option<String>, Lang);

/// A change of a table, as the host tells it to the live pages (`Host::changes`).
#[derive(Debug, Clone)]
pub struct Change {
    /// The table that changed; 0: any table may have changed (another process's notices were
    /// lost meanwhile).
    pub table: i64,
    /// The views of the table that the pages open here draw, drawn once at the commit that
    /// made the change (`Follow::draws`). None when the change was not drawn here (made by
    /// another process, or not a move: a table's end, a seat's change): a page reads the table.
    pub drawn: Option<std::sync::Arc<Drawn>>,
}

/// The views of one commit of a table, drawn once for the pages that follow it here: by
/// viewer and language.
#[derive(Debug)]
pub struct Drawn {
    /// The table's action number at the commit (`TableView::version`).
    pub version: i64,
    views: Vec<(ViewKey, TableView)>,
}

impl Drawn {
    /// The views `keys` of `live` as it is now (`now_ms`: the wall clock, for a turn's end).
    pub(crate) fn of(live: &Live, keys: Vec<ViewKey>, now_ms: i64) -> Drawn {
        let views = keys
            .into_iter()
            .map(|key| {
                let view = live.view(key.0.as_deref(), key.1, now_ms);
                (key, view)
            })
            .collect();
        Drawn {
            version: live.seq,
            views,
        }
    }

    /// `viewer`'s view (None: a watcher's) in `lang`, if a page here said it draws it when the
    /// commit was made.
    pub fn view(&self, viewer: Option<&str>, lang: Lang) -> Option<&TableView> {
        self.views
            .iter()
            .find(|((v, l), _)| v.as_deref() == viewer && *l == lang)
            .map(|(_, view)| view)
    }
}

impl Live {
    /// What `viewer` (a user id, or None for a spectator) sees of this table, in `lang`. A
    /// table no longer open (stopped or finished) is seen as it was left, with nobody's turn
    /// and nothing to press.
    pub fn view(&self, viewer: Option<&str>, lang: Lang, now_ms: i64) -> TableView {
        let mut v = self.view_open(viewer, lang, now_ms);
        if !v.status.is_open() {
            v.to_act = None;
            v.turn_ends_ms = None;
            v.picture.to_act = None;
            for h in &mut v.hand {
                h.token = None;
                h.picked = false;
            }
            v.buttons.clear();
            if let Some(m) = &mut v.mine {
                m.decisions.clear();
                m.prompt.clear();
                m.to_act = false;
            }
            // The texts as the chat's messages of a stopped table say them: no turn, nothing
            // asked.
            if self.game.is_some() {
                v.public_text = crate::draw::table_text(&v.picture, lang, &v.names);
                if let Some(m) = &v.mine {
                    v.hand_text = Some(crate::draw::hand_text(&v.picture, m, lang, &v.names));
                }
            }
        }
        v
    }

    fn view_open(&self, viewer: Option<&str>, lang: Lang, now_ms: i64) -> TableView {
        let me = viewer.and_then(|u| self.seat_of(u));
        let names = self.names_in(lang);
        let seats = self
            .seats
            .iter()
            .map(|s| SeatView {
                seat: s.seat,
                name: names
                    .get(s.seat as usize)
                    .cloned()
                    .unwrap_or_else(|| s.name.clone()),
                computer: matches!(s.occupant, Occupant::Computer { .. }),
                away: s.away,
            })
            .collect();
        let mut v = TableView {
            table: self.id(),
            version: self.seq,
            lang,
            platform: self.row.chat.platform,
            game: self.row.game.clone(),
            title: crate::games::game_title(lang, &self.row.game),
            status: self.row.status,
            seats,
            me,
            deal_no: 0,
            in_deal: false,
            to_act: None,
            turn_ends_ms: None,
            public_text: String::new(),
            trick: Vec::new(),
            last_trick: None,
            trumps: CardSet::EMPTY,
            hand: Vec::new(),
            hand_text: None,
            buttons: Vec::new(),
            totals: Vec::new(),
            result: None,
            last_result: None,
            picture: Picture::waiting("", 0),
            mine: None,
            ended: None,
            names: Vec::new(),
        };
        let Some(game) = &self.game else {
            return v;
        };
        let picture = game.picture();
        v.deal_no = picture.deal_no;
        v.in_deal = game.in_deal();
        v.to_act = picture.to_act;
        v.public_text = game.public_text(lang, &names);
        v.totals = picture.totals.clone();
        if let (Some(limit), Some(_)) = (self.settings.turn_limit_secs, v.to_act) {
            let spent = self.turn_since.elapsed().as_millis() as i64;
            v.turn_ends_ms = Some(now_ms - spent + i64::from(limit) * 1000);
        }
        v.trick = picture.trick.clone();
        v.last_trick = picture
            .last_trick
            .as_ref()
            .and_then(|t| Some((t.cards.clone(), t.winner?)));
        v.trumps = picture.trumps;
        if let Some(report) = &self.last_report {
            v.result = Some(self.result_text(report, lang));
        }
        v.last_result = self.last_end.as_ref().and_then(|e| e.result.clone());
        // The end of the last deal stays on the table until the next deal's first move.
        let untouched = picture.bids.is_empty()
            && picture.trick.is_empty()
            && picture.last_trick.is_none()
            && picture.exchange.is_empty();
        v.ended = self
            .last_end
            .as_ref()
            .filter(|e| e.deal_no + 1 == picture.deal_no && untouched)
            .cloned()
            .or_else(|| (picture.phase == Phase::Done).then(|| picture.clone()));
        v.picture = picture;
        v.names = names.clone();
        let Some(seat) = me else {
            return v;
        };
        let mine = game.seat_picture(seat);
        let mut cards: Vec<HandCard> = mine
            .hand
            .iter()
            .map(|&card| HandCard {
                card,
                token: None,
                picked: false,
            })
            .collect();
        for row in &mine.decisions {
            let mut others = Vec::new();
            for d in row {
                match d
                    .choice
                    .card()
                    .and_then(|c| cards.iter_mut().find(|h| h.card == c))
                {
                    Some(h) => {
                        h.token = Some(self.token(&d.code));
                        h.picked = matches!(d.choice, Choice::Unpick(_));
                    }
                    None => others.push(Button {
                        label: d.choice.label(lang, &names),
                        token: self.token(&d.code),
                        disabled: false,
                        card: None,
                    }),
                }
            }
            if !others.is_empty() {
                v.buttons.push(others);
            }
        }
        // A seat a computer player holds for its away owner: "I'm back", as the group's
        // message offers it.
        if self.seats.iter().any(|s| s.seat == seat && s.away) {
            v.buttons.push(vec![Button {
                label: crate::i18n::t(lang, "button-back", &[]),
                token: self.token("back"),
                disabled: false,
                card: None,
            }]);
        }
        v.hand = cards;
        v.hand_text = Some(game.hand_text(seat, lang, &names));
        v.mine = Some(mine);
        v
    }

    fn result_text(&self, report: &DealReport, lang: Lang) -> String {
        let game = self.game.as_ref().expect("a report has a game");
        game.result_text(report, lang, &self.names_in(lang))
    }
}

/// The tables an outbox shows the public message or a hand of (`t<id>.…` keys): a pick of a
/// burial changes only a hand.
pub(crate) fn tables_shown(out: &Outbox) -> Vec<i64> {
    let mut ids: Vec<i64> = out
        .0
        .iter()
        .filter_map(|o| match o {
            Out::Public { key, .. } | Out::Private { key, .. } => MsgKey::parse(key)?.table(),
            _ => None,
        })
        .collect();
    ids.sort_unstable();
    ids.dedup();
    ids
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_messages_and_hands_name_their_tables() {
        let chat = crate::store::ChatRef::new(Platform::Telegram, "1", "1");
        let mut out = Outbox::default();
        for key in ["t7.d2", "t7.d2", "t12.lobby", "T3"] {
            out.push(Out::Public {
                chat: chat.clone(),
                key: key.into(),
                text: String::new(),
                buttons: Vec::new(),
                version: 0,
            });
        }
        out.push(Out::Private {
            user: "1".into(),
            chat,
            key: "t9.d1.s0".into(),
            text: String::new(),
            buttons: Vec::new(),
            version: 0,
            delivery: crate::outbox::HandDelivery::Show,
        });
        assert_eq!(tables_shown(&out), vec![7, 9, 12]);
    }
}
