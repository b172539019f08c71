-- Games against the computer (issue 8): which player is the bot, and at what level it plays.

ALTER TABLE games ADD COLUMN computer_id INTEGER;     -- the bot's user id; NULL: two humans
ALTER TABLE games ADD COLUMN computer_level TEXT;     -- ai.Level value, e.g. 'medium'

CREATE INDEX games_active_with_computer ON games (id)
    WHERE status = 'active' AND computer_id IS NOT NULL;
