-- 0005 for PostgreSQL: as sql/0005_outbox_claims.sql (claims on the outbox's rows).

ALTER TABLE notifications ADD COLUMN leased_until TEXT;
ALTER TABLE notifications ADD COLUMN claimed_by TEXT;
ALTER TABLE notifications ADD COLUMN message_id BIGINT;

CREATE INDEX notifications_pending_by_game ON notifications (game_id, id) WHERE sent_at IS NULL;
