"""Fixtures for the fake Discord's own tests."""

from tests.fakediscord.fixtures import discord_fake

__all__ = ["discord_fake"]
