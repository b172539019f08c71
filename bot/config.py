"""The bot's configuration (the operator's, not a server's: that is ``/dvonn settings``), from
the environment and an optional ``.env`` file.

One frozen :class:`Settings` object; the token is a :class:`Secret` whose ``repr`` and ``str``
never show it, so it cannot reach a log line by accident.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Final

from dotenv import dotenv_values

from bot.i18n import Text, _

DEFAULT_DATABASE: Final = Path("data/dvonn.sqlite3")
LOG_LEVELS: Final = ("DEBUG", "INFO", "WARNING", "ERROR")
DEFAULT_RENDER_PROCESSES: Final = min(2, os.cpu_count() or 1)

# What the bot needs in a channel: view, send (also in threads), create public threads, embed
# links, attach files (the board), read history (to edit its own posts), use external emoji no.
PERMISSIONS: Final = (
    (1 << 10)  # View Channel
    | (1 << 11)  # Send Messages
    | (1 << 14)  # Embed Links
    | (1 << 15)  # Attach Files
    | (1 << 16)  # Read Message History
    | (1 << 35)  # Create Public Threads
    | (1 << 38)  # Send Messages in Threads
)
SCOPES: Final = ("bot", "applications.commands")

SWITCHES: Final = {"on": True, "off": False, "true": True, "false": False, "1": True, "0": False}
"""How a setting that is on or off may be spelled (``on`` and ``off`` in the documentation)."""
NETWORK_CLOCK: Final = "bank:10d+36h/10d"
"""The network championship's clock by default: Little Golem's time bank."""
NETWORK_BOARD_MINUTES: Final = 10
FIRST_SEASON_WAIT: Final = timedelta(days=7)
"""With ``DVONN_NETWORK_SEASON_START`` unset, the network championship's first season starts
this long after the championship opened for entries (when the bot first ran with the network
on)."""
NO_CHAMPIONSHIP: Final = "off"
"""``DVONN_NETWORK_SEASON_START=off``: the network has no championship."""
_DURATION: Final = r"\d{1,9}[dhms]"
_CLOCK: Final = re.compile(
    rf"days:(?P<days>\d{{1,4}})"
    rf"|bank:(?P<initial>{_DURATION})\+(?P<increment>{_DURATION})/(?P<cap>{_DURATION})"
)
"""A clock spelled as ``/dvonn challenge clock`` spells it (the game service's
``bot.games.core.timecontrol``, which the configuration may not import; tests/bot/test_config.py
keeps the two in step): days per move, or a time bank in days, hours, minutes or seconds."""
_SECONDS: Final = {"d": 86400, "h": 3600, "m": 60, "s": 1}


class Secret:
    """A string that does not show itself in ``repr``/``str`` (and so not in logs)."""

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value

    def reveal(self) -> str:
        return self._value

    def __bool__(self) -> bool:
        return bool(self._value)

    def __repr__(self) -> str:
        return "Secret('********')" if self._value else "Secret('')"

    __str__ = __repr__

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Secret) and other._value == self._value

    def __hash__(self) -> int:
        return hash(self._value)


NO_SECRET: Final = Secret("")


class SettingsError(ValueError):
    """A configuration problem, explained for whoever runs the bot."""

    def __init__(self, text: Text) -> None:
        self.text = text
        super().__init__(text.english())


def invite_url(application_id: int) -> str:
    """The link that adds the bot to a server with the permissions and scopes it needs."""
    scopes = "+".join(SCOPES)
    return (
        "https://discord.com/oauth2/authorize"
        f"?client_id={application_id}&scope={scopes}&permissions={PERMISSIONS}"
    )


def user_install_url(application_id: int) -> str:
    """The link with which a person adds the app to their own account, to play in their DMs and
    group DMs (Discord's user install: integration type 1)."""
    return (
        "https://discord.com/oauth2/authorize"
        f"?client_id={application_id}&integration_type=1&scope=applications.commands"
    )


@dataclass(frozen=True, slots=True)
class Settings:
    token: Secret
    database: Path | str = DEFAULT_DATABASE
    """An SQLite file's path (the default), or a ``postgresql://`` URL (several processes)."""
    log_level: str = "INFO"
    dev_guild: int | None = None
    """A server where commands are synced instantly during development."""
    application_id: int | None = None
    api_base: str | None = None
    """Discord's REST base URL (a proxy, or a fake Discord in tests); ``None``: Discord's own."""
    gateway_url: str | None = None
    """Discord's gateway URL; ``None``: Discord's own."""
    render_processes: int = DEFAULT_RENDER_PROCESSES
    """Worker processes that draw boards; ``0`` draws in threads of the bot (tests)."""
    ai_processes: int = 1
    """Worker processes in which the computer opponent thinks; when all are busy, games
    against the bot wait their turn (served fairly, one game after another)."""
    ai_seconds: float | None = None
    """The longest the computer opponent thinks per move; ``None``: each level's own time."""
    outbox_lease: float = 30.0
    """Seconds a claim on a post holds: a crashed process's posts wait this long before another
    process (or the next start) takes them over."""
    incident_webhook: Secret = NO_SECRET
    """A Discord webhook URL that gets a note of every incident (it holds a token: secret)."""
    owner_id: int | None = None
    """A user who gets a DM of every incident."""
    http_port: int | None = None
    """Where ``/healthz`` and ``/metrics`` are served (``None``: not at all)."""
    http_host: str = "127.0.0.1"
    outbox_poll: float = 5.0
    """Seconds between two looks for posts left unsent (by a crash, an outage, a refusal)."""
    shard_count: int | None = None
    """How many shards the bot has in all (``None``: as many as Discord recommends)."""
    shards: tuple[int, ...] | None = None
    """The shards this process serves (``None``: all of them)."""
    network: bool = True
    """The DVONN network is on: the ``/network`` command, its jobs and its posts (issue 41).
    On by default: nobody is in it without saying so (players join with ``/network join``,
    servers take part by ``/network server``); ``DVONN_NETWORK=off`` turns it off entirely."""
    network_clock: str = NETWORK_CLOCK
    """The network championship's clock, spelled as ``/dvonn challenge clock`` spells it."""
    network_season_start: datetime | timedelta | None = FIRST_SEASON_WAIT
    """When the network championship's first season starts: a moment (UTC), or how long after
    the championship opens for entries (when the bot first runs with the network on; by default
    :data:`FIRST_SEASON_WAIT`); ``None`` (``off``): no championship."""
    network_board_minutes: int = NETWORK_BOARD_MINUTES
    """The longest a network channel's board of open challenges shows an old list."""

    @property
    def serves_every_shard(self) -> bool:
        """Whether this process is the only one (it holds every shard)."""
        return self.shards is None or (
            self.shard_count is not None and set(self.shards) == set(range(self.shard_count))
        )

    @classmethod
    def from_env(
        cls, environ: Mapping[str, str] | None = None, env_file: Path | None = Path(".env")
    ) -> Settings:
        """Read the settings; the environment wins over the ``.env`` file.

        Raises :class:`SettingsError` for values that make no sense. A missing token is not an
        error here (see :meth:`require_token`), so commands that need none still work.
        """
        values: dict[str, str] = {}
        if env_file is not None and env_file.is_file():
            values.update({k: v for k, v in dotenv_values(env_file).items() if v is not None})
        values.update(os.environ if environ is None else environ)
        level = values.get("DVONN_LOG_LEVEL", "INFO").strip().upper() or "INFO"
        if level not in LOG_LEVELS:
            raise SettingsError(
                _(
                    "DVONN_LOG_LEVEL must be one of {levels}, not {value}.",
                    levels=", ".join(LOG_LEVELS),
                    value=level,
                )
            )
        return cls(
            token=Secret(values.get("DISCORD_TOKEN", "").strip()),
            database=_database(values.get("DVONN_DATABASE", "")),
            log_level=level,
            dev_guild=_snowflake(values, "DVONN_DEV_GUILD"),
            application_id=_snowflake(values, "DISCORD_APPLICATION_ID"),
            api_base=values.get("DISCORD_API_BASE", "").strip() or None,
            gateway_url=values.get("DISCORD_GATEWAY_URL", "").strip() or None,
            render_processes=_count(
                values, "DVONN_RENDER_PROCESSES", default=DEFAULT_RENDER_PROCESSES
            ),
            ai_processes=_count(values, "DVONN_AI_PROCESSES", default=1, minimum=1),
            ai_seconds=_seconds(values, "DVONN_AI_SECONDS"),
            outbox_lease=_seconds(values, "DVONN_OUTBOX_LEASE_SECONDS") or 30.0,
            outbox_poll=_seconds(values, "DVONN_OUTBOX_POLL_SECONDS") or 5.0,
            incident_webhook=Secret(values.get("DVONN_INCIDENT_WEBHOOK", "").strip()),
            owner_id=_snowflake(values, "DVONN_OWNER_ID"),
            http_port=_port(values, "DVONN_HTTP_PORT"),
            http_host=values.get("DVONN_HTTP_HOST", "").strip() or "127.0.0.1",
            network=_switch(values, "DVONN_NETWORK", default=True),
            network_clock=_clock(values, "DVONN_NETWORK_CLOCK", default=NETWORK_CLOCK),
            network_season_start=_season_start(values, "DVONN_NETWORK_SEASON_START"),
            network_board_minutes=_count(
                values, "DVONN_NETWORK_BOARD_MINUTES", default=NETWORK_BOARD_MINUTES, minimum=1
            ),
            **_sharding(values),
        )

    def require_token(self) -> str:
        """The token, or a :class:`SettingsError` that says how to get one."""
        if self.token:
            return self.token.reveal()
        raise SettingsError(missing_token_help(self.application_id))


def missing_token_help(application_id: int | None) -> Text:
    """What to do when there is no token: create the application, grant, invite."""
    invite = (
        _("Then invite it with: {url}", url=invite_url(application_id))
        if application_id
        else _(
            "Then invite it: set DISCORD_APPLICATION_ID (General Information → Application ID) "
            "and run this again to get the invite link, or use OAuth2 → URL Generator with the "
            "scopes bot and applications.commands."
        )
    )
    return _(
        "DISCORD_TOKEN is not set, so the bot cannot log in.\n"
        "1. Create an application at https://discord.com/developers/applications\n"
        "2. Under Bot, press Reset Token and put the token in .env as DISCORD_TOKEN=... "
        "(copy .env.example to .env first). No privileged intents are needed.\n"
        "3. The bot needs these permissions: View Channels, Send Messages, Send Messages in "
        "Threads, Create Public Threads, Embed Links, Attach Files, Read Message History.\n"
        "{invite}",
        invite=invite,
    )


def _count(values: Mapping[str, str], name: str, *, default: int, minimum: int = 0) -> int:
    raw = values.get(name, "").strip()
    if not raw:
        return default
    if not raw.isdigit():
        raise SettingsError(_("{name} must be a whole number, not {value}.", name=name, value=raw))
    if int(raw) < minimum:
        raise SettingsError(
            _(
                "{name} must be at least {minimum}, not {value}.",
                name=name,
                minimum=minimum,
                value=raw,
            )
        )
    return int(raw)


def _seconds(values: Mapping[str, str], name: str) -> float | None:
    raw = values.get(name, "").strip()
    if not raw:
        return None
    try:
        seconds = float(raw)
    except ValueError:
        seconds = math.nan
    if not (0 < seconds < math.inf):
        raise SettingsError(
            _(
                "{name} must be a number of seconds above 0, such as 1.5, not {value}.",
                name=name,
                value=raw,
            )
        )
    return seconds


def _switch(values: Mapping[str, str], name: str, *, default: bool = False) -> bool:
    raw = values.get(name, "").strip()
    if not raw:
        return default
    switch = SWITCHES.get(raw.lower())
    if switch is None:
        raise SettingsError(_("{name} must be on or off, not {value}.", name=name, value=raw))
    return switch


def _clock(values: Mapping[str, str], name: str, *, default: str) -> str:
    """A clock as ``/dvonn challenge clock`` spells it: ``days:3``, or a time bank such as
    ``bank:10d+36h/10d`` (start + a move's increment / cap, none of them longer than its cap,
    the start not nothing); never none (a championship's games need a clock)."""
    raw = values.get(name, "").strip()
    if not raw:
        return default
    match = _CLOCK.fullmatch(raw)
    if match is not None and match["days"] is not None and not int(match["days"]):
        match = None
    if match is not None and match["days"] is None:
        initial, cap = _duration(match["initial"]), _duration(match["cap"])
        if not 0 < initial <= cap:
            match = None
    if match is None:
        raise SettingsError(
            _(
                "{name} must be a clock such as days:3 or bank:10d+36h/10d (a time bank: start "
                "+ increment / cap, the start above nothing and at most the cap), not {value}.",
                name=name,
                value=raw,
            )
        )
    return raw


def _duration(spelled: str) -> int:
    """Seconds in a duration of :data:`_CLOCK` (``10d``, ``36h``, ``0s``)."""
    return int(spelled[:-1]) * _SECONDS[spelled[-1]]


def _season_start(values: Mapping[str, str], name: str) -> datetime | timedelta | None:
    """The championship's first season's start: unset, :data:`FIRST_SEASON_WAIT` after it
    opens; ``off``, none (no championship); else a moment (:func:`_moment`)."""
    raw = values.get(name, "").strip()
    if not raw:
        return FIRST_SEASON_WAIT
    if raw.lower() == NO_CHAMPIONSHIP:
        return None
    return _moment(values, name)


def _moment(values: Mapping[str, str], name: str) -> datetime | None:
    """A moment in ISO 8601 (``2027-01-04T18:00Z``, ``2027-01-04``), in UTC: one without an
    offset is taken as UTC."""
    raw = values.get(name, "").strip()
    if not raw:
        return None
    try:
        moment = datetime.fromisoformat(raw.replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        raise SettingsError(
            _(
                "{name} must be a moment in ISO 8601, such as 2027-01-04T18:00Z (UTC), or off, "
                "not {value}.",
                name=name,
                value=raw,
            )
        ) from None
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def _port(values: Mapping[str, str], name: str) -> int | None:
    raw = values.get(name, "").strip()
    if not raw:
        return None
    if not raw.isdigit() or not 0 <= int(raw) <= 65535:
        raise SettingsError(
            _("{name} must be a port number from 0 to 65535, not {value}.", name=name, value=raw)
        )
    return int(raw)


def _database(raw: str) -> Path | str:
    raw = raw.strip()
    if raw.lower().startswith(("postgresql://", "postgres://")):
        return raw
    return Path(raw) if raw else DEFAULT_DATABASE


def _sharding(values: Mapping[str, str]) -> dict[str, Any]:
    """``shard_count`` and ``shards`` from ``DVONN_SHARD_COUNT`` and ``DVONN_SHARDS``; a slice
    of the shards means other processes serve the rest, which needs a shared PostgreSQL."""
    raw_count = values.get("DVONN_SHARD_COUNT", "").strip()
    count = _count(values, "DVONN_SHARD_COUNT", default=0, minimum=1) if raw_count else None
    raw = values.get("DVONN_SHARDS", "").strip()
    if not raw:
        return {"shard_count": count, "shards": None}
    if count is None:
        raise SettingsError(
            _("DVONN_SHARDS needs DVONN_SHARD_COUNT, the number of shards in all processes.")
        )
    shards = _shard_ids(raw, count)
    if shards is None:
        raise SettingsError(
            _(
                "DVONN_SHARDS must name shards from 0 to {last}, such as 0-3 or 0,2,5, "
                "not {value}.",
                last=count - 1,
                value=raw,
            )
        )
    database = _database(values.get("DVONN_DATABASE", ""))
    if set(shards) != set(range(count)) and not isinstance(database, str):
        raise SettingsError(
            _(
                "DVONN_SHARDS={value} gives this process only some of the {count} shards, so "
                "other processes serve the rest, and several processes need one PostgreSQL "
                "database: set DVONN_DATABASE to a postgresql:// URL. SQLite serves one process "
                "with every shard.",
                value=raw,
                count=count,
            )
        )
    return {"shard_count": count, "shards": shards}


def _shard_ids(raw: str, count: int) -> tuple[int, ...] | None:
    """``"0-3"``, ``"0,2,5"`` or ``"0-1,4"`` as shard ids below ``count``; ``None`` if not so."""
    ids: set[int] = set()
    for part in raw.replace(" ", "").split(","):
        first, _dash, last = part.partition("-")
        if not first.isdigit() or (last and not last.isdigit()) or (_dash and not last):
            return None
        low, high = int(first), int(last or first)
        if low > high or high >= count:
            return None
        ids.update(range(low, high + 1))
    return tuple(sorted(ids))


def _snowflake(values: Mapping[str, str], name: str) -> int | None:
    raw = values.get(name, "").strip()
    if not raw:
        return None
    if not raw.isdigit():
        raise SettingsError(
            _("{name} must be a Discord id (digits only), not {value}.", name=name, value=raw)
        )
    return int(raw)
