#!/usr/bin/env python3
"""make-suite.py - build a balanced opening suite for one Medan game.

    openings/make-suite.py GAME [--bin DIR] [--seed S] [--plies K,K,..]
        [--candidates N] [--depth D | --nodes N] [--threshold CP]
        [--keep N] > openings/GAME.epd

Method (the same for every two-seat game):
  1. Candidates: seeded random playouts of K plies from the start, for
     each K of --plies in turn (uniformly random legal moves, asked of the
     engine with `legalmoves`), until --candidates distinct positions are
     found.  A playout that ends the game is dropped; positions are
     deduplicated by their canonical string (`fen`).
  2. Scoring: the engine itself searches each candidate with a
     deterministic limit (`newgame`, which clears its caches, then
     `go depth D` or `go nodes N`), and the score of its last `info`
     line is kept (centipawn-like, from the side to move).
  3. Selection: candidates with |score| <= --threshold, in the order they
     were found, at most --keep of them.
Everything depends only on the arguments and the engine build: the same
command gives the same file.  The file's header records the engine's
`--version`, the git commit of the working tree, the command and the
criteria; each line is `<position> ; plies K; score cp N; line <moves>`.
"""
import argparse
import random
import subprocess
import sys
import os


class Engine:
    def __init__(self, path):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True,
                                  bufsize=1)

    def ask(self, line, end=("ok",)):
        """Send a line; return the lines up to one starting with an end word."""
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()
        out = []
        while True:
            r = self.p.stdout.readline()
            if not r:
                sys.exit("make-suite: the engine exited after: " + line)
            r = r.rstrip("\n")
            w = r.split(" ", 1)[0]
            if w == "error":
                sys.exit("make-suite: %s -> %s" % (line, r))
            if w in end:
                return out, r
            out.append(r)

    def quit(self):
        try:
            self.p.stdin.write("quit\n")
            self.p.stdin.flush()
        except BrokenPipeError:
            pass
        self.p.wait()


def playout(eng, rng, k):
    """k random plies from the start: the moves, or None if the game ended."""
    moves = []
    for _ in range(k):
        eng.ask("position start moves " + " ".join(moves) if moves
                else "position start")
        out, _ = eng.ask("legalmoves")
        legal = out[0].split()[1:] if out else []
        if not legal:
            return None
        moves.append(rng.choice(legal))
    eng.ask("position start moves " + " ".join(moves))
    out, _ = eng.ask("result")
    if not out or out[0] != "result none":
        return None
    return moves


def score(eng, moves, limit):
    eng.ask("newgame")
    eng.ask("position start moves " + " ".join(moves))
    out, _ = eng.ask("go " + limit, end=("bestmove",))
    cp = None
    for r in out:
        t = r.split()
        if t and t[0] == "info" and "score" in t:
            i = t.index("score")
            if t[i + 1] == "cp":
                cp = int(t[i + 2])
            elif t[i + 1] == "win":  # a proven result: far from balanced
                cp = 100000
    if cp is None:
        sys.exit("make-suite: no score for " + " ".join(moves))
    return cp


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("game")
    ap.add_argument("--bin", default="bin")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--plies", default="4,6,8")
    ap.add_argument("--candidates", type=int, default=600)
    ap.add_argument("--depth", type=int)
    ap.add_argument("--nodes", type=int)
    ap.add_argument("--threshold", type=int, default=50)
    ap.add_argument("--keep", type=int, default=1000)
    a = ap.parse_args()
    limit = "nodes %d" % a.nodes if a.nodes else "depth %d" % (a.depth or 4)
    path = os.path.join(a.bin, "medan-" + a.game)
    plies = [int(x) for x in a.plies.split(",")]
    version = subprocess.run([path, "--version"], capture_output=True,
                             text=True).stdout.strip()
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    eng = Engine(path)
    rng = random.Random(a.seed)
    seen, cands = set(), []
    tries = 0
    while len(cands) < a.candidates and tries < 50 * a.candidates:
        k = plies[tries % len(plies)]
        tries += 1
        moves = playout(eng, rng, k)
        if moves is None:
            continue
        out, _ = eng.ask("fen")
        fen = out[0][4:]
        if fen in seen:
            continue
        seen.add(fen)
        cands.append((fen, k, moves))
    kept, scores = [], []
    for fen, k, moves in cands:
        cp = score(eng, moves, limit)
        scores.append(cp)
        if abs(cp) <= a.threshold and len(kept) < a.keep:
            kept.append((fen, k, cp, moves))
    eng.quit()
    inside = sum(1 for s in scores if abs(s) <= a.threshold)
    print("# Balanced opening suite for %s: %d positions (EPD-like: the "
          "position string, then ';' fields)." % (a.game, len(kept)))
    print("# Made by: openings/make-suite.py %s" % " ".join(sys.argv[1:]))
    print("# Engine: %s, built from commit %s (make, default flags)."
          % (version, commit or "?"))
    print("# Method: seeded random playouts of %s plies from the start, "
          "deduplicated (%d distinct," % (a.plies, len(cands)))
    print("# game-ending playouts dropped), each searched by the engine "
          "with 'newgame' then 'go %s';" % limit)
    print("# kept: |score| <= %d cp from the side to move (%d of %d "
          "candidates), in the order found." % (a.threshold, inside, len(cands)))
    print("# Fields: plies K (random plies played), score cp N (the "
          "engine's score), line (the moves).")
    for fen, k, cp, moves in kept:
        print("%s ; plies %d; score cp %d; line %s" % (fen, k, cp,
                                                       " ".join(moves)))


if __name__ == "__main__":
    main()
