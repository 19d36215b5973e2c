//! One module per game; each owns its deal, bidding, play, scoring, options and records.

pub mod belote;
pub mod polt;
pub mod zole;
