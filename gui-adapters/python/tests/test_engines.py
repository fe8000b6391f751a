"""Integration tests of the medan client against the four real engines
(found on PATH: tests/run-python.sh puts the build's bin directory first,
the plain or the ASan/UBSan one).  Searches use depth/nodes limits only."""

import shutil
import threading
import unittest

import medan
from medan import Limit, Position, Score

GAMES = ("loa", "fetlar", "palagan", "battalion")


def setUpModule():
    for g in GAMES:
        if shutil.which("medan-" + g) is None:
            raise unittest.SkipTest("medan-%s is not on PATH" % g)


def tearDownModule():
    medan.close_rules_engines()


class TestHandshake(unittest.TestCase):
    def test_every_engine(self):
        want = {"loa": (2, 2), "fetlar": (2, 2), "palagan": (2, 2), "battalion": (3, 6)}
        for g in GAMES:
            with medan.Engine.popen("medan-" + g) as e:
                self._handshake(e, g, want)
                # a clean exit (under ASan/UBSan: no leak, no error report)
                self.assertEqual(e.quit(grace=120), 0, "\n".join(e.stderr_tail()))
        with medan.Engine.popen("medan-palagan") as e:
            self.assertEqual(e.params, {"size": "4..9"})
            self.assertIs(e.options["TreeReuse"].default, False)
            e.configure({"TreeReuse": True})

    def _handshake(self, e, g, want):
        self.assertEqual(e.game, g)
        self.assertEqual(e.protocol, 1)
        self.assertEqual(e.players, want[g])
        self.assertTrue(e.id["name"].startswith("Medan"))
        self.assertEqual(e.options["Seed"].type, "spin")
        self.assertIn("random", e.options["Strategy"].var)
        self.assertEqual(e.options["MoveOverhead"].max, 10000)
        # checked here, nothing sent
        self.assertRaises(medan.BadValueError, e.configure, {"MoveOverhead": 10001})
        self.assertRaises(medan.UnknownOptionError, e.configure, {"NoSuchOption": 1})
        e.configure({"Seed": 7, "strategy": "RANDOM"})
        e.play(Position(g, players=3) if g == "battalion" else Position(g), Limit(depth=1))
        e.ping()


class TestLoa(unittest.TestCase):
    def setUp(self):
        self.e = medan.Engine.popen("medan-loa")

    def tearDown(self):
        self.e.quit()

    def test_multipv_best_first(self):
        # a later line can score above an earlier one in the search (the
        # first search proved less about it); every depth's lines are shown
        # best first, and the move is the first line's (search/ab.c)
        with self.e.analysis(Position("loa", moves=["b1-b3", "a2-c2"]), Limit(depth=5),
                             multipv=3) as search:
            infos = [i for i in search if "multipv" in i]
        by_depth = {}
        for i in infos:
            by_depth.setdefault(i["depth"], []).append(i)
        self.assertEqual(sorted(by_depth), [1, 2, 3, 4, 5])
        for d, lines in by_depth.items():
            self.assertEqual([i["multipv"] for i in lines], [1, 2, 3], d)
            scores = [i["score"].relative for i in lines]
            self.assertEqual(scores, sorted(scores, reverse=True), d)
        self.assertEqual(search.best.move, by_depth[5][0]["pv"][0])

    def test_analyse_matches_protocol_doc(self):
        # docs/protocol.md's `go depth 4` transcript
        info = self.e.analyse(Position("loa"), Limit(depth=4))
        self.assertEqual(info["depth"], 4)
        self.assertEqual(info["nodes"], 14884)  # with the root solve's 5000 positions
        self.assertEqual(info["score"].relative, Score(cp=32))
        self.assertEqual(info["score"].pov(2), Score(cp=-32))
        self.assertEqual(info["pv"], ["g8-g6", "h7-f7", "b8-b6", "h2-f2"])
        # a fresh engine, as `analyze` has it (the hash table carries over searches)
        with medan.Engine.popen("medan-loa") as fresh:
            lines = fresh.analyse(Position("loa"), Limit(depth=3), multipv=2)
        self.assertEqual([i["pv"][0] for i in lines], ["b8-b6", "g8-g6"])
        self.assertGreaterEqual(lines[0]["score"].relative, lines[1]["score"].relative)

    def test_play_and_win_score(self):
        p = Position.from_fen("loa", "ww6/8/8/8/8/4b3/7b/6w1 b")
        r = self.e.play(p, Limit(depth=3))
        self.assertEqual(r.move, "e3xg1")
        self.assertEqual(r.info["score"].relative, Score(win=1))
        self.assertGreater(r.info["score"].relative, Score(cp=10000))
        p.push(r.move)
        res = p.result()
        self.assertEqual((res.outcome, res.reason, res.winner()), ("p1win", "connected", 1))
        self.assertRaises(medan.GameOverError, self.e.play, p, Limit(depth=1))
        self.assertEqual(p.legal_moves(), [])

    def test_perft_divide_eval_errors(self):
        self.assertEqual(self.e.perft(3, Position("loa")), 44952)
        d = self.e.divide(2, Position("loa"))
        self.assertEqual(len(d), 36)
        self.assertEqual(sum(d.values()), self.e.perft(2))
        ev = self.e.eval(Position("loa"))
        self.assertEqual((ev.score, ev.terms["us.pieces"], ev.terms["tempo"]), (22, 12, 22))
        with self.assertRaises(medan.IllegalMoveError) as cm:
            self.e.set_position(Position("loa", moves=["b1-b3", "a2-c2", "b3-b9"]))
        self.assertEqual(cm.exception.code, "illegal_move")
        self.assertTrue(cm.exception.message.startswith("3 b3-b9"))
        with self.assertRaises(medan.IllegalPositionError):
            self.e.set_position(Position.from_fen("loa", "8/8/8/8/8/8/8/8 b"))
        with self.assertRaises(medan.BadValueError):
            self.e.newgame(size=5)
        with self.assertRaises(medan.NotSupportedError):
            self.e.fen(Position("loa"), view=1)
        with self.assertRaises(medan.BadValueError) as cm:
            self.e.configure({"Hash": 10 ** 9})
        self.e.ping()

    def test_size6(self):
        self.assertEqual(self.e.params, {"size": "6|8"})
        p = Position("loa", size=6)
        self.assertEqual(p.fen(), "1bbbb1/w4w/w4w/w4w/w4w/1bbbb1 b")
        self.assertEqual(len(p.legal_moves()), 24)
        self.assertEqual(self.e.perft(3, p), 11440)
        r = self.e.play(p, Limit(depth=3))
        self.assertIn(r.move, p.legal_moves())
        with self.assertRaises(medan.IllegalMoveError):
            self.e.set_position(Position("loa", size=6, moves=["c1-g1"]))
        with self.assertRaises(medan.IllegalPositionError):
            self.e.set_position(Position.from_fen("loa", "1bbbb1/w4w/w4w/w4w/w4w/1bbbb1 b"))
        # the parameters go with the position: 8x8 again
        self.assertEqual(self.e.perft(2, Position("loa")), 1244)

    def test_analysis_stop_from_thread(self):
        with self.e.analysis(Position("loa")) as a:
            threading.Timer(0.3, a.stop).start()
            n = sum(1 for _ in a)
        self.assertGreater(n, 0)
        self.assertIn(a.best.move, Position("loa").legal_moves())
        self.assertEqual(self.e.perft(1, Position("loa")), 36)

    def test_ponder(self):
        p = Position("loa", moves=["b1-d3", "a7-c7"])
        with self.e.analysis(p, Limit(depth=5), ponder=True) as a:
            n = 0
            for info in a:
                n += 1
                if info.get("depth") == 5:
                    break       # depth reached: it waits for ponderhit
            self.assertFalse(a.done)
            self.assertRaises(medan.EngineError, self.e.ping)   # a search is running
            a.ponderhit()
            res = a.wait()
        self.assertIn(res.move, p.legal_moves())

    def test_position_history(self):
        p = Position("loa")
        for m in ("b1-b3", "a2-c2"):
            p.push(m)
        self.assertRaises(medan.IllegalMoveError, p.push, "b3-b9")
        self.assertEqual(p.moves, ["b1-b3", "a2-c2"])
        self.assertEqual(p.turn(), 1)
        q = Position.from_fen("loa", p.fen())
        self.assertEqual(sorted(q.legal_moves()), sorted(p.legal_moves()))
        self.assertEqual(p.pop(), "a2-c2")
        self.assertEqual(p.turn(), 2)


class TestSolve(unittest.TestCase):
    # go solve (search/pns.c): the positions of tests/transcripts/*/solve.t
    def test_loa_win_loss_unknown(self):
        with medan.Engine.popen("medan-loa") as e:
            r = e.solve(Position("loa", fen="1w5w/1w6/2w2b2/8/b7/3w2w1/8/7w b"), nodes=100000)
            self.assertEqual((r.status, r.plies, r.exact, r.move), ("win", 5, True, "a4xc6"))
            self.assertEqual(str(r), "win in 5")
            self.assertEqual(r.score, Score(win=5))
            self.assertEqual(r.score.describe(), "win in 5")
            r = e.solve(Position("loa", fen="ww6/8/8/8/8/4b3/7b/6w1 w"), nodes=100000)
            self.assertEqual((r.status, r.plies, r.move), ("loss", 4, "b8-a7"))
            self.assertEqual(r.score.describe(), "loss in 4")
            r = e.solve(Position("loa"), nodes=5000)
            self.assertEqual((r.status, r.score, str(r)), ("unknown", None, "unknown"))
            self.assertEqual(r.nodes, 5061)
            self.assertRaises(ValueError, e.solve, Position("loa"))
            self.assertRaises(ValueError, e.solve, Position("loa"), nodes=5, time=1)
            e.ping()

    def test_fetlar_and_unsupported(self):
        with medan.Engine.popen("medan-fetlar") as e:
            fen = "/5tt4/3T7/4t1tt3/11/7T1t1/1tT6t1/5t2t2/5t5/3t2t1t2/1t1t3K3/1tt2tT4/ w 26"
            r = e.solve(Position("fetlar", fen=fen), nodes=100000)
            self.assertEqual((r.status, r.plies, r.move), ("win", 3, "h10-k10"))
        with medan.Engine.popen("medan-palagan") as e:
            self.assertRaises(medan.NotSupportedError, e.solve, Position("palagan"), nodes=10)
            e.ping()


class TestFetlar(unittest.TestCase):
    def test_analyse_play(self):
        with medan.Engine.popen("medan-fetlar") as e:
            p = Position("fetlar")
            info = e.analyse(p, Limit(depth=3))
            self.assertEqual(info["depth"], 3)
            self.assertIn(info["pv"][0], p.legal_moves())
            lines = e.analyse(p, Limit(depth=2), multipv=3)
            self.assertEqual(len(lines), 3)
            self.assertEqual(len({i["pv"][0] for i in lines}), 3)
            scores = [i["score"].relative for i in lines]
            self.assertEqual(scores, sorted(scores, reverse=True))
            self.assertEqual(e.perft(2, p), sum(e.divide(2, p).values()))
            self.assertIn("material", e.eval(p).terms)


class TestPalagan(unittest.TestCase):
    def test_sizes_analysis_values(self):
        p = Position("palagan", size=5)
        with medan.Engine.popen("medan-palagan", options={"Seed": 1}) as e:
            lines = e.analyse(p, Limit(depth=2), multipv=3)
            self.assertEqual([i["multipv"] for i in lines], [1, 2, 3])
            visits = [i["visits"] for i in lines]
            self.assertEqual(visits, sorted(visits, reverse=True))
            for i in lines:
                self.assertEqual(len(i["values"]), 2)
                self.assertAlmostEqual(sum(i["values"]), 1.0, places=2)
            r = e.play(p, Limit(nodes=300))
            self.assertIn(r.move, p.legal_moves())
            p.push(r.move)
            self.assertEqual(p.turn(), 2)
            self.assertEqual(p.fen().split()[0].count("/"), 8)
            self.assertEqual(e.perft(1, Position("palagan", size=4)),
                             len(Position("palagan", size=4).legal_moves()))
            # the parameters go with the position: N = 4 then N = 5 again
            self.assertEqual(Position("palagan", size=4).fen().split()[0].count("/"), 6)
            self.assertRaises(medan.BadValueError, Position("palagan", size=3).fen)


class TestBattalion(unittest.TestCase):
    def test_views_and_search(self):
        full = Position("battalion", players=3, seed=5)
        s = full.fen()
        self.assertTrue(s.startswith("full "))
        v1, v2 = full.view(1), full.view(2)
        self.assertTrue(v1.fen().startswith("view:1 "))
        self.assertNotIn(v1.fen().split("hands=")[1].split()[0].split("/")[1], v1.fen().split("hands=")[0])
        self.assertEqual(v1.turn(), 1)
        self.assertEqual(v1.legal_moves(), full.legal_moves())
        self.assertEqual(v2.legal_moves(), [])            # not seat 2's turn
        self.assertRaises(medan.NotSupportedError, v1.view, 1)
        with medan.Engine.popen("medan-battalion", options={"Seed": 3}) as e:
            info = e.analyse(v1, Limit(depth=1))
            self.assertEqual(len(info["values"]), 3)
            self.assertGreater(info["iterations"], 0)
            self.assertNotIn("score", info)
            self.assertRaises(medan.NotSupportedError, e.play, v2, Limit(depth=1))
            r = e.play(v1, Limit(depth=1))
            self.assertIn(r.move, v1.legal_moves())
            full.push(r.move)
            self.assertEqual(full.view(2).turn(), full.turn())
            self.assertIn("us.chips", e.eval(v1).terms)


class TestGame(unittest.TestCase):
    def test_engine_against_engine(self):
        # a short LOA game, search against random, to its end or 40 plies
        with medan.Engine.popen("medan-loa") as a, \
                medan.Engine.popen("medan-loa", options={"Strategy": "random", "Seed": 5}) as b:
            p = Position("loa")
            while p.result() is None and len(p.moves) < 40:
                e = a if len(p.moves) % 2 == 0 else b
                p.push(e.play(p, Limit(depth=2)).move)
            self.assertEqual(len(p.moves) % 2 == 0, p.turn() == 1)


if __name__ == "__main__":
    unittest.main()
