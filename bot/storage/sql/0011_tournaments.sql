-- 0011: tournaments and leagues, played as ordinary games of the bot.
--
-- * tournaments: one row per competition. A league is a row of format 'league' that holds its
--   players from season to season; each season's divisions are round robins of their own, rows
--   whose league_id names it (with their season and division, 1 the top).
-- * tournament_players: who is in (seed: the order they are ranked in before any game; a
--   league's row keeps each player's division for the next season, NULL for a newcomer).
-- * tournament_games: the pairings, by round and board; a knockout match's later games (after
--   a draw, colours swapped) is leg 2. black_id NULL is a bye. game_id is the bot's game, made
--   in the same transaction as the pairing; result and the score are copied from it when it
--   ends (or set for a bye, or a forfeit of a game that never started).
-- * games.status 'pending': a tournament's game waiting for its thread (the tournament's
--   channel is its channel_id until then). Its clock starts when the thread is made.
-- * guild_settings.organiser_role_id: besides Manage Server, who may run tournaments.

CREATE TABLE tournaments (
    id                  INTEGER PRIMARY KEY,
    guild_id            INTEGER NOT NULL,
    channel_id          INTEGER NOT NULL,      -- where it was created; its games' threads start here
    thread_id           INTEGER,               -- its own thread (standings, rounds), once made
    name                TEXT NOT NULL,
    format              TEXT NOT NULL,         -- round_robin, double_round_robin, swiss, knockout, league
    organiser_id        INTEGER NOT NULL,
    players_own         INTEGER NOT NULL DEFAULT 0 CHECK (players_own IN (0, 1)),  -- made by a player
    clock               TEXT,                  -- the games' time control, as the service names it; NULL: none
    rated               INTEGER NOT NULL DEFAULT 1 CHECK (rated IN (0, 1)),
    rounds              INTEGER CHECK (rounds > 0),       -- swiss: how many
    max_players         INTEGER CHECK (max_players > 1),
    starts_at           TEXT,                  -- start at this time (NULL: by hand, or when full)
    role_id             INTEGER,               -- who may join: this role's members (NULL: anyone)
    division_size       INTEGER CHECK (division_size > 2),  -- league
    moves_down          INTEGER CHECK (moves_down >= 0),    -- league: how many go down (up: 2)
    league_id           INTEGER REFERENCES tournaments (id),
    season              INTEGER,               -- a league's current season; a division's own
    division            INTEGER,               -- a league division's number (1: the top)
    status              TEXT NOT NULL,         -- open, running, finished, cancelled
    round               INTEGER NOT NULL DEFAULT 0,  -- the round being played (0: not started)
    standings_message_id INTEGER,              -- the last standings image posted, to replace
    created_at          TEXT NOT NULL,
    started_at          TEXT,
    finished_at         TEXT,
    version             INTEGER NOT NULL DEFAULT 0
);

CREATE INDEX tournaments_by_guild ON tournaments (guild_id, status);
CREATE INDEX tournaments_by_league ON tournaments (league_id, season) WHERE league_id IS NOT NULL;
CREATE INDEX tournaments_to_start ON tournaments (starts_at)
    WHERE status = 'open' AND starts_at IS NOT NULL;

CREATE TABLE tournament_players (
    tournament_id  INTEGER NOT NULL REFERENCES tournaments (id),
    user_id        INTEGER NOT NULL REFERENCES players (user_id),
    seed           INTEGER NOT NULL,
    division       INTEGER,
    joined_at      TEXT NOT NULL,
    withdrawn_at   TEXT,
    PRIMARY KEY (tournament_id, user_id)
);

CREATE INDEX tournament_players_by_user ON tournament_players (user_id);

CREATE TABLE tournament_games (
    tournament_id  INTEGER NOT NULL REFERENCES tournaments (id),
    round          INTEGER NOT NULL CHECK (round > 0),
    board          INTEGER NOT NULL CHECK (board > 0),
    leg            INTEGER NOT NULL DEFAULT 1 CHECK (leg > 0),
    number         INTEGER NOT NULL,           -- the game's number in the tournament (#1, #2, ...)
    white_id       INTEGER NOT NULL REFERENCES players (user_id),
    black_id       INTEGER REFERENCES players (user_id),  -- NULL: a bye
    game_id        INTEGER REFERENCES games (id),
    result         TEXT,                       -- white, black, draw, bye; NULL while played
    score_white    INTEGER,
    score_black    INTEGER,
    forfeit        INTEGER NOT NULL DEFAULT 0 CHECK (forfeit IN (0, 1)),  -- decided without play
    PRIMARY KEY (tournament_id, round, board, leg),
    UNIQUE (tournament_id, number)
);

CREATE UNIQUE INDEX tournament_games_by_game ON tournament_games (game_id) WHERE game_id IS NOT NULL;

ALTER TABLE guild_settings ADD COLUMN organiser_role_id INTEGER;
