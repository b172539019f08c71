-- 0020: a network challenge's own post, edited once it closes.
--
-- * challenges.message_id: the message an open network challenge ("seek") was posted as, where
--   it was made (challenges.channel_id), with its Accept and Cancel buttons; NULL until the
--   bot knows it, and for every other challenge. Once the seek is taken (from another server's
--   board, say), cancelled or expired, the post is edited through the outbox to say so, its
--   buttons removed.

ALTER TABLE challenges ADD COLUMN message_id INTEGER;
