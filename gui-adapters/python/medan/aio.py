"""The asyncio API: the blocking client's calls run on worker threads (two
per engine, its own: engines never wait for each other's threads), so an
event loop never blocks on an engine.

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
import concurrent.futures
import functools

from .engine import Engine

__all__ = ["AsyncEngine", "AsyncAnalysis"]

_END = object()


async def _run(fn, *args, executor=None, **kw):
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(executor, functools.partial(fn, *args, **kw))


class AsyncEngine:
    """An Engine for asyncio code: every method of Engine that talks to the
    engine is a coroutine here; the attributes (id, game, players, params,
    options) are the same."""

    def __init__(self, engine):
        self.engine = engine
        self._pool = concurrent.futures.ThreadPoolExecutor(
            max_workers=2, thread_name_prefix="medan-aio")

    @classmethod
    async def popen(cls, command, **kw):
        return cls(await _run(functools.partial(Engine.popen, command, **kw)))

    def _call(self, fn, *args, **kw):
        return _run(fn, *args, executor=self._pool, **kw)

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
        return await self._call(self.engine.configure, options)

    async def ping(self):
        return await self._call(self.engine.ping)

    async def newgame(self, **params):
        return await self._call(self.engine.newgame, **params)

    async def analyse(self, position=None, limit=None, multipv=None):
        return await self._call(self.engine.analyse, position, limit, multipv)

    async def play(self, position=None, limit=None):
        return await self._call(self.engine.play, position, limit)

    async def analysis(self, position=None, limit=None, multipv=None, ponder=False):
        return AsyncAnalysis(await self._call(self.engine.analysis, position, limit, multipv,
                                              ponder),
                             self._pool)

    async def legal_moves(self, position=None):
        return await self._call(self.engine.legal_moves, position)

    async def fen(self, position=None, view=None):
        return await self._call(self.engine.fen, position, view)

    async def result(self, position=None):
        return await self._call(self.engine.result, position)

    async def eval(self, position=None):
        return await self._call(self.engine.eval, position)

    async def perft(self, depth, position=None):
        return await self._call(self.engine.perft, depth, position)

    async def divide(self, depth, position=None):
        return await self._call(self.engine.divide, depth, position)

    async def quit(self):
        try:
            return await self._call(self.engine.quit)
        finally:
            self._pool.shutdown(wait=False)

    def kill(self):
        self.engine.kill()


class AsyncAnalysis:
    """A running search for asyncio code: ``async for info in search``,
    ``search.stop()``, ``await search.wait()``; ``info``/``multipv``/``best``
    as in Analysis."""

    def __init__(self, analysis, pool=None):
        self.analysis = analysis
        self._pool = pool

    def __getattr__(self, name):
        return getattr(self.analysis, name)

    def __aiter__(self):
        return self

    async def __anext__(self):
        item = await _run(next, self.analysis, _END, executor=self._pool)
        if item is _END:
            raise StopAsyncIteration
        return item

    def stop(self):
        self.analysis.stop()

    def ponderhit(self):
        self.analysis.ponderhit()

    async def wait(self):
        return await _run(self.analysis.wait, executor=self._pool)

    async def __aenter__(self):
        return self

    async def __aexit__(self, exc_type, exc, tb):
        await _run(self.analysis.__exit__, exc_type, exc, tb, executor=self._pool)
        return False
