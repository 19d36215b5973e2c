//! Which live process owns a table: rendezvous hashing over the live processes' ids, the
//! same in every process and every version. The host (`crate::owner`) and the store
//! (`Store::shows_alone`) both ask it; it asks nothing of either.

/// The weight of `process` for `table` (FNV-1a over both, then a 64-bit mixer): the same in
/// every process and every version, unlike the standard library's hasher.
fn weight(table: i64, process: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in table.to_le_bytes().iter().chain(process.as_bytes()) {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^ (h >> 33)
}

/// The owner of `table` among the live processes (None when none is known).
pub fn owner_among(table: i64, live: &[String]) -> Option<&str> {
    live.iter()
        .max_by_key(|p| (weight(table, p), p.as_str()))
        .map(String::as_str)
}
