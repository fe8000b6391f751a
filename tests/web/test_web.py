#!/usr/bin/python3
"""medan-web in a real browser: headless Chromium driven by Selenium.

usage: test_web.py BIN OUTDIR

Starts bin/medan-web on a free port and plays every game through the page:
clicks moves, waits for the engine's reply, has an illegal click refused,
finishes a game and reads its result, reloads and resumes, checks that a
Battalion seat's page and its network payloads hold no other seat's hidden
card, analyses, watches a match played by the referee's library (the same
games as medan-referee from the shell, refused settings, stop), follows a
results file while it grows (a half-written line, hostile lines, a shell
referee writing it; refused names); and over plain HTTP the server's refusals
(bad JSON, illegal move, too big a body, a foreign page), an engine killed
mid-search (reported and restarted), tabs that go away (their engines
reaped).  Screenshots go to OUTDIR; the benchmark figures (page load, move
round trip at movetime 100) are printed, never asserted.

Waits are generous and driven by the page's state, never by wall-clock
bounds: the tests must hold on a busy machine and under ASan.
"""
import atexit
import json
import os
import random
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.common.by import By

BIN, OUT = sys.argv[1], sys.argv[2]
os.makedirs(OUT, exist_ok=True)
WAIT = float(os.environ.get('WEB_TEST_WAIT', '60'))   # seconds for any state to come
n_ok = 0
n_bad = 0


def ok(msg):
    global n_ok
    n_ok += 1
    print('ok   ' + msg, flush=True)


def bad(msg):
    global n_bad
    n_bad += 1
    print('FAIL ' + msg, flush=True)


def check(cond, msg):
    (ok if cond else bad)(msg)
    return cond


# ---- the server --------------------------------------------------------
RD = os.path.abspath(os.path.join(OUT, 'results'))   # --results-dir: the match view's files
os.makedirs(RD, exist_ok=True)
server = subprocess.Popen([os.path.join(BIN, 'medan-web'), '--port', '0', '--idle', '4', '--results-dir', RD],
                          stdout=subprocess.PIPE, stderr=open(os.path.join(OUT, 'server.log'), 'w'),
                          text=True)


def cleanup():
    """Whatever happens, no server (nor its engines) outlives the test."""
    if server.poll() is None:
        server.kill()
        server.wait()


atexit.register(cleanup)
line = server.stdout.readline()
m = re.search(r'http://127\.0\.0\.1:(\d+)/', line)
if not m:
    print('FAIL medan-web did not print its address: %r' % line)
    sys.exit(1)
BASE = 'http://127.0.0.1:%s/' % m.group(1)
ok('medan-web listens on 127.0.0.1 by default (%s)' % line.strip())


def http(path, body=None, raw=None, headers=None):
    """(status, parsed JSON or text)"""
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    req = urllib.request.Request(BASE + path, data=data, method='POST' if data is not None else 'GET')
    req.add_header('Content-Type', 'application/json')
    for k, v in (headers or {}).items():
        req.add_header(k, v)
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            text = r.read().decode()
            code = r.status
    except urllib.error.HTTPError as e:
        text = e.read().decode()
        code = e.code
    try:
        return code, json.loads(text)
    except ValueError:
        return code, text


# ---- the browser -------------------------------------------------------
def browser():
    o = Options()
    for a in ['--headless=new', '--no-sandbox', '--disable-gpu', '--window-size=1500,1050',
              '--disable-dev-shm-usage', '--hide-scrollbars']:
        o.add_argument(a)
    o.set_capability('goog:loggingPrefs', {'performance': 'ALL', 'browser': 'ALL'})
    return webdriver.Chrome(service=Service('/usr/bin/chromedriver'), options=o)


d = browser()
atexit.register(lambda: d.quit())
d.set_script_timeout(120)


def state():
    return d.execute_script('return window.medan && window.medan.state')


def wait(cond, what, timeout=WAIT):
    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout:
        try:
            v = cond()
            if v:
                return v
        except Exception:   # the page is being redrawn
            pass
        time.sleep(0.05)
    bad('timed out waiting for ' + what)
    return None


def click(sel):
    """Click, again if the page redrew the element meanwhile (an update came)."""
    for i in range(20):
        try:
            d.find_element(By.CSS_SELECTOR, sel).click()
            return
        except (StaleElementReferenceException, NoSuchElementException):
            if i == 19:
                raise
            time.sleep(0.1)


def cell(c):
    click('[data-cell="%s"]' % c)


def text(id_):
    """An element's text, read in the page (no stale element between find and read)."""
    return d.execute_script("const e = document.getElementById(arguments[0]); return e ? e.innerText : ''", id_)


def load(url):
    """Open the page and wait until it has resumed or started its game."""
    d.get(url)
    return wait(lambda: d.execute_script('return window.medan && window.medan.ready'), 'the page ready: ' + url)


def new_game(req):
    """A new session through the page's own function."""
    old = (state() or {}).get('id')
    d.execute_async_script('const cb = arguments[1]; newSession(arguments[0]).then(() => cb(1));', req)
    return wait(lambda: state() and state()['id'] != old and state()['game'] == req['game'] and state(),
                'the new %s game' % req['game'])


def shot(name):
    time.sleep(0.3)
    d.save_screenshot(os.path.join(OUT, name))


def moves_list():
    return d.execute_script("return [...document.querySelectorAll('#moves li')].map((e) => e.textContent)")


def my_turn():
    s = state()
    return s and not s['result'] and s['to_move'] == s['human'] and s['legal'] and s


# ---- page load (benchmark) ------------------------------------------
t0 = time.monotonic()
d.get(BASE + '#play')
wait(lambda: d.find_elements(By.CSS_SELECTOR, '[data-cell="a1"]'), 'the board')
load_ms = (time.monotonic() - t0) * 1000
# again, warm (the first load also starts the browser's renderer): the
# page's own clock from the request to the board drawn
loads = []
for i in range(3):
    d.get('about:blank')
    load(BASE + '#play')
    loads.append(wait(lambda: d.execute_script('return window.medan && window.medan.firstDraw'), 'the board drawn'))
nav = sorted(loads)[1]
check(text('status').startswith('Black to move'), '#status says whose turn it is: %r' % text('status'))

# ---- LOA: click, engine reply, illegal click, reload, finish ----------------
st = new_game({'game': 'loa', 'mode': 'play', 'seat': 1, 'movetime': 50, 'strategy': 'random'})
sid = st['id']
cell('b1')
check(len(d.find_elements(By.CSS_SELECTOR, '.target')) == 3, 'LOA: b1 selected, its 3 targets highlighted')
cell('b3')
s = wait(lambda: my_turn() and len(state()['moves']) == 2 and state(), 'the engine reply (LOA)')
check(s and moves_list()[0] == 'b1-b3' and len(moves_list()) == 2,
      'LOA: a move by two clicks, the engine replied (%s)' % moves_list())
before = moves_list()
cell('c1')
cell('c5')      # not a move of c1: the server refuses it
wait(lambda: text('message'), 'the refusal')
check('not' in text('message') or 'illegal' in text('message') or 'no ' in text('message'),
      'LOA: an illegal click is refused with the reason: %r' % text('message'))
check(moves_list() == before and state()['to_move'] == 1, 'LOA: ... and changes nothing')
shot('web-loa.png')
d.refresh()
wait(lambda: d.execute_script('return window.medan && window.medan.ready') and state() and state()['id'] == sid,
     'the resumed game')
check(moves_list() == before and state()['id'] == sid, 'LOA: reload resumes the game (%s)' % moves_list())
# the round trip at movetime 100 (benchmark): click to the reply drawn; the
# engine is warm (the first move after the settings restarts it)
d.execute_script("return fetch('/api/session/' + window.medan.state.id + '/settings', {method: 'POST',"
                 "body: JSON.stringify({movetime: 100, strategy: 'search'})})")
rts = []
eng_ms = []
for k in range(4):
    s = wait(my_turn, 'my turn for the round trip')
    tok = s['legal'][k % len(s['legal'])]
    n0 = len(s['moves'])
    a, b = re.match(r'([a-z]\d+)[-x]([a-z]\d+)', tok).groups()
    # from the click on the target (the browser's own event, not the
    # WebDriver's round trips) to the reply in the move list
    d.execute_script("""window.__rt = null; window.__t0 = null; const n0 = arguments[0], to = arguments[1];
      document.addEventListener('click', (e) => { const c = e.target.closest('[data-cell]');
          if (c && c.dataset.cell === to && window.__t0 === null) window.__t0 = performance.now(); }, {capture: true});
      const ob = new MutationObserver(() => { if (document.querySelectorAll('#moves li').length >= n0 + 2 && !window.__rt) {
          window.__rt = performance.now() - window.__t0; ob.disconnect(); } });
      ob.observe(document.getElementById('moves'), {childList: true});""", n0, b)
    cell(a)
    cell(b)
    wait(lambda: d.execute_script('return window.__rt'), 'the reply at movetime 100')
    rts.append(d.execute_script('return window.__rt') or -1)
    eng_ms.append(state()['seats'][1]['last_ms'])
    if state()['result']:
        break
rt_ms = sorted(rts[1:] or rts)[len(rts[1:] or rts) // 2]
# finish: from a position one move from the end
new_game({'game': 'loa', 'mode': 'play', 'seat': 1, 'movetime': 50, 'fen': 'ww6/8/8/8/8/4b3/7b/6w1 b'})
cell('e3')
cell('g1')
r = wait(lambda: text('result'), 'the LOA result')
check(r and r.startswith('Black wins') and
      d.execute_script("return document.getElementById('result').dataset.result").startswith('p1win reason connected'),
      'LOA: the game ends and #result shows it: %r' % r)

# ---- Fetlar --------------------------------------------------------------
new_game({'game': 'fetlar', 'mode': 'play', 'seat': 1, 'movetime': 50})
cell('d1')
cell('d3')
s = wait(lambda: my_turn() and len(state()['moves']) == 2 and state(), 'the engine reply (Fetlar)')
check(s and s['moves'][0] == 'd1-d3', 'Fetlar: a move by clicks, the engine replied (%s)' % (s and s['moves']))
check(d.find_elements(By.CSS_SELECTOR, '[data-cell="f6"]') and d.find_elements(By.CSS_SELECTOR, '[data-cell="k11"]'),
      'Fetlar: 11x11 board with throne f6 and corners')
shot('web-fetlar.png')
new_game({'game': 'fetlar', 'mode': 'play', 'seat': 2, 'movetime': 50, 'fen': '/11/11/K10/11/11/11/11/11/11/11/5t5/ w 0'})
cell('a3')
cell('a1')
r = wait(lambda: text('result'), 'the Fetlar result')
check(r and 'Defenders' in r and 'king_escaped' in r and 'you win' in r, 'Fetlar: the king escapes, result shown: %r' % r)

# ---- Palagan: a turn of two maneuvers, a pass, the end ---------------------
new_game({'game': 'palagan', 'mode': 'play', 'seat': 1, 'movetime': 50, 'size': 5, 'strategy': 'random'})
check(len(d.find_elements(By.CSS_SELECTOR, '[data-cell]')) == 61, 'Palagan N=5: 61 cells with their coordinates')
cell('e5')      # the first turn: one maneuver (a summon)
s = wait(lambda: my_turn() and len(state()['moves']) == 2 and state(), 'the engine reply (Palagan)')
check(s and s['moves'][0] == '@e5', 'Palagan: a summon by one click, the engine replied (%s)' % (s and s['moves']))
fr = [c for c in ['d4', 'f6', 'e4', 'd5', 'f5', 'e6'] if not re.search(c, ' '.join(s['moves'][1:]))]
cell('e5')
cell(fr[0])     # first maneuver: a move
check(d.find_elements(By.ID, 'end-turn'), 'Palagan: after one maneuver the turn waits for a second or End turn')
free = next(c for c in ['a1', 'b1', 'c1', 'i9', 'h9', 'a5'] if c not in ' '.join(state()['moves']))
cell(free)      # second maneuver: a summon
s = wait(lambda: my_turn() and len(state()['moves']) == 4 and state(), 'the engine reply to a two-maneuver turn')
check(s and s['moves'][2] == 'e5-%s,@%s' % (fr[0], free), 'Palagan: a two-maneuver turn (%s)' % (s and s['moves'][2]))
shot('web-palagan.png')
new_game({'game': 'palagan', 'mode': 'play', 'seat': 1, 'movetime': 50, 'size': 5,
          'fen': '4w/6/7/8/4b4/8/7/6/w4 b 19/18 0/0 0 19 0'})
cell('e5')
cell('e6')
click('#end-turn')
r = wait(lambda: text('result'), 'the Palagan result')
check(r and r.startswith('Draw (quiet'), 'Palagan: the quiet rule ends the game: %r' % r)
new_game({'game': 'palagan', 'mode': 'play', 'seat': 1, 'movetime': 50, 'size': 7})
check(len(d.find_elements(By.CSS_SELECTOR, '[data-cell]')) == 127, 'Palagan N=7: 127 cells')
click('[data-move="pass"]')
s = wait(lambda: my_turn() and len(state()['moves']) == 2 and state(), 'the reply to a pass')
check(s and s['moves'][0] == 'pass', 'Palagan: a pass')

# ---- Battalion: a whole game at seat 1, network payloads checked -------------
d.get_log('performance')   # drop what came before
SEED = 12345
new_game({'game': 'battalion', 'mode': 'play', 'seat': 1, 'players': 3, 'movetime': 50,
          'strategy': 'random', 'seed': SEED})
shot_taken = False
for step in range(400):
    s = wait(lambda: state() and (state()['result'] or my_turn()) and state(), 'Battalion: my turn or the end')
    if not s or s['result']:
        break
    legal = s['legal']
    tok = random.Random(step).choice(legal)
    before = len(s['moves'])
    if tok.startswith('draw:'):
        click('[data-move="%s"]' % tok)
    elif tok.startswith('discard:'):
        click('.hand[data-card="%s"]' % tok[8:])
    elif tok.startswith('bid:') or tok in ('pass', 'surrender'):
        click('button[data-move="%s"]' % tok)
    elif tok.startswith('attack:') or tok.startswith('defend:'):
        cards = tok.split(':')[-1].split(',')
        used = set()
        for c in cards:
            idx = d.execute_script(
                "return [...document.querySelectorAll('.hand[data-card=\"' + arguments[0] + '\"]')]"
                ".map(e => e.getAttribute('data-index'))", c)
            i = next(x for x in idx if x not in used)
            used.add(i)
            click('.hand[data-index="%s"]' % i)
        if not shot_taken and tok.startswith('attack:'):
            shot('web-battalion.png')
            shot_taken = True
        if tok.startswith('attack:'):
            click('.seatbox[data-seat="%s"]' % tok.split(':')[1])
        else:
            click('#defend')
    else:
        bad('Battalion: unknown token ' + tok)
        break
    wait(lambda: state() and (len(state()['moves']) > before or state()['result']), 'Battalion: %s taken' % tok)
    if state()['moves'][before:before + 1] != [tok] and not state()['result']:
        bad('Battalion: the click for %s played %s' % (tok, state()['moves'][before:before + 1]))
        break
s = state()
r = text('result')
check(s and s['result'] and re.match(r'Seats? ', r), 'Battalion: a whole game by clicks, result: %r' % r)
if not shot_taken:
    shot('web-battalion.png')

# The payloads: every response and event the page received.
payloads = []
for e in d.get_log('performance'):
    msg = json.loads(e['message'])['message']
    if msg['method'] == 'Network.eventSourceMessageReceived':
        payloads.append(msg['params']['data'])
    elif msg['method'] == 'Network.responseReceived' and '/api/' in msg['params']['response']['url']:
        try:
            body = d.execute_cdp_cmd('Network.getResponseBody', {'requestId': msg['params']['requestId']})
            payloads.append(body['body'])
        except Exception:
            pass
bat = [json.loads(p) for p in payloads if p.startswith('{') and '"battalion"' in p]
check(len(bat) > 20, 'Battalion: %d payloads captured from the network' % len(bat))
# The truth, from the engine: the full deal, every state replayed.
eng = subprocess.Popen([os.path.join(BIN, 'medan-battalion')], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)


def mep(cmd):
    eng.stdin.write(cmd + '\n')
    eng.stdin.flush()
    out = []
    while True:
        ln = eng.stdout.readline().strip()
        out.append(ln)
        if ln == 'ok' or ln.startswith('error'):
            return out


mep('newgame players=3 seed=%d' % SEED)
full0 = mep('fen')[0][4:]
leaks = 0
views_ok = 0
for p in bat:
    keys = set(p) - {'id', 'version', 'mode', 'game', 'title', 'params', 'nseats', 'human', 'to_move', 'fen',
                     'moves', 'ply', 'legal', 'result', 'thinking', 'message', 'seats', 'movetime', 'strategy',
                     'engine', 'analysing', 'multipv', 'error'}
    keys -= {'movers'}    # the seat that made each move: public, as the moves are
    if keys or 'start_fen' in p or 'info' in p:
        leaks += 1
        print('     unexpected keys %s' % (keys or 'start_fen/info'))
    if 'fen' not in p:
        continue
    mep('position fen %s moves %s' % (full0, ' '.join(p['moves'])) if p['moves'] else 'position fen ' + full0)
    full = mep('fen')[0][4:]
    view = mep('fen view 1')[0][4:]
    if p['fen'] == view:
        views_ok += 1
    else:
        leaks += 1
    # every hidden card of the others: none in the payload's hands or known
    f = dict(kv.split('=', 1) for kv in full.split()[1:])
    pv = dict(kv.split('=', 1) for kv in p['fen'].split()[1:])
    for j, (h, hp, kn) in enumerate(zip(f['hands'].split('/'), pv['hands'].split('/'), pv['known'].split('/'))):
        if j == 0:
            continue
        shown = re.findall(r'[A2-9TJQK][cdhs]', hp)
        known = re.findall(r'[A2-9TJQK][cdhs]', kn)
        if sorted(shown) != sorted(known):
            leaks += 1
    if 'rng=' in json.dumps(p) or '"full ' in json.dumps(p) or str(SEED) in json.dumps(p):
        leaks += 1
eng.stdin.write('quit\n')
eng.stdin.flush()
eng.wait()
check(leaks == 0 and views_ok > 20,
      'Battalion: every payload is exactly seat 1\'s view (%d checked against the engine), no other seat\'s hidden card, no search output, no deal seed' % views_ok)
dom = d.page_source
check('rng=' not in dom and 'full ' not in d.execute_script('return JSON.stringify(window.medan.state)'),
      'Battalion: the page holds no full state')
# A 6-seat table draws.
new_game({'game': 'battalion', 'mode': 'play', 'seat': 2, 'players': 6, 'movetime': 50, 'strategy': 'random'})
check(len(d.find_elements(By.CSS_SELECTOR, '.seatbox')) == 6, 'Battalion: a table of 6 seats')

# ---- analysis ------------------------------------------------------------------
load(BASE + '#analyse')
wait(lambda: state() and state()['mode'] == 'analyse', 'the analysis session')
new_game({'game': 'loa', 'mode': 'analyse'})
d.find_element(By.ID, 'multipv').send_keys('2')
click('#analyse-start')
wait(lambda: len(d.find_elements(By.CSS_SELECTOR, '#pv-lines li')) >= 2 and
        d.find_elements(By.CSS_SELECTOR, 'line.arrow'), 'two analysis lines and arrows')
lines = d.execute_script("return [...document.querySelectorAll('#pv-lines li')].map((e) => e.textContent)")
check(len(lines) >= 2 and all('depth' in x and 'nodes' in x for x in lines),
      'analysis: depth, score, nodes, pv for 2 lines (%s)' % lines[:1])
check(len(d.find_elements(By.CSS_SELECTOR, 'line.arrow')) >= 2, 'analysis: the PV drawn as arrows')
shot('web-analysis.png')
click('#analyse-stop')
wait(lambda: text('analysis-state').startswith('Analysis stopped'), 'the analysis to stop')
check(not state()['analysing'], 'analysis: stop ends the infinite search')
fen = d.find_element(By.ID, 'fen')
fen.clear()
fen.send_keys('1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1 b')
d.find_element(By.ID, 'record').send_keys('b1-b3 a2-c2')
click('#set-position')
wait(lambda: state()['ply'] == 2, 'a record loaded')
click('#step-back')
wait(lambda: state()['ply'] == 1, 'a step back')
check(state()['ply'] == 1 and len(state()['moves']) == 2, 'analysis: a game record stepped through')
fen.clear()
fen.send_keys('nonsense')
click('#set-position')
wait(lambda: text('message'), 'the bad position refused')
check(state()['ply'] == 1, 'analysis: a bad position string is refused (%r)' % text('message'))

# ---- match view: the referee's library plays it ------------------------------------
def rd_files():
    return sorted(os.listdir(RD))


def records(path):
    """The games of a results file without what may differ between two runs
    of one match (the date, the milliseconds each move took)."""
    out = []
    with open(path) as f:
        for ln in f:
            r = json.loads(ln)
            r.pop('date', None)
            for mv in r.get('moves', []):
                mv.pop('ms', None)
            out.append(r)
    return out


def field(id_, v):
    e = d.find_element(By.ID, id_)
    e.clear()
    e.send_keys(v)


load(BASE + '#match')
wait(lambda: d.find_element(By.ID, 'start-match').is_displayed(), 'the match view')
d.find_element(By.ID, 'strat-a').send_keys('search')
d.find_element(By.ID, 'strat-b').send_keys('greedy')
field('games', '4')
field('match-tc', 'depth=2')        # deterministic: the same games on a busy machine
field('match-seed', '7')
field('match-openings', 'random-plies=2')
before = rd_files()
click('#start-match')
wait(lambda: state() and state()['mode'] == 'match' and state()['match']['played'] >= 1 and
     len(state()['moves']) >= 4, 'the match under way', timeout=WAIT * 4)
shot('web-match.png')
wait(lambda: not state()['match']['running'], 'the match to end', timeout=WAIT * 4)
m = state()['match']
check(m['played'] == 4 and 'Results (game loa): 4 games' in text('match-table') and
      re.search(r'Elo|every game', text('elo')) and d.find_elements(By.CSS_SELECTOR, '#chart polyline') and
      len(d.find_elements(By.CSS_SELECTOR, '#results-table tr')) == 5,
      'match: 4 games played by the referee\'s library, its table on the page (%r, %r)' % (text('score'), text('elo')))
new = [f for f in rd_files() if f not in before]
check(len(new) == 1 and new[0] == m['results_file'] and len(records(os.path.join(RD, new[0]))) == 4,
      'match: the referee\'s results file in --results-dir (%s)' % new)
# The same match from the shell: the command the page shows, another file.
import shlex
argv = shlex.split(m['command'])
argv[0] = os.path.join(BIN, 'medan-referee')
shell_res = os.path.join(OUT, 'shell.jsonl')
argv[argv.index('--results') + 1] = shell_res
sh = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
web_recs, shell_recs = records(os.path.join(RD, m['results_file'])), records(shell_res)
check(sh.returncode == 0 and len(web_recs) == 4 and web_recs == shell_recs,
      'match: the browser\'s match and medan-referee from the shell write the same games (seed 7, depth=2)')
check(m['table']['text'].strip() in sh.stdout,
      'match: the page shows the referee\'s own table, as the shell prints it')

# Settings the referee (or the page's list) refuses: 400, nothing started, no file.
before = rd_files()
base = {'game': 'loa', 'mode': 'match', 'a_strategy': 'search', 'b_strategy': 'greedy', 'tc': 'depth=1'}
for extra, why in [({'options': '--results /tmp/x.jsonl'}, 'a results path'),
                   ({'options': '--engine cmd=/bin/sh'}, 'an engine'),
                   ({'tc': 'depth=1 cmd=/bin/sh'}, 'a program in the time control'),
                   ({'openings': 'file=/etc/passwd'}, 'an openings file'),
                   ({'sprt': 'elo0=5 elo1=0'}, 'an SPRT the referee refuses'),
                   ({'tc': 'tc=abc'}, 'a bad time control'),
                   ({'options': '--maxplies lots'}, 'a bad number'),
                   ({'a_strategy': 'cheat'}, 'an unknown Strategy')]:
    req = dict(base)
    req.update(extra)
    code, e = http('api/session', req)
    check(code == 400 and e.get('error'), 'match settings refused: %s (%s)' % (why, e.get('error') if code == 400 else code))
check(rd_files() == before, 'match: refused settings write no results file')

# Stop: the game under way is dropped, the finished ones stay in the file.
code, st = http('api/session', dict(base, games=200, tc='depth=3'))
sid = st['id']
wait(lambda: http('api/session/' + sid)[1]['match']['played'] >= 1, 'a game of the long match', timeout=WAIT * 2)
code, st = http('api/session/%s/stop' % sid, {})
st = wait(lambda: (lambda x: not x['match']['running'] and x)(http('api/session/' + sid)[1]),
          'the stopped match to end', timeout=WAIT * 2)
check(st and st['match']['stopped'] == 'cancelled' and 1 <= st['match']['played'] < 200 and
      len(records(os.path.join(RD, st['match']['results_file']))) == st['match']['played'],
      'match: stopped (%s after %d games), the results file holds exactly the finished games' %
      (st and st['match']['stopped'], st and st['match']['played']))

# ---- a results file followed while it is written -------------------------------------
lines = open(shell_res).read().splitlines(True)
live = os.path.join(RD, 'live.jsonl')
with open(live, 'w') as f:
    f.write(lines[0])
click('#results-refresh')
wait(lambda: d.execute_script("return [...document.querySelectorAll('#results-list option')].some((o) => o.value === 'live.jsonl')"),
     'live.jsonl in the list')
d.execute_script("document.getElementById('results-list').value = 'live.jsonl'")
click('#results-open')
games_seen = lambda: d.execute_script("return +(document.getElementById('results-note').dataset.games || -1)")
wait(lambda: games_seen() == 1, 'the first game of the followed file')
with open(live, 'a') as f:     # a game being written: half a line
    f.write(lines[1][:len(lines[1]) // 2])
wait(lambda: 'being written' in text('results-note'), 'the half line seen')
check(games_seen() == 1 and 'refused' not in text('results-note'),
      'follow: a line being written is not read half (%r)' % text('results-note'))
with open(live, 'a') as f:
    f.write(lines[1][len(lines[1]) // 2:] + lines[2])
wait(lambda: games_seen() == 3, 'the new games of the followed file')
check(games_seen() == 3 and len(d.find_elements(By.CSS_SELECTOR, '#results-table tr')) == 4 and
      'Results (game loa): 3 games' in text('match-table'),
      'follow: new games appear as the file grows (%r)' % text('results-note'))
# A hostile file: a broken line, names that are HTML, a line of another game.
evil = json.loads(lines[3])
evil['seats'] = ['<img src=x onerror="window.pwned=1">', '<b>bold</b>']
with open(live, 'a') as f:
    f.write('{"game": 7, "seats": [\n')
    f.write('\x00\xff garbage\n')
    f.write(json.dumps(evil) + '\n')
wait(lambda: games_seen() == 4, 'the hostile lines read')
check(games_seen() == 4 and '2 lines refused' in text('results-note') and
      not d.find_elements(By.CSS_SELECTOR, '#results-table img, #results-table b, #match-table img') and
      '<img src=x' in text('results-table') and not d.execute_script('return window.pwned'),
      'follow: broken lines refused, names shown as text (%r)' % text('results-note'))
shot('web-match-follow.png')
# The server reads only what was added since the last poll; a file cut
# shorter or replaced is read again from its start.
with open(live, 'w') as f:
    f.write(lines[0])
wait(lambda: games_seen() == 1, 'the cut file read again')
check(games_seen() == 1 and 'refused' not in text('results-note') and
      len(d.find_elements(By.CSS_SELECTOR, '#results-table tr')) == 2,
      'follow: a file cut shorter is read again (%r)' % text('results-note'))
with open(live + '.new', 'w') as f:
    f.write(lines[0] + lines[1] + 'not json at all\n')
os.rename(live + '.new', live)
wait(lambda: games_seen() == 2, 'the replaced file read')
check(games_seen() == 2 and '1 line refused' in text('results-note'),
      'follow: a file replaced by another is read anew (%r)' % text('results-note'))

# A shell referee writing a file while the page follows it (an empty file
# first: the page follows it before the first game; the referee takes an
# empty file as new).
shell_live = os.path.join(RD, 'shell-live.jsonl')
open(shell_live, 'w').close()
argv[argv.index('--results') + 1] = shell_live
argv[argv.index('--games') + 1] = '6'
argv[argv.index('--each') + 1] = 'depth=4'   # games long enough to be seen one by one
click('#results-refresh')
wait(lambda: d.execute_script("return [...document.querySelectorAll('#results-list option')].some((o) => o.value === 'shell-live.jsonl')"),
     'shell-live.jsonl in the list')
d.execute_script("document.getElementById('results-list').value = 'shell-live.jsonl'")
click('#results-open')
wait(lambda: games_seen() == 0, 'the empty file followed')
proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
seen = set()
t0 = time.monotonic()
while time.monotonic() - t0 < WAIT * 8:
    seen.add(games_seen())
    if proc.poll() is not None and games_seen() == 6:
        break
    time.sleep(0.2)
proc.wait()
seen.add(games_seen())
check(games_seen() == 6 and 'Results (game loa): 6 games' in text('match-table'),
      'follow: a file a running medan-referee writes, to its last game (counts seen: %s)' % sorted(seen))

# Names the server refuses: only plain *.jsonl files of --results-dir.
os.symlink('/etc/passwd', os.path.join(RD, 'link.jsonl'))
os.mkdir(os.path.join(RD, 'dir.jsonl'))
for path, why in [('api/results/..%2F..%2Fetc%2Fpasswd', 'a path'), ('api/results/passwd', 'not .jsonl'),
                  ('api/results/.hidden.jsonl', 'a dot file'), ('api/results/link.jsonl', 'a symbolic link'),
                  ('api/results/dir.jsonl', 'a directory'), ('api/results/none.jsonl', 'no such file'),
                  ('api/results/live.jsonl?since=x', 'a bad since')]:
    code, e = http(path)
    check(code in (400, 404), 'results file refused: %s (%s)' % (why, code))
code, lst = http('api/results')
check(code == 200 and 'live.jsonl' in [x['name'] for x in lst['files']] and
      not {'link.jsonl', 'dir.jsonl'} & {x['name'] for x in lst['files']},
      'results list: plain files only')

# ---- robustness over HTTP ---------------------------------------------------------
code, st = http('api/session', {'game': 'loa', 'seat': 1, 'movetime': 2000})
sid = st['id']
v0 = st['version']
code, e = http('api/session/%s/move' % sid, raw=b'{"move": ')
check(code == 400 and 'bad JSON' in e['error'], 'bad JSON: 400 with a message (%s)' % e)
code, e = http('api/session/%s/move' % sid, {'move': 'b1-b2'})
check(code == 400 and 'legal' in e['error'], 'an illegal move: 400 with a message (%s)' % e)
code, e = http('api/session/%s/move' % sid, {'move': 42})
check(code == 400, 'a move that is not a string: 400')
code, st = http('api/session/%s' % sid)
check(st['version'] == v0 and st['moves'] == [], '... and nothing changed')
code, e = http('api/session/%s/move' % sid, raw=b'{"move": "' + b'x' * 70000 + b'"}')
check(code == 413, 'a body over 64 KiB: 413')
code, e = http('api/session/%s/move' % sid, {'move': 'b1-b3'}, headers={'Origin': 'http://evil.example'})
check(code == 403, 'a POST from another site\'s page: 403')
code, e = http('api/info', headers={'Host': 'evil.example:80'})
check(code == 403, 'a request for another host name (DNS rebinding): 403')
code, e = http('api/session', {'game': 'chess'})
check(code == 400, 'an unknown game: 400')
code, e = http('api/session/nope')
check(code == 404, 'an unknown session: 404')
code, e = http('../../etc/passwd')
check(code == 404, 'no file outside www/')

# An engine killed in mid-search: reported on the page, restarted, it moves.
load(BASE + '#play')
new_game({'game': 'loa', 'mode': 'play', 'seat': 1, 'movetime': 8000})
sid = state()['id']
wait(my_turn, 'the human to move in the new game')   # (a busy machine: the board may lag)
cell('b1')
cell('b3')


wait(lambda: state()['thinking'] == 2, 'the engine to think')


def session_pids():
    _, st_ = http('api/status')
    return [p for x in st_['list'] if x['id'] == sid for p in x['engine_pids']]


pids = wait(session_pids, 'the engine process (started, handshake done)') or []
check(len(pids) == 1, 'one engine process for this game (%s)' % pids)
pid = pids[0]
os.kill(pid, signal.SIGKILL)
wait(lambda: 'crashed' in text('message'), 'the crash report')
check('crashed' in text('message'), 'a crashed engine is reported on the page: %r' % text('message'))
s = wait(lambda: len(state()['moves']) == 2 and state(), 'the restarted engine\'s move', timeout=WAIT * 2)
check(s and len(s['moves']) == 2, 'the engine is restarted and moves (%s)' % (s and s['moves']))

# Two tabs, two games; a tab that goes away has its engines reaped.
d.switch_to.new_window('tab')
load(BASE + '#play')
wait(lambda: state() and state()['mode'] == 'play', 'the second tab\'s game')
sid2 = state()['id']
check(sid2 != sid, 'a second tab has its own game')
cell('b1')
cell('b3')
wait(lambda: len(state()['moves']) == 2, 'the second tab\'s engine reply', timeout=WAIT * 2)
_, s = http('api/status')
mine = [x for x in s['list'] if x['engine_pids']]
pids2 = [p for x in s['list'] for p in x['engine_pids']]
d.close()
d.switch_to.window(d.window_handles[0])
d.get('about:blank')


def gone(p):
    try:
        os.kill(p, 0)
        with open('/proc/%d/stat' % p) as f:
            return f.read().split()[2] == 'Z'
    except OSError:
        return True


wait(lambda: http('api/status')[1]['sessions'] == 0 and all(gone(p) for p in pids2),
     'the sessions of closed tabs to be reaped', timeout=WAIT)
_, s = http('api/status')
check(s['sessions'] == 0 and s['engines'] == 0 and all(gone(p) for p in pids2),
      'tabs gone: their sessions closed and engine processes reaped (%s)' % s)

# ---- the end: the server stops on SIGTERM and leaves no engine behind ------------
server.send_signal(signal.SIGTERM)
try:
    rc = server.wait(timeout=60)
except subprocess.TimeoutExpired:
    server.kill()
    rc = -1
check(rc == 0, 'medan-web stops cleanly on SIGTERM (exit %s)' % rc)
beyond = sorted(r - e for r, e in zip(rts[1:], eng_ms[1:]))
beyond = beyond[len(beyond) // 2] if beyond else -1
print('bench: page load (first, cold browser) %.0f ms; page load warm (request to board drawn, median of 3) %.0f ms; '
      'move round trip at movetime 100 (click to reply drawn): median %.0f ms of %s, engine %s ms, median %.0f ms beyond the engine\'s time'
      % (load_ms, nav, rt_ms, ['%.0f' % x for x in rts], eng_ms, beyond), flush=True)
with open(os.path.join(OUT, 'bench.txt'), 'w') as f:
    f.write('page_load_cold_ms %.0f\npage_load_warm_ms %.0f\nround_trip_ms %.0f\nbeyond_engine_ms %.0f\n'
            % (load_ms, nav, rt_ms, beyond))
print('web tests: %d passed, %d failed' % (n_ok, n_bad))
sys.exit(1 if n_bad else 0)
