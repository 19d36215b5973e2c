-- Which process committed each action, and which processes are alive. The process that
-- committed a table's last action drives its computer players and its turn timer; when that
-- process stops beating (it died), another takes the table over within seconds (Host::sweep).
ALTER TABLE actions ADD COLUMN process TEXT;                -- NULL: written before 0007

CREATE TABLE processes (
    id         TEXT    NOT NULL PRIMARY KEY,
    started_ms INTEGER NOT NULL,
    beat_ms    INTEGER NOT NULL                              -- last heartbeat, Unix ms
);
