-- 0018: lessons (issue 42): DVONN taught by playing it, privately, with /learn.
--
-- * lesson_learners: a player who met the lessons. The row is the player's lock for every
--   lesson use case (made, then locked FOR NO KEY UPDATE on PostgreSQL): two taps at once take
--   turns. offered_at: when the bot offered them the lessons, privately, at their first
--   challenge or game (NULL: never); set once, so the offer comes once whatever the processes.
-- * lesson_attempts: one row each time a player takes a lesson (a replay is a new row).
--   lesson_key names a lesson of bot.games.lessons.book; task is the index of the task the
--   player is on; step counts every change (a try, a move, a hint), so that a tap on an older
--   board is refused; played holds the game lesson's moves so far, the learner's and the
--   computer's, in the record's notation ('E3F4 D2D3'); hints the hints asked for. state:
--   'running', 'done' (every task solved) or 'left' (another lesson begun). At most one
--   running lesson per player.
-- * lessons_done: a lesson a player finished: the first and the latest time, and how often.

CREATE TABLE lesson_learners (
    user_id     INTEGER PRIMARY KEY REFERENCES players (user_id),
    created_at  TEXT NOT NULL,
    offered_at  TEXT
);

CREATE TABLE lesson_attempts (
    id          INTEGER PRIMARY KEY,
    user_id     INTEGER NOT NULL REFERENCES lesson_learners (user_id),
    lesson_key  TEXT NOT NULL,
    task        INTEGER NOT NULL DEFAULT 0 CHECK (task >= 0),
    step        INTEGER NOT NULL DEFAULT 0 CHECK (step >= 0),
    played      TEXT NOT NULL DEFAULT '',
    hints       INTEGER NOT NULL DEFAULT 0 CHECK (hints >= 0),
    state       TEXT NOT NULL DEFAULT 'running' CHECK (state IN ('running', 'done', 'left')),
    started_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL
);

CREATE UNIQUE INDEX lesson_attempts_running ON lesson_attempts (user_id)
    WHERE state = 'running';
CREATE INDEX lesson_attempts_by_user ON lesson_attempts (user_id, lesson_key);

CREATE TABLE lessons_done (
    user_id        INTEGER NOT NULL REFERENCES lesson_learners (user_id),
    lesson_key     TEXT NOT NULL,
    first_done_at  TEXT NOT NULL,
    done_at        TEXT NOT NULL,
    times          INTEGER NOT NULL DEFAULT 1 CHECK (times >= 1),
    PRIMARY KEY (user_id, lesson_key)
);
