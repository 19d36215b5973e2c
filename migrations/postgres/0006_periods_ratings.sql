-- Leaderboards per period and season, and skill ratings. Keep in step with the other
-- backend's 0006.

-- One row per person per finished deal, written with the deal's stats (once, under the same
-- guard): the boards of a day, week, month or season sum these.
CREATE TABLE results (
    platform     TEXT    NOT NULL,
    community_id TEXT    NOT NULL,
    game         TEXT    NOT NULL,
    user_id      TEXT    NOT NULL,
    display_name TEXT    NOT NULL,
    table_id     BIGINT NOT NULL,
    deal_no      BIGINT NOT NULL,
    points       BIGINT NOT NULL,
    declarer_win BIGINT NOT NULL,
    at_ms        BIGINT NOT NULL,
    PRIMARY KEY (table_id, deal_no, user_id)
);
CREATE INDEX results_by_time ON results (platform, community_id, game, at_ms);

-- A community's seasons: season N runs from its start to the next one's. Without a row the
-- community is in season 1, which began with its first game.
CREATE TABLE seasons (
    platform     TEXT    NOT NULL,
    community_id TEXT    NOT NULL,
    number       BIGINT NOT NULL CHECK (number >= 1),
    started_ms   BIGINT NOT NULL,
    PRIMARY KEY (platform, community_id, number)
);

-- Weng-Lin ratings per player, game and community (players: user ids; computer players as
-- computer:<level>, so that people are rated against something fixed).
CREATE TABLE ratings (
    platform     TEXT    NOT NULL,
    community_id TEXT    NOT NULL,
    game         TEXT    NOT NULL,
    player       TEXT    NOT NULL,
    display_name TEXT    NOT NULL,
    mu           DOUBLE PRECISION NOT NULL,
    sigma        DOUBLE PRECISION NOT NULL,
    games        BIGINT NOT NULL,
    last_change  BIGINT NOT NULL,                         -- the shown rating's last move
    updated_ms   BIGINT NOT NULL,
    PRIMARY KEY (platform, community_id, game, player)
);
CREATE INDEX ratings_by_game ON ratings (platform, community_id, game);

-- Which finished table has been rated, so a table closed twice (two processes, a retry) is
-- rated once.
CREATE TABLE ratings_applied (
    table_id BIGINT PRIMARY KEY
);

-- A half-made choice that is not a move (Zole: the first card of a burial), so a restart
-- keeps it: valid while the table is still at action seq.
CREATE TABLE selections (
    table_id BIGINT PRIMARY KEY,
    seat     BIGINT NOT NULL,
    seq      BIGINT NOT NULL,
    code     TEXT    NOT NULL
);

-- The names a community gives its computer players, by seat (JSON list of strings; '' or a
-- missing entry: the default name in the reader's language).
ALTER TABLE communities ADD COLUMN computer_names TEXT NOT NULL DEFAULT '[]';

-- A turn timer's warning or move, claimed by the one process that acts on it: several
-- processes with the table loaded all arm the timer, and the first claim wins.
CREATE TABLE timer_claims (
    table_id BIGINT NOT NULL,
    seq      BIGINT NOT NULL,
    kind     TEXT    NOT NULL,                              -- 'warn' or 'move'
    PRIMARY KEY (table_id, seq, kind)
);
