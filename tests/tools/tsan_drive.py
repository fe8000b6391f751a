#!/usr/bin/env python3
"""tsan_drive.py - drive one engine built with ThreadSanitizer through the
multi-threaded paths of MEP (tests/run-tsan.sh runs it for every engine).

usage: tsan_drive.py ENGINE SEED [--require-threads 0|1]

For Threads = 2, 3, 4 (set between searches): an infinite search with a
ping during it and a stop at a random moment, a stop right after go, go
ponder + ponderhit, go ponder + stop, a search to a node budget, a
setoption during a search (refused: busy); at the end a quit during a
search.  The random moments come from SEED (printed, to replay a failure).
Nothing here measures time: the only deadline is a hang guard of minutes.
Fails (exit 1) on a protocol surprise, an engine without the Threads option
(unless --require-threads 0), a non-zero exit status, or any
ThreadSanitizer output on the engine's stderr.
"""
import os
import queue
import random
import subprocess
import sys
import tempfile
import threading
import time

HANG_GUARD = 300.0  # seconds: only a hang fails by time


class Fail(Exception):
    pass


class Engine:
    def __init__(self, path, errfile):
        self.path = path
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=errfile, text=True, bufsize=1)
        self.q = queue.Queue()
        self.log = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.p.stdout:
            self.q.put(line.rstrip("\n"))
        self.q.put(None)

    def send(self, cmd):
        self.log.append("> " + cmd)
        self.p.stdin.write(cmd + "\n")
        self.p.stdin.flush()

    def line(self):
        try:
            s = self.q.get(timeout=HANG_GUARD)
        except queue.Empty:
            raise Fail("no output for %d s (hang?)" % HANG_GUARD)
        if s is None:
            raise Fail("the engine closed its output (exit status %s)" % self.p.poll())
        self.log.append("< " + s)
        return s

    def until(self, prefix, errors_ok=False):
        """Read lines up to one starting with prefix; info lines are skipped,
        an unexpected error line fails."""
        while True:
            s = self.line()
            if s.startswith(prefix):
                return s
            if s.startswith("error") and not errors_ok:
                raise Fail("unexpected: " + s)
            if s.startswith("bestmove") and prefix != "bestmove":
                raise Fail("unexpected bestmove while waiting for '%s'" % prefix)


    def both(self, a, b):
        """Read lines up to one starting with a and one starting with b,
        in either order (info lines skipped, an error line fails)."""
        want = {a, b}
        while want:
            s = self.line()
            if s.startswith("error"):
                raise Fail("unexpected: " + s)
            for w in list(want):
                if s.startswith(w):
                    want.discard(w)


def run(path, seed, require_threads):
    rnd = random.Random(seed)
    pause = lambda hi: time.sleep(rnd.uniform(0, hi))
    errf = tempfile.TemporaryFile(mode="w+")
    e = Engine(path, errf)
    name = os.path.basename(path)
    try:
        e.send("mep")
        options = []
        while True:
            s = e.line()
            if s == "mepok":
                break
            if s.startswith("option name "):
                options.append(s.split()[2])
        has_threads = "Threads" in options
        if not has_threads and require_threads:
            raise Fail("no Threads option (TSAN_REQUIRE_THREADS=0 skips this requirement)")
        counts = [2, 3, 4] if has_threads else [1]
        for t in counts:
            if has_threads:
                e.send("setoption name Threads value %d" % t)
                e.until("ok")
            e.send("newgame")
            e.until("ok")
            e.send("position startpos")
            e.until("ok")
            # an infinite search, ping during it, stop at a random moment
            e.send("go infinite")
            pause(0.3)
            e.send("ping %d" % t)
            e.until("pong %d" % t)
            pause(0.3)
            e.send("stop")
            e.until("bestmove")
            # stop right after go (threads still starting)
            e.send("go infinite")
            pause(0.005)
            e.send("stop")
            e.until("bestmove")
            # go ponder, then ponderhit: the search goes on to its budget
            e.send("go ponder nodes 3000")
            pause(0.2)
            e.send("ponderhit")
            e.until("bestmove")
            # go ponder, then stop (the opponent played something else)
            e.send("go ponder")
            pause(0.2)
            e.send("stop")
            e.until("bestmove")
            # a search to its budget, ping answered on the way (or after
            # the bestmove, when the search was done first)
            e.send("go nodes 2000")
            e.send("ping 9")
            e.both("pong 9", "bestmove")
            # a node limit large enough for every thread (alpha-beta starts
            # one helper per 1024 nodes): the shared node total
            e.send("go nodes 20000")
            e.until("bestmove")
            # Threads cannot change during a search
            if has_threads:
                e.send("go infinite")
                pause(0.1)
                e.send("setoption name Threads value 1")
                s = e.until("error", errors_ok=True)
                if not s.startswith("error busy"):
                    raise Fail("setoption during a search: " + s)
                e.send("stop")
                e.until("bestmove")
            # the alpha-beta engines: helpers sharing the main search's
            # history table at its depth (SearchParams shared_history,
            # helper_ahead), then back
            if t == 2 and "SearchParams" in options and name in ("medan-loa", "medan-fetlar"):
                e.send("setoption name SearchParams value shared_history=1,helper_ahead=0")
                e.until("ok")
                e.send("go infinite")
                pause(0.3)
                e.send("stop")
                e.until("bestmove")
                e.send("setoption name SearchParams value")
                e.until("ok")
            e.send("isready")
            e.until("readyok")
        # quit during a search
        e.send("go infinite")
        pause(0.2)
        e.send("quit")
        e.p.stdin.close()
        try:
            rc = e.p.wait(timeout=HANG_GUARD)
        except subprocess.TimeoutExpired:
            raise Fail("quit during a search: still running after %d s" % HANG_GUARD)
        if rc != 0:
            raise Fail("exit status %d" % rc)
    except (Fail, BrokenPipeError) as x:
        if e.p.poll() is None:
            e.p.kill()
        e.p.wait()
        print("tsan: %s (seed %d): FAILED: %s" % (name, seed, x), file=sys.stderr)
        print("\n".join(e.log[-30:]), file=sys.stderr)
        errf.seek(0)
        sys.stderr.write(errf.read()[-20000:])
        return 1
    errf.seek(0)
    err = errf.read()
    if "ThreadSanitizer" in err or "WARNING:" in err:
        print("tsan: %s (seed %d): FAILED: ThreadSanitizer report:" % (name, seed), file=sys.stderr)
        sys.stderr.write(err[-20000:])
        return 1
    print("tsan: %s (seed %d): clean, Threads %s" % (
        name, seed, ",".join(map(str, counts)) if has_threads else "absent (not required)"))
    return 0


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    require = 1
    if len(sys.argv) == 5 and sys.argv[3] == "--require-threads":
        require = int(sys.argv[4])
    return run(sys.argv[1], int(sys.argv[2]), require)


if __name__ == "__main__":
    sys.exit(main())
