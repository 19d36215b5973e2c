-- The web face (host/src/web). Keep in step with the other backend's 0009.

-- One unguessable token per community: its pages live under /c/<token>/. An admin's
-- "/web new" replaces it, and every old link stops working.
CREATE TABLE web_links (
    platform     TEXT    NOT NULL,
    community_id TEXT    NOT NULL,
    token        TEXT    NOT NULL UNIQUE,
    created_ms   BIGINT  NOT NULL,
    PRIMARY KEY (platform, community_id)
);

-- The community's finished games, newest first, for its page.
CREATE INDEX tables_closed_per_community ON tables (platform, community_id, updated_ms)
    WHERE status IN ('finished', 'stopped');

-- The double-dummy analysis of a finished deal, computed once in the background by whichever
-- process first shows the deal: per action, the card played judged against the others.
CREATE TABLE analyses (
    table_id BIGINT  NOT NULL REFERENCES tables (id),
    deal_no  BIGINT  NOT NULL CHECK (deal_no >= 1),
    analysis TEXT    NOT NULL,                             -- JSON
    PRIMARY KEY (table_id, deal_no)
);
