//! All of stikis-discord's integration tests in one test binary: each file below is one
//! module (named as the file), and the helpers they share are compiled once. One binary
//! instead of one per file keeps a clean `cargo test --release` build within CI's time
//! (each binary optimised the same async and generic code again). Run one part with a filter,
//! e.g. `cargo test --release -p stikis-discord --test all binary::`.
//! tests/metrics.rs is its own binary: the metrics registry is one per process.

mod fake;

mod binary;
mod chaos;
mod discord_e2e;
mod durable;
mod fake_rules;
