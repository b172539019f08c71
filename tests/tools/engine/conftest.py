"""The engine's lab shares the engine tests' fixtures (the compiled search, built if needed)."""

from tests.ai.conftest import compiled

__all__ = ["compiled"]
