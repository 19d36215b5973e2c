-- Which platform message shows which outbox message, so an adapter edits a table's message in
-- place, also after a restart. `msg_key` is the outbox key (t12.d3, t12.d3.s1, t12.lobby);
-- `recipient` the chat (public messages) or the user (private ones).
CREATE TABLE messages (
    platform   TEXT NOT NULL,
    msg_key    TEXT NOT NULL,
    recipient  TEXT NOT NULL,
    message_id TEXT NOT NULL,
    PRIMARY KEY (platform, msg_key, recipient)
);
