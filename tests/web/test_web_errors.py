#!/usr/bin/python3
"""medan-web: a match whose library call fails ends that match, never the server.

usage: test_web_errors.py BIN OUTDIR

Over plain HTTP (no browser), issue 39 items 1, 2 and 9:
 - a LOA match with `openings: random-plies=1000` (no such opening exists):
   the match stops with the referee's reason on its status, the server and
   another game live on (before: die() in referee/match.c ended the server);
 - a match whose --results-dir fills up (a 96 KiB tmpfs when run as root,
   else RLIMIT_FSIZE with SIGXFSZ ignored): it stops with "cannot write the
   results file", the server lives on, the games written before stay readable
   through /api/results (before: die() after the first full write);
 - refused settings answer their message in the JSON (`--rounds` with 20
   digits answered {"error":""}; `tc=inf` and `tc=40/0+1` were played as st=1).
Waits are driven by the server's state, never by wall-clock bounds.
"""
import atexit
import json
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request

BIN, OUT = sys.argv[1], sys.argv[2]
os.makedirs(OUT, exist_ok=True)
WAIT = float(os.environ.get('WEB_TEST_WAIT', '60'))
n_bad = 0
servers = []
mounted = []


def check(cond, msg):
    global n_bad
    print(('ok   ' if cond else 'FAIL ') + msg, flush=True)
    if not cond:
        n_bad += 1
    return cond


def cleanup():
    for p in servers:
        if p.poll() is None:
            p.kill()
            p.wait()
    for d in mounted:
        subprocess.call(['umount', d])


atexit.register(cleanup)
signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))   # cleanup (the mount) on timeout


def start(args, log, preexec=None):
    p = subprocess.Popen([os.path.join(BIN, 'medan-web'), '--port', '0'] + args,
                         stdout=subprocess.PIPE, stderr=open(os.path.join(OUT, log), 'w'),
                         text=True, preexec_fn=preexec)
    servers.append(p)
    m = re.search(r'http://127\.0\.0\.1:(\d+)/', p.stdout.readline())
    if not m:
        print('FAIL medan-web did not start (%s)' % log)
        sys.exit(1)
    return p, 'http://127.0.0.1:%s/' % m.group(1)


def http(base, path, body=None, secret=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(base + path, data=data, method='POST' if data is not None else 'GET')
    req.add_header('Content-Type', 'application/json')
    if secret:
        req.add_header('X-Medan-Secret', secret)
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            text, code = r.read().decode(), r.status
    except urllib.error.HTTPError as e:
        text, code = e.read().decode(), e.code
    except (urllib.error.URLError, ConnectionError) as e:
        return 0, str(e)
    try:
        return code, json.loads(text)
    except ValueError:
        return code, text


def wait(cond, what, timeout=WAIT):
    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout:
        v = cond()
        if v:
            return v
        time.sleep(0.1)
    print('     (timed out waiting for %s)' % what, flush=True)
    return None


def match_state(base, sid, sec):
    code, st = http(base, 'api/session/' + sid, secret=sec)
    return st['match'] if code == 200 and isinstance(st, dict) and 'match' in st else None


def match_over(p, base, sid, sec):
    """The match's status once it ran to its end; a dead server ends the wait."""
    if p.poll() is not None:
        return {'running': False, 'stopped': '(the server died: %s)' % p.returncode, 'played': -1,
                'results_file': ''}
    x = match_state(base, sid, sec)
    return x if x and not x['running'] else None


def alive(p, base):
    """The server runs and still opens and plays a game."""
    if p.poll() is not None:
        return False
    code, st = http(base, 'api/session', {'game': 'loa', 'seat': 1, 'movetime': 50, 'strategy': 'random'})
    if code != 200 or not isinstance(st, dict) or 'id' not in st:
        print('     (new game: %s %r)' % (code, st), flush=True)
        return False
    code, st2 = http(base, 'api/session/' + st['id'], secret=st['secret'])
    return code == 200 and st2.get('game') == 'loa' and p.poll() is None


# ---- 1. an opening the referee cannot find ------------------------------------------
rd = os.path.join(OUT, 'results-errors')
shutil.rmtree(rd, ignore_errors=True)
os.makedirs(rd)
srv, B = start(['--results-dir', rd], 'server-errors.log')
code, st = http(B, 'api/session', {'game': 'loa', 'mode': 'match', 'a_strategy': 'random',
                                   'b_strategy': 'random', 'tc': 'depth=1',
                                   'openings': 'random-plies=1000', 'games': 4})
started = check(code == 200 and isinstance(st, dict) and 'id' in st,
                'match with random-plies=1000 accepted by the parser (%s)' % code)
if started:
    sid, sec = st['id'], st['secret']
    m = wait(lambda: match_over(srv, B, sid, sec), 'the match to stop')
    check(m is not None and 'no random opening of 1000 plies' in m['stopped'] and m['played'] == 0,
          'match without an opening stops with the referee\'s reason on its status (%r)' %
          (m and m['stopped']))
check(alive(srv, B), 'the server lives on after a match without an opening, and opens a new game')

# ---- 9. refused settings answer their message ---------------------------------------
base = {'game': 'loa', 'mode': 'match', 'a_strategy': 'random', 'b_strategy': 'random', 'tc': 'depth=1'}
for extra, want in [({'options': '--rounds 99999999999999999999'}, '--rounds needs a whole number'),
                    ({'tc': 'tc=inf'}, 'no limit'),
                    ({'tc': 'tc=40/0+1'}, 'bad time control tc=40/0+1'),
                    ({'tc': 'tc=0+1'}, 'bad time control tc=0+1'),
                    ({'tc': 'timemargin=100'}, 'no limit')]:
    req = dict(base)
    req.update(extra)
    code, e = http(B, 'api/session', req)
    err = e.get('error', '') if isinstance(e, dict) else ''
    check(code == 400 and want in err, 'match setting refused with its message: %s -> %d %r' %
          (extra, code, err))
code, e = http(B, 'api/session', dict(base, tc='tc=inf depth=1', games=2))
check(code == 200, 'tc=inf with depth=1 is a limit: accepted (%d %r)' % (code, e if code != 200 else ''))
if code == 200:
    wait(lambda: match_over(srv, B, e['id'], e['secret']), 'the tc=inf match')
srv.send_signal(signal.SIGTERM)
srv.wait(timeout=60)

# ---- 2. the results directory fills up ----------------------------------------------
full = os.path.join(OUT, 'results-full')
shutil.rmtree(full, ignore_errors=True)
os.makedirs(full)
how = None
if os.geteuid() == 0 and not os.environ.get('WEB_TEST_NO_TMPFS') and subprocess.call(['mount', '-t', 'tmpfs', '-o', 'size=96k', 'tmpfs', full],
                                         stderr=subprocess.DEVNULL) == 0:
    mounted.append(full)
    how = 'a 96 KiB tmpfs'
    pre = None
else:
    how = 'RLIMIT_FSIZE 96 KiB'

    def pre():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)   # kept across exec: writes fail with EFBIG
        resource.setrlimit(resource.RLIMIT_FSIZE, (96 << 10, 96 << 10))
srv, B = start(['--results-dir', full],
               'server-full.log', preexec=pre)
code, st = http(B, 'api/session', dict(base, games=400))
if check(code == 200 and isinstance(st, dict) and 'id' in st, 'a long match into %s started' % how):
    sid, sec = st['id'], st['secret']
    m = wait(lambda: match_over(srv, B, sid, sec), 'the match to fill the directory',
             timeout=WAIT * 10)
    check(m is not None and 'cannot write the results file' in m['stopped'] and 0 < m['played'] < 400,
          'a full results directory stops the match with its reason (%r after %s games)' %
          (m and m['stopped'], m and m['played']))
    check(alive(srv, B), 'the server lives on after the disk filled up')
    if m and m['played'] >= 0:
        code, r = http(B, 'api/results/' + m['results_file'])
        n = r['table']['games'] if code == 200 and isinstance(r, dict) else -1
        check(code == 200 and n == m['played'] and r['bad_lines'] == 0,
              'the finished games stay readable (%d of %d read back, %s, %s bytes of a cut line)' %
              (n, m['played'], code, isinstance(r, dict) and r.get('partial_bytes')))
srv.send_signal(signal.SIGTERM)
check(srv.wait(timeout=60) == 0, 'the server ends cleanly on SIGTERM')
if n_bad:
    print('web error tests: %d FAILED' % n_bad)
sys.exit(1 if n_bad else 0)
