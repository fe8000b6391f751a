"""The client against hostile engines (tests/hostile_engine.py, issue 39):
every call ends with EngineTimeout, EngineTerminated or EngineError, in
bounded memory, and no process of the engine is left.  Timing is asserted
only as "it ended at all" (a generous watchdog), never as a latency."""

import asyncio
import os
import subprocess
import sys
import tempfile
import threading
import time
import unittest

import medan
import medan.aio
from medan import Limit, Position

HERE = os.path.dirname(os.path.abspath(__file__))
HOSTILE = os.path.join(HERE, "hostile_engine.py")
# A call that has not ended by then hangs (the fixes end each within a few
# seconds; a busy machine may take longer, never this long).
WATCHDOG = 30.0


def run_bounded(test, fn):
    """fn() on a thread; fail the test if it has not ended within WATCHDOG
    seconds.  Returns (result, exception)."""
    box = {}

    def body():
        try:
            box["result"] = fn()
        except BaseException as e:  # noqa: B902 - reported to the test
            box["exc"] = e
    th = threading.Thread(target=body, daemon=True)
    th.start()
    th.join(WATCHDOG)
    if th.is_alive():
        test.fail("the call did not end within %.0f s (hung)" % WATCHDOG)
    return box.get("result"), box.get("exc")


def alive(pid):
    """Is pid a live process (a zombie is not)?"""
    try:
        with open("/proc/%d/stat" % pid) as f:
            st = f.read()
        return st[st.rindex(")") + 2] != "Z"
    except (OSError, ValueError, IndexError):
        pass
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return not os.path.isdir("/proc")  # /proc had no entry: gone


class Hostile:
    """A hostile engine's run: its pid file, the check that none of its
    processes is left, and a clean-up that kills what a failed test left."""

    def __init__(self, test, mode):
        self.test = test
        fd, self.pidfile = tempfile.mkstemp(prefix="medan-hostile-")
        os.close(fd)
        self.args = [HOSTILE, mode, self.pidfile]
        test.addCleanup(self.cleanup)

    def popen(self, **kw):
        return medan.Engine.popen(sys.executable, args=self.args, **kw)

    def pids(self):
        with open(self.pidfile) as f:
            return [int(x) for x in f.read().split()]

    def assert_none_left(self):
        end = time.monotonic() + WATCHDOG
        left = [p for p in self.pids() if alive(p)]
        while left and time.monotonic() < end:
            time.sleep(0.05)       # SIGKILL is delivered, not yet done
            left = [p for p in left if alive(p)]
        self.test.assertEqual(left, [], "processes of the engine left running")

    def cleanup(self):
        for p in self.pids():
            if alive(p):
                try:
                    os.kill(p, 9)
                except OSError:
                    pass
        os.unlink(self.pidfile)


class TestHostile(unittest.TestCase):
    def test_child_keeps_stdout_crash(self):
        # the engine exits mid-search; a child it started keeps its stdout
        # open, so the output never ends by itself
        h = Hostile(self, "child-crash")
        e = h.popen(timeout=1.0)
        _, exc = run_bounded(self, lambda: e.analyse(Position("mock"), Limit(depth=3)))
        self.assertIsInstance(exc, medan.EngineTerminated)
        self.assertEqual(exc.returncode, 3)
        self.assertIn("hostile: crashed, a child keeps stdout", exc.stderr)
        run_bounded(self, e.quit)
        self.assertEqual(len(h.pids()), 2)
        h.assert_none_left()

    def test_child_keeps_stdout_quit(self):
        # a well-behaved engine but for a child that outlives its quit
        h = Hostile(self, "child-quit")

        def use():
            with h.popen(timeout=1.0) as e:
                return e.play(Position("mock"), Limit(depth=1)).move
        move, exc = run_bounded(self, use)
        self.assertIsNone(exc)
        self.assertEqual(move, "m1")
        self.assertEqual(len(h.pids()), 2)
        h.assert_none_left()

    @unittest.skipUnless(os.path.isdir("/proc/self/fd"), "needs /proc to find the child")
    def test_child_leaves_group(self):
        # a child in a session of its own (out of the engine's process group)
        # keeps stdout; the engine hangs
        h = Hostile(self, "child-setsid")
        e = h.popen(timeout=1.0)
        _, exc = run_bounded(self, lambda: e.play(Position("mock"), Limit(time=0.1)))
        self.assertIsInstance(exc, medan.EngineTimeout)
        run_bounded(self, e.quit)
        self.assertEqual(len(h.pids()), 2)
        h.assert_none_left()

    def test_setoption_flood_memory(self):
        # endless lines in answer to setoption: EngineError, in bounded
        # memory (measured in a process of its own: its peak resident size)
        h = Hostile(self, "setoption-flood")
        prog = ("import resource, sys, medan\n"
                "e = medan.Engine.popen(sys.executable, args=sys.argv[1:], timeout=2.0)\n"
                "try:\n"
                "    e.configure({'Hash': 2})\n"
                "    print('returned')\n"
                "except medan.EngineError as x:\n"
                "    print(type(x).__name__)\n"
                "e.quit()\n"
                "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)\n")
        env = dict(os.environ, PYTHONPATH=os.path.dirname(HERE))
        try:
            r = subprocess.run([sys.executable, "-c", prog] + h.args, env=env,
                               capture_output=True, text=True, timeout=WATCHDOG * 2)
        except subprocess.TimeoutExpired:
            self.fail("configure did not end (the flood was read on)")
        out = r.stdout.split()
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(out[0], "EngineError")
        self.assertLess(int(out[1]), 200, "peak resident MiB of the client")
        h.assert_none_left()

    def test_setoption_drip(self):
        # alive (answers ping) and talking, never done: command_timeout
        h = Hostile(self, "setoption-drip")
        e = h.popen(timeout=1.0, command_timeout=2.0)
        _, exc = run_bounded(self, lambda: e.configure({"Hash": 2}))
        self.assertIsInstance(exc, medan.EngineTimeout)
        self.assertIn("within 2.0 s", str(exc))
        run_bounded(self, e.quit)
        h.assert_none_left()

    def test_no_bestmove(self):
        # answers ping, ignores stop, never sends bestmove
        h = Hostile(self, "no-bestmove")
        e = h.popen(timeout=1.0)
        _, exc = run_bounded(self, lambda: e.play(Position("mock"), Limit(time=0.1)))
        self.assertIsInstance(exc, medan.EngineTimeout)
        self.assertRaises(medan.EngineTerminated, e.ping)
        h.assert_none_left()
        # an infinite search: the caller's stop is not answered either
        h2 = Hostile(self, "no-bestmove")
        e2 = h2.popen(timeout=1.0)
        a = e2.analysis(Position("mock"))
        a.stop()
        _, exc = run_bounded(self, a.wait)
        self.assertIsInstance(exc, medan.EngineTimeout)
        h2.assert_none_left()
        # ... nor one sent from another thread while the search is read
        h3 = Hostile(self, "no-bestmove")
        e3 = h3.popen(timeout=1.0)
        a = e3.analysis(Position("mock"))
        threading.Timer(0.3, a.stop).start()
        _, exc = run_bounded(self, a.wait)
        self.assertIsInstance(exc, medan.EngineTimeout)
        h3.assert_none_left()

    def test_asyncio_no_bestmove(self):
        # the asyncio API ends the same way (its calls run the blocking ones)
        h = Hostile(self, "no-bestmove")

        async def main():
            e = await medan.aio.AsyncEngine.popen(sys.executable, args=h.args, timeout=1.0)
            try:
                await e.play(Position("mock"), Limit(time=0.1))
            finally:
                await e.quit()
        _, exc = run_bounded(self, lambda: asyncio.run(main()))
        self.assertIsInstance(exc, medan.EngineTimeout)
        h.assert_none_left()

    def test_no_stdin(self):
        # reads no more input: a line that does not fit its pipe
        h = Hostile(self, "no-stdin")
        e = h.popen(timeout=1.0)
        _, exc = run_bounded(self, lambda: e.send_line("# " + "x" * (1 << 20)))
        self.assertIsInstance(exc, medan.EngineTimeout)
        run_bounded(self, e.quit)
        h.assert_none_left()


if __name__ == "__main__":
    unittest.main()
