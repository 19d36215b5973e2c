//! A button under a message, as every surface draws it. A leaf: the store keeps the buttons
//! of the messages shown (`store::shown`) without importing what uses the store.

/// A button under a message: its label and the token a press sends back.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Button {
    pub label: String,
    pub token: String,
    /// Shown but not pressable: a card of a hand that cannot be played now, drawn among the
    /// playable ones where a surface has disabled buttons (Telegram's ephemeral hands, Bot
    /// API 10.3). Its token is the move it would be, so a forged press on it gets the answer
    /// of any illegal move. Surfaces without disabled buttons draw `pressable` rows.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub disabled: bool,
    /// The card of the hand the button is made with (a card to play, or to pick), typed: a
    /// surface that lays the hand out again (`outbox::pressable`) knows it without reading
    /// the token.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub card: Option<stikis_core::cards::Card>,
}

impl Button {
    /// A pressable button.
    pub fn new(label: impl Into<String>, token: impl Into<String>) -> Button {
        Button {
            label: label.into(),
            token: token.into(),
            disabled: false,
            card: None,
        }
    }
}
