//! The chat's words for a table: its public message and each hand, drawn from the typed
//! picture alone (`crate::picture`), in a language. Every game's messages are drawn here, from
//! the keys its picture names (`Lines`); a table the host changed (stopped in the middle of a
//! deal: nobody's turn, nothing asked) is drawn from its changed picture.

use stikis_core::cards::Card;
use stikis_core::Seat;

use crate::i18n::{t, Arg, Lang};
use crate::picture::{card_label, name, Phase, Picture, SeatPicture, Word};

/// A card as a trick line shows it: with what was said as it was played ("K♥ (Belote)").
fn card_said(p: &Picture, seat: Seat, card: Card, lang: Lang, names: &[String]) -> String {
    let label = card_label(card);
    match p.said.iter().find(|(s, c, _)| *s == seat && *c == card) {
        Some((_, _, w)) => format!("{label} ({})", w.say(lang, names)),
        None => label,
    }
}

/// Cards by seat as a trick line reads them, "—" for none yet.
fn trick_words(p: &Picture, cards: &[(Seat, Card)], lang: Lang, names: &[String]) -> String {
    if cards.is_empty() {
        return "—".to_string();
    }
    played_by(
        names,
        cards.iter().map(|&(s, c)| (s, card_said(p, s, c, lang, names))),
    )
}

/// "name word, name word".
fn by_seat(items: &[(Seat, Word)], lang: Lang, names: &[String]) -> String {
    items
        .iter()
        .map(|(s, w)| format!("{} {}", name(names, *s), w.say(lang, names)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Cards of a trick as the table reads them, each after the name of who played it, in playing
/// order: "Anna 9♣, Ilze K♣, Bob A♣". Every game's trick lines use it, the last trick's too.
fn played_by(names: &[String], plays: impl IntoIterator<Item = (Seat, String)>) -> String {
    plays
        .into_iter()
        .map(|(seat, card)| format!("{} {card}", name(names, seat)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Names (of seats or teams) each with its figure, on one line: "Anna 3 · Bruno 2". Every
/// game lists tricks taken, a deal's points and the running totals so.
pub(crate) fn listed<V: std::fmt::Display>(items: impl IntoIterator<Item = (String, V)>) -> String {
    items
        .into_iter()
        .map(|(who, v)| format!("{who} {v}"))
        .collect::<Vec<_>>()
        .join(" · ")
}

/// The public table message of a picture: never a hidden card (the picture holds none).
pub fn table_text(p: &Picture, lang: Lang, names: &[String]) -> String {
    let Some(title) = &p.title else {
        return String::new();
    };
    let keys = p.lines;
    let say = |w: &Word| w.say(lang, names);
    let mut lines = vec![say(title)];
    if let (Some(key), [first, second, ..]) = (keys.teams, p.teams.as_slice()) {
        let side = |seats: &[Seat]| {
            seats
                .iter()
                .map(|&s| name(names, s))
                .collect::<Vec<_>>()
                .join(" & ")
        };
        lines.push(t(
            lang,
            key,
            &[("first", side(first).into()), ("second", side(second).into())],
        ));
    }
    if let (Some(key), false) = (keys.sitting_out, p.sitting_out.is_empty()) {
        let out: Vec<String> = p.sitting_out.iter().map(|&s| name(names, s)).collect();
        lines.push(t(lang, key, &[("names", out.join(", ").into())]));
    }
    if !p.ranks.is_empty() {
        let ranks: Vec<String> = p
            .ranks
            .iter()
            .map(|(w, s)| format!("{}: {}", say(w), name(names, *s)))
            .collect();
        lines.push(ranks.join(" · "));
    }
    lines.extend(p.face_up.iter().map(|(w, _)| say(w)));
    if !p.exchange.is_empty() {
        let steps: Vec<String> = p.exchange.iter().map(say).collect();
        lines.push(steps.join(" · "));
    }
    if let (Some(key), false) = (keys.bids, p.bids.is_empty()) {
        lines.push(t(lang, key, &[("bids", by_seat(&p.bids, lang, names).into())]));
    }
    if let (Some(key), Some(c)) = (keys.contract, &p.contract) {
        let who = p.declarer.map(|s| name(names, s)).unwrap_or_default();
        lines.push(t(lang, key, &[("contract", say(c).into()), ("name", who.into())]));
    }
    if let (Some(key), false) = (keys.announced, p.announced.is_empty()) {
        lines.push(t(
            lang,
            key,
            &[("list", by_seat(&p.announced, lang, names).into())],
        ));
    }
    lines.extend(p.trump_line.as_ref().map(say));
    if let (Some(key), Some(n)) = (keys.trick, p.trick_no) {
        lines.push(t(
            lang,
            key,
            &[
                ("n", Arg::from(n)),
                ("cards", trick_words(p, &p.trick, lang, names).into()),
            ],
        ));
    }
    if let (Some(key), Some(last)) = (keys.last_trick, &p.last_trick) {
        let winner = last.winner.map(|w| name(names, w)).unwrap_or_default();
        lines.push(t(
            lang,
            key,
            &[
                ("cards", trick_words(p, &last.cards, lang, names).into()),
                ("name", winner.into()),
            ],
        ));
    }
    if let (Some(key), false) = (keys.taken, p.taken.is_empty()) {
        let taken = listed(p.taken.iter().map(|(w, n)| (say(w), n)));
        lines.push(t(lang, key, &[("list", taken.into())]));
    }
    lines.extend(p.score.as_ref().map(say));
    if let (Some(key), Some(s)) = (keys.turn, p.to_act) {
        lines.push(t(lang, key, &[("name", name(names, s).into())]));
    }
    lines.join("\n")
}

/// What a seat sees privately: its hand, what only it knows, and what it is asked now.
pub fn hand_text(p: &Picture, part: &SeatPicture, lang: Lang, names: &[String]) -> String {
    if p.title.is_none() {
        return String::new();
    }
    let keys = p.lines;
    if let (true, Some(key)) = (part.sitting_out, keys.you_sit_out) {
        return t(lang, key, &[]);
    }
    let say = |w: &Word| w.say(lang, names);
    let mut lines = Vec::new();
    if let Some(key) = keys.hand {
        let cards: Vec<String> = part.hand.iter().map(|&c| card_label(c)).collect();
        lines.push(t(lang, key, &[("cards", cards.join(" ").into())]));
    }
    lines.extend(part.notes.iter().map(say));
    // What lies face up while bids are made is what the bidding is about (Belote's turned
    // card): the bidder sees it beside the hand.
    if p.phase == Phase::Bidding {
        lines.extend(p.face_up.iter().map(|(w, _)| say(w)));
    }
    if part.to_act {
        lines.extend(part.prompt.iter().map(say));
        // Only "your turn" changes, so a hand message is edited only when its owner acts or
        // is to act: fewer edits per card.
        lines.push(t(lang, "turn-yours", &[]));
    }
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use stikis_core::cards::{Card, Rank, Suit};
    use stikis_core::Seed;

    use super::*;
    use crate::games::new_game;
    use crate::picture::Lines;

    fn names() -> Vec<String> {
        ["Anna", "Bruno", "Carl", "Dina"].map(String::from).to_vec()
    }

    /// A stopped table's message is its picture with nobody to act: the same lines without
    /// "Turn: …", in every language; and a hand of it asks nothing.
    #[test]
    fn a_picture_with_nobody_to_act_says_no_turn_and_its_hands_ask_nothing() {
        let mut g = new_game("zole", &crate::games::default_rules("zole"), 3).unwrap();
        g.start_deal(Seed([7; 32])).unwrap();
        // Bid until someone takes: then the declarer is asked to bury.
        while g.picture().contract.is_none() {
            let seat = g.to_act().expect("someone bids");
            let take = g
                .legal(seat)
                .into_iter()
                .find(|a| a["bid"] == "take")
                .expect("take");
            g.apply(&take).unwrap();
        }
        let mut p = g.picture();
        let declarer = p.to_act.expect("the declarer buries");
        for lang in [Lang::En, Lang::Lv, Lang::Ru] {
            let live = table_text(&p, lang, &names());
            let turn = t(
                lang,
                "zole-turn",
                &[("name", names()[declarer as usize].clone().into())],
            );
            assert_eq!(live.lines().last(), Some(turn.as_str()), "{live}");
            let mut stopped = p.clone();
            stopped.to_act = None;
            let text = table_text(&stopped, lang, &names());
            assert!(!text.contains(&turn), "{text}");
            assert_eq!(format!("{text}\n{turn}"), live);
        }
        let mut part = g.seat_picture(declarer);
        let hand = hand_text(&p, &part, Lang::En, &names());
        assert!(
            hand.contains("Choose two cards to bury.") && hand.ends_with("Your turn."),
            "{hand}"
        );
        part.to_act = false;
        let hand = hand_text(&p, &part, Lang::En, &names());
        assert!(!hand.contains("bury") && !hand.contains("Your turn"), "{hand}");
        assert!(hand.starts_with("Your cards: "), "{hand}");
        // No title, no deal: nothing to say.
        p.title = None;
        assert_eq!(table_text(&p, Lang::En, &names()), "");
    }

    /// What was said as a card was played is said beside that card in the trick, wherever
    /// it lies, and a game without a line's key never says that line.
    #[test]
    fn a_card_said_as_it_was_played_is_marked_in_its_trick_and_missing_lines_stay_out() {
        static LINES: Lines = Lines {
            trick: Some("belote-trick"),
            last_trick: Some("belote-last-trick"),
            ..Lines::NONE
        };
        let king = Card::new(Rank::King, Suit::Hearts);
        let queen = Card::new(Rank::Queen, Suit::Hearts);
        let mut p = Picture::waiting("belote-bazar", 4);
        p.lines = &LINES;
        p.title = Some(Word::Plain("Bazar".into()));
        p.trick_no = Some(2);
        p.trick = vec![(1, queen)];
        p.last_trick = Some(crate::picture::Trick {
            cards: vec![(0, Card::new(Rank::Ace, Suit::Clubs)), (1, king)],
            winner: Some(0),
        });
        p.said = vec![
            (1, king, Word::msg("belote-belote")),
            (1, queen, Word::msg("belote-rebelote")),
        ];
        p.to_act = Some(2);
        p.bids = vec![(0, Word::Plain("80".into()))];
        let text = table_text(&p, Lang::En, &names());
        assert!(text.contains("Trick 2: Bruno Q♥ (rebelote)"), "{text}");
        assert!(text.contains("Bruno K♥ (belote)"), "{text}");
        // No key for bids or turns: those lines are not there.
        assert_eq!(text.lines().count(), 3, "{text}");
    }
}
