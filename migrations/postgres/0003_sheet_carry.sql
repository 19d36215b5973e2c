-- The chat's open score sheet as a table found it when it started (totals and open pules,
-- keyed by player): the table plays on from it, and writes the sheet back as that plus its own
-- play, also after a restart.
CREATE TABLE sheet_carry (
    table_id BIGINT PRIMARY KEY REFERENCES tables (id),
    sheet    TEXT NOT NULL                                 -- JSON {totals, pules}
);
