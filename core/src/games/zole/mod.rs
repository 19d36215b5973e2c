//! Zole, the national card game of Latvia (RULES.md section 1): cards and tables, options and
//! presets, one deal, its scoring, pules and the tree, sessions, seat views and records.

pub mod arena;
pub mod deal;
pub mod legal;
pub mod options;
pub mod pules;
pub mod record;
pub mod scoring;
pub mod session;
pub mod tables;
pub mod view;

pub use deal::{active_seats, Action, Bid, Contract, Deal, DealError, Phase, ZoleError};
pub use legal::Legal;
pub use options::{AllPass, Bands, GaldinsTalon, Options, Surrender};
pub use pules::{PuleEvents, Pules};
pub use scoring::{Kind, Outcome};
pub use session::{DealEntry, DealResult, Session, SessionError};
pub use view::SeatView;
