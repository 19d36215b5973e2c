-- Posts that a change of state owes a chat and that carry no table of their own to be rebuilt
-- from: a table's end ("The table is stopped", the final totals) and a tournament's end. Kept in
-- the transaction of that change, before they are sent, so a process killed while one waits
-- (behind a group's post budget, or in an unsent outbox) does not lose it: when `due_ms` has
-- passed, a process's sweep posts each one no adapter recorded as posted (`messages`, under
-- `msg_key`), once, and forgets the posted ones. Keep in step with
-- migrations/postgres/0015_due_posts.sql.
CREATE TABLE due_posts (
    platform     TEXT   NOT NULL,
    msg_key      TEXT   NOT NULL,
    community_id TEXT   NOT NULL,
    chat_id      TEXT   NOT NULL,
    thread_id    TEXT   NOT NULL,                   -- '' when the chat has no thread
    body         TEXT   NOT NULL,
    created_ms   INTEGER NOT NULL,
    due_ms       INTEGER NOT NULL,
    PRIMARY KEY (platform, msg_key)
);
CREATE INDEX due_posts_due ON due_posts (due_ms);
