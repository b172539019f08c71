-- An announcement the process that made the change delivers itself (right after its commit)
-- is leased to it for a while: the outbox's deliverer leaves it alone until then, and takes it
-- over only if that process did not get it out (it crashed, or Discord refused it).

ALTER TABLE notifications ADD COLUMN leased_until TEXT;
