-- The outbox delivers each announcement at least once and in order per game:
-- a deliverer claims a row (claimed_by, until leased_until) before posting it; a crashed
-- deliverer's rows are taken over once the lease has run out. The process that wrote a row
-- claims it in the same transaction and posts it right after its commit.

ALTER TABLE notifications ADD COLUMN leased_until TEXT;
ALTER TABLE notifications ADD COLUMN claimed_by TEXT;
ALTER TABLE notifications ADD COLUMN message_id INTEGER;   -- the Discord message, once posted

-- A game's announcements go out in order: the oldest unsent one first.
CREATE INDEX notifications_pending_by_game ON notifications (game_id, id) WHERE sent_at IS NULL;
