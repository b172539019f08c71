-- 0003 for PostgreSQL: as sql/0003_computer.sql (games against the computer).

ALTER TABLE games ADD COLUMN computer_id BIGINT;
ALTER TABLE games ADD COLUMN computer_level TEXT;

CREATE INDEX games_active_with_computer ON games (id)
    WHERE status = 'active' AND computer_id IS NOT NULL;
