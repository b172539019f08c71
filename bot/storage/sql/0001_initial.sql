-- 0001: players, per-server settings, challenges, games and every move.
--
-- Conventions for this and later migrations:
-- * Discord ids (users, servers, channels, threads) are INTEGER snowflakes, opaque here.
-- * Times are TEXT, ISO 8601 in UTC with microseconds ("2025-01-31T18:04:05.123456+00:00"):
--   one fixed width, so they sort and compare as text.
-- * Positions and moves are TEXT in the rules' own notation (Position.to_text(), "E3F4").
-- * Columns whose set of values will grow (statuses, end reasons) have no CHECK: SQLite cannot
--   change a CHECK without rebuilding the table, so the code's enums validate them instead.
--   Columns that cannot grow (a colour, a flag) are checked here.

PRAGMA application_id = 1146507086;  -- "DVON": marks the file as a dvonn-bot database

CREATE TABLE players (
    user_id     INTEGER PRIMARY KEY,
    created_at  TEXT NOT NULL
);

CREATE TABLE guild_settings (
    guild_id            INTEGER PRIMARY KEY,
    -- NULL: not set (the bot's default applies); 0: no clock; n: n days per move.
    default_clock_days  INTEGER CHECK (default_clock_days >= 0),
    use_threads         INTEGER NOT NULL DEFAULT 1 CHECK (use_threads IN (0, 1)),
    locale              TEXT,
    updated_at          TEXT NOT NULL
);

CREATE TABLE challenges (
    id                 INTEGER PRIMARY KEY,
    guild_id           INTEGER,                -- NULL outside a server
    channel_id         INTEGER NOT NULL,       -- where the challenge was posted
    challenger_id      INTEGER NOT NULL REFERENCES players (user_id),
    opponent_id        INTEGER REFERENCES players (user_id),  -- NULL: open to anyone there
    challenger_colour  TEXT CHECK (challenger_colour IN ('W', 'B')),  -- NULL: drawn on accept
    clock_days         INTEGER CHECK (clock_days > 0),           -- NULL: no clock
    status             TEXT NOT NULL,          -- open, accepted, declined, cancelled, expired
    created_at         TEXT NOT NULL,
    expires_at         TEXT NOT NULL,
    closed_at          TEXT,
    closed_by          INTEGER,                -- who accepted, declined or cancelled it
    game_id            INTEGER REFERENCES games (id),
    CHECK (opponent_id IS NULL OR opponent_id <> challenger_id)
);

CREATE INDEX challenges_open_by_expiry ON challenges (expires_at) WHERE status = 'open';
CREATE INDEX challenges_open_by_channel ON challenges (channel_id) WHERE status = 'open';

CREATE TABLE games (
    id                  INTEGER PRIMARY KEY,
    guild_id            INTEGER,               -- NULL outside a server
    channel_id          INTEGER NOT NULL,      -- where it is played: a thread, or the channel
    parent_channel_id   INTEGER,               -- the channel of that thread; NULL if no thread
    challenge_id        INTEGER REFERENCES challenges (id),
    white_id            INTEGER NOT NULL REFERENCES players (user_id),
    black_id            INTEGER NOT NULL REFERENCES players (user_id),
    status              TEXT NOT NULL,         -- active, finished, aborted
    result              TEXT,                  -- white, black, draw; NULL while active or aborted
    end_reason          TEXT,                  -- score, resignation, abort
    ended_by            INTEGER,               -- who resigned or aborted
    score_white         INTEGER,
    score_black         INTEGER,
    position            TEXT NOT NULL,         -- the current position, Position.to_text()
    ply                 INTEGER NOT NULL DEFAULT 0 CHECK (ply >= 0),  -- = number of moves
    version             INTEGER NOT NULL DEFAULT 0,  -- +1 on every change (optimistic locking)
    clock_days          INTEGER CHECK (clock_days > 0),  -- NULL: no clock
    deadline_at         TEXT,                  -- when the player to move runs out of time
    abort_requested_by  INTEGER,               -- a player who proposed to abort, if any
    created_at          TEXT NOT NULL,
    updated_at          TEXT NOT NULL,
    finished_at         TEXT,
    CHECK (white_id <> black_id)
);

-- One running game per channel or thread; the service explains, the index makes it certain.
CREATE UNIQUE INDEX games_active_by_channel ON games (channel_id) WHERE status = 'active';
CREATE INDEX games_active_by_white ON games (white_id) WHERE status = 'active';
CREATE INDEX games_active_by_black ON games (black_id) WHERE status = 'active';
CREATE INDEX games_active_by_deadline ON games (deadline_at)
    WHERE status = 'active' AND deadline_at IS NOT NULL;

CREATE TABLE moves (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply        INTEGER NOT NULL CHECK (ply >= 0),
    colour     TEXT NOT NULL CHECK (colour IN ('W', 'B')),
    player_id  INTEGER NOT NULL REFERENCES players (user_id),
    move       TEXT NOT NULL,                   -- canonical: E3, E3F4, PASS
    automatic  INTEGER NOT NULL DEFAULT 0 CHECK (automatic IN (0, 1)),  -- a forced PASS
    played_at  TEXT NOT NULL,
    PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;

-- A record never has gaps: each move is the next ply of its game.
CREATE TRIGGER moves_in_order BEFORE INSERT ON moves
WHEN NEW.ply <> coalesce((SELECT max(ply) FROM moves WHERE game_id = NEW.game_id) + 1, 0)
BEGIN
    SELECT raise(ABORT, 'moves must be recorded in order, without gaps');
END;
