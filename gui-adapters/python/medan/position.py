"""Positions: a start (the game's start or a position string), the game's
``newgame`` parameters and a list of moves.  Every rules question (legal
moves, the position string, the result, a seat's view) is answered by the
game's engine program (``medan-<game>`` on PATH, or the ``rules`` given), so
the rules live in one place: the engines.
"""

import atexit
import threading

from .engine import Engine
from .types import check_text, check_token

__all__ = ["Position", "rules_engine", "close_rules_engines"]

_rules = {}
_rules_lock = threading.Lock()


def rules_engine(program):
    """The shared Engine that answers rules questions for ``program`` (a
    name on PATH or a path); started on first use, ended at exit."""
    with _rules_lock:
        eng = _rules.get(program)
        if eng is None or eng._dead is not None:
            eng = Engine.popen(program)
            _rules[program] = eng
        return eng


def close_rules_engines():
    """End the shared rules engines (also done at interpreter exit)."""
    with _rules_lock:
        engines = list(_rules.values())
        _rules.clear()
    for eng in engines:
        try:
            eng.quit()
        except Exception:
            pass


atexit.register(close_rules_engines)

_TWO_SEATS = ("loa", "fetlar", "palagan")


class Position:
    """A position of ``game``: ``Position("palagan", size=5)``,
    ``Position("battalion", players=4, seed=7)``, ``Position.from_fen(game,
    s)``.  ``params`` are the game's ``newgame`` parameters; ``moves`` the
    moves played from the start (the history, for repetition rules).

    ``rules`` is the engine program answering its questions (default
    ``medan-<game>`` on PATH), or an Engine of that game."""

    def __init__(self, game, rules=None, fen=None, moves=(), **params):
        self.game = check_token(game, "game")
        self.fen0 = None if fen is None else check_text(fen, "position string").strip()
        if self.fen0 is not None and (not self.fen0 or " moves " in " %s " % self.fen0):
            raise ValueError("bad position string %r" % fen)
        self.params = {}
        for k, v in params.items():
            self.params[check_token(str(k), "parameter")] = check_token(str(v), "parameter value")
        self.moves = [check_token(m, "move") for m in moves]
        self.rules = rules

    @classmethod
    def from_fen(cls, game, fen, rules=None, **params):
        """A position from a position string (as ``fen`` prints it)."""
        return cls(game, rules=rules, fen=fen, **params)

    def copy(self):
        return Position(self.game, rules=self.rules, fen=self.fen0, moves=self.moves,
                        **self.params)

    def command(self):
        """The ``position`` line that sets this position."""
        head = "position start" if self.fen0 is None else "position fen " + self.fen0
        if self.moves:
            head += " moves " + " ".join(self.moves)
        return head

    def _engine(self):
        if isinstance(self.rules, Engine):
            return self.rules
        return rules_engine(self.rules or "medan-" + self.game)

    def _ask(self, method, *args, **kw):
        eng = self._engine()
        with eng._cmdlock:
            eng.set_position(self)
            return getattr(eng, method)(None, *args, **kw)

    # ---- the rules' questions ------------------------------------------

    def legal_moves(self):
        """Every legal move token (canonical), [] in a finished game."""
        return self._ask("legal_moves")

    def push(self, move):
        """Play a move (checked by the engine: IllegalMoveError, and the
        position stays as it was)."""
        check_token(move, "move")
        after = self.copy()
        after.moves.append(move)
        eng = after._engine()
        with eng._cmdlock:
            eng.set_position(after)
        self.moves.append(move)

    def pop(self):
        """Take back the last move; returns it."""
        return self.moves.pop()

    def fen(self):
        """The canonical position string of this position."""
        return self._ask("fen")

    def result(self):
        """The Result of a finished game, or None while it goes on."""
        return self._ask("result")

    def is_game_over(self):
        return self.result() is not None

    def view(self, seat):
        """Seat ``seat``'s view of this full state (hidden-information games:
        Battalion), as a Position that seat's engine is sent."""
        s = self._ask("fen", view=seat)
        params = {"players": self.params["players"]} if "players" in self.params else {}
        params["seat"] = seat
        return Position(self.game, rules=self.rules, fen=s, **params)

    def show(self):
        """The drawing of the position, for people."""
        return self._ask("show")

    def turn_hint(self):
        """The seat to move when it can be told without asking the engine
        (two-seat games: from the start's side to move and the moves played;
        Battalion: a position string's ``act=`` field with no moves), else None."""
        if self.game in _TWO_SEATS:
            side = "b"
            if self.fen0 is not None:
                toks = self.fen0.split()
                if len(toks) < 2 or toks[1] not in ("b", "w"):
                    return None
                side = toks[1]
            seat = 1 if side == "b" else 2
            return seat if len(self.moves) % 2 == 0 else 3 - seat
        if self.fen0 is not None and not self.moves:
            for t in self.fen0.split():
                if t.startswith("act="):
                    try:
                        return int(t[4:])
                    except ValueError:
                        return None
        return None

    def turn(self):
        """The seat to move (asks the engine's ``fen`` when it must)."""
        t = self.turn_hint()
        if t is not None:
            return t
        return Position.from_fen(self.game, self.fen(), **self.params).turn_hint()

    def __eq__(self, other):
        return isinstance(other, Position) and (self.game, self.fen0, self.moves, self.params) \
            == (other.game, other.fen0, other.moves, other.params)

    def __repr__(self):
        extra = "".join(", %s=%r" % kv for kv in self.params.items())
        if self.fen0 is not None:
            extra += ", fen=%r" % self.fen0
        if self.moves:
            extra += ", moves=%r" % self.moves
        return "Position(%r%s)" % (self.game, extra)
