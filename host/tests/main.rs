//! All of stikis-host's integration tests in one test binary: each file below is one
//! module (named as the file), and the helpers they share are compiled once. One binary
//! instead of one per file keeps a clean `cargo test --release` build within CI's time
//! (each binary optimised the same async and generic code again). Run one part with a filter,
//! e.g. `cargo test --release -p stikis-host --test all host_belote::`.

mod common;

mod durable;
mod host_belote;
mod host_lang;
mod host_lobby;
mod host_polt;
mod host_quiet;
mod host_race;
mod host_sheet;
mod host_tournament;
mod host_zole;
mod parts;
mod picture;
mod store;
