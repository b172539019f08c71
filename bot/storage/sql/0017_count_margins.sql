-- 0017: a tournament game's piece margin counts only a game played to the count (issue 39).
--
-- tournament_games.score_white and score_black were copied from every game that ended, at the
-- moment it ended: a game resigned by a player ahead on the board gave its winner a negative
-- margin and the loser a positive one, which could split players level on points and their
-- tie-breaks the wrong way and name the wrong winner. From now on only a game ended by the
-- count (games.end_reason 'score') keeps its score; a resignation, a loss on time, a
-- withdrawal (a resignation, or a game that never began) and an abort keep none, so count 0.
-- The pairings stored before are corrected here: the standings, their tie-breaks and the
-- winner are computed from these rows whenever they are shown, so they follow.

UPDATE tournament_games
SET score_white = NULL, score_black = NULL
WHERE (score_white IS NOT NULL OR score_black IS NOT NULL)
    AND NOT EXISTS (
        SELECT 1 FROM games
        WHERE games.id = tournament_games.game_id AND games.end_reason = 'score'
    );
