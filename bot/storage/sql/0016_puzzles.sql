-- 0016: puzzles (issue 26): a position to win from, tried privately with /puzzle or from a
-- server's daily post, and a puzzle rating per player.
--
-- * puzzle_ratings: a player's Glicko-2 puzzle rating (global, not per server: puzzles are
--   the same everywhere), the puzzle rated as their opponent; the counts of rated puzzles
--   solved and failed, the streak of rated ones solved in a row and the best such streak. The
--   row is the player's lock for every puzzle use case (made, then locked FOR UPDATE on
--   PostgreSQL): two taps at once take turns, and a puzzle is rated once.
-- * puzzle_attempts: one row a try. puzzle_id names a puzzle of ai.puzzles; step is the index
--   in its line of the solver's next move (0, 2, 4...); played the moves so far, the
--   solver's and the replies, in the record's notation ('E3F4 D2D3'), a wrong one last.
--   rated: the first try of a puzzle the bot chose for the player (by their rating, or the
--   day's); daily_day: the day (UTC, 'YYYY-MM-DD') of the daily post it was started from, and
--   guild_id that post's server (NULL: neither). ended_at, solved: NULL while it runs;
--   rating_before/rating_after: the rating change a rated one made. At most one running try
--   of a puzzle per player.
-- * daily_puzzles: the puzzle of each day, the same in every server, chosen once (the first
--   housekeeping pass of the day writes it; another process's pass finds it there).
-- * daily_puzzle_posts: a server's post of a day's puzzle, written with its outbox row in one
--   transaction (primary key: one a server a day, whatever the processes); message_id once it
--   is posted; solvers and tried counted once the day is over, when the count is queued to be
--   shown on the post.
-- * guild_settings.puzzle_channel_id: where a server gets the daily puzzle (NULL: nowhere).

CREATE TABLE puzzle_ratings (
    user_id      INTEGER PRIMARY KEY REFERENCES players (user_id),
    rating       REAL NOT NULL,
    deviation    REAL NOT NULL,
    volatility   REAL NOT NULL,
    solved       INTEGER NOT NULL DEFAULT 0 CHECK (solved >= 0),
    failed       INTEGER NOT NULL DEFAULT 0 CHECK (failed >= 0),
    streak       INTEGER NOT NULL DEFAULT 0 CHECK (streak >= 0),
    best_streak  INTEGER NOT NULL DEFAULT 0 CHECK (best_streak >= streak),
    updated_at   TEXT NOT NULL
);

CREATE TABLE puzzle_attempts (
    id             INTEGER PRIMARY KEY,
    user_id        INTEGER NOT NULL REFERENCES players (user_id),
    puzzle_id      TEXT NOT NULL,
    step           INTEGER NOT NULL DEFAULT 0 CHECK (step >= 0),
    played         TEXT NOT NULL DEFAULT '',
    rated          INTEGER NOT NULL CHECK (rated IN (0, 1)),
    daily_day      TEXT,
    guild_id       INTEGER,
    started_at     TEXT NOT NULL,
    ended_at       TEXT,
    solved         INTEGER CHECK (solved IN (0, 1)),
    rating_before  REAL,
    rating_after   REAL,
    CHECK ((ended_at IS NULL) = (solved IS NULL))
);

CREATE UNIQUE INDEX puzzle_attempts_running ON puzzle_attempts (user_id, puzzle_id)
    WHERE ended_at IS NULL;
CREATE INDEX puzzle_attempts_by_user ON puzzle_attempts (user_id, puzzle_id);
CREATE INDEX puzzle_attempts_by_day ON puzzle_attempts (daily_day, guild_id)
    WHERE daily_day IS NOT NULL;

CREATE TABLE daily_puzzles (
    day        TEXT PRIMARY KEY,
    puzzle_id  TEXT NOT NULL,
    chosen_at  TEXT NOT NULL
);

CREATE TABLE daily_puzzle_posts (
    guild_id     INTEGER NOT NULL,
    day          TEXT NOT NULL REFERENCES daily_puzzles (day),
    channel_id   INTEGER NOT NULL,
    message_id   INTEGER,
    solvers      INTEGER CHECK (solvers >= 0),
    tried        INTEGER CHECK (tried >= solvers),
    queued_at    TEXT NOT NULL,
    PRIMARY KEY (guild_id, day)
);

CREATE INDEX daily_puzzle_posts_uncounted ON daily_puzzle_posts (day) WHERE solvers IS NULL;

ALTER TABLE guild_settings ADD COLUMN puzzle_channel_id INTEGER;
