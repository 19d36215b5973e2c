-- A lobby's version: every change to a table's seats (taken, left, handed to a computer
-- player) counts one more, in the statement that makes it. Several processes render one
-- lobby; a render carries the count it read before the seats, so a render of older seats
-- never replaces a newer one (renders, 0008). Keep in step with the other backend's 0011.
ALTER TABLE tables ADD COLUMN seats_rev BIGINT NOT NULL DEFAULT 0;

CREATE FUNCTION stikis_seats_rev() RETURNS trigger AS $$
BEGIN
    UPDATE tables SET seats_rev = seats_rev + 1 WHERE id = COALESCE(NEW.table_id, OLD.table_id);
    RETURN NULL;
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER seats_rev AFTER INSERT OR UPDATE OR DELETE ON seats
    FOR EACH ROW EXECUTE FUNCTION stikis_seats_rev();
