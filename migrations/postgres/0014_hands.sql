-- Where a Telegram community's hands go (`/hands group|private`): true, ephemeral messages in
-- the group where the Bot API has them; false, each person's private chat.
-- Keep in step with migrations/sqlite/0014_hands.sql.
ALTER TABLE communities ADD COLUMN hands_in_group BOOLEAN NOT NULL DEFAULT TRUE;
