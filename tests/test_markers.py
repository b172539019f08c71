"""The suite's own markers cannot silently stop doing what they say: a `machine_speed` test
that uses neither of the fake's `table` and `network_tables` fixtures (which read the marker)
stops the run."""

from __future__ import annotations

import pytest

CONFTEST = """
import pytest

from tests.conftest import pytest_collection_modifyitems  # the suite's check, as it runs


@pytest.fixture
def table():
    return "the e2e fixture that reads the marker"


@pytest.fixture
def network_tables():
    return "the other e2e fixture that reads it"
"""

INI = """
[pytest]
addopts = --strict-markers -p no:cacheprovider -p no:asyncio
markers =
    machine_speed: as in pyproject.toml
"""


@pytest.fixture
def scene(pytester: pytest.Pytester) -> pytest.Pytester:
    pytester.makeconftest(CONFTEST)
    pytester.makeini(INI)
    return pytester


def test_a_machine_speed_test_without_the_table_fixture_stops_the_run(
    scene: pytest.Pytester,
) -> None:
    scene.makepyfile(
        test_fast="""
        import pytest

        @pytest.mark.machine_speed
        def test_with_table(table):
            pass

        @pytest.mark.machine_speed
        def test_without_it():
            pass
        """
    )
    result = scene.runpytest_inprocess()
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*machine_speed*test_fast.py::test_without_it"])
    assert "test_with_table" not in result.stderr.str()


def test_machine_speed_tests_with_the_table_fixture_run(scene: pytest.Pytester) -> None:
    scene.makepyfile(
        test_fast="""
        import pytest

        @pytest.mark.machine_speed
        def test_with_table(table):
            pass

        @pytest.mark.machine_speed
        @pytest.mark.parametrize("n", [1, 2])
        def test_through_a_fixture_that_uses_it(played, n):
            pass

        @pytest.mark.machine_speed
        def test_with_network_tables(network_tables):
            pass

        @pytest.fixture
        def played(table):
            return table
        """
    )
    scene.runpytest_inprocess().assert_outcomes(passed=4)
