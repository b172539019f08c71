"""Servers' settings: the ``guild_settings`` and ``guild_channels`` tables (what a server's
administrators chose) and ``guild_locales`` (a server's language as Discord reports it).

:class:`SettingsWrites` is the part of :class:`~bot.storage.store.Writer` that writes them,
:class:`SettingsReads` the part of :class:`~bot.storage.store.Store` that reads them.
"""

from __future__ import annotations

from datetime import datetime

from bot.storage.models import BoardTheme, GuildId, GuildSettings, time_to_text
from bot.storage.sql_helpers import StorePart, WriterPart


class SettingsWrites(WriterPart):
    """Writing servers' settings and languages, in one write transaction."""

    async def save_guild_locale(self, guild_id: GuildId, locale: str, now: datetime) -> None:
        """Store a server's language as Discord reports it."""
        await self._conn.execute(
            "INSERT INTO guild_locales (guild_id, locale, updated_at) VALUES (?, ?, ?) "
            "ON CONFLICT (guild_id) DO UPDATE SET locale = excluded.locale, "
            "updated_at = excluded.updated_at",
            (guild_id, locale, time_to_text(now)),
        )

    async def save_guild_settings(self, settings: GuildSettings, now: datetime) -> None:
        """Insert or replace a server's settings."""
        await self._conn.execute(
            "INSERT INTO guild_settings (guild_id, default_clock_days, default_bank, use_threads, "
            "locale, organiser_role_id, theme, puzzle_channel_id, updated_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (guild_id) DO UPDATE SET "
            "default_clock_days = excluded.default_clock_days, "
            "default_bank = excluded.default_bank, "
            "use_threads = excluded.use_threads, locale = excluded.locale, "
            "organiser_role_id = excluded.organiser_role_id, theme = excluded.theme, "
            "puzzle_channel_id = excluded.puzzle_channel_id, updated_at = excluded.updated_at",
            (
                settings.guild_id,
                settings.default_clock_days,
                settings.default_bank,
                int(settings.use_threads),
                settings.locale,
                settings.organiser_role_id,
                None if settings.theme is None else settings.theme.value,
                settings.puzzle_channel_id,
                time_to_text(now),
            ),
        )
        await self._conn.execute(
            "DELETE FROM guild_channels WHERE guild_id = ?", (settings.guild_id,)
        )
        await self._conn.execute_many(
            "INSERT INTO guild_channels (guild_id, channel_id) VALUES (?, ?)",
            [(settings.guild_id, channel) for channel in sorted(settings.channels)],
        )


class SettingsReads(StorePart):
    """Reading servers' settings and languages."""

    async def guild_settings(self, guild_id: GuildId) -> GuildSettings:
        """A server's settings; the defaults if it has none stored."""
        row = await self.db.fetch_one(
            "SELECT guild_id, default_clock_days, default_bank, use_threads, locale, "
            "organiser_role_id, theme, puzzle_channel_id FROM guild_settings "
            "WHERE guild_id = ?",
            (guild_id,),
        )
        channels = frozenset(
            r[0]
            for r in await self.db.fetch_all(
                "SELECT channel_id FROM guild_channels WHERE guild_id = ?", (guild_id,)
            )
        )
        if row is None:
            return GuildSettings(guild_id, channels=channels)
        return GuildSettings(
            guild_id=row["guild_id"],
            default_clock_days=row["default_clock_days"],
            default_bank=row["default_bank"],
            use_threads=bool(row["use_threads"]),
            locale=row["locale"],
            channels=channels,
            organiser_role_id=row["organiser_role_id"],
            theme=None if row["theme"] is None else BoardTheme(row["theme"]),
            puzzle_channel_id=row["puzzle_channel_id"],
        )

    async def guild_locale(self, guild_id: GuildId) -> str | None:
        """A server's language as Discord last reported it, if known."""
        row = await self.db.fetch_one(
            "SELECT locale FROM guild_locales WHERE guild_id = ?", (guild_id,)
        )
        return None if row is None else str(row[0])
