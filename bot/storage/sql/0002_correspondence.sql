-- Correspondence play (issue 7): clocks that end games, reminders, vacations, takebacks,
-- ratings, allowed channels, and an outbox for announcements the bot must not lose.

ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 1 CHECK (rated IN (0, 1));
ALTER TABLE games ADD COLUMN rated_at TEXT;      -- when its result went into the ratings
ALTER TABLE games ADD COLUMN reminded_for TEXT;  -- the deadline the player to move was reminded of
ALTER TABLE games ADD COLUMN takeback_requested_by INTEGER;  -- a player asking to undo a move
ALTER TABLE games ADD COLUMN takeback_ply INTEGER;           -- the first ply that would go

CREATE INDEX games_to_rate ON games (id) WHERE status = 'finished' AND rated = 1 AND rated_at IS NULL;

ALTER TABLE players ADD COLUMN notify INTEGER NOT NULL DEFAULT 1 CHECK (notify IN (0, 1));
ALTER TABLE players ADD COLUMN last_reminded_at TEXT;
ALTER TABLE players ADD COLUMN vacation_until TEXT;       -- clocks paused until then
ALTER TABLE players ADD COLUMN vacation_year INTEGER;     -- the year vacation_days_used counts
ALTER TABLE players ADD COLUMN vacation_days_used INTEGER NOT NULL DEFAULT 0;

CREATE TABLE ratings (
    guild_id    INTEGER NOT NULL,
    user_id     INTEGER NOT NULL REFERENCES players (user_id),
    rating      REAL NOT NULL,     -- Glicko-2, on the familiar 1500 scale
    deviation   REAL NOT NULL,
    volatility  REAL NOT NULL,
    games       INTEGER NOT NULL DEFAULT 0,
    wins        INTEGER NOT NULL DEFAULT 0,
    losses      INTEGER NOT NULL DEFAULT 0,
    draws       INTEGER NOT NULL DEFAULT 0,
    updated_at  TEXT NOT NULL,
    PRIMARY KEY (guild_id, user_id)
) WITHOUT ROWID;

CREATE INDEX ratings_by_guild ON ratings (guild_id, rating DESC);

CREATE TABLE guild_channels (      -- where a server lets the bot play; none listed: anywhere
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    PRIMARY KEY (guild_id, channel_id)
) WITHOUT ROWID;

CREATE TABLE notifications (       -- the outbox: written with the change, sent afterwards
    id          INTEGER PRIMARY KEY,
    kind        TEXT NOT NULL,     -- game_ended, reminder, vacation
    user_id     INTEGER,
    game_id     INTEGER REFERENCES games (id),
    payload     TEXT NOT NULL DEFAULT '{}',   -- JSON
    created_at  TEXT NOT NULL,
    sent_at     TEXT,
    attempts    INTEGER NOT NULL DEFAULT 0
);

CREATE INDEX notifications_pending ON notifications (id) WHERE sent_at IS NULL;
