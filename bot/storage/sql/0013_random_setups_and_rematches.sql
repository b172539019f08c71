-- 0013: random setups and rematches (issue 24).
--
-- * challenges.setup: 'standard' (the players place the 49 pieces) or 'random' (the bot places
--   them at random when the game begins, and the movement starts at once).
-- * games.setup_seed: a random setup's seed (NULL: a standard setup). Its 49 placements are
--   recorded as ordinary moves, marked automatic (not the players' own acts);
--   bot.games.setups makes the same placements again from the seed.
-- * challenges.rematch_of, games.rematch_of: the game a rematch's challenge, or a rematch
--   itself, plays again with colours swapped. One rematch a game: the service looks for one
--   under the old game's row lock. No foreign key, so that copy-database's one cycle of them
--   (challenges <-> games) stays the one it breaks.

ALTER TABLE challenges ADD COLUMN setup TEXT NOT NULL DEFAULT 'standard'
    CHECK (setup IN ('standard', 'random'));
ALTER TABLE challenges ADD COLUMN rematch_of INTEGER;
ALTER TABLE games ADD COLUMN setup_seed INTEGER;
ALTER TABLE games ADD COLUMN rematch_of INTEGER;
CREATE INDEX challenges_by_rematch_of ON challenges (rematch_of) WHERE rematch_of IS NOT NULL;
CREATE INDEX games_by_rematch_of ON games (rematch_of) WHERE rematch_of IS NOT NULL;
