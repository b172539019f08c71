"""The `machine_speed` marker turns the fake's per-channel limits off through the `table` and
`network_tables` fixtures, and only that: the global limit stays, and unmarked tests keep every
limit (see MACHINE_SPEED in tests/bot/e2e/conftest.py)."""

from __future__ import annotations

import pytest

from tests.bot.e2e.conftest import NetworkTables, Table


@pytest.mark.machine_speed
def test_a_marked_test_has_no_per_channel_limits(table: Table) -> None:
    limits = table.fake.limits
    assert limits.enabled and limits.global_per_second and not limits.per_channel


def test_an_unmarked_test_has_every_limit(table: Table) -> None:
    limits = table.fake.limits
    assert limits.enabled and limits.global_per_second and limits.per_channel


@pytest.mark.machine_speed
def test_a_marked_network_test_has_no_per_channel_limits(network_tables: NetworkTables) -> None:
    limits = network_tables.fake.limits
    assert limits.enabled and limits.global_per_second and not limits.per_channel


def test_an_unmarked_network_test_has_every_limit(network_tables: NetworkTables) -> None:
    limits = network_tables.fake.limits
    assert limits.enabled and limits.global_per_second and limits.per_channel
