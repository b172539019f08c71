-- 0015: how the bot reaches a player about their turns (issue 24: a daily digest instead of
-- pings), and the themes of the boards it draws (issue 27: a light theme).
--
-- * players.turn_notices: 'ping' (a ping on every turn: the default, as before), 'digest' (one
--   DM a day at the player's hour, listing every game where it is their turn) or 'none'.
--   Deadline reminders (players.notify) come whatever it is.
-- * players.digest_hour (0-23) and players.time_zone (an IANA name such as 'Europe/Warsaw', or
--   'UTC'): the player's hour, in their own time zone, asked once (Discord tells a bot no time
--   zone). NULL until chosen.
-- * players.next_digest_at: when the next digest is due (NULL: none is); the housekeeping pass
--   finds the due ones by its index, and moves it on in the transaction that queues the digest
--   in the outbox, under the player's row lock: one digest a due time, however many processes.
--   players.last_digest_at: when the last one was queued (at most one a day: the next is on a
--   later day of the player's own calendar).
-- * players.theme, guild_settings.theme: 'dark' or 'light'; NULL: the bot's default (dark). A
--   server's theme is for its public posts, a player's for what the bot shows them privately.

ALTER TABLE players ADD COLUMN turn_notices TEXT NOT NULL DEFAULT 'ping';
ALTER TABLE players ADD COLUMN digest_hour INTEGER CHECK (digest_hour BETWEEN 0 AND 23);
ALTER TABLE players ADD COLUMN time_zone TEXT;
ALTER TABLE players ADD COLUMN next_digest_at TEXT;
ALTER TABLE players ADD COLUMN last_digest_at TEXT;
ALTER TABLE players ADD COLUMN theme TEXT;
ALTER TABLE guild_settings ADD COLUMN theme TEXT;

CREATE INDEX players_by_next_digest ON players (next_digest_at) WHERE next_digest_at IS NOT NULL;
