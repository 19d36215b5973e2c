-- The newest version of each edited-in-place message that a process has claimed to show, and
-- its content. Several processes edit one table message; an edit is sent only by the process
-- that claimed a version at least as new as the stored one, and a process that sent an older
-- version than the one stored since sends the stored content again, so the message ends on
-- the newest state (docs/operations.md, "Stale renders").
-- Keep in step with migrations/sqlite/0008_renders.sql.
CREATE TABLE renders (
    platform  TEXT   NOT NULL,
    msg_key   TEXT   NOT NULL,
    recipient TEXT   NOT NULL,
    version   BIGINT NOT NULL,
    body      TEXT   NOT NULL,                              -- JSON: {"text", "buttons"}
    PRIMARY KEY (platform, msg_key, recipient)
);
