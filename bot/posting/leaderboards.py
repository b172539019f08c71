"""A leaderboard as players read it, one table whoever's ratings it lists: a server's
(``/dvonn leaderboard``) or the network's (``/network leaderboard``)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.core.models import RatingRow
from bot.games.core.ratings import is_provisional
from bot.i18n import Text, n_
from bot.posting.texts import rating_text


def leaderboard_lines(heading: Text, rows: Sequence[RatingRow], names: Sequence[str]) -> list[Text]:
    """``heading``, then a line per row, best first: its place, ``names`` (one per row, in the
    same order), its rating and its games."""
    assert len(rows) == len(names)
    return [heading] + [
        n_(
            "{place}. {player}: {rating} ({count} game)",
            "{place}. {player}: {rating} ({count} games)",
            row.games,
            place=place,
            player=name,
            rating=rating_text(row.rating, provisional=is_provisional(row)),
        )
        for place, (row, name) in enumerate(zip(rows, names, strict=True), start=1)
    ]
