-- A game whose thread or channel refused the bot's posts (it lost its permissions there, or
-- the channel is gone): its posts are given up at once instead of tried again and again
-- (Discord bans a bot that makes 10,000 refused requests in 10 minutes), until a player's
-- command there shows the bot may post again.

ALTER TABLE games ADD COLUMN channel_lost_at TEXT;
