-- Games played where the bot cannot post on its own: a DM or group DM between players who
-- installed the app to their own accounts (or a server without the bot). Their posts are
-- answers to the players' interactions, sent through an interaction's webhook while its token
-- lasts (15 minutes); later ones (a loss on time, a reminder) go to the players' DMs.
-- reply_routes holds, per game, the last such way back: opaque text of the Discord layer's.

ALTER TABLE games ADD COLUMN private INTEGER NOT NULL DEFAULT 0 CHECK (private IN (0, 1));

CREATE TABLE reply_routes (
    game_id     INTEGER PRIMARY KEY REFERENCES games (id),
    route       TEXT NOT NULL,
    expires_at  TEXT NOT NULL
);
