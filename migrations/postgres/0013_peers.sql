-- Where each process listens for the others, with its secret ("address secret"): presses
-- handed to a table's owner go straight to it, not through the database (host/src/peers.rs).
-- NULL: nowhere (the process is told through the database, NOTIFY).
-- Keep in step with migrations/sqlite/0013_peers.sql.
ALTER TABLE processes ADD COLUMN peer TEXT;
