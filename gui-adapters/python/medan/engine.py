"""The blocking MEP client: one engine process, its handshake, commands,
searches.  A reader thread takes every stdout line as it comes (so the
engine never blocks on a full pipe and ``stop`` can be sent while a search
runs), another keeps the last lines of stderr for error messages.

Liveness: an answer that takes longer than ``timeout`` seconds is not an
error by itself (a deep search is slow); the client then sends ``ping`` —
which every MEP engine answers at once in every state — and only an engine
that does not answer that within ``timeout`` either is called hung: it is
killed and ``EngineTimeout`` raised.  An engine that exits raises
``EngineTerminated``.  Both carry the last lines of the engine's stderr.
"""

import collections
import itertools
import os
import queue
import shutil
import subprocess
import threading
import time as _time

from .types import (EngineError, EngineTerminated, EngineTimeout, Info, Limit,
                    Option, PlayResult, Result, Eval, SolveResult, UnknownOptionError,
                    check_text, check_token, error_from_line, parse_info)

__all__ = ["Engine", "Analysis", "find_program"]

_EOF = object()
# The longest output line read (Palagan N = 9's legal moves are about 1 MB).
LINE_MAX = 16 << 20
# Keywords of the final line of a command (MEP: every command gets one).
_FINALS = ("ok", "error", "bestmove", "pong", "readyok", "mepok")


def find_program(name_or_path):
    """The path of an engine program: a path (with a ``/``) as given, else
    the name looked up on PATH."""
    if os.sep in name_or_path or (os.altsep and os.altsep in name_or_path):
        return name_or_path
    found = shutil.which(name_or_path)
    if found is None:
        raise FileNotFoundError("engine program %r not found on PATH" % name_or_path)
    return found


class Engine:
    """A running MEP engine.  Make one with ``Engine.popen(...)``; use it as
    a context manager (or call ``quit()``) so the process ends.

    After the handshake: ``id`` (dict: name, author, version), ``protocol``
    (int), ``game`` (str), ``players`` (a (min, max) tuple), ``params`` (the
    game's ``newgame`` parameters as the handshake lists them, name ->
    range text), ``options`` (name -> Option, in the engine's order)."""

    def __init__(self, argv, timeout=10.0, cwd=None, env=None, stderr_lines=20):
        self.argv = list(argv)
        self.timeout = float(timeout)
        self._stderr = collections.deque(maxlen=stderr_lines)
        self._q = queue.Queue()
        self._wlock = threading.Lock()
        self._cmdlock = threading.RLock()
        self._ping = itertools.count(1)
        self._dead = None          # why the engine is unusable, once it is
        self._analysis = None      # the search running, if any
        self._params = {}          # the newgame parameters last sent
        self.id, self.protocol, self.game = {}, None, None
        self.players, self.params, self.options = None, {}, {}
        try:
            self._proc = subprocess.Popen(
                self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, cwd=cwd, env=env, bufsize=-1,
                start_new_session=True)
        except OSError as e:
            raise EngineTerminated("cannot start %s: %s" % (self.argv[0], e)) from e
        self._reader = threading.Thread(target=self._read_stdout, daemon=True,
                                        name="medan-reader")
        self._ereader = threading.Thread(target=self._read_stderr, daemon=True,
                                         name="medan-stderr")
        self._reader.start()
        self._ereader.start()

    # ---- construction ------------------------------------------------

    @classmethod
    def popen(cls, command, options=None, args=(), timeout=10.0, cwd=None, env=None):
        """Start an engine program (a path, or a name found on PATH, e.g.
        ``"medan-loa"``), do the MEP handshake, set ``options`` (checked like
        ``configure``) and wait for ``readyok``.  ``timeout`` (seconds) is how
        long the engine may stay silent, ``ping`` unanswered, before it is
        called hung."""
        eng = cls([find_program(command)] + list(args), timeout=timeout, cwd=cwd, env=env)
        try:
            eng._handshake()
            if options:
                eng.configure(options)
            eng.ping()
        except BaseException:
            eng.kill()
            raise
        return eng

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.quit()
        return False

    def __del__(self):
        try:
            if self._proc.poll() is None:
                self.kill()
        except Exception:
            pass

    # ---- threads -----------------------------------------------------

    def _read_stdout(self):
        f = self._proc.stdout
        try:
            while True:
                raw = f.readline(LINE_MAX)
                if not raw:
                    break
                if not raw.endswith(b"\n") and len(raw) == LINE_MAX:
                    # a line longer than any MEP answer: dropped whole, never held
                    while raw and not raw.endswith(b"\n"):
                        raw = f.readline(LINE_MAX)
                    self._stderr.append("(medan: dropped an output line of more than %d bytes)"
                                        % LINE_MAX)
                    continue
                self._q.put(raw.decode("ascii", "replace").rstrip("\r\n"))
        except (OSError, ValueError):
            pass
        self._q.put(_EOF)

    def _read_stderr(self):
        f = self._proc.stderr
        try:
            for raw in iter(f.readline, b""):
                self._stderr.append(raw.decode("utf-8", "replace").rstrip("\r\n"))
        except (OSError, ValueError):
            pass

    def stderr_tail(self):
        """The last lines the engine wrote to stderr."""
        return list(self._stderr)

    # ---- low level ---------------------------------------------------

    def _check_alive(self):
        if self._dead is not None:
            raise EngineTerminated("the engine is not running (%s)" % self._dead,
                                   self.stderr_tail(), self._proc.poll())

    def _terminated(self, what):
        # the output ended: give the process a moment to exit, for its status
        try:
            self._proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            self.kill()
        self._ereader.join(timeout=1.0)
        code = self._proc.poll()
        self._dead = "it ended (exit status %s)" % code
        return EngineTerminated("engine %s ended %s (exit status %s)"
                                % (os.path.basename(self.argv[0]), what, code),
                                self.stderr_tail(), code)

    def send_line(self, line):
        """Send one raw MEP line (printable ASCII; the newline is added)."""
        check_text(line, "line")
        self._check_alive()
        data = (line + "\n").encode("ascii")
        with self._wlock:
            try:
                self._proc.stdin.write(data)
                self._proc.stdin.flush()
            except (BrokenPipeError, OSError, ValueError):
                raise self._terminated("while sent %r" % line) from None

    def _next_line(self, what, liveness=True):
        """The next stdout line.  After ``timeout`` seconds of silence, a
        ``ping`` asks whether the engine is alive; without an answer to it
        within another ``timeout`` the engine is killed (EngineTimeout)."""
        self._check_alive()
        pending = None
        while True:
            try:
                line = self._q.get(timeout=self.timeout)
            except queue.Empty:
                if pending is None and liveness:
                    pending = "medan-alive-%d" % next(self._ping)
                    self.send_line("ping " + pending)
                    continue
                self.kill()
                self._dead = "it did not answer and was killed"
                raise EngineTimeout("engine %s did not answer %s within %.1f s%s"
                                    % (os.path.basename(self.argv[0]), what, self.timeout,
                                       " (nor a ping)" if pending else ""),
                                    self.stderr_tail()) from None
            if line is _EOF:
                raise self._terminated("while waiting for the answer to %s" % what)
            if pending is not None and line == "pong " + pending:
                pending = None
                continue
            if line.startswith("pong medan-alive-"):
                continue           # a late answer to an earlier liveness ping
            return line

    def _command(self, line, final=("ok",), payload=None, max_lines=None):
        """Send a command, read to its final line; return (payload lines,
        final line).  ``error`` raises the MepError of its code.  Lines whose
        keyword is in ``payload`` are collected (all non-final lines when
        None); unknown keywords are skipped.  With ``max_lines``, more lines
        than that before the final one is an engine that does not speak MEP
        (killed, EngineError)."""
        with self._cmdlock:
            self._idle_check()
            self.send_line(line)
            lines = []
            count = 0
            while True:
                got = self._next_line(repr(line))
                count += 1
                if max_lines is not None and count > max_lines:
                    self.kill()
                    self._dead = "it did not speak MEP"
                    raise EngineError("engine %s sent %d lines without answering %r: not a "
                                      "MEP engine? (the last: %r)"
                                      % (os.path.basename(self.argv[0]), max_lines, line,
                                         got[:80]))
                kw = got.split(" ", 1)[0]
                if kw == "error":
                    raise error_from_line(got, line)
                if kw in final:
                    return lines, got
                if kw in _FINALS:
                    continue       # e.g. the ok of a stop that raced a bestmove
                if payload is None or kw in payload:
                    lines.append(got)

    def _idle_check(self):
        if self._analysis is not None and not self._analysis.done:
            raise EngineError("a search is running: stop it (and read it to its end) first")

    # ---- handshake and options ---------------------------------------

    def _handshake(self):
        # a handshake is some tens of lines: a program that floods is no engine
        lines, _ = self._command("mep", final=("mepok",), max_lines=10000)
        for ln in lines:
            try:
                self._handshake_line(ln)
            except ValueError as e:
                raise EngineError("engine %s: a handshake line this client cannot read: %r (%s)"
                                  % (os.path.basename(self.argv[0]), ln, e)) from None
        if self.game is None:
            raise EngineError("the engine's handshake names no game")

    def _handshake_line(self, ln):
        toks = ln.split()
        if not toks:
            return
        if toks[0] == "id" and len(toks) >= 2:
            self.id[toks[1]] = ln.split(None, 2)[2] if len(toks) > 2 else ""
        elif toks[0] == "protocol" and len(toks) >= 2:
            self.protocol = int(toks[1])
        elif toks[0] == "game" and len(toks) >= 2:
            self.game = toks[1]
            i = 2
            while i < len(toks):
                if toks[i] == "players" and i + 1 < len(toks):
                    lo, _, hi = toks[i + 1].partition("-")
                    self.players = (int(lo), int(hi or lo))
                    i += 2
                    continue
                name, sep, rng = toks[i].partition("=")
                if sep:
                    self.params[name] = rng
                i += 1
        elif toks[0] == "option":
            opt = Option.parse(ln)
            self.options[opt.name] = opt

    def option(self, name):
        """The Option of that name (case-insensitive), or UnknownOptionError."""
        for n, o in self.options.items():
            if n.lower() == name.lower():
                return o
        raise UnknownOptionError("unknown_option", "no option %r" % name)

    def configure(self, options):
        """Set options ({name: value}): each is checked against the type and
        range the engine announced before anything is sent (ValueError for a
        wrong type, BadValueError / UnknownOptionError otherwise); then sent
        one by one (an engine's own refusal raises its MepError)."""
        checked = []
        for name, value in dict(options).items():
            opt = self.option(name)
            checked.append((opt, opt.check(value)))
        for opt, text in checked:
            if text is None:
                self._command("setoption name %s" % opt.name)
            else:
                self._command("setoption name %s value %s" % (opt.name, text))

    # ---- simple commands ---------------------------------------------

    def ping(self):
        """Round trip (``ping``/``pong``); returns the seconds it took."""
        with self._cmdlock:
            self._idle_check()     # during a search the client pings by itself
            t0 = _time.monotonic()
            tok = "medan-%d" % next(self._ping)
            self.send_line("ping " + tok)
            while True:
                got = self._next_line("ping")
                if got == "pong " + tok:
                    return _time.monotonic() - t0

    def newgame(self, **params):
        """``newgame key=value ...``: a new game with these parameters."""
        words = ["newgame"]
        for k, v in params.items():
            words.append("%s=%s" % (check_token(str(k), "parameter"),
                                    check_token(str(v), "parameter value")))
        self._command(" ".join(words))
        self._params = {str(k): str(v) for k, v in params.items()}

    def set_position(self, position):
        """Send a Position (``newgame`` first when its parameters differ
        from the last ones sent, then ``position``)."""
        if position.game != self.game:
            raise ValueError("a %s position for a %s engine" % (position.game, self.game))
        if position.params != self._params:
            self.newgame(**position.params)
        self._command(position.command())

    def _maybe_position(self, position):
        if position is not None:
            self.set_position(position)

    def legal_moves(self, position=None):
        lines, _ = self._command_at(position, "legalmoves", ("moves",))
        return lines[0].split()[1:] if lines else []

    def fen(self, position=None, view=None):
        """The canonical position string (``fen``), or seat ``view``'s view."""
        cmd = "fen" if view is None else "fen view %d" % int(view)
        lines, _ = self._command_at(position, cmd, ("fen",))
        if not lines:
            raise EngineError("no fen line in the answer to %r" % cmd)
        return lines[0][4:]

    def result(self, position=None):
        """The Result of a finished game, or None while it goes on."""
        lines, _ = self._command_at(position, "result", ("result",))
        if not lines or lines[0].split()[1:2] == ["none"]:
            return None
        return Result(lines[0])

    def eval(self, position=None):
        """The static evaluation (an Eval: score and terms)."""
        lines, _ = self._command_at(position, "eval", ("eval",))
        if not lines:
            raise EngineError("no eval line in the answer")
        return Eval(lines[0])

    def perft(self, depth, position=None):
        """The number of leaves ``depth`` plies deep."""
        lines, _ = self._command_at(position, "perft %d" % _depth(depth), ("perft",))
        for ln in lines:
            t = ln.split()
            if len(t) >= 3 and t[2] != "move":
                return int(t[2])
        raise EngineError("no perft count in the answer")

    def divide(self, depth, position=None):
        """{move: leaves below it} for each root move (``divide``)."""
        lines, _ = self._command_at(position, "divide %d" % _depth(depth), ("perft",))
        out = {}
        for ln in lines:
            t = ln.split()
            if len(t) == 5 and t[2] == "move":
                out[t[3]] = int(t[4])
        return out

    def show(self, position=None):
        """The drawing of the position (the ``board`` lines' text)."""
        lines, _ = self._command_at(position, "show", ("board",))
        return "\n".join(ln[6:] for ln in lines)

    def _command_at(self, position, cmd, payload):
        with self._cmdlock:
            self._maybe_position(position)
            return self._command(cmd, payload=payload)

    # ---- searches ----------------------------------------------------

    def analysis(self, position=None, limit=None, multipv=None, ponder=False):
        """Start a search and return an Analysis: iterate it for Info
        updates; ``stop()`` ends it; as a context manager it is stopped and
        read to its end on exit.  No limit: an infinite search."""
        with self._cmdlock:
            self._idle_check()
            limit = limit if limit is not None else Limit()
            turn = None
            if position is not None:
                self.set_position(position)
                turn = position.turn_hint()
            words = ["go"] + limit.args()
            if ponder:
                words.append("ponder")
            if multipv is not None:
                if isinstance(multipv, bool) or not isinstance(multipv, int) or \
                        not 1 <= multipv <= 256:
                    raise ValueError("multipv is an integer from 1 to 256, not %r" % (multipv,))
                words += ["multipv", str(multipv)]
            an = Analysis(self, " ".join(words), turn, limit)
            self.send_line(an.command)
            self._analysis = an
            return an

    def analyse(self, position=None, limit=None, multipv=None):
        """Search to ``limit`` (required) and return the best line's Info,
        or with ``multipv`` a list of Info, best first (the last report of
        each line)."""
        if limit is None or limit.is_infinite():
            raise ValueError("analyse needs a finite Limit (depth, nodes, time or clock)")
        with self.analysis(position, limit, multipv) as an:
            an.wait()
        if multipv is None:
            return an.info
        return [i for i in an.multipv if i]

    def play(self, position=None, limit=None):
        """Search to ``limit`` (required) and return a PlayResult (move,
        ponder, the last info)."""
        if limit is None or limit.is_infinite():
            raise ValueError("play needs a finite Limit (depth, nodes, time or clock)")
        with self.analysis(position, limit) as an:
            return an.wait()

    def solve(self, position=None, nodes=None, time=None):
        """Prove a win or loss with the engine's proof-number solver (``go
        solve``, LOA and Fetlar) within ``nodes`` positions or ``time``
        seconds (one of them, required); a SolveResult.  An engine without a
        solver raises NotSupportedError."""
        if (nodes is None) == (time is None):
            raise ValueError("solve needs one limit: nodes or time")
        limit = Limit(nodes=nodes, time=time)
        with self._cmdlock:
            self._idle_check()
            turn = None
            if position is not None:
                self.set_position(position)
                turn = position.turn_hint()
            an = Analysis(self, " ".join(["go", "solve"] + limit.args()), turn, limit)
            self.send_line(an.command)
            self._analysis = an
        with an:
            best = an.wait()
        info = an.info
        sc = info.get("score")
        move = best.move if best is not None else None
        if sc is not None and sc.relative.is_proven():
            rel = sc.relative
            status, plies = ("win", rel.win) if rel.win is not None else ("loss", rel.loss)
            exact = "upper bound" not in info.get("string", "")
            return SolveResult(status, plies, exact, move, info.get("nodes"))
        return SolveResult("unknown", None, True, move, info.get("nodes"))

    def _sync(self):
        """After a stop: read to a pong, dropping a racing ``ok``."""
        tok = "medan-%d" % next(self._ping)
        self.send_line("ping " + tok)
        while self._next_line("ping") != "pong " + tok:
            pass

    # ---- the end -----------------------------------------------------

    def quit(self, grace=2.0):
        """``quit``, then kill the process group if it has not ended within
        ``grace`` seconds.  Returns the exit status."""
        if self._proc.poll() is None:
            try:
                with self._wlock:
                    self._proc.stdin.write(b"quit\n")
                    self._proc.stdin.flush()
            except (OSError, ValueError):
                pass
            try:
                self._proc.wait(timeout=grace)
            except subprocess.TimeoutExpired:
                self.kill()
        self._close_pipes()
        if self._dead is None:
            self._dead = "quit was sent"
        return self._proc.returncode

    def kill(self):
        """Kill the engine's whole process group at once."""
        if self._proc.returncode is None:
            try:
                os.killpg(self._proc.pid, 9)
            except (ProcessLookupError, PermissionError, OSError):
                pass
        try:
            self._proc.wait(timeout=5.0)
        except subprocess.TimeoutExpired:
            pass
        self._close_pipes()
        if self._dead is None:
            self._dead = "it was killed"

    def _close_pipes(self):
        for f in (self._proc.stdin,):
            try:
                f.close()
            except (OSError, ValueError):
                pass
        self._reader.join(timeout=2.0)
        self._ereader.join(timeout=2.0)
        for f in (self._proc.stdout, self._proc.stderr):
            try:
                f.close()
            except (OSError, ValueError):
                pass

    def __repr__(self):
        return "<medan.Engine %s game=%s pid=%s>" % (
            self.id.get("name", self.argv[0]), self.game, self._proc.pid)


def _depth(d):
    if isinstance(d, bool) or not isinstance(d, int) or d < 0:
        raise ValueError("depth is an integer >= 0, not %r" % (d,))
    return d


class Analysis:
    """A running search (from ``Engine.analysis``).  Iterating yields each
    ``info`` report as an Info and ends at the ``bestmove``; ``info`` is the
    best line's report merged over the search, ``multipv`` one merged Info
    per line (best first); ``stop()`` (from any thread) ends the search;
    ``wait()`` reads to the end and returns a PlayResult."""

    def __init__(self, engine, command, turn, limit):
        self.engine = engine
        self.command = command
        self.turn = turn
        self.limit = limit
        self.multipv = []
        self.done = False
        self.best = None
        self._stopped = False
        self._lock = threading.Lock()

    @property
    def info(self):
        return self.multipv[0] if self.multipv else Info()

    def __iter__(self):
        return self

    def __next__(self):
        if self.done:
            raise StopIteration
        eng = self.engine
        try:
            while True:
                line = eng._next_line("go (%s)" % self.command)
                kw = line.split(" ", 1)[0]
                if kw == "info":
                    try:
                        info = parse_info(line, self.turn)
                    except ValueError:
                        continue   # a malformed report: skipped, like an unknown line
                    rank = info.get("multipv", 1)
                    if rank < 1 or rank > 256:
                        continue
                    while len(self.multipv) < rank:
                        self.multipv.append(Info())
                    self.multipv[rank - 1].update(info)
                    return info
                if kw == "bestmove":
                    t = line.split()
                    move = t[1] if len(t) > 1 else None
                    ponder = t[3] if len(t) > 3 and t[2] == "ponder" else None
                    self.best = PlayResult(move, ponder, self.info)
                    with self._lock:
                        self._finish()
                        stopped = self._stopped
                    if stopped:
                        eng._sync()
                    raise StopIteration
                if kw == "error":
                    self._finish()
                    raise error_from_line(line, self.command)
                # anything else (an ok racing a stop, unknown keywords): skipped
        except EngineError:
            self._finish()
            raise

    def _finish(self):
        self.done = True
        if self.engine._analysis is self:
            self.engine._analysis = None

    def stop(self):
        """Ask the engine to stop; the ``bestmove`` still comes (read it by
        iterating on, or ``wait()``)."""
        with self._lock:
            if self.done or self._stopped:
                return
            self._stopped = True
            self.engine.send_line("stop")

    def ponderhit(self):
        """The ponder move was played (a search started with ponder=True):
        the search goes on as a normal one and ends with its bestmove."""
        if not self.done:
            self.engine.send_line("ponderhit")

    def wait(self):
        """Read the search to its end; the PlayResult."""
        for _ in self:
            pass
        return self.best

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        if self.done or self.engine._dead is not None:
            return False
        try:
            self.stop()
            self.wait()
        except EngineError:
            if exc_type is None:
                raise
        return False
