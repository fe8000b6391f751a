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

Bounds (docs/scripting.md, "Time limits"): every wait has a deadline (a
command but a search/perft/divide: ``command_timeout``; a search with a
time budget: the budget + ``timeout``, then ``stop``; a stop: ``timeout``),
output is held in bounded memory, and every end kills the engine's process
group, so no call hangs on a process that keeps a pipe open.
"""

import collections
import itertools
import os
import select
import shutil
import signal
import subprocess
import threading
import time as _time

from .types import (EngineError, EngineTerminated, EngineTimeout, Info, Limit,
                    Option, PlayResult, Result, Eval, SolveResult, UnknownOptionError,
                    check_text, check_token, error_from_line, parse_info)

__all__ = ["Engine", "Analysis", "find_program"]

_EOF = object()
_DEADLINE = object()
# The longest output line read (Palagan N = 9's legal moves are about 1 MB);
# a longer one is dropped whole, never held.
LINE_MAX = 16 << 20
# The longest stderr line kept (the rest of it is dropped).
ERR_LINE_MAX = 4096
# Output read ahead of the caller, at most (a line longer than this still
# passes alone): the engine then waits on its full pipe.
QUEUE_BYTES = 32 << 20
# One command's answer: at most this many lines before its final line
# (perft and divide: no count) and this many bytes of lines kept.
MAX_LINES = 10000
ANSWER_BYTES = 64 << 20
# How often a waiting call looks at the engine's process.
_SLICE = 0.25
# After the engine's process ended: how long its output may take to end.
_EOF_GRACE = 2.0
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


class _Lines:
    """The engine's output lines on their way from the reader thread to the
    caller: at most QUEUE_BYTES of them held (the reader then waits, and the
    engine on its pipe); closed, every wait ends."""

    def __init__(self, limit=QUEUE_BYTES):
        self._items = collections.deque()
        self._bytes = 0
        self._limit = limit
        self._closed = False
        self._cond = threading.Condition()

    def put(self, item):
        n = len(item) if isinstance(item, str) else 0
        with self._cond:
            while self._items and self._bytes + n > self._limit and not self._closed:
                self._cond.wait()
            if self._closed:
                return
            self._items.append(item)
            self._bytes += n
            self._cond.notify_all()

    def get(self, timeout):
        """The next item, or None after timeout seconds."""
        end = _time.monotonic() + timeout
        with self._cond:
            while not self._items:
                left = end - _time.monotonic()
                if left <= 0 or self._closed:
                    return None
                self._cond.wait(left)
            item = self._items.popleft()
            if isinstance(item, str):
                self._bytes -= len(item)
            self._cond.notify_all()
            return item

    def close(self):
        with self._cond:
            self._closed = True
            self._items.clear()
            self._bytes = 0
            self._cond.notify_all()


def _pipe_holders(inodes):
    """Processes (other than this one and its own children) that hold one
    of these pipes open (Linux: /proc; elsewhere none are found)."""
    want = set("pipe:[%d]" % i for i in inodes)
    me = os.getpid()
    found = []
    try:
        pids = [int(p) for p in os.listdir("/proc") if p.isdigit()]
    except OSError:
        return found
    for pid in pids:
        if pid == me:
            continue
        try:
            with open("/proc/%d/stat" % pid) as f:
                st = f.read()
            if int(st[st.rindex(")") + 2:].split()[1]) == me:
                continue      # a child of this program's own (the engine itself, or
                              # another engine being started)
            fds = os.listdir("/proc/%d/fd" % pid)
        except (OSError, ValueError, IndexError):
            continue
        for fd in fds:
            try:
                if os.readlink("/proc/%d/fd/%s" % (pid, fd)) in want:
                    found.append(pid)
                    break
            except OSError:
                continue
    return found


class Engine:
    """A running MEP engine.  Make one with ``Engine.popen(...)``; use it as
    a context manager (or call ``quit()``) so the process ends.

    After the handshake: ``id`` (dict: name, author, version), ``protocol``
    (int), ``game`` (str), ``players`` (a (min, max) tuple), ``params`` (the
    game's ``newgame`` parameters as the handshake lists them, name ->
    range text), ``options`` (name -> Option, in the engine's order)."""

    def __init__(self, argv, timeout=10.0, cwd=None, env=None, stderr_lines=20,
                 command_timeout=60.0):
        self.argv = list(argv)
        self.timeout = float(timeout)
        self.command_timeout = None if command_timeout is None else float(command_timeout)
        self._stderr = collections.deque(maxlen=stderr_lines)
        self._q = _Lines()
        self._wlock = threading.RLock()   # a timeout inside a write kills and closes
        self._close_lock = threading.Lock()
        self._cmdlock = threading.RLock()
        self._ping = itertools.count(1)
        self._dead = None          # why the engine is unusable, once it is
        self._analysis = None      # the search running, if any
        self._params = {}          # the newgame parameters last sent
        self._closed = False
        self._eof = threading.Event()
        self.id, self.protocol, self.game = {}, None, None
        self.players, self.params, self.options = None, {}, {}
        try:
            # its own session: its process group is every process it starts
            # (unless one leaves it), killed at once at the end
            self._proc = subprocess.Popen(
                self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, cwd=cwd, env=env, bufsize=0,
                start_new_session=True)
        except OSError as e:
            raise EngineTerminated("cannot start %s: %s" % (self.argv[0], e)) from e
        self._fds = (self._proc.stdin.fileno(), self._proc.stdout.fileno(),
                     self._proc.stderr.fileno())
        self._inodes = []
        for fd in self._fds:
            try:
                self._inodes.append(os.fstat(fd).st_ino)
            except OSError:
                pass
        os.set_blocking(self._fds[0], False)
        self._wake_r, self._wake_w = os.pipe()
        self._reader = threading.Thread(target=self._read_stdout, daemon=True,
                                        name="medan-reader")
        self._ereader = threading.Thread(target=self._read_stderr, daemon=True,
                                         name="medan-stderr")
        self._reader.start()
        self._ereader.start()

    # ---- construction ------------------------------------------------

    @classmethod
    def popen(cls, command, options=None, args=(), timeout=10.0, cwd=None, env=None,
              command_timeout=60.0):
        """Start an engine program (a path, or a name found on PATH, e.g.
        ``"medan-loa"``), do the MEP handshake, set ``options`` (checked like
        ``configure``) and wait for ``readyok``.  ``timeout`` (seconds) is how
        long the engine may stay silent, ``ping`` unanswered, before it is
        called hung, and how long a ``stop`` may go unanswered;
        ``command_timeout`` (seconds, None: no bound) how long any command
        but a search, ``perft`` and ``divide`` may take in all."""
        eng = cls([find_program(command)] + list(args), timeout=timeout, cwd=cwd, env=env,
                  command_timeout=command_timeout)
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
            if not self._closed:
                self.kill()
        except Exception:
            pass

    # ---- threads -----------------------------------------------------

    def _read_lines(self, fd, maxlen, on_line, on_long):
        """Read fd to its end (or until the client closes): each line to
        on_line (bytes, without the newline); a line longer than maxlen is
        dropped whole and on_long called.  Never blocks past a close."""
        poller = select.poll()
        poller.register(fd, select.POLLIN | select.POLLHUP | select.POLLERR)
        poller.register(self._wake_r, select.POLLIN)
        buf = bytearray()
        dropping = False
        try:
            while True:
                ready = [f for f, _ in poller.poll()]
                if self._wake_r in ready:
                    return
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    return
                start = 0
                while True:
                    i = chunk.find(b"\n", start)
                    piece = chunk[start:] if i < 0 else chunk[start:i]
                    if not dropping:
                        if len(buf) + len(piece) > maxlen:
                            dropping = True
                            buf.clear()
                            on_long()
                        else:
                            buf += piece
                    if i < 0:
                        break
                    if not dropping:
                        on_line(bytes(buf))
                    buf.clear()
                    dropping = False
                    start = i + 1
        except (OSError, ValueError):
            return

    def _read_stdout(self):
        def line(raw):
            self._q.put(raw.decode("ascii", "replace").rstrip("\r"))

        def long():
            self._stderr.append("(medan: dropped an output line of more than %d bytes)"
                                % LINE_MAX)
        try:
            self._read_lines(self._fds[1], LINE_MAX, line, long)
        finally:
            self._eof.set()
            self._q.put(_EOF)

    def _read_stderr(self):
        def line(raw):
            self._stderr.append(raw.decode("utf-8", "replace").rstrip("\r"))

        def long():
            self._stderr.append("(medan: dropped a stderr line of more than %d bytes)"
                                % ERR_LINE_MAX)
        self._read_lines(self._fds[2], ERR_LINE_MAX, line, long)

    def stderr_tail(self):
        """The last lines the engine wrote to stderr."""
        return list(self._stderr)

    # ---- low level ---------------------------------------------------

    def _name(self):
        return os.path.basename(self.argv[0])

    def _check_alive(self):
        if self._dead is not None:
            raise EngineTerminated("the engine is not running (%s)" % self._dead,
                                   self.stderr_tail(), self._proc.poll())

    def _terminated(self, what):
        # the output ended (or the process did): its status, and no process
        # of its group left
        try:
            self._proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            pass
        self._end_group()
        self._ereader.join(timeout=1.0)
        code = self._proc.poll()
        self._dead = "it ended (exit status %s)" % code
        self._close_io()
        return EngineTerminated("engine %s ended %s (exit status %s)"
                                % (self._name(), what, code), self.stderr_tail(), code)

    def _timed_out(self, message):
        self.kill()
        self._dead = "it did not answer and was killed"
        return EngineTimeout("engine %s %s" % (self._name(), message), self.stderr_tail())

    def send_line(self, line):
        """Send one raw MEP line (printable ASCII; the newline is added)."""
        check_text(line, "line")
        self._check_alive()
        data = (line + "\n").encode("ascii")
        with self._wlock:
            self._write(data, "while sent %r" % line)

    def _write(self, data, what):
        # the engine's stdin does not block: an engine that reads no more
        # gets `timeout` seconds to make room, then is killed
        fd = self._fds[0]
        end = _time.monotonic() + self.timeout
        if self._closed:
            raise EngineTerminated("the engine is not running (%s)" % self._dead,
                                   self.stderr_tail(), self._proc.poll())
        view = memoryview(data)
        while view:
            try:
                n = os.write(fd, view)
                view = view[n:]
                continue
            except BlockingIOError:
                pass
            except (BrokenPipeError, OSError, ValueError):
                raise self._terminated(what) from None
            left = end - _time.monotonic()
            if left <= 0:
                raise self._timed_out("read no input for %.1f s (%s)" % (self.timeout, what))
            p = select.poll()
            p.register(fd, select.POLLOUT)
            p.poll(min(left, _SLICE) * 1000)

    def _next_line(self, what, liveness=True, deadline=None):
        """The next stdout line.  After ``timeout`` seconds of silence, a
        ``ping`` asks whether the engine is alive; without an answer to it
        within another ``timeout`` the engine is killed (EngineTimeout).
        With a deadline (monotonic seconds, or a function returning them or
        None, asked again as the wait goes on), _DEADLINE when it passes."""
        self._check_alive()
        pending = None
        quiet = _time.monotonic()
        ended = None               # when the process was seen ended
        while True:
            now = _time.monotonic()
            dl = deadline() if callable(deadline) else deadline
            if dl is not None and now >= dl:
                return _DEADLINE
            wait = _SLICE if dl is None else max(0.0, min(_SLICE, dl - now))
            line = self._q.get(wait)
            if line is None:
                now = _time.monotonic()
                if self._proc.poll() is not None:
                    # it ended, but something may keep its stdout open (a
                    # child): end its group so the output ends too
                    if ended is None:
                        ended = now
                        self._end_group()
                    elif now - ended > _EOF_GRACE:
                        raise self._terminated("while waiting for the answer to %s" % what)
                    continue
                if now - quiet < self.timeout:
                    continue
                if pending is None and liveness:
                    pending = "medan-alive-%d" % next(self._ping)
                    self.send_line("ping " + pending)
                    quiet = _time.monotonic()
                    continue
                raise self._timed_out("did not answer %s within %.1f s%s"
                                      % (what, self.timeout, " (nor a ping)" if pending else ""))
            if line is _EOF:
                raise self._terminated("while waiting for the answer to %s" % what)
            quiet = _time.monotonic()
            if pending is not None and line == "pong " + pending:
                pending = None
                continue
            if line.startswith("pong medan-alive-"):
                continue           # a late answer to an earlier liveness ping
            return line

    def _command(self, line, final=("ok",), payload=(), max_lines=MAX_LINES, bounded=True):
        """Send a command, read to its final line; return (payload lines,
        final line).  ``error`` raises the MepError of its code.  Lines whose
        keyword is in ``payload`` are collected (all non-final lines when
        None; at most ANSWER_BYTES); unknown keywords are skipped.  More
        than ``max_lines`` lines before the final one is an engine that does
        not speak MEP (killed, EngineError); with ``bounded``, a command not
        answered within ``command_timeout`` seconds in all (pings answered or
        not) is killed, EngineTimeout."""
        with self._cmdlock:
            self._idle_check()
            deadline = None
            if bounded and self.command_timeout is not None:
                deadline = _time.monotonic() + self.command_timeout
            self.send_line(line)
            lines = []
            count = kept = 0
            while True:
                got = self._next_line(repr(line), deadline=deadline)
                if got is _DEADLINE:
                    raise self._timed_out("did not finish answering %r within %.1f s"
                                          % (line, self.command_timeout))
                count += 1
                if max_lines is not None and count > max_lines:
                    self.kill()
                    self._dead = "it did not speak MEP"
                    raise EngineError("engine %s sent %d lines without answering %r: not a "
                                      "MEP engine? (the last: %r)"
                                      % (self._name(), max_lines, line, got[:80]))
                kw = got.split(" ", 1)[0]
                if kw == "error":
                    raise error_from_line(got, line)
                if kw in final:
                    return lines, got
                if kw in _FINALS:
                    continue       # e.g. the ok of a stop that raced a bestmove
                if payload is None or kw in payload:
                    kept += len(got)
                    if kept > ANSWER_BYTES:
                        self.kill()
                        self._dead = "its answer was too long"
                        raise EngineError("engine %s answered %r with more than %d bytes"
                                          % (self._name(), line, ANSWER_BYTES))
                    lines.append(got)

    def _idle_check(self):
        if self._analysis is not None and not self._analysis.done:
            raise EngineError("a search is running: stop it (and read it to its end) first")

    # ---- handshake and options ---------------------------------------

    def _handshake(self):
        # a handshake is some tens of lines: a program that floods is no engine
        lines, _ = self._command("mep", final=("mepok",), payload=None)
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
            self._pong("ping")
            return _time.monotonic() - t0

    def _pong(self, what, timeout=None):
        """Send ping and read to its pong (dropping what comes before it:
        at most MAX_LINES lines, within command_timeout or ``timeout``)."""
        tok = "medan-%d" % next(self._ping)
        limit = timeout if timeout is not None else self.command_timeout
        deadline = None if limit is None else _time.monotonic() + limit
        self.send_line("ping " + tok)
        for _ in range(MAX_LINES + 1):
            got = self._next_line(what, deadline=deadline)
            if got is _DEADLINE:
                raise self._timed_out("did not answer %s within %.1f s" % (what, limit))
            if got == "pong " + tok:
                return
        self.kill()
        self._dead = "it did not speak MEP"
        raise EngineError("engine %s sent %d lines without answering %s"
                          % (self._name(), MAX_LINES, what))

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
        lines, _ = self._command_at(position, "perft %d" % _depth(depth), ("perft",),
                                    unbounded=True)
        for ln in lines:
            t = ln.split()
            if len(t) >= 3 and t[2] != "move":
                return int(t[2])
        raise EngineError("no perft count in the answer")

    def divide(self, depth, position=None):
        """{move: leaves below it} for each root move (``divide``)."""
        lines, _ = self._command_at(position, "divide %d" % _depth(depth), ("perft",),
                                    unbounded=True)
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

    def _command_at(self, position, cmd, payload, unbounded=False):
        with self._cmdlock:
            self._maybe_position(position)
            if unbounded:  # counting to a depth: as long as it takes (liveness only)
                return self._command(cmd, payload=payload, max_lines=None, bounded=False)
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
            an = Analysis(self, " ".join(words), turn, limit, ponder)
            self.send_line(an.command)
            an._started = _time.monotonic()
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
        self._pong("ping", timeout=self.timeout)

    # ---- the end -----------------------------------------------------

    def quit(self, grace=2.0):
        """``quit``, then kill the process group if it has not ended within
        ``grace`` seconds (and whatever of its group is left when it has).
        Returns the exit status."""
        if self._closed:
            return self._proc.returncode
        if self._proc.poll() is None:
            try:
                with self._wlock:
                    if not self._closed:
                        os.write(self._fds[0], b"quit\n")
            except (OSError, ValueError):
                pass
            try:
                self._proc.wait(timeout=grace)
            except subprocess.TimeoutExpired:
                pass
        self._end_group()
        self._close_io()
        if self._dead is None:
            self._dead = "quit was sent"
        return self._proc.returncode

    def kill(self):
        """Kill the engine's whole process group at once."""
        if self._dead is None:
            self._dead = "it was killed"
        if not self._closed:
            self._end_group()
            self._close_io()

    def _end_group(self):
        """Kill every process of the engine's group (the engine, if it still
        runs, and whatever it started), reap the engine; a process that left
        the group but keeps its output open is killed too (Linux)."""
        try:
            os.killpg(self._proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError, OSError):
            pass
        try:
            self._proc.wait(timeout=5.0)
        except subprocess.TimeoutExpired:
            pass
        if not self._eof.wait(0.5) and not self._closed:
            for pid in _pipe_holders(self._inodes):
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
            self._eof.wait(0.5)

    def _close_io(self):
        """End the reader threads (at once: they never block a close) and
        close the pipes."""
        with self._close_lock:
            if self._closed:
                return
            self._closed = True
        self._q.close()
        try:
            os.write(self._wake_w, b"x")
        except OSError:
            pass
        self._reader.join(timeout=2.0)
        self._ereader.join(timeout=2.0)
        with self._wlock:      # no write goes to a closed (reused) descriptor
            files = (self._proc.stdin, self._proc.stdout, self._proc.stderr)
            for f in files:
                try:
                    f.close()
                except (OSError, ValueError):
                    pass
        for fd in (self._wake_r, self._wake_w):
            try:
                os.close(fd)
            except OSError:
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

    def __init__(self, engine, command, turn, limit, ponder=False):
        self.engine = engine
        self.command = command
        self.turn = turn
        self.limit = limit
        self.multipv = []
        self.done = False
        self.best = None
        self._stopped = False
        self._stop_at = None       # when stop was sent
        self._pondering = ponder
        self._started = _time.monotonic()
        self._lock = threading.Lock()

    def _deadline(self):
        """When the client stops waiting: a stop unanswered for ``timeout``
        seconds, or a search with a time budget still running ``timeout``
        seconds past it (then the client sends stop itself)."""
        eng = self.engine
        with self._lock:
            if self._stop_at is not None:
                return self._stop_at + eng.timeout
            budget = None if self._pondering else self.limit.budget()
            if budget is None:
                return None
            return self._started + budget + eng.timeout

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
                line = eng._next_line("go (%s)" % self.command, deadline=self._deadline)
                if line is _DEADLINE:
                    if not self._stopped:
                        self.stop()    # past its time budget: ask for the move now
                        continue
                    self._finish()
                    raise eng._timed_out("did not end the search %r within %.1f s of stop"
                                         % (self.command, eng.timeout))
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
            self._stop_at = _time.monotonic()
            self.engine.send_line("stop")

    def ponderhit(self):
        """The ponder move was played (a search started with ponder=True):
        the search goes on as a normal one and ends with its bestmove."""
        if not self.done:
            with self._lock:
                self._pondering = False
                self._started = _time.monotonic()
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
