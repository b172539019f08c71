-- 0012 for PostgreSQL: the same columns as sql/0012_time_banks.sql (time banks, issue 24).
--
-- A bank is spelled as bot.games.timecontrol spells it: 'bank:10d+36h/10d' (what each player
-- starts with + what each move adds / the most it may hold). A clock is days per move
-- (clock_days) or a bank (bank), never both; NULL in both: no clock.
-- * challenges.bank: the bank chosen.
-- * guild_settings.default_bank: a server's default bank (default_clock_days is then NULL).
-- * games.bank: the game's bank; white_bank_seconds, black_bank_seconds: what is in each
--   player's bank (the player to move's as it was when their turn began: games.deadline_at is
--   still THE moment they run out, their turn's start after any vacation plus their bank).
-- * moves.white_bank_seconds, black_bank_seconds: both banks when that ply's turn began, which
--   a takeback to that ply puts back. NULL in games without a bank.

ALTER TABLE challenges ADD COLUMN bank TEXT;
ALTER TABLE guild_settings ADD COLUMN default_bank TEXT;
ALTER TABLE games ADD COLUMN bank TEXT;
ALTER TABLE games ADD COLUMN white_bank_seconds INTEGER CHECK (white_bank_seconds >= 0);
ALTER TABLE games ADD COLUMN black_bank_seconds INTEGER CHECK (black_bank_seconds >= 0);
ALTER TABLE moves ADD COLUMN white_bank_seconds INTEGER CHECK (white_bank_seconds >= 0);
ALTER TABLE moves ADD COLUMN black_bank_seconds INTEGER CHECK (black_bank_seconds >= 0);
