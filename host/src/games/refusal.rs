//! Why a move is refused, as the person who pressed reads it. Each game maps its engine's typed
//! error (whose text names 0-based seats and rule words, for records and logs) to one of these
//! kinds, and each kind is one translated sentence about the presser's own hand: no seat
//! numbers, no internal words.

use stikis_core::cards::Card;

use super::Refusal;
use crate::i18n::{t, Lang};
use crate::picture::card_label;

/// The kinds of refusal every game shares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Refused {
    /// The deal (or hand) is over: the button is from before its end.
    Over,
    NotYourTurn,
    /// A card while the bidding is still on.
    BiddingOn,
    /// A bid after the bidding is over.
    PlayOn,
    /// The declarer must bury before the play.
    BuryFirst,
    /// Any other button of another moment of the deal.
    NotNow,
    NotHeld(Card),
    /// Must follow suit; the card is one that would.
    MustFollow(Card),
    MustBeat(Card),
    MustTrump(Card),
    Bid,
    /// A belote bid, with the message key of the bidding rule it breaks.
    BidRule(&'static str),
    Bury,
    Surrender,
    MustReturn(Card),
}

impl Refused {
    pub(crate) fn text(self, lang: Lang) -> String {
        let card = |key: &str, c: Card| t(lang, key, &[("card", card_label(c).into())]);
        match self {
            Refused::Over => t(lang, "refusal-over", &[]),
            Refused::NotYourTurn => t(lang, "turn-not-yours", &[]),
            Refused::BiddingOn => t(lang, "refusal-bidding-on", &[]),
            Refused::PlayOn => t(lang, "refusal-play-on", &[]),
            Refused::BuryFirst => t(lang, "refusal-bury-first", &[]),
            Refused::NotNow => t(lang, "refusal-not-now", &[]),
            Refused::NotHeld(c) => card("refusal-not-held", c),
            Refused::MustFollow(c) => card("refusal-must-follow", c),
            Refused::MustBeat(c) => card("refusal-must-beat", c),
            Refused::MustTrump(c) => card("refusal-must-trump", c),
            Refused::Bid => t(lang, "refusal-bid", &[]),
            Refused::BidRule(key) => t(lang, "belote-bid-refused", &[("why", t(lang, key, &[]).into())]),
            Refused::Bury => t(lang, "refusal-bury", &[]),
            Refused::Surrender => t(lang, "refusal-surrender", &[]),
            Refused::MustReturn(c) => card("refusal-must-return", c),
        }
    }

    pub(crate) fn refusal(self, lang: Lang) -> Refusal {
        Refusal(self.text(lang))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_refusal_is_a_sentence_in_every_language_without_seats() {
        let k: Card = "KH".parse().unwrap();
        let all = [
            Refused::Over,
            Refused::NotYourTurn,
            Refused::BiddingOn,
            Refused::PlayOn,
            Refused::BuryFirst,
            Refused::NotNow,
            Refused::NotHeld(k),
            Refused::MustFollow(k),
            Refused::MustBeat(k),
            Refused::MustTrump(k),
            Refused::Bid,
            Refused::BidRule("belote-bid-rule-below-minimum"),
            Refused::Bury,
            Refused::Surrender,
            Refused::MustReturn(k),
        ];
        for lang in Lang::ALL {
            let mut seen = std::collections::HashSet::new();
            for r in all {
                let text = r.text(lang);
                assert!(text.ends_with('.'), "{lang} {r:?}: {text}");
                assert!(!text.contains("refusal-"), "{lang} {r:?}: a missing key");
                assert!(!text.to_lowercase().contains("seat"), "{lang} {r:?}: {text}");
                // Bidding rules may name points (80); nothing else carries a number.
                if !matches!(r, Refused::BidRule(_)) {
                    assert!(!text.chars().any(|c| c.is_ascii_digit()), "{lang} {r:?}: {text}");
                }
                if matches!(r, Refused::NotHeld(_) | Refused::MustFollow(_)) {
                    assert!(text.contains("K♥"), "{lang} {r:?} names the card: {text}");
                }
                assert!(seen.insert(text.clone()), "{lang}: {text} twice");
            }
        }
    }
}
