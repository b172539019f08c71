-- The language a player's Discord client last used with the bot: for messages sent to them
-- outside any interaction (reminder DMs), which Discord gives no locale for.

ALTER TABLE players ADD COLUMN locale TEXT;
