-- 0021 for PostgreSQL: as sql/0021_season_places.sql, a league season made in batches (the
-- network championship's thousand divisions): its plan is written first, in one short
-- transaction, and its divisions are made from it a few at a time, each batch its own
-- transaction, so that no other write waits long behind a season.
--
-- * season_places: a season's places not yet made into divisions: who plays in which division
--   (1 the top; its level follows from the number) and at which seat (seed, 1 the best
--   placed). A division's rows are deleted in the transaction that makes the division (its
--   tournaments row, entrants, pairings and games): a row here is a division still to draw,
--   and a crash between two batches leaves exactly the divisions not yet made.
-- * tournaments_division_once: a league season's division is made once (two processes that
--   both tried would have the second's insert refused).

CREATE TABLE season_places (
    league_id  BIGINT NOT NULL REFERENCES tournaments (id),
    season     INTEGER NOT NULL CHECK (season > 0),
    division   INTEGER NOT NULL CHECK (division > 0),
    seat       INTEGER NOT NULL CHECK (seat > 0),
    user_id    BIGINT NOT NULL REFERENCES players (user_id),
    PRIMARY KEY (league_id, season, division, seat)
);

CREATE INDEX season_places_by_user ON season_places (user_id);

CREATE UNIQUE INDEX tournaments_division_once ON tournaments (league_id, season, division)
    WHERE league_id IS NOT NULL;
