//! All of stikis's integration tests in one test binary: each file below is one
//! module (named as the file), and the helpers they share are compiled once. One binary
//! instead of one per file keeps a clean `cargo test --release` build within CI's time
//! (each binary optimised the same async and generic code again). Run one part with a filter,
//! e.g. `cargo test --release -p stikis --test all arena::`.

mod arena;
mod examples;
mod help;
mod play;
mod polt_replay;
mod replay;
mod replay_belote;
mod tournament;
mod tui;
