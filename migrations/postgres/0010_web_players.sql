-- The web face, continued (host/src/web): ratings over time for the charts, the games of a
-- player, and communities listed on the front page. Keep in step with the other backend's 0010.

-- Each rated table leaves one row per rated player: the rating after that table. Written in
-- the transaction that applies the table's ratings, so it is there exactly once per table.
CREATE TABLE rating_history (
    platform     TEXT    NOT NULL,
    community_id TEXT    NOT NULL,
    game         TEXT    NOT NULL,
    player       TEXT    NOT NULL,
    table_id     BIGINT  NOT NULL,
    mu           DOUBLE PRECISION NOT NULL,
    sigma        DOUBLE PRECISION NOT NULL,
    at_ms        BIGINT  NOT NULL,
    PRIMARY KEY (platform, community_id, game, player, table_id)
);

-- A player's page lists the games they sat at.
CREATE INDEX seats_by_user ON seats (user_id) WHERE user_id IS NOT NULL;

-- A community an admin made public (/web public <name>) is listed on the site's front page
-- under this name; NULL: only those with the link find its pages.
ALTER TABLE web_links ADD COLUMN public_name TEXT;
