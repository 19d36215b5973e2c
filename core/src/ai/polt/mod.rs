//! Computer players for Polt to Tzar.
