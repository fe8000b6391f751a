"""medan - a Python client for Medan's engines (MEP, the Medan Engine Protocol).

    import medan
    with medan.Engine.popen("medan-loa") as engine:
        info = engine.analyse(medan.Position("loa"), medan.Limit(depth=4))
        print(info["score"], info["pv"])

See docs/scripting.md.  The asyncio API is in ``medan.aio`` (also
importable as ``medan.asyncio``).
"""

from .types import (EngineError, EngineTerminated, EngineTimeout, MepError,
                    UnknownCommandError, SyntaxError_, BadValueError,
                    UnknownOptionError, IllegalMoveError, IllegalPositionError,
                    GameOverError, BusyError, NotSupportedError, ERROR_CODES,
                    Score, PovScore, Info, Limit, Option, Result, Eval, PlayResult,
                    SolveResult,
                    parse_info)
from .engine import Engine, Analysis, find_program
from .position import Position, rules_engine, close_rules_engines

__version__ = "0.1"

__all__ = [
    "Engine", "Analysis", "Position", "Limit", "Info", "Score", "PovScore",
    "Option", "Result", "Eval", "PlayResult", "SolveResult", "parse_info", "find_program",
    "rules_engine", "close_rules_engines",
    "EngineError", "EngineTerminated", "EngineTimeout", "MepError",
    "UnknownCommandError", "SyntaxError_", "BadValueError", "UnknownOptionError",
    "IllegalMoveError", "IllegalPositionError", "GameOverError", "BusyError",
    "NotSupportedError", "ERROR_CODES",
]
