-- Where each process listens for the others, with its secret ("address secret"): presses
-- handed to a table's owner go straight to it, not through the database (host/src/peers.rs).
-- NULL: nowhere (on SQLite, always: one process uses it).
-- Keep in step with migrations/postgres/0013_peers.sql.
ALTER TABLE processes ADD COLUMN peer TEXT;
