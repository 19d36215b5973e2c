-- Where a Telegram community's hands go (`/hands group|private`): 1, ephemeral messages in the
-- group where the Bot API has them; 0, each person's private chat.
-- Keep in step with migrations/postgres/0014_hands.sql.
ALTER TABLE communities ADD COLUMN hands_in_group INTEGER NOT NULL DEFAULT 1;
