-- The number of seats a table was opened with (Zole 3-5, Polt 5-7): a lobby that survives a
-- restart still waits for as many players as it was opened for. 0 on tables opened before
-- this column existed: the game's smallest table.
ALTER TABLE tables ADD COLUMN seat_count BIGINT NOT NULL DEFAULT 0;
