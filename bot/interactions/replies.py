"""Fitting a list into one Discord message."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

MAX_CONTENT: Final = 2000
"""Discord's limit for a message's text."""


def fit_lines(lines: Sequence[str], more: Callable[[int], str], limit: int = MAX_CONTENT) -> str:
    """``lines`` joined, as many as fit in ``limit`` characters; if some do not, the last line
    says how many were left out (``more(count)``)."""
    text = "\n".join(lines)
    if len(text) <= limit:
        return text
    kept: list[str] = []
    for index, line in enumerate(lines):
        tail = more(len(lines) - index - 1)
        if len("\n".join([*kept, line, tail])) > limit:
            return "\n".join([*kept, more(len(lines) - index)])
        kept.append(line)
    return "\n".join(kept)  # pragma: no cover - the whole text would have fit
