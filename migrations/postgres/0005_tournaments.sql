-- Tournaments (docs/tournaments.md). Keep in step with the other backend's 0005.
--
-- A tournament's tables are ordinary tables with a slot: several of them share one chat, so
-- the one-open-table-per-chat key now counts per slot ('' for the chat's ordinary table).
ALTER TABLE tables ADD COLUMN slot TEXT NOT NULL DEFAULT '';
ALTER TABLE tables ADD COLUMN tournament_id BIGINT;          -- NULL: not a tournament table
ALTER TABLE tables ADD COLUMN deal_limit BIGINT;             -- NULL: no deal limit
ALTER TABLE tables ADD COLUMN deadline_ms BIGINT;            -- NULL: no time limit
DROP INDEX tables_open_per_chat;
CREATE UNIQUE INDEX tables_open_per_chat ON tables (platform, chat_id, thread_id, slot)
    WHERE status IN ('lobby', 'running');

CREATE TABLE tournaments (
    id              BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    platform        TEXT    NOT NULL,
    community_id    TEXT    NOT NULL,
    chat_id         TEXT    NOT NULL,
    thread_id       TEXT    NOT NULL,
    creator_id      TEXT    NOT NULL,
    rules           TEXT    NOT NULL,                      -- JSON, as the records' "rules"
    rounds          BIGINT NOT NULL CHECK (rounds >= 1),
    deals_per_round BIGINT CHECK (deals_per_round >= 1),  -- NULL: timed rounds
    round_minutes   BIGINT CHECK (round_minutes >= 1),    -- NULL: no time limit
    turn_secs       BIGINT CHECK (turn_secs >= 1),        -- NULL: the chat's turn timer
    computers       BOOLEAN NOT NULL,                      -- may the admin seat computer players
    status          TEXT    NOT NULL
                    CHECK (status IN ('registration', 'running', 'paused', 'finished', 'cancelled')),
    draw_seed       TEXT    NOT NULL,                      -- revealed at the start
    commitment      TEXT    NOT NULL,                      -- its SHA-256, posted at once
    created_ms      BIGINT NOT NULL,
    updated_ms      BIGINT NOT NULL
);
-- One tournament open per chat (thread, topic).
CREATE UNIQUE INDEX tournaments_open_per_chat ON tournaments (platform, chat_id, thread_id)
    WHERE status IN ('registration', 'running', 'paused');

CREATE TABLE tournament_players (
    tournament_id BIGINT NOT NULL REFERENCES tournaments (id),
    entry         BIGINT NOT NULL,                         -- registration order, from 0
    user_id       TEXT,                                    -- NULL for a computer player
    bot_level     BIGINT,                                  -- NULL for a person
    display_name  TEXT    NOT NULL,                        -- unique in the tournament
    withdrawn     BOOLEAN NOT NULL DEFAULT FALSE,
    PRIMARY KEY (tournament_id, entry),
    CHECK ((user_id IS NULL) <> (bot_level IS NULL))
);
CREATE UNIQUE INDEX tournament_players_user ON tournament_players (tournament_id, user_id)
    WHERE user_id IS NOT NULL;
CREATE UNIQUE INDEX tournament_players_name ON tournament_players (tournament_id, display_name);

-- A round's seating, decided once (the key keeps two processes from deciding it twice):
-- JSON [[player name, ...], ...], table 1 first, each in seat order.
CREATE TABLE tournament_rounds (
    tournament_id BIGINT NOT NULL REFERENCES tournaments (id),
    round         BIGINT NOT NULL CHECK (round >= 1),
    seating       TEXT    NOT NULL,
    started_ms    BIGINT NOT NULL,
    PRIMARY KEY (tournament_id, round)
);
