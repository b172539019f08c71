-- A placement board is replaced by the next one: whoever posts a turn reads which message
-- posted the game's turn before it (notifications.message_id, kept with the row), so the
-- replacement works across restarts and processes. This index finds that row among all of a
-- game's rows, sent or not (notifications_pending_by_game holds the unsent ones only).

CREATE INDEX notifications_by_game ON notifications (game_id, id);
