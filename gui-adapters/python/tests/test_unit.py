"""Unit tests of the medan client: the typed values, and the protocol's edge
cases against a mock engine in Python (tests/mock_engine.py)."""

import asyncio
import os
import shutil
import sys
import threading
import time
import unittest

import medan
import medan.aio
from medan import Limit, Score, PovScore, Position

HERE = os.path.dirname(os.path.abspath(__file__))
MOCK = os.path.join(HERE, "mock_engine.py")


def mock(mode="normal", **kw):
    return medan.Engine.popen(sys.executable, args=[MOCK, mode], **kw)


class TestScore(unittest.TestCase):
    def test_order(self):
        order = [Score(loss=1), Score(loss=5), Score(cp=-300), Score(cp=0), Score(cp=250),
                 Score(win=9), Score(win=3), Score(win=1)]
        for a, b in zip(order, order[1:]):
            self.assertLess(a, b, "%s < %s" % (a, b))
            self.assertGreater(b, a)
        self.assertEqual(sorted(reversed(order)), order)
        self.assertEqual(max(order), Score(win=1))
        self.assertEqual(Score(cp=5), Score(cp=5))
        self.assertNotEqual(Score(cp=5), Score(win=5))

    def test_negation_and_pov(self):
        self.assertEqual(-Score(win=3), Score(loss=3))
        self.assertEqual(-Score(loss=2), Score(win=2))
        self.assertEqual(-Score(cp=40), Score(cp=-40))
        ps = PovScore(Score(cp=40), turn=2)
        self.assertEqual(ps.pov(2), Score(cp=40))
        self.assertEqual(ps.pov(1), Score(cp=-40))
        self.assertRaises(ValueError, PovScore(Score(cp=1)).pov, 1)
        self.assertEqual(Score(win=3).score(), 99997)
        self.assertEqual(Score(loss=3).score(), -99997)

    def test_bad(self):
        self.assertRaises(ValueError, Score)
        self.assertRaises(ValueError, Score, cp=1, win=2)
        self.assertRaises(ValueError, Score, win=-1)
        self.assertRaises(ValueError, Score.parse, "mate", "3")
        self.assertRaises(ValueError, Score.parse, "cp", "x")


class TestInfo(unittest.TestCase):
    def test_every_key(self):
        i = medan.parse_info("info depth 4 seldepth 10 multipv 2 score loss 6 nodes 19500 "
                             "nps 216924 time 89 hashfull 3 iterations 1000 visits 880 "
                             "values 0.654,0.415,0.422 currmove b1-b3 pv g8-g6 h7-f7", turn=1)
        self.assertEqual(i["depth"], 4)
        self.assertEqual(i.seldepth, 10)
        self.assertEqual(i["multipv"], 2)
        self.assertEqual(i["score"].relative, Score(loss=6))
        self.assertEqual(i["score"].pov(2), Score(win=6))
        self.assertEqual((i["nodes"], i["nps"], i["hashfull"]), (19500, 216924, 3))
        self.assertAlmostEqual(i["time"], 0.089)
        self.assertEqual((i["iterations"], i["visits"]), (1000, 880))
        self.assertEqual(i["values"], [0.654, 0.415, 0.422])
        self.assertEqual(i["currmove"], "b1-b3")
        self.assertEqual(i["pv"], ["g8-g6", "h7-f7"])

    def test_unknown_and_string(self):
        i = medan.parse_info("info wdl 500,300,200 depth 2 future 7 string hello  world pv x")
        self.assertEqual(i["wdl"], "500,300,200")
        self.assertEqual(i["future"], "7")
        self.assertEqual(i["depth"], 2)
        self.assertEqual(i["string"], "hello  world pv x")
        self.assertNotIn("pv", i)

    def test_bad(self):
        for bad in ("info depth", "info depth x", "info score cp", "info values 0.1,nan",
                    "bestmove a"):
            self.assertRaises(ValueError, medan.parse_info, bad)


class TestLimitOption(unittest.TestCase):
    def test_limit_args(self):
        self.assertEqual(Limit(depth=3).args(), ["depth", "3"])
        self.assertEqual(Limit(time=0.25, nodes=1000).args(),
                         ["movetime", "250", "nodes", "1000"])
        self.assertEqual(Limit(clock={2: 5, 1: 60.5}, inc={1: 0.1}, movestogo=20).args(),
                         ["p1time", "60500", "p2time", "5000", "p1inc", "100", "movestogo", "20"])
        self.assertTrue(Limit().is_infinite())
        for bad in (dict(depth=0), dict(depth=True), dict(nodes=-1), dict(time=-1),
                    dict(time=float("nan")), dict(time="1"), dict(clock={0: 1}),
                    dict(clock={1: -5})):
            self.assertRaises(ValueError, Limit, **bad)

    def test_option_check(self):
        spin = medan.Option.parse("option name Hash type spin default 64 min 1 max 65536")
        self.assertEqual((spin.default, spin.min, spin.max), (64, 1, 65536))
        self.assertEqual(spin.check(16), "16")
        self.assertRaises(medan.BadValueError, spin.check, 0)
        self.assertRaises(ValueError, spin.check, "16")
        self.assertRaises(ValueError, spin.check, True)
        combo = medan.Option.parse("option name Strategy type combo default search var search var random")
        self.assertEqual(combo.check("RANDOM"), "random")
        self.assertRaises(medan.BadValueError, combo.check, "clever")
        check = medan.Option.parse("option name TreeReuse type check default false")
        self.assertIs(check.default, False)
        self.assertEqual(check.check(True), "true")
        self.assertRaises(ValueError, check.check, 1)
        s = medan.Option.parse("option name Weights type string default <empty>")
        self.assertEqual(s.default, "")
        self.assertEqual(s.check(""), "<empty>")
        self.assertRaises(ValueError, s.check, "a\nquit")
        s2 = medan.Option.parse("option name Book type string default my book.txt")
        self.assertEqual(s2.default, "my book.txt")
        b = medan.Option.parse("option name ClearHash type button")
        self.assertIsNone(b.check(None))
        self.assertRaises(ValueError, b.check, 3)

    def test_result(self):
        r = medan.Result("result p1win reason connected scores 1 0")
        self.assertEqual((r.outcome, r.reason, r.scores, r.winner()), ("p1win", "connected", [1, 0], 1))
        r = medan.Result("result ranks 2 1 3 reason bankrupt scores 0 25 5")
        self.assertEqual((r.outcome, r.ranks, r.winner()), (None, [2, 1, 3], 2))
        self.assertIsNone(medan.Result("result draw reason repetition scores 0.5 0.5").winner())
        self.assertRaises(ValueError, medan.Result, "result none")

    def test_position_checks(self):
        self.assertRaises(ValueError, Position, "loa", moves=["a1 a2"])
        self.assertRaises(ValueError, Position, "loa", moves=["a1\nquit"])
        self.assertRaises(ValueError, Position.from_fen, "loa", "x moves y")
        self.assertRaises(ValueError, Position, "loa", size="5 6")
        self.assertEqual(Position("palagan", size=5, moves=["@a1"]).command(),
                         "position start moves @a1")
        self.assertEqual(Position("loa").turn_hint(), 1)
        self.assertEqual(Position("loa", moves=["b1-b3"]).turn_hint(), 2)
        self.assertEqual(Position.from_fen("loa", "8/8 w", moves=[]).turn_hint(), 2)
        self.assertEqual(Position.from_fen("battalion", "view:2 phase=bid act=3 x").turn_hint(), 3)


class TestMock(unittest.TestCase):
    def test_handshake_and_options(self):
        with mock() as e:
            self.assertEqual(e.id["name"], "Mock")
            self.assertEqual(e.game, "mock")
            self.assertEqual(e.players, (2, 2))
            self.assertEqual(e.params, {"size": "3..5"})
            self.assertEqual(list(e.options), ["Hash", "Seed", "Strategy", "Ponder", "Book", "Clear"])
            self.assertEqual(e.options["Hash"].max, 1024)
            e.configure({"hash": 32, "Ponder": True, "Book": "a b", "Clear": None})
            # checked before sending: nothing sent for the bad one
            self.assertRaises(medan.BadValueError, e.configure, {"Hash": 2000})
            self.assertRaises(medan.UnknownOptionError, e.configure, {"Threads": 2})
            self.assertRaises(ValueError, e.configure, {"Ponder": "yes"})
            # the engine's own refusal: its code
            with self.assertRaises(medan.BadValueError) as cm:
                e.configure({"Hash": 999})
            self.assertEqual(cm.exception.code, "bad_value")
            self.assertIn("memory", cm.exception.message)
            e.ping()

    def test_options_at_popen(self):
        with mock(options={"Strategy": "random"}) as e:
            self.assertEqual(e.options["Strategy"].default, "search")
        self.assertRaises(medan.BadValueError, mock, options={"Hash": 0})

    def test_error_codes(self):
        with mock() as e:
            p = Position("mock", rules=e)
            with self.assertRaises(medan.IllegalMoveError) as cm:
                e.set_position(Position("mock", moves=["a", "zz"]))
            self.assertEqual(cm.exception.code, "illegal_move")
            with self.assertRaises(medan.BadValueError):
                e.newgame(colour="red")
            with self.assertRaises(medan.UnknownCommandError) as cm:
                e._command("frobnicate")
            self.assertEqual(cm.exception.code, "unknown_command")
            with self.assertRaises(medan.GameOverError):
                e.play(Position("mock", moves=["a", "b", "c"]), Limit(depth=1))
            self.assertRaises(ValueError, e.analyse, Position("loa"), Limit(depth=1))
            # the engine is still usable after each error
            self.assertEqual(e.legal_moves(p), ["a", "b", "c"])

    def test_queries(self):
        with mock() as e:
            p = Position("mock", rules=e, size=4)
            p.push("a")
            self.assertRaises(medan.IllegalMoveError, p.push, "zz")
            self.assertEqual(p.moves, ["a"])
            self.assertEqual(p.fen(), "start a")
            self.assertIsNone(p.result())
            p.push("b")
            p.push("c")
            r = p.result()
            self.assertEqual((r.outcome, r.reason, r.winner()), ("p2win", "mock", 2))
            ev = e.eval(p)
            self.assertEqual(ev.score, -7)
            self.assertEqual(ev.terms, {"us.pieces": 3, "them.pieces": 4, "others.chips": 1.5})
            self.assertEqual(e.perft(3, p), 5)
            self.assertEqual(e.divide(1, p), {"a": 2, "b": 3})

    def test_analyse_split_lines_unknown_keys(self):
        with mock() as e:
            p = Position("mock")
            info = e.analyse(p, Limit(depth=2))
            self.assertEqual(info["depth"], 2)
            self.assertEqual(info["score"].relative, Score(cp=19))
            self.assertEqual(info["wdl"], "500,300,200")
            self.assertEqual(info["pv"], ["m1", "n2"])
            self.assertEqual(info["string"], "depth 2 done, all is well")
            lines = e.analyse(p, Limit(depth=4), multipv=3)
            self.assertEqual([i["multipv"] for i in lines], [1, 2, 3])
            self.assertEqual(lines[0]["score"].relative, Score(win=5))
            self.assertIsNone(lines[0]["score"].turn)  # a game this package does not know
            r = e.play(p, Limit(depth=1))
            self.assertEqual((r.move, r.ponder), ("m1", "n1"))
            self.assertEqual(r.info["depth"], 1)

    def test_analysis_stop(self):
        with mock() as e:
            seen = []
            with e.analysis(Position("mock")) as a:
                for info in a:
                    if "depth" in info:
                        seen.append(info["depth"])
                    if info.get("depth", 0) >= 3:
                        a.stop()
            self.assertGreaterEqual(seen[-1], 3)
            self.assertEqual(a.best.move, "m1")
            # the race of a stop with the engine's own bestmove left no stray ok
            a.stop()
            self.assertEqual(e.legal_moves(), ["a", "b", "c"])
            # a stop from another thread, the context's exit reads the end
            with e.analysis(Position("mock")) as a:
                threading.Timer(0.1, a.stop).start()
                res = a.wait()
            self.assertEqual(res.move, "m1")
            # leaving the with block stops a search nobody read
            with e.analysis(Position("mock")):
                pass
            self.assertRaises(ValueError, e.analyse, Position("mock"), Limit())
            # no other command while a search runs
            a = e.analysis(Position("mock"))
            self.assertRaises(medan.EngineError, e.legal_moves)
            a.stop()
            a.wait()
            e.ping()

    def test_crash_mid_search(self):
        e = mock("crash")
        with self.assertRaises(medan.EngineTerminated) as cm:
            e.analyse(Position("mock"), Limit(depth=5))
        self.assertEqual(cm.exception.returncode, 3)
        self.assertIn("segmentation fault (pretend)", str(cm.exception))
        self.assertIn("mock: segmentation fault (pretend)", cm.exception.stderr)
        self.assertRaises(medan.EngineTerminated, e.ping)
        e.quit()

    def test_never_answers(self):
        e = mock("hang", timeout=0.5)
        t0 = time.monotonic()
        with self.assertRaises(medan.EngineTimeout):
            e.analyse(Position("mock"), Limit(depth=1))
        self.assertIsNotNone(e._proc.poll(), "the hung engine was killed")
        self.assertRaises(medan.EngineTerminated, e.ping)
        e.quit()
        self.assertLess(time.monotonic() - t0, 60)  # it returned at all (no hang)

    def test_mute_at_handshake(self):
        with self.assertRaises(medan.EngineTimeout):
            mock("mute", timeout=0.3)

    def test_slow_but_alive(self):
        # silent for two timeouts, but answers ping: slow, not hung
        with mock("slowping", timeout=1.0) as e:
            self.assertEqual(e.play(Position("mock"), Limit(depth=1)).move, "m1")

    def test_missing_program(self):
        self.assertRaises(FileNotFoundError, medan.Engine.popen, "medan-no-such-engine")
        self.assertRaises(medan.EngineTerminated, medan.Engine.popen, "/nonexistent/engine")
        with self.assertRaises(medan.EngineTerminated) as cm:
            medan.Engine.popen(sys.executable, args=["-c", "import sys; sys.stderr.write('no MEP here\\n'); sys.exit(7)"])
        self.assertEqual(cm.exception.returncode, 7)
        self.assertEqual(cm.exception.stderr, ["no MEP here"])

    def test_not_an_engine(self):
        yes = shutil.which("yes")
        if yes is None:
            self.skipTest("no yes program")
        with self.assertRaises(medan.EngineError) as cm:
            medan.Engine.popen(yes)
        self.assertIn("not a MEP engine", str(cm.exception))

    def test_unreadable_handshake(self):
        prog = ("import sys\nfor l in sys.stdin:\n"
                "    print('game x players 2\\noption name H type spin default 1 min a max 3"
                "\\nmepok', flush=True)\n")
        with self.assertRaises(medan.EngineError) as cm:
            medan.Engine.popen(sys.executable, args=["-c", prog])
        self.assertIn("cannot read", str(cm.exception))

    def test_huge_line_dropped(self):
        with mock("flood") as e:
            self.assertEqual(e.legal_moves(), ["a", "b", "c"])
            self.assertIn("dropped", e.stderr_tail()[-1])

    def test_asyncio(self):
        async def main():
            async with await medan.aio.AsyncEngine.popen(sys.executable, args=[MOCK]) as e:
                self.assertEqual(e.game, "mock")
                info = await e.analyse(Position("mock"), Limit(depth=2))
                self.assertEqual(info["depth"], 2)
                depths = []
                async with await e.analysis(Position("mock")) as a:
                    async for info in a:
                        depths.append(info.get("depth"))
                        if info.get("depth", 0) >= 2:
                            a.stop()
                self.assertEqual(a.best.move, "m1")
                self.assertIn(2, depths)
                self.assertEqual(await e.perft(2), 5)
                # other tasks run while the engine thinks
                ticks = []

                async def tick():
                    for _ in range(3):
                        ticks.append(1)
                        await asyncio.sleep(0)
                await asyncio.gather(e.play(Position("mock"), Limit(depth=3)), tick())
                self.assertEqual(len(ticks), 3)
        asyncio.run(main())
        import medan.asyncio as masync
        self.assertIs(masync.AsyncEngine, medan.aio.AsyncEngine)


if __name__ == "__main__":
    unittest.main()
