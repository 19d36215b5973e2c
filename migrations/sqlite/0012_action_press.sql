-- Which handed press made an action: "<receiving process>/<its number>" for a press that one
-- process received and handed to the table's owner, which committed it; NULL for every other
-- action. A receiver whose answer from the owner never came reads it to tell its own press's
-- move from the same button pressed again and handed over too (owner.rs, answer_from_log).
-- Keep in step with migrations/postgres/0012_action_press.sql.
ALTER TABLE actions ADD COLUMN press TEXT;
