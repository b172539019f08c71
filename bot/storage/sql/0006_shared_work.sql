-- Several processes on one database (PostgreSQL; SQLite has the same tables and one process):
-- * leases: background work that must run in one process at a time, held by the process that
--   claimed it until leased_until; a killed process's leases run out and another takes them.
--   Names: 'housekeeping' (the sweep of deadlines, reminders, ratings), 'computer:<game id>'
--   (the computer opponent thinking about its move in that game).
-- * guild_locales: a server's language as Discord reports it, stored so that a process that
--   does not hold that server's shard (and so has no cache of it) posts in the same language.

CREATE TABLE leases (
    name          TEXT PRIMARY KEY,
    holder        TEXT NOT NULL,
    leased_until  TEXT NOT NULL
);

CREATE TABLE guild_locales (
    guild_id    INTEGER PRIMARY KEY,
    locale      TEXT NOT NULL,
    updated_at  TEXT NOT NULL
);
