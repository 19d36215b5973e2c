//! stikis-host: everything both chat bots share. Adapters send `Request`s to the `Host`
//! (`lobby`) and show the `Outbox` it returns (`outbox`); `table` runs one table (commit first,
//! computer players, timers), `games` is each game's face, `store` the database, `i18n` the
//! messages, `token` the button tokens and `links` the addresses of the web pages (served by
//! the web adapter, `stikis-web`: the host has no HTTP code).

pub mod boards;
pub mod button;
mod config;
mod deferred;
pub mod draw;
pub mod games;
pub mod i18n;
pub mod in_order;
mod langs;
pub mod links;
pub mod lobby;
pub mod msgkey;
pub mod observe;
pub mod outbox;
pub mod owner;
mod ownership;
pub mod pages;
mod peers;
pub mod picture;
mod publish;
mod recovery;
mod running;
pub mod store;
pub mod table;
mod tables;
mod timers;
pub mod token;
pub mod tournament;
pub mod view;
pub mod watching;

pub use lobby::{Host, HostConfig};
pub use outbox::{Board, Button, Command, HandDelivery, Out, Outbox, Press, Request, TournamentVerb, User};
