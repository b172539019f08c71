-- A turn played by a command in the game's own channel is posted as the command's answer
-- (Discord's interaction endpoints are outside the bot's global rate limit; a channel post is
-- not). The row keeps the interaction's route (its application's webhook and token, good for
-- 15 minutes): whoever posts the row later (after a crash) first asks Discord whether that
-- interaction was answered with the board, so the board is never posted twice; and the next
-- placement board deletes this one through the same webhook.

ALTER TABLE notifications ADD COLUMN answer TEXT;
