-- 0006 for PostgreSQL: as sql/0006_shared_work.sql (leases on background work, servers' languages).

CREATE TABLE leases (
    name          TEXT PRIMARY KEY,
    holder        TEXT NOT NULL,
    leased_until  TEXT NOT NULL
);

CREATE TABLE guild_locales (
    guild_id    BIGINT PRIMARY KEY,
    locale      TEXT NOT NULL,
    updated_at  TEXT NOT NULL
);
