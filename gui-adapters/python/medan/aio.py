"""The asyncio API: the blocking client's calls run on worker threads, so
an event loop never blocks on an engine.

    import asyncio, medan.aio

    async def main():
        async with await medan.aio.AsyncEngine.popen("medan-loa") as engine:
            info = await engine.analyse(medan.Position("loa"), medan.Limit(depth=4))
            async with await engine.analysis(medan.Position("loa")) as search:
                async for info in search:
                    if info.get("depth", 0) >= 5:
                        search.stop()

    asyncio.run(main())
"""

import asyncio
import functools

from .engine import Engine

__all__ = ["AsyncEngine", "AsyncAnalysis"]

_END = object()


async def _run(fn, *args, **kw):
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(None, functools.partial(fn, *args, **kw))


class AsyncEngine:
    """An Engine for asyncio code: every method of Engine that talks to the
    engine is a coroutine here; the attributes (id, game, players, params,
    options) are the same."""

    def __init__(self, engine):
        self.engine = engine

    @classmethod
    async def popen(cls, command, **kw):
        return cls(await _run(Engine.popen, command, **kw))

    def __getattr__(self, name):
        if name in ("id", "protocol", "game", "players", "params", "options", "argv"):
            return getattr(self.engine, name)
        raise AttributeError(name)

    async def __aenter__(self):
        return self

    async def __aexit__(self, *exc):
        await self.quit()
        return False

    async def configure(self, options):
        return await _run(self.engine.configure, options)

    async def ping(self):
        return await _run(self.engine.ping)

    async def newgame(self, **params):
        return await _run(self.engine.newgame, **params)

    async def analyse(self, position=None, limit=None, multipv=None):
        return await _run(self.engine.analyse, position, limit, multipv)

    async def play(self, position=None, limit=None):
        return await _run(self.engine.play, position, limit)

    async def analysis(self, position=None, limit=None, multipv=None):
        return AsyncAnalysis(await _run(self.engine.analysis, position, limit, multipv))

    async def legal_moves(self, position=None):
        return await _run(self.engine.legal_moves, position)

    async def fen(self, position=None, view=None):
        return await _run(self.engine.fen, position, view)

    async def result(self, position=None):
        return await _run(self.engine.result, position)

    async def eval(self, position=None):
        return await _run(self.engine.eval, position)

    async def perft(self, depth, position=None):
        return await _run(self.engine.perft, depth, position)

    async def divide(self, depth, position=None):
        return await _run(self.engine.divide, depth, position)

    async def quit(self):
        return await _run(self.engine.quit)

    def kill(self):
        self.engine.kill()


class AsyncAnalysis:
    """A running search for asyncio code: ``async for info in search``,
    ``search.stop()``, ``await search.wait()``; ``info``/``multipv``/``best``
    as in Analysis."""

    def __init__(self, analysis):
        self.analysis = analysis

    def __getattr__(self, name):
        return getattr(self.analysis, name)

    def __aiter__(self):
        return self

    async def __anext__(self):
        item = await _run(next, self.analysis, _END)
        if item is _END:
            raise StopAsyncIteration
        return item

    def stop(self):
        self.analysis.stop()

    async def wait(self):
        return await _run(self.analysis.wait)

    async def __aenter__(self):
        return self

    async def __aexit__(self, exc_type, exc, tb):
        await _run(self.analysis.__exit__, exc_type, exc, tb)
        return False
