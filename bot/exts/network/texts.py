"""What ``/network join``, ``leave``, ``block``, ``unblock`` and ``server`` answer (privately).

Names shown here of players of the network are their network names (their Discord global
names, never a server's nickname); members of the moderator's own server are shown as mentions,
which only say who they are to someone who may see them anyway.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Final

from bot.games.network.membership import Left
from bot.games.network.servers import ServerStatus, ServerStopped
from bot.i18n import Text, _, n_

LISTED: Final = 25
"""The most members a server's status lists by name (the rest are counted)."""

WHAT_CROSSES: Final = _(
    "Members of other servers then see your global Discord name, your network rating and your "
    "network games (their boards, moves and results); never your nickname, your servers or "
    "anything you write."
)


def when(moment: datetime) -> str:
    """A moment as Discord shows it to each reader, in their language and time zone."""
    return f"<t:{int(moment.timestamp())}:D>"


def joined(
    name: str, home_channel_id: int | None, *, again: bool, moved: bool = True
) -> list[Text]:
    """``/network join``'s answer: where their network games are played, what others see, how
    to leave. ``again``: they were a member already (``moved``: their home changed)."""
    if home_channel_id is None:
        home = _(
            "Your network games are played in your DMs with the bot (you join from a place "
            "without a network channel: run /network join in a server's network channel to "
            "play there instead)."
        )
    else:
        home = _(
            "Your network games are played in threads of <#{channel}>, this server's network "
            "channel.",
            channel=home_channel_id,
        )
    if not again:
        first = _("You joined the DVONN network as **{name}**.", name=name)
    elif moved:
        first = _("You are in the DVONN network as **{name}**; your home has moved.", name=name)
    else:
        first = _("You are in the DVONN network as **{name}** already.", name=name)
    lines = [first, home]
    if again:
        lines.append(_("Network games under way stay where they are."))
    else:
        lines.append(WHAT_CROSSES)
    lines.append(
        _(
            "Leave at any time with /network leave (your running games play to their end); "
            "add forget:True to have your network data deleted."
        )
    )
    return lines


def left(result: Left, *, forget: bool) -> list[Text]:
    """``/network leave``'s answer."""
    lines = [
        _(
            "You left the DVONN network: other servers no longer see you in its lists and "
            "challenges. Your running network games play to their end."
        )
    ]
    if result.cancelled:
        lines.append(
            n_(
                "{count} network challenge of yours was called off.",
                "{count} network challenges of yours were called off.",
                len(result.cancelled),
            )
        )
    if forget:
        lines.append(
            _(
                "Your network data (your membership, your blocks and your network rating) will "
                "be deleted once your last network game has ended. Finished games stay in the "
                "records."
            )
        )
    lines.append(_("Join again any time with /network join."))
    return lines


def blocked(name: str, *, new: bool) -> Text:
    if not new:
        return _("You had blocked **{name}** already.", name=name)
    return _(
        "You blocked **{name}**: you will not meet in the network (no challenges either way, "
        "none of each other's open challenges shown, never in one championship division). "
        "They are not told. Take it back with /network unblock.",
        name=name,
    )


def unblocked(name: str, *, was: bool) -> Text:
    if not was:
        return _("You had not blocked **{name}**.", name=name)
    return _("You unblocked **{name}**.", name=name)


def channel_named(channel_id: int, *, moved: bool) -> list[Text]:
    """``/network server channel:``'s answer: what taking part means, before anything crosses."""
    first = (
        _(
            "The DVONN network channel of this server is now <#{channel}>; network games under "
            "way keep their threads.",
            channel=channel_id,
        )
        if moved
        else _(
            "This server takes part in the DVONN network, with <#{channel}> as its network "
            "channel.",
            channel=channel_id,
        )
    )
    return [
        first,
        _(
            "Members who run /network join here play their network games in threads of that "
            "channel, and other servers' open network challenges are shown there."
        ),
        _(
            "What crosses servers: the global Discord names of the players who joined, their "
            "network ratings, network challenges and the network games' moves and results. "
            "Never this server's name, nicknames, roles or messages."
        ),
        _("Take this server out at any time with /network server stop:True."),
    ]


def stopped(result: ServerStopped) -> list[Text]:
    """``/network server stop:``'s answer."""
    lines = [
        _(
            "This server has left the DVONN network: its members' network games under way move "
            "to their DMs with the bot, and other servers' challenges are no longer shown here."
        )
    ]
    if result.cancelled:
        lines.append(
            n_(
                "{count} open network challenge made here was called off.",
                "{count} open network challenges made here were called off.",
                len(result.cancelled),
            )
        )
    lines.append(_("Bring it back at any time with /network server channel:#channel."))
    return lines


def status(found: ServerStatus) -> list[Text]:
    """``/network server``'s answer without options: this server's part, its members in the
    network (homed here) and the network games homed here; nothing of other servers."""
    server = found.server
    if server is None:
        return [
            _(
                "This server does not take part in the DVONN network. A moderator names its "
                "network channel with /network server channel:#channel."
            )
        ]
    if server.is_live:
        lines = [
            _(
                "This server takes part in the DVONN network since {date}, with <#{channel}> as "
                "its network channel.",
                date=when(server.joined_at),
                channel=server.channel_id,
            )
        ]
    else:
        assert server.left_at is not None
        lines = [
            _(
                "This server left the DVONN network on {date}. Bring it back with /network "
                "server channel:#channel.",
                date=when(server.left_at),
            )
        ]
    lines.append(members_line([m.user_id for m in found.members]))
    lines.append(games_line(found.games))
    return lines


def members_line(user_ids: Sequence[int]) -> Text:
    if not user_ids:
        return _("No member plays the network from here.")
    shown = " ".join(f"<@{user_id}>" for user_id in user_ids[:LISTED])
    if len(user_ids) > LISTED:
        return n_(
            "{count} member plays the network from here: {members} and others.",
            "{count} members play the network from here: {members} and others.",
            len(user_ids),
            members=shown,
        )
    return n_(
        "{count} member plays the network from here: {members}",
        "{count} members play the network from here: {members}",
        len(user_ids),
        members=shown,
    )


def games_line(game_ids: Sequence[int]) -> Text:
    if not game_ids:
        return _("No network game is played here now.")
    return n_(
        "Network game played here: {games}",
        "Network games played here: {games}",
        len(game_ids),
        games=", ".join(f"#{game_id}" for game_id in game_ids),
    )
