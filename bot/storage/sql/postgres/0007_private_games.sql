-- 0007 for PostgreSQL: as sql/0007_private_games.sql (games where the bot answers only).

ALTER TABLE games ADD COLUMN private INTEGER NOT NULL DEFAULT 0 CHECK (private IN (0, 1));

CREATE TABLE reply_routes (
    game_id     BIGINT PRIMARY KEY REFERENCES games (id),
    route       TEXT NOT NULL,
    expires_at  TEXT NOT NULL
);
