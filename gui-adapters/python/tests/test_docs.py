"""Every example of docs/scripting.md, run and its output compared.

A ```python block is an example; the ```output block right after it (blank
lines between allowed) is what it must print: each line literally, `…` (or
`...`) inside a line for any text, alone on a line for any lines."""

import os
import re
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
DOC = os.path.join(ROOT, "docs", "scripting.md")


def examples(path):
    """[(line number, code, expected output or None)]"""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    blocks, i = [], 0
    while i < len(lines):
        m = re.match(r"^```(\w*)\s*$", lines[i])
        if not m:
            i += 1
            continue
        lang, start = m.group(1), i + 1
        j = start
        while j < len(lines) and lines[j].strip() != "```":
            j += 1
        blocks.append((lang, start, "\n".join(lines[start:j]) + "\n", j))
        i = j + 1
    out = []
    for k, (lang, start, text, end) in enumerate(blocks):
        if lang != "python":
            continue
        expect = None
        if k + 1 < len(blocks) and blocks[k + 1][0] == "output" and \
                all(not ln.strip() for ln in lines[end + 1:blocks[k + 1][1] - 1]):
            expect = blocks[k + 1][2]
        out.append((start, text, expect))
    return out


def pattern(expect):
    parts = []
    for ln in expect.rstrip("\n").split("\n"):
        if ln.strip() in ("…", "..."):
            parts.append("(?:[^\n]*\n)*?")
        else:
            parts.append(".*?".join(re.escape(x) for x in re.split("…|\\.\\.\\.", ln)) + "\n")
    return "".join(parts)


class TestScriptingDoc(unittest.TestCase):
    def test_examples(self):
        ex = examples(DOC)
        self.assertGreaterEqual(len(ex), 6, "the examples of docs/scripting.md")
        env = dict(os.environ)
        env["PYTHONPATH"] = os.path.join(ROOT, "gui-adapters", "python")
        for line, code, expect in ex:
            with self.subTest(line=line):
                self.assertIsNotNone(expect, "docs/scripting.md:%d: no ```output block" % line)
                with tempfile.TemporaryDirectory() as d:
                    # run from elsewhere: the example finds the package and engines itself
                    r = subprocess.run([sys.executable, "-c", code], cwd=d, env=env,
                                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                       universal_newlines=True, timeout=600)
                self.assertEqual(r.returncode, 0, "docs/scripting.md:%d failed:\n%s"
                                 % (line, r.stderr))
                self.assertRegex(r.stdout, "\\A" + pattern(expect) + "\\Z",
                                 "docs/scripting.md:%d printed something else" % line)


if __name__ == "__main__":
    unittest.main()
