-- 0019: the DVONN network (issue 41): players of every server in one pool, by their own
-- choice. Nothing is written to these tables or columns until the network is switched on.
--
-- * network_members: who joined the network (nobody is in without joining): the name other
--   servers see (the Discord global name, else the username; never a server nickname), their
--   home (the server whose network channel hosts their network games; NULL: their DMs),
--   left_at once they left, forget_at once they asked for their network data to be deleted
--   (done once no network game of theirs runs).
-- * network_servers: a server taking part: its network channel (kept after it leaves, for the
--   record), the message of its open-challenges board and the network_state 'seeks' value it
--   shows, who named the channel and when, left_at once a moderator took it out or the bot was
--   removed.
-- * network_state: named counters; 'seeks' goes up by one with every network challenge
--   opened or closed, so a board behind it is known to be stale.
-- * network_blocks: a player who blocked another (never told): no challenges, no pairing, no
--   shared open challenges, either way.
-- * challenges.network: an open or direct network challenge (guild_id, channel_id: where it
--   was made), with the rating range of who may accept it (NULL: no bound).
-- * games.network: a network game: guild_id NULL (no server's ratings or lists count it; its
--   rating is the network's, ratings.guild_id 0), channel_id its first home's channel. Posts
--   go to its homes (game_homes); a DM home may hold several network games, so the unique
--   index of running games per channel now covers ordinary games only.
-- * game_homes: where a network game is played: a thread of a player's network channel, or
--   the bot's DM with the player; seat W or B, or '*' for one home of both players. channel_id
--   is NULL until the thread is made; lost_at once the home refused the bot's posts.
-- * notifications.home: the home (a seat) a network game's post goes to; '' for every other
--   post (one place, as before).

CREATE TABLE network_members (
    user_id        INTEGER PRIMARY KEY REFERENCES players (user_id),
    name           TEXT NOT NULL,       -- global name (global_name, else username); never a nickname
    home_guild_id  INTEGER,             -- whose network channel hosts their games; NULL: DMs
    joined_at      TEXT NOT NULL,
    left_at        TEXT,                -- NULL while a member
    forget_at      TEXT,                -- asked to delete network data (done after the last game)
    updated_at     TEXT NOT NULL
);

CREATE INDEX network_members_by_name ON network_members (lower(name)) WHERE left_at IS NULL;
CREATE INDEX network_members_by_home ON network_members (home_guild_id) WHERE left_at IS NULL;

CREATE TABLE network_servers (
    guild_id          INTEGER PRIMARY KEY,
    channel_id        INTEGER NOT NULL,  -- the network channel (kept after leaving, for the record)
    board_message_id  INTEGER,           -- its open-challenges board
    board_version     INTEGER NOT NULL DEFAULT 0,  -- the network_state 'seeks' it shows
    board_at          TEXT,              -- when the board was last posted or edited
    joined_by         INTEGER NOT NULL,  -- the moderator who named the channel
    joined_at         TEXT NOT NULL,
    left_at           TEXT,              -- stopped by a moderator, or the bot removed
    updated_at        TEXT NOT NULL
);

CREATE INDEX network_servers_live ON network_servers (board_version) WHERE left_at IS NULL;

CREATE TABLE network_state (
    name   TEXT PRIMARY KEY,            -- 'seeks': +1 on every network challenge opened or closed
    value  INTEGER NOT NULL
);

CREATE TABLE network_blocks (
    blocker_id  INTEGER NOT NULL REFERENCES players (user_id),
    blocked_id  INTEGER NOT NULL REFERENCES players (user_id),
    created_at  TEXT NOT NULL,
    PRIMARY KEY (blocker_id, blocked_id),
    CHECK (blocker_id <> blocked_id)
) WITHOUT ROWID;

CREATE INDEX network_blocks_by_blocked ON network_blocks (blocked_id, blocker_id);

ALTER TABLE challenges ADD COLUMN network INTEGER NOT NULL DEFAULT 0 CHECK (network IN (0, 1));
ALTER TABLE challenges ADD COLUMN min_rating INTEGER;   -- NULL: no lower bound
ALTER TABLE challenges ADD COLUMN max_rating INTEGER;   -- NULL: no upper bound

CREATE INDEX challenges_network_open ON challenges (id) WHERE network = 1 AND status = 'open';

ALTER TABLE games ADD COLUMN network INTEGER NOT NULL DEFAULT 0 CHECK (network IN (0, 1));

DROP INDEX games_active_by_channel;
-- One running ordinary game per channel or thread; a network game's homes are in game_homes.
CREATE UNIQUE INDEX games_active_by_channel ON games (channel_id)
    WHERE status = 'active' AND network = 0;

CREATE TABLE game_homes (
    game_id            INTEGER NOT NULL REFERENCES games (id),
    seat               TEXT NOT NULL CHECK (seat IN ('W', 'B', '*')),  -- '*': both players' home
    guild_id           INTEGER,          -- NULL: a DM home
    parent_channel_id  INTEGER,          -- the network channel (NULL in DMs)
    channel_id         INTEGER,          -- the thread, or the bot's DM channel; NULL until made
    user_id            INTEGER,          -- a DM home's player
    lost_at            TEXT,             -- refused the bot's posts
    created_at         TEXT NOT NULL,
    PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;

CREATE INDEX game_homes_by_channel ON game_homes (channel_id) WHERE channel_id IS NOT NULL;
CREATE INDEX game_homes_by_guild ON game_homes (guild_id) WHERE guild_id IS NOT NULL;

ALTER TABLE notifications ADD COLUMN home TEXT NOT NULL DEFAULT '';  -- a seat, or '' (one place)

CREATE INDEX notifications_pending_by_home ON notifications (game_id, home, id)
    WHERE sent_at IS NULL;
