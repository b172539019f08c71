-- 0004 for PostgreSQL: as sql/0004_player_locale.sql.

ALTER TABLE players ADD COLUMN locale TEXT;
