-- 0014: conditional moves (issue 24): the lines a player plans while waiting for their opponent.
--
-- * plans: one row a line, private to its player (user_id) in game_id. moves: what is still to
--   come of it, in the record's notation ('E3 F4 D2 D3'): the opponent's expected move first,
--   then the player's reply, and so on (passes the rules force are not written). ply: the ply
--   at which the first of them is to be played; a line whose ply the game has passed is dead.
--   Every change to a game's plans is made under the game's row lock (the move that plays a
--   planned reply changes them in its own transaction), so a reply is played once.
--   bot.games.plans says what a line may be; bot.storage.plans keeps them.

CREATE TABLE plans (
    id          INTEGER PRIMARY KEY,
    game_id     INTEGER NOT NULL REFERENCES games (id),
    user_id     INTEGER NOT NULL REFERENCES players (user_id),
    ply         INTEGER NOT NULL CHECK (ply >= 0),
    moves       TEXT NOT NULL CHECK (moves <> ''),
    created_at  TEXT NOT NULL
);

CREATE INDEX plans_by_game ON plans (game_id, user_id);
