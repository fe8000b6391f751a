"""``medan.asyncio``: the same as ``medan.aio`` (the asyncio API)."""
from .aio import AsyncEngine, AsyncAnalysis  # noqa: F401

__all__ = ["AsyncEngine", "AsyncAnalysis"]
