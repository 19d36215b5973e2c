-- A lobby's version: every change to a table's seats (taken, left, handed to a computer
-- player) counts one more, in the statement that makes it. Several processes render one
-- lobby; a render carries the count it read before the seats, so a render of older seats
-- never replaces a newer one (renders, 0008). Keep in step with the other backend's 0011.
ALTER TABLE tables ADD COLUMN seats_rev INTEGER NOT NULL DEFAULT 0;

CREATE TRIGGER seats_rev_insert AFTER INSERT ON seats
BEGIN
    UPDATE tables SET seats_rev = seats_rev + 1 WHERE id = NEW.table_id;
END;

CREATE TRIGGER seats_rev_update AFTER UPDATE ON seats
BEGIN
    UPDATE tables SET seats_rev = seats_rev + 1 WHERE id = NEW.table_id;
END;

CREATE TRIGGER seats_rev_delete AFTER DELETE ON seats
BEGIN
    UPDATE tables SET seats_rev = seats_rev + 1 WHERE id = OLD.table_id;
END;
