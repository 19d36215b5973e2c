//! stikis-host: everything both chat bots share. This crate owns persistence (`store`), the
//! Fluent messages (`i18n`) and the button tokens (`token`); the lobby, the table actor and the
//! timers build on them.

pub mod i18n;
pub mod store;
pub mod token;
