//! Button tokens: the compact string a chat button carries back to the host when pressed
//! (Telegram's `callback_data`, Discord's `custom_id`). A token names the table, the table's
//! action sequence number when the button was drawn, and the action, an opaque short string
//! chosen by the game layer (`p:QC`, `b:take`, `y:QC,10H`) or the lobby (`join`).
//!
//! The sequence number is what makes a stale or replayed press harmless: the table refuses a
//! token whose `seq` is not its current one. A token is not a secret: a forged one still has
//! to name a legal action of the presser's own seat.
//!
//! Wire form: `s` + table id in base 36 + `.` + seq in base 36 + `.` + action, e.g.
//! `s2s.1f.p:QC`. Numbers are lowercase base 36 without leading zeros, so every token has
//! exactly one spelling.

use std::fmt;

/// Telegram's limit for `callback_data`, in bytes (Discord allows 100 characters).
pub const MAX_TOKEN_LEN: usize = 64;

/// The longest number part: `i64::MAX` in base 36 has 13 digits.
const MAX_NUMBER_LEN: usize = 13;

/// The longest action that fits beside the largest table id and seq.
pub const MAX_ACTION_LEN: usize = MAX_TOKEN_LEN - (1 + MAX_NUMBER_LEN + 1 + MAX_NUMBER_LEN + 1);

const PREFIX: char = 's';
const SEP: char = '.';

/// A decoded button token.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Token {
    pub table: i64,
    pub seq: i64,
    pub action: String,
}

/// Why a string is not a token, or why a token cannot be encoded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TokenError {
    #[error("button token is longer than {MAX_TOKEN_LEN} bytes")]
    TooLong,
    #[error("button token does not start with '{PREFIX}'")]
    BadPrefix,
    #[error("button token lacks a table id, a sequence number or an action")]
    MissingPart,
    #[error("button token has a bad number {0:?}")]
    BadNumber(String),
    #[error("button token numbers must not be negative")]
    Negative,
    #[error("button action is empty")]
    EmptyAction,
    #[error("button action is longer than {MAX_ACTION_LEN} bytes")]
    ActionTooLong,
    #[error("button action may hold only printable ASCII")]
    BadActionChar,
}

impl Token {
    pub fn new(table: i64, seq: i64, action: impl Into<String>) -> Self {
        Token {
            table,
            seq,
            action: action.into(),
        }
    }

    /// The wire form; fails only for negative numbers or an action that is empty, too long or
    /// not printable ASCII (a programming error of the game layer, reported rather than cut).
    pub fn encode(&self) -> Result<String, TokenError> {
        if self.table < 0 || self.seq < 0 {
            return Err(TokenError::Negative);
        }
        check_action(&self.action)?;
        let mut out = String::with_capacity(MAX_TOKEN_LEN);
        out.push(PREFIX);
        push_base36(&mut out, self.table as u64);
        out.push(SEP);
        push_base36(&mut out, self.seq as u64);
        out.push(SEP);
        out.push_str(&self.action);
        debug_assert!(out.len() <= MAX_TOKEN_LEN);
        Ok(out)
    }

    /// Reads a token from a button press; anything that `encode` could not have written is an
    /// error, never a panic.
    pub fn decode(s: &str) -> Result<Token, TokenError> {
        if s.len() > MAX_TOKEN_LEN {
            return Err(TokenError::TooLong);
        }
        let rest = s.strip_prefix(PREFIX).ok_or(TokenError::BadPrefix)?;
        let mut parts = rest.splitn(3, SEP);
        let (Some(table), Some(seq), Some(action)) = (parts.next(), parts.next(), parts.next()) else {
            return Err(TokenError::MissingPart);
        };
        let table = parse_base36(table)?;
        let seq = parse_base36(seq)?;
        check_action(action)?;
        Ok(Token {
            table,
            seq,
            action: action.to_string(),
        })
    }
}

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "table {} seq {} {}", self.table, self.seq, self.action)
    }
}

fn check_action(action: &str) -> Result<(), TokenError> {
    if action.is_empty() {
        return Err(TokenError::EmptyAction);
    }
    if action.len() > MAX_ACTION_LEN {
        return Err(TokenError::ActionTooLong);
    }
    if !action.bytes().all(|b| (0x20..0x7f).contains(&b)) {
        return Err(TokenError::BadActionChar);
    }
    Ok(())
}

fn push_base36(out: &mut String, mut n: u64) {
    let mut digits = [0u8; MAX_NUMBER_LEN];
    let mut i = digits.len();
    loop {
        i -= 1;
        let d = (n % 36) as u32;
        digits[i] = char::from_digit(d, 36).expect("digit below 36") as u8;
        n /= 36;
        if n == 0 {
            break;
        }
    }
    out.push_str(std::str::from_utf8(&digits[i..]).expect("ASCII digits"));
}

fn parse_base36(s: &str) -> Result<i64, TokenError> {
    let bad = || TokenError::BadNumber(s.to_string());
    let canonical = !s.is_empty()
        && s.len() <= MAX_NUMBER_LEN
        && s.bytes().all(|b| b.is_ascii_digit() || b.is_ascii_lowercase())
        && (s == "0" || !s.starts_with('0'));
    if !canonical {
        return Err(bad());
    }
    i64::from_str_radix(s, 36).map_err(|_| bad())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn wire_form_is_pinned() {
        let t = Token::new(100, 51, "p:QC");
        assert_eq!(t.encode().unwrap(), "s2s.1f.p:QC");
        assert_eq!(Token::decode("s2s.1f.p:QC").unwrap(), t);
        // The action may itself contain the separator: everything after the second one is it.
        let t = Token::new(0, 0, "b:26 S capot.x");
        assert_eq!(Token::decode(&t.encode().unwrap()).unwrap(), t);
    }

    #[test]
    fn largest_numbers_leave_room_for_the_action() {
        assert_eq!(MAX_ACTION_LEN, 35);
        let t = Token::new(i64::MAX, i64::MAX, "y".repeat(MAX_ACTION_LEN));
        let s = t.encode().unwrap();
        assert_eq!(s.len(), MAX_TOKEN_LEN);
        assert_eq!(Token::decode(&s).unwrap(), t);
    }

    #[test]
    fn bad_tokens_are_refused() {
        use TokenError::*;
        let cases: &[(&str, TokenError)] = &[
            ("", BadPrefix),
            ("x1.2.join", BadPrefix),
            ("s1.2", MissingPart),
            ("s1", MissingPart),
            ("s1.2.", EmptyAction),
            ("s.2.join", BadNumber(String::new())),
            ("s01.2.join", BadNumber("01".into())),
            ("sA.2.join", BadNumber("A".into())),
            ("s-1.2.join", BadNumber("-1".into())),
            ("s1.zzzzzzzzzzzzz.join", BadNumber("zzzzzzzzzzzzz".into())),
            ("s1.2.jo\nin", BadActionChar),
            ("s1.2.ūdens", BadActionChar),
        ];
        for (s, want) in cases {
            assert_eq!(Token::decode(s).as_ref(), Err(want), "{s:?}");
        }
        let long = format!("s1.2.{}", "a".repeat(60));
        assert_eq!(Token::decode(&long), Err(TooLong));
        let long = format!("s1.2.{}", "a".repeat(MAX_ACTION_LEN + 1));
        assert_eq!(Token::decode(&long), Err(ActionTooLong));
        assert_eq!(Token::new(-1, 0, "join").encode(), Err(Negative));
        assert_eq!(Token::new(1, 0, "").encode(), Err(EmptyAction));
        assert_eq!(
            Token::new(1, 0, "a".repeat(MAX_ACTION_LEN + 1)).encode(),
            Err(ActionTooLong)
        );
    }

    proptest! {
        #[test]
        fn every_token_fits_and_round_trips(
            table in 0..=i64::MAX,
            seq in 0..=i64::MAX,
            action in "[ -~]{1,35}",
        ) {
            let t = Token::new(table, seq, action);
            let s = t.encode().unwrap();
            prop_assert!(s.len() <= MAX_TOKEN_LEN, "{} bytes: {}", s.len(), s);
            prop_assert_eq!(Token::decode(&s).unwrap(), t);
        }

        #[test]
        fn garbage_never_panics_and_decoded_tokens_re_encode(s in "\\PC{0,80}") {
            if let Ok(t) = Token::decode(&s) {
                prop_assert_eq!(t.encode().unwrap(), s);
            }
        }
    }
}
