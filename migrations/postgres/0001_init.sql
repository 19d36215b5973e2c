-- stikis schema, PostgreSQL. Keep in step with migrations/sqlite/0001_init.sql: the same tables,
-- columns and keys; only types differ. Times are Unix milliseconds.

CREATE TABLE communities (
    platform        TEXT    NOT NULL,
    community_id    TEXT    NOT NULL,
    lang            TEXT    NOT NULL CHECK (lang IN ('lv', 'en', 'ru')),
    turn_limit_secs BIGINT CHECK (turn_limit_secs > 0),   -- NULL: no time limit
    auto_start      BOOLEAN NOT NULL,
    PRIMARY KEY (platform, community_id)
);

CREATE TABLE users (
    platform TEXT NOT NULL,
    user_id  TEXT NOT NULL,
    lang     TEXT CHECK (lang IN ('lv', 'en', 'ru')),      -- NULL: the community's language
    PRIMARY KEY (platform, user_id)
);

CREATE TABLE tables (
    id           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    platform     TEXT    NOT NULL,
    community_id TEXT    NOT NULL,
    chat_id      TEXT    NOT NULL,
    thread_id    TEXT    NOT NULL,                         -- '' when the chat has no thread
    game         TEXT    NOT NULL,
    rules        TEXT    NOT NULL,                         -- JSON, as the record's "rules"
    creator_id   TEXT    NOT NULL,
    status       TEXT    NOT NULL CHECK (status IN ('lobby', 'running', 'finished', 'stopped')),
    created_ms   BIGINT NOT NULL,
    updated_ms   BIGINT NOT NULL
);
-- One open table per chat/thread/topic, enforced by the database so two processes cannot
-- both open one.
CREATE UNIQUE INDEX tables_open_per_chat ON tables (platform, chat_id, thread_id)
    WHERE status IN ('lobby', 'running');
CREATE INDEX tables_open_per_community ON tables (platform, community_id)
    WHERE status IN ('lobby', 'running');

CREATE TABLE seats (
    table_id     BIGINT NOT NULL REFERENCES tables (id),
    seat         BIGINT NOT NULL CHECK (seat >= 0),
    user_id      TEXT,                                     -- NULL for a computer player
    display_name TEXT    NOT NULL,
    bot_level    BIGINT,                                  -- NULL for a person
    away         BOOLEAN NOT NULL DEFAULT FALSE,
    PRIMARY KEY (table_id, seat),
    CHECK ((user_id IS NULL) <> (bot_level IS NULL))
);
CREATE UNIQUE INDEX seats_user_once ON seats (table_id, user_id) WHERE user_id IS NOT NULL;

-- The append-only action log. The key is what stops two processes from committing the same
-- sequence number of a table.
CREATE TABLE actions (
    table_id BIGINT NOT NULL REFERENCES tables (id),
    seq      BIGINT NOT NULL CHECK (seq >= 1),
    payload  TEXT    NOT NULL,                             -- JSON record action
    at_ms    BIGINT NOT NULL,
    PRIMARY KEY (table_id, seq)
);

CREATE TABLE deals (
    table_id       BIGINT NOT NULL REFERENCES tables (id),
    deal_no        BIGINT NOT NULL CHECK (deal_no >= 1),
    first_seq      BIGINT NOT NULL,                       -- seq of the deal's first action
    seed_hex       TEXT    NOT NULL,
    commitment_hex TEXT    NOT NULL,
    deal           TEXT    NOT NULL,                       -- JSON record deal, without actions
    at_ms          BIGINT NOT NULL,
    PRIMARY KEY (table_id, deal_no)
);

CREATE TABLE score_sheets (
    id           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    platform     TEXT    NOT NULL,
    community_id TEXT    NOT NULL,
    chat_id      TEXT    NOT NULL,
    thread_id    TEXT    NOT NULL,
    game         TEXT    NOT NULL,
    totals       TEXT    NOT NULL,                         -- JSON [{player, name, points}]
    pules        TEXT    NOT NULL,                         -- JSON, the game's own shape
    created_ms   BIGINT NOT NULL,
    updated_ms   BIGINT NOT NULL,
    closed_ms    BIGINT                                   -- NULL while open
);
CREATE UNIQUE INDEX score_sheets_open ON score_sheets (platform, chat_id, thread_id, game)
    WHERE closed_ms IS NULL;

CREATE TABLE stats (
    platform      TEXT    NOT NULL,
    community_id  TEXT    NOT NULL,
    game          TEXT    NOT NULL,
    user_id       TEXT    NOT NULL,
    display_name  TEXT    NOT NULL,
    games         BIGINT NOT NULL,
    deals         BIGINT NOT NULL,
    declarer_wins BIGINT NOT NULL,
    points        BIGINT NOT NULL,
    pules_written BIGINT NOT NULL,
    pules_removed BIGINT NOT NULL,
    PRIMARY KEY (platform, community_id, game, user_id)
);
CREATE INDEX stats_by_points ON stats (platform, community_id, game, points);

-- Which (table, deal) has been counted into stats, so that a deal replayed after a restart,
-- or finished by two processes, is counted once.
CREATE TABLE stats_applied (
    table_id BIGINT NOT NULL,
    deal_no  BIGINT NOT NULL,
    PRIMARY KEY (table_id, deal_no)
);
