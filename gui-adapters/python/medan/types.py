"""Typed values of MEP: scores, info lines, limits, options, results, errors.

Standard library only; nothing here runs a process (see medan.engine).
"""

import functools
import math

__all__ = [
    "EngineError", "EngineTerminated", "EngineTimeout", "MepError",
    "UnknownCommandError", "SyntaxError_", "BadValueError", "UnknownOptionError",
    "IllegalMoveError", "IllegalPositionError", "GameOverError", "BusyError",
    "NotSupportedError", "ERROR_CODES",
    "Score", "PovScore", "Info", "Limit", "Option", "Result", "Eval",
    "PlayResult", "parse_info", "parse_score", "check_token", "check_text",
]


# ---- errors -----------------------------------------------------------

class EngineError(Exception):
    """Base of every error this package raises about an engine."""


class EngineTerminated(EngineError):
    """The engine's process ended (or was ended) while an answer was due.

    ``stderr`` holds the last lines the engine wrote to its stderr,
    ``returncode`` its exit status when known."""

    def __init__(self, message, stderr=(), returncode=None):
        self.stderr = list(stderr)
        self.returncode = returncode
        if self.stderr:
            message += "; last stderr lines:\n  " + "\n  ".join(self.stderr)
        super().__init__(message)


class EngineTimeout(EngineError):
    """The engine did not answer in time (not even ``ping``); it was killed.

    ``stderr`` holds the last lines of its stderr."""

    def __init__(self, message, stderr=()):
        self.stderr = list(stderr)
        if self.stderr:
            message += "; last stderr lines:\n  " + "\n  ".join(self.stderr)
        super().__init__(message)


class MepError(EngineError):
    """An ``error <code> <message>`` answer; ``code`` is the protocol's code.

    A command that fails changes nothing in the engine (MEP's rule), so the
    engine stays usable after one of these."""

    code = None

    def __init__(self, code, message, command=None):
        self.code = code
        self.message = message
        self.command = command
        text = "%s: %s" % (code, message)
        if command is not None:
            text += " (after %r)" % command
        super().__init__(text)


def _code_class(name, code, doc):
    cls = type(name, (MepError,), {"__doc__": doc})
    cls.code = code
    return cls


UnknownCommandError = _code_class("UnknownCommandError", "unknown_command",
                                  "The first token is not a command.")
SyntaxError_ = _code_class("SyntaxError_", "syntax", "A malformed command.")
BadValueError = _code_class("BadValueError", "bad_value",
                            "Well-formed but out of range.")
UnknownOptionError = _code_class("UnknownOptionError", "unknown_option",
                                 "No option of that name.")
IllegalMoveError = _code_class("IllegalMoveError", "illegal_move",
                               "A move that is not legal in its position.")
IllegalPositionError = _code_class("IllegalPositionError", "illegal_position",
                                   "A position string that describes an impossible position.")
GameOverError = _code_class("GameOverError", "game_over",
                            "go or play in a finished game.")
BusyError = _code_class("BusyError", "busy", "A search is running.")
NotSupportedError = _code_class("NotSupportedError", "not_supported",
                                "The engine cannot do this.")

ERROR_CODES = {c.code: c for c in (
    UnknownCommandError, SyntaxError_, BadValueError, UnknownOptionError,
    IllegalMoveError, IllegalPositionError, GameOverError, BusyError,
    NotSupportedError)}


def error_from_line(line, command=None):
    """The exception for an ``error <code> <message>`` line."""
    parts = line.split(None, 2)
    code = parts[1] if len(parts) > 1 else "unknown"
    message = parts[2] if len(parts) > 2 else ""
    cls = ERROR_CODES.get(code, MepError)
    return cls(code, message, command)


def check_token(value, what="token"):
    """A move token or parameter: printable ASCII, no spaces (else ValueError)."""
    if not isinstance(value, str) or not value:
        raise ValueError("%s must be a non-empty string, not %r" % (what, value))
    for ch in value:
        if not (33 <= ord(ch) <= 126):
            raise ValueError("%s %r holds a space or a byte that is not printable ASCII"
                             % (what, value))
    return value


def check_text(value, what="value"):
    """Text sent inside a line: printable ASCII and spaces only (no line breaks)."""
    if not isinstance(value, str):
        raise ValueError("%s must be a string, not %r" % (what, value))
    for ch in value:
        if not (32 <= ord(ch) <= 126):
            raise ValueError("%s %r holds a byte that is not printable ASCII" % (what, value))
    return value


# ---- scores -----------------------------------------------------------

@functools.total_ordering
class Score:
    """A score from one seat's point of view: ``cp`` centipawns, or a proven
    ``win``/``loss`` in that many plies (exactly one is set).

    Ordering: any win is better than any cp value, a nearer win better than a
    farther one; any loss is worse than any cp value, a farther loss better
    than a nearer one.  ``-score`` is the same score from the opponent's side
    in a two-seat game (win n <-> loss n, cp x <-> cp -x)."""

    __slots__ = ("cp", "win", "loss")

    def __init__(self, cp=None, win=None, loss=None):
        given = [v is not None for v in (cp, win, loss)]
        if sum(given) != 1:
            raise ValueError("a Score is exactly one of cp, win, loss")
        for v in (cp, win, loss):
            if v is not None and (isinstance(v, bool) or not isinstance(v, int)):
                raise ValueError("Score values are integers, not %r" % (v,))
        if (win is not None and win < 0) or (loss is not None and loss < 0):
            raise ValueError("win/loss count plies, from 0")
        self.cp, self.win, self.loss = cp, win, loss

    @classmethod
    def parse(cls, kind, value):
        """From the two tokens after ``score``: ``cp 12``, ``win 3``, ``loss 4``."""
        if kind not in ("cp", "win", "loss"):
            raise ValueError("unknown score kind %r" % kind)
        return cls(**{kind: int(value)})

    def is_proven(self):
        return self.cp is None

    def _key(self):
        if self.win is not None:
            return (2, -self.win)
        if self.loss is not None:
            return (0, self.loss)
        return (1, self.cp)

    def __eq__(self, other):
        if not isinstance(other, Score):
            return NotImplemented
        return self._key() == other._key()

    def __lt__(self, other):
        if not isinstance(other, Score):
            return NotImplemented
        return self._key() < other._key()

    def __hash__(self):
        return hash(self._key())

    def __neg__(self):
        if self.win is not None:
            return Score(loss=self.win)
        if self.loss is not None:
            return Score(win=self.loss)
        return Score(cp=-self.cp)

    def score(self, win_score=100000):
        """A plain integer: cp, or +/-(win_score - plies) for proven results."""
        if self.win is not None:
            return win_score - self.win
        if self.loss is not None:
            return -(win_score - self.loss)
        return self.cp

    def __str__(self):
        if self.win is not None:
            return "win %d" % self.win
        if self.loss is not None:
            return "loss %d" % self.loss
        return "cp %d" % self.cp

    def __repr__(self):
        return "Score(%s)" % str(self).replace(" ", "=")

    def describe(self):
        """For people: ``win in 7``, ``loss in 4`` (plies, proven), ``cp 12``."""
        if self.win is not None:
            return "win in %d" % self.win
        if self.loss is not None:
            return "loss in %d" % self.loss
        return "cp %d" % self.cp


class PovScore:
    """An engine's score with the seat it is relative to.

    ``relative`` is the score as the engine sent it (the side to move's view);
    ``turn`` the seat to move (1-based), when known.  ``pov(seat)`` is the
    score from a fixed seat's view (two-seat games: the other seat sees the
    negation)."""

    __slots__ = ("relative", "turn")

    def __init__(self, relative, turn=None):
        self.relative = relative
        self.turn = turn

    def pov(self, seat):
        if self.turn is None:
            raise ValueError("the seat to move is not known for this score")
        return self.relative if seat == self.turn else -self.relative

    def __eq__(self, other):
        if isinstance(other, PovScore):
            return self.relative == other.relative and self.turn == other.turn
        return NotImplemented

    def __str__(self):
        return str(self.relative)

    def __repr__(self):
        return "PovScore(%r, turn=%r)" % (self.relative, self.turn)


# ---- info lines -------------------------------------------------------

_INT_KEYS = ("depth", "seldepth", "multipv", "nodes", "nps", "hashfull",
             "iterations", "visits")


class Info(dict):
    """One (merged) ``info`` report, a dict with typed values:

    ``depth seldepth multipv nodes nps hashfull iterations visits`` int;
    ``time`` float seconds (the protocol's milliseconds / 1000); ``score``
    a PovScore; ``values`` list of float (per absolute seat); ``pv`` list of
    move tokens; ``currmove`` str; ``string`` str; any key this package does
    not know: its one value token, as a string."""

    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None


def parse_score(kind, value, turn=None):
    return PovScore(Score.parse(kind, value), turn)


def parse_info(line, turn=None):
    """An ``info`` line -> Info.  Raises ValueError on a line that is not
    well formed (a key without its value, a number that is not one)."""
    toks = line.split()
    if not toks or toks[0] != "info":
        raise ValueError("not an info line: %r" % line)
    info = Info()
    i = 1
    n = len(toks)
    while i < n:
        key = toks[i]
        if key == "pv":
            info["pv"] = toks[i + 1:]
            break
        if key == "string":
            rest = line.split("string", 1)[1]
            info["string"] = rest.strip()
            break
        if key == "score":
            if i + 2 >= n:
                raise ValueError("score needs two tokens: %r" % line)
            info["score"] = parse_score(toks[i + 1], toks[i + 2], turn)
            i += 3
            continue
        if i + 1 >= n:
            raise ValueError("info key %r has no value: %r" % (key, line))
        val = toks[i + 1]
        if key in _INT_KEYS:
            info[key] = int(val)
        elif key == "time":
            info[key] = int(val) / 1000.0
        elif key == "values":
            vals = [float(v) for v in val.split(",")]
            if any(math.isnan(v) for v in vals):
                raise ValueError("values holds NaN: %r" % line)
            info[key] = vals
        else:
            info[key] = val
        i += 2
    return info


# ---- limits, options, results ------------------------------------------

def _ms(seconds, what):
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
        raise ValueError("%s is a number of seconds, not %r" % (what, seconds))
    if not (seconds >= 0) or math.isinf(seconds):
        raise ValueError("%s must be >= 0 seconds, not %r" % (what, seconds))
    return int(round(seconds * 1000))


def _posint(v, what, lo=1):
    if isinstance(v, bool) or not isinstance(v, int) or v < lo:
        raise ValueError("%s must be an integer >= %d, not %r" % (what, lo, v))
    return v


class Limit:
    """What ends a search (any mix; the first reached ends it; none: infinite).

    ``depth`` plies (a budget for the MCTS engines), ``nodes``, ``time``
    (seconds to think: ``movetime``), ``clock`` and ``inc``: dicts of seat ->
    seconds (``p<i>time``/``p<i>inc``), ``movestogo``."""

    def __init__(self, depth=None, nodes=None, time=None, clock=None, inc=None,
                 movestogo=None):
        self.depth = None if depth is None else _posint(depth, "depth")
        self.nodes = None if nodes is None else _posint(nodes, "nodes")
        self.time = time
        self._movetime = None if time is None else _ms(time, "time")
        self.clock = dict(clock or {})
        self.inc = dict(inc or {})
        for d, what in ((self.clock, "clock"), (self.inc, "inc")):
            for seat, secs in d.items():
                _posint(seat, what + " seat")
                _ms(secs, "%s of seat %s" % (what, seat))
        self.movestogo = None if movestogo is None else _posint(movestogo, "movestogo")

    def is_infinite(self):
        return (self.depth is None and self.nodes is None and self.time is None
                and not self.clock)

    def args(self):
        """The ``go`` arguments (without ``go``)."""
        out = []
        for seat in sorted(self.clock):
            out += ["p%dtime" % seat, str(_ms(self.clock[seat], "clock"))]
        for seat in sorted(self.inc):
            out += ["p%dinc" % seat, str(_ms(self.inc[seat], "inc"))]
        if self.movestogo is not None:
            out += ["movestogo", str(self.movestogo)]
        if self._movetime is not None:
            out += ["movetime", str(self._movetime)]
        if self.depth is not None:
            out += ["depth", str(self.depth)]
        if self.nodes is not None:
            out += ["nodes", str(self.nodes)]
        return out

    def budget(self):
        """Seconds the limits allow at most (None when unbounded by time)."""
        if self.time is not None:
            return float(self.time)
        if self.clock:
            return float(max(self.clock.values()))
        return None

    def __repr__(self):
        parts = ["%s=%r" % (k, getattr(self, k)) for k in
                 ("depth", "nodes", "time", "clock", "inc", "movestogo")
                 if getattr(self, k) not in (None, {})]
        return "Limit(%s)" % ", ".join(parts)


class Option:
    """One engine option from the handshake: ``name``, ``type`` (check spin
    combo string button), ``default`` (typed), ``min``/``max`` (spin),
    ``var`` (combo values)."""

    def __init__(self, name, type, default=None, min=None, max=None, var=()):
        self.name, self.type, self.default = name, type, default
        self.min, self.max, self.var = min, max, list(var)

    @classmethod
    def parse(cls, line):
        toks = line.split()
        # option name N type T [default D] [min a] [max b] [var v]...
        if len(toks) < 5 or toks[1] != "name" or toks[3] != "type":
            raise ValueError("bad option line %r" % line)
        name, typ = toks[2], toks[4]
        default, lo, hi, var = None, None, None, []
        i = 5
        while i < len(toks):
            key = toks[i]
            if key == "default" and typ == "string":
                # a string default runs to the next keyword (there is none after it)
                default = " ".join(toks[i + 1:])
                if default == "<empty>":
                    default = ""
                break
            if i + 1 >= len(toks):
                raise ValueError("bad option line %r" % line)
            val = toks[i + 1]
            if key == "default":
                default = val
            elif key == "min":
                lo = int(val)
            elif key == "max":
                hi = int(val)
            elif key == "var":
                var.append(val)
            i += 2
        if typ == "spin" and default is not None:
            default = int(default)
        elif typ == "check" and default is not None:
            default = default == "true"
        elif default == "<empty>":
            default = ""
        return cls(name, typ, default, lo, hi, var)

    def check(self, value):
        """The value as sent (a string, or None for a button); ValueError
        (or BadValueError for a well-typed value out of range) otherwise."""
        t = self.type
        if t == "button":
            if value not in (None, True):
                raise ValueError("%s is a button: it takes no value" % self.name)
            return None
        if t == "check":
            if not isinstance(value, bool):
                raise ValueError("%s is a check option: True or False, not %r"
                                 % (self.name, value))
            return "true" if value else "false"
        if t == "spin":
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError("%s is a spin option: an integer, not %r" % (self.name, value))
            if (self.min is not None and value < self.min) or \
               (self.max is not None and value > self.max):
                raise BadValueError("bad_value", "%s takes a whole number from %s to %s, not %d"
                                    % (self.name, self.min, self.max, value))
            return str(value)
        if t == "combo":
            if not isinstance(value, str):
                raise ValueError("%s is a combo option: a string, not %r" % (self.name, value))
            for v in self.var:
                if v.lower() == value.lower():
                    return v
            raise BadValueError("bad_value", "%s takes one of: %s, not %r"
                                % (self.name, " ".join(self.var), value))
        if t == "string":
            check_text(value, self.name)
            return value if value != "" else "<empty>"
        raise ValueError("option %s has a type this package does not know: %s"
                         % (self.name, t))

    def __repr__(self):
        return "Option(%r, %r, default=%r%s)" % (
            self.name, self.type, self.default,
            ", min=%r, max=%r" % (self.min, self.max) if self.type == "spin" else
            (", var=%r" % self.var if self.type == "combo" else ""))


class Result:
    """A finished game's result: ``outcome`` (``p1win p2win draw`` for two
    seats, else None), ``ranks`` (per seat, 1 = best), ``reason``, ``scores``
    (floats), and ``line`` (as the engine wrote it)."""

    def __init__(self, line):
        toks = line.split()
        if len(toks) < 2 or toks[0] != "result" or toks[1] == "none":
            raise ValueError("not a result: %r" % line)
        self.line = line
        self.outcome = None
        self.ranks = []
        self.reason = None
        self.scores = []
        i = 1
        if toks[1] == "ranks":
            i = 2
            while i < len(toks) and toks[i] not in ("reason", "scores"):
                self.ranks.append(int(toks[i]))
                i += 1
        else:
            self.outcome = toks[1]
            i = 2
        while i < len(toks):
            if toks[i] == "reason" and i + 1 < len(toks):
                self.reason = toks[i + 1]
                i += 2
            elif toks[i] == "scores":
                self.scores = [float(t) for t in toks[i + 1:]]
                break
            else:
                i += 1
        if self.outcome is not None and not self.ranks:
            self.ranks = {"p1win": [1, 2], "p2win": [2, 1], "draw": [1, 1]}.get(
                self.outcome, [])

    def winner(self):
        """The seat ranked first alone, or None (a draw, a shared first rank)."""
        if self.ranks.count(1) == 1:
            return self.ranks.index(1) + 1
        return None

    def __str__(self):
        return self.line[len("result "):]

    def __repr__(self):
        return "Result(%r)" % str(self)


class Eval:
    """The static evaluation: ``score`` (int, the side to act's view) and
    ``terms`` (name -> int or float, in the engine's order)."""

    def __init__(self, line):
        toks = line.split()
        if len(toks) < 2 or toks[0] != "eval":
            raise ValueError("not an eval line: %r" % line)
        self.score = int(toks[1])
        self.terms = {}
        for t in toks[2:]:
            name, sep, val = t.partition("=")
            if not sep:
                continue
            try:
                self.terms[name] = int(val)
            except ValueError:
                try:
                    self.terms[name] = float(val)
                except ValueError:
                    self.terms[name] = val

    def __repr__(self):
        return "Eval(score=%d, terms=%r)" % (self.score, self.terms)


class SolveResult:
    """What ``Engine.solve`` returns (``go solve``, the proof-number solver):
    ``status`` ``"win"``, ``"loss"`` (for the side to move) or ``"unknown"``;
    ``plies`` to the end when proven (None when unknown), ``exact`` False when
    ``plies`` is only an upper bound; ``move`` the proving move (a loss: the
    longest resistance; unknown: the most promising), ``nodes``, and
    ``score`` the proven Score (None when unknown)."""

    def __init__(self, status, plies=None, exact=True, move=None, nodes=None):
        if status not in ("win", "loss", "unknown"):
            raise ValueError("status is win, loss or unknown, not %r" % (status,))
        self.status, self.plies, self.exact = status, plies, exact
        self.move, self.nodes = move, nodes

    @property
    def score(self):
        if self.status == "unknown":
            return None
        return Score(**{self.status: self.plies})

    def __str__(self):
        if self.status == "unknown":
            return "unknown"
        return "%s in %s%d" % (self.status, "" if self.exact else "at most ", self.plies)

    def __repr__(self):
        return "SolveResult(%s, move=%r, nodes=%r)" % (str(self), self.move, self.nodes)


class PlayResult:
    """What ``Engine.play`` returns: ``move``, ``ponder`` (or None) and the
    last ``info`` of the best line (an Info, maybe empty)."""

    def __init__(self, move, ponder=None, info=None):
        self.move, self.ponder = move, ponder
        self.info = info if info is not None else Info()

    def __repr__(self):
        return "PlayResult(move=%r, ponder=%r)" % (self.move, self.ponder)
