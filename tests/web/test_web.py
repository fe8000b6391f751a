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
reaped); and hostile clients (issue 26 section 1): no access to another
page's game, held connections from one address, 10 tabs live, --bind
127.0.0.2 and 0.0.0.0 with --allow-host, errors that are not UTF-8, a
Battalion seed refused, Palagan N=9's state size.  Screenshots go to OUTDIR; the benchmark figures (page load, move
round trip at movetime 100) are printed, never asserted.

Waits are generous and driven by the page's state, never by wall-clock
bounds: the tests must hold on a busy machine and under ASan.
"""
import atexit
import base64
import hashlib
from http.client import HTTPConnection
import json
import socket
import os
import random
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.parse
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
# --allow-seed: the Battalion check below replays the deal from its seed
# (a server without it refuses a page's seed: see the hostile tests)
server = subprocess.Popen([os.path.join(BIN, 'medan-web'), '--port', '0', '--idle', '4', '--allow-seed',
                           '--max-sessions', '40', '--results-dir', RD],
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
PORT = int(m.group(1))
BASE = 'http://127.0.0.1:%d/' % PORT
ok('medan-web listens on 127.0.0.1 by default (%s)' % line.strip())


def http(path, body=None, raw=None, headers=None, secret=None, base=None):
    """(status, parsed JSON or text); secret: the game's, as the page sends it"""
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    req = urllib.request.Request((base or BASE) + path, data=data, method='POST' if data is not None else 'GET')
    req.add_header('Content-Type', 'application/json')
    if secret:
        req.add_header('X-Medan-Secret', secret)
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


def ws_open(sid, secret, src='127.0.0.1', port=None, extra='', host='127.0.0.1'):
    """A WebSocket handshake for game sid: (socket, status code, first bytes after the head)."""
    s_ = socket.socket()
    s_.settimeout(60)
    s_.bind((src, 0))
    s_.connect((host, port or PORT))
    k = base64.b64encode(os.urandom(16)).decode()
    proto = 'medan' + (', secret.' + secret if secret else '')
    s_.sendall(('GET /api/session/%s/ws HTTP/1.1\r\nHost: %s:%d\r\nUpgrade: websocket\r\n'
                'Connection: Upgrade\r\nSec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n'
                'Sec-WebSocket-Protocol: %s\r\n%s\r\n' % (sid, host, port or PORT, k, proto, extra)).encode())
    buf = b''
    while b'\r\n\r\n' not in buf:
        try:
            b_ = s_.recv(65536)
        except OSError:
            break
        if not b_:
            break
        buf += b_
    head, _, rest = buf.partition(b'\r\n\r\n')
    mm = re.match(rb'HTTP/1\.1 (\d+)', head)
    code_ = int(mm.group(1)) if mm else 0
    if code_ == 101:
        acc = base64.b64encode(hashlib.sha1((k + '258EAFA5-E914-47DA-95CA-C5AB0DC85B11').encode()).digest())
        if b'Sec-WebSocket-Accept: ' + acc not in head:
            code_ = -1      # a wrong accept key
    return s_, code_, rest


def ws_frame(s_, rest):
    """One whole server frame: (opcode, payload)."""
    buf = rest
    while True:
        if len(buf) >= 2:
            n_ = buf[1] & 0x7f
            h = 2
            if n_ == 126:
                h = 4
                n_ = int.from_bytes(buf[2:4], 'big') if len(buf) >= 4 else 1 << 40
            elif n_ == 127:
                h = 10
                n_ = int.from_bytes(buf[2:10], 'big') if len(buf) >= 10 else 1 << 40
            if len(buf) >= h + n_:
                return buf[0] & 0x0f, buf[h:h + n_]
        b_ = s_.recv(1 << 20)
        if not b_:
            return None, b''
        buf += b_


# The live stream works before anything else is tried: its threads start
# with a small stack, and once an engine library's thread-local arrays
# outgrew it every WebSocket was refused and the browser part below failed
# only by timeouts.
code, g0 = http('api/session', {'game': 'loa', 'seat': 1, 'movetime': 50, 'strategy': 'random'})
so, code, rest = ws_open(g0['id'], g0['secret']) if code == 200 else (None, 0, b'')
op, data = ws_frame(so, rest) if code == 101 else (None, b'')
check(code == 101 and op == 1 and json.loads(data).get('id') == g0['id'],
      'a WebSocket opens and sends the game\'s state first (%s, opcode %s)' % (code, op))
if so:
    so.close()


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
    return s and not s['result'] and s['to_move'] == s['human'] and (s['legal'] or s.get('firsts')) and s


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
st_settings = d.execute_async_script(
    "const cb = arguments[0]; fetch('/api/session/' + window.medan.state.id + '/settings', {method: 'POST',"
    "headers: MedanTransport.headers(), body: JSON.stringify({movetime: 100, strategy: 'search'})})"
    ".then((r) => cb(r.status))")
check(st_settings == 200, 'LOA: the page\'s settings taken (movetime 100, search): %s' % st_settings)
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

# ---- LOA 6x6: the size chosen in the form, the board drawn, a move by clicks ---------
d.execute_script("const g = document.getElementById('game'); g.value = 'loa'; g.onchange();")
check(d.execute_script("return [...document.getElementById('size').options].map((o) => o.value).join(' ')")
      == '8 6' and d.find_element(By.ID, 'size').is_displayed(), 'LOA: the form offers board sizes 8 and 6')
d.execute_script("document.getElementById('size').value = '6'; document.getElementById('seat').value = '1';")
old = state()['id']
click('#new')
s = wait(lambda: state() and state()['id'] != old and state(), 'the 6x6 LOA game')
check(s and s['game'] == 'loa' and s['params'] == 'size=6' and s['fen'] == '1bbbb1/w4w/w4w/w4w/w4w/1bbbb1 b',
      'LOA size=6: the session has the 6x6 start (%s, %s)' % (s and s['params'], s and s['fen']))
check(len(d.find_elements(By.CSS_SELECTOR, '[data-cell]')) == 36 and
      d.find_elements(By.CSS_SELECTOR, '[data-cell="f6"]') and not d.find_elements(By.CSS_SELECTOR, '[data-cell="g1"]'),
      'LOA size=6: 36 cells, a1..f6')
cell('c1')
cell('c3')
s = wait(lambda: my_turn() and len(state()['moves']) == 2 and state(), 'the engine reply (LOA 6x6)')
check(s and s['moves'][0] == 'c1-c3' and re.match(r'^[a-f][1-6][-x][a-f][1-6]$', s['moves'][1]),
      'LOA size=6: a move by clicks, the engine replied on the 6x6 board (%s)' % (s and s['moves']))
shot('web-loa6.png')
d.execute_script("const g = document.getElementById('size'); g.value = '8';")

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
cell(fr[0])     # first maneuver: a move (its seconds come from the server)
check(wait(lambda: d.find_elements(By.ID, 'end-turn'), 'the second maneuvers'),
      'Palagan: after one maneuver the turn waits for a second or End turn')
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
    if msg['method'] == 'Network.webSocketFrameReceived':
        payloads.append(msg['params']['response']['payloadData'])
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
                     'engine', 'analysing', 'multipv', 'error', 'secret'}
    keys -= {'movers'}    # the seat that made each move: public, as the moves are
    keys -= {'threads', 'ponder'}   # the person's own settings for the engines
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
# A position string being typed survives the updates a running search sends,
# also once the box has lost the focus (WebDriver's clear() blurs it).
fen = d.find_element(By.ID, 'fen')
fen.clear()
fen.send_keys('1bbbb')
d.find_element(By.ID, 'record').click()
seen = json.dumps(state().get('info'))
wait(lambda: json.dumps(state().get('info')) != seen, 'an update of the running analysis')
check(fen.get_attribute('value') == '1bbbb',
      'analysis: a position string being typed is not overwritten by updates (%r)' % fen.get_attribute('value'))
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
sid, msec = st['id'], st['secret']
wait(lambda: http('api/session/' + sid, secret=msec)[1]['match']['played'] >= 1, 'a game of the long match', timeout=WAIT * 2)
code, st = http('api/session/%s/stop' % sid, {}, secret=msec)
st = wait(lambda: (lambda x: not x['match']['running'] and x)(http('api/session/' + sid, secret=msec)[1]),
          'the stopped match to end', timeout=WAIT * 2)
check(st and st['match']['stopped'] == 'cancelled' and 1 <= st['match']['played'] < 200 and
      len(records(os.path.join(RD, st['match']['results_file']))) == st['match']['played'],
      'match: stopped (%s after %d games), the results file holds exactly the finished games' %
      (st and st['match']['stopped'], st and st['match']['played']))

# Stop during a long think: the engine gets `stop` at once (the match would
# otherwise wait out the 50 s move; 25 s is far from both).
code, st = http('api/session', dict(base, games=2, tc='st=50'))
sid, msec = st['id'], st['secret']
wait(lambda: http('api/session/' + sid, secret=msec)[1]['match']['running'], 'the long-move match to run')
time.sleep(2)                      # the first go is out
code, st = http('api/session/%s/stop' % sid, {}, secret=msec)
st = wait(lambda: (lambda x: not x['match']['running'] and x)(http('api/session/' + sid, secret=msec)[1]),
          'the stopped long-move match to end', timeout=25)
check(st and st['match']['stopped'] == 'cancelled' and st['match']['played'] == 0,
      'match: Stop ends a 50 s move at once (%s, %s games)' %
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
key = st['secret']
v0 = st['version']
code, e = http('api/session/%s/move' % sid, raw=b'{"move": ', secret=key)
check(code == 400 and 'bad JSON' in e['error'], 'bad JSON: 400 with a message (%s)' % e)
code, e = http('api/session/%s/move' % sid, {'move': 'b1-b2'}, secret=key)
check(code == 400 and 'legal' in e['error'], 'an illegal move: 400 with a message (%s)' % e)
code, e = http('api/session/%s/move' % sid, {'move': 42}, secret=key)
check(code == 400, 'a move that is not a string: 400')
code, st = http('api/session/%s' % sid, secret=key)
check(st['version'] == v0 and st['moves'] == [], '... and nothing changed')
code, e = http('api/session/%s/move' % sid, raw=b'{"move": "' + b'x' * 70000 + b'"}', secret=key)
check(code == 413, 'a body over 64 KiB: 413')
code, e = http('api/session/%s/move' % sid, {'move': 'b1-b3'}, headers={'Origin': 'http://evil.example'}, secret=key)
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
def engine_pids():
    """The server's child processes (its engines): /api/status lists no games."""
    out = []
    for t in os.listdir('/proc/%d/task' % server.pid):
        try:
            with open('/proc/%d/task/%s/children' % (server.pid, t)) as f:
                out += [int(x) for x in f.read().split()]
        except OSError:
            pass
    return sorted(set(out))


def session_pids():
    """This game's engine processes, as its page may ask."""
    _, st_ = http('api/session/%s/engines' % sid, secret=d.execute_script('return MedanTransport.secret'))
    return st_['engine_pids']


load(BASE + '#play')
new_game({'game': 'loa', 'mode': 'play', 'seat': 1, 'movetime': 8000})
sid = state()['id']
wait(my_turn, 'the human to move in the new game')   # (a busy machine: the board may lag)
cell('b1')
cell('b3')


wait(lambda: state()['thinking'] == 2, 'the engine to think')


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
pids2 = engine_pids()
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

# ---- hostile clients (issue 26 section 1): a game is its page's, held
# connections starve no one, any number of tabs, --bind, UTF-8, the deal's
# seed, Palagan's state size -----------------------------------------------------


def answered(src, base=None, timeout=WAIT):
    """GET /api/info from address src: its status (0: no answer)."""
    u = urllib.parse.urlparse(base or BASE)
    try:
        c_ = HTTPConnection(u.hostname, u.port, timeout=timeout, source_address=(src, 0))
        c_.request('GET', '/api/info')
        r_ = c_.getresponse()
        r_.read()
        c_.close()
        return r_.status
    except OSError as e:
        print('     no answer from %s: %s' % (src, e))
        return 0


# A game is its page's: no list of ids, no action, state or stream without its secret.
code, a = http('api/session', {'game': 'loa', 'seat': 1, 'movetime': 50, 'strategy': 'random'})
code, b = http('api/session', {'game': 'loa', 'seat': 1, 'movetime': 50, 'strategy': 'random'})
check(len(a.get('secret', '')) == 32 and a['secret'] != b['secret'], 'each new game comes with its own secret')
code, st_ = http('api/status')
check(code == 200 and a['id'] not in json.dumps(st_) and 'list' not in st_ and st_['sessions'] >= 2,
      '/api/status gives counts only, no game id (%s)' % st_)
code, e = http('api/session/%s/move' % a['id'], {'move': 'b1-b3'})
check(code == 404, 'a move without the game\'s secret: 404 (%s)' % e)
code, e = http('api/session/%s/move' % a['id'], {'move': 'b1-b3'}, secret=b['secret'])
check(code == 404, 'a move with another game\'s secret: 404')
code, e = http('api/session/%s' % a['id'])
check(code == 404, 'the state without the secret: 404')
code, e = http('api/session/%s/undo' % a['id'], {}, secret='0' * 32)
check(code == 404, 'an action with a made-up secret: 404')
code, st_ = http('api/session/%s' % a['id'], secret=a['secret'])
check(code == 200 and st_['moves'] == [], '... and the game is untouched')
for what, sec in (('no secret', None), ('another game\'s secret', b['secret'])):
    so, code, _ = ws_open(a['id'], sec)
    so.close()
    check(code not in (101, -1), 'a live stream with %s: refused (%s)' % (what, code))
so, code, rest = ws_open(a['id'], a['secret'])
op, data = ws_frame(so, rest) if code == 101 else (None, b'')
check(code == 101 and op == 1 and json.loads(data)['id'] == a['id'] and 'secret' not in json.loads(data),
      'the live stream with the secret: a WebSocket, the state first (without the secret)')
code, e = http('api/session/%s/move' % a['id'], {'move': 'b1-b3'}, secret=a['secret'])
moved = None
for i in range(20):           # the human's move, then the engine's, pushed
    op, data = ws_frame(so, b'')
    if op == 1 and len(json.loads(data)['moves']) == 2:
        moved = json.loads(data)
        break
check(moved is not None, 'the engine\'s reply pushed over the WebSocket')
so.close()
code, e = http('api/session/%s/ws' % a['id'], secret=a['secret'])
check(code == 400 and 'WebSocket' in e['error'], 'the live path without the upgrade: 400 with a message')

# Held connections: 135 half-sent requests, then 130 held WebSockets, all
# from 127.0.0.3; another address still gets its answer.
held = []
for i in range(135):
    try:
        so = socket.socket()
        so.settimeout(5)
        so.bind(('127.0.0.3', 0))
        so.connect(('127.0.0.1', PORT))
        so.sendall(b'GET /api/info HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ')
        held.append(so)
    except OSError:
        pass
time.sleep(1)
check(answered('127.0.0.2') == 200, '%d half-sent requests from one address: another address is answered' % len(held))
check(answered('127.0.0.1') == 200, '... and the page\'s own address too')
for so in held:
    so.close()
held = []
n101 = 0
# b is a game without a page, closed after --idle (4 s): a loaded machine
# may take longer to get here, so a closed b is made again
if http('api/session/%s' % b['id'], secret=b['secret'])[0] == 404:
    code, b = http('api/session', {'game': 'loa', 'seat': 1, 'movetime': 50, 'strategy': 'random'})
for i in range(130):
    try:
        so, code, _ = ws_open(b['id'], b['secret'], src='127.0.0.3')
        held.append(so)
        n101 += code == 101
    except OSError:
        pass
check(answered('127.0.0.2') == 200 and n101 >= 10,
      '130 held live streams from one address (%d accepted): another address is answered' % n101)
check(http('api/session/%s/move' % b['id'], {'move': 'b1-b3'}, secret=b['secret'])[0] == 200,
      '... and a game still takes a move')
for so in held:
    so.close()
print('     held connections: 135 half-sent requests and 130 live streams from one address, %d streams accepted' % n101)

# Ten tabs, each with its own game, all live (Chromium gives a host only 6
# HTTP/1.1 connections; the live updates are WebSockets).
first_tab = d.current_window_handle
tabs = []
for i in range(10):
    d.switch_to.new_window('tab')
    tabs.append(d.current_window_handle)
    if not load(BASE + '#play'):
        break
    new_game({'game': 'loa', 'mode': 'play', 'seat': 1, 'movetime': 50, 'strategy': 'random'})
check(len(tabs) == 10 and all(d.switch_to.window(t) or d.execute_script('return !!(window.medan && window.medan.ready)')
                              for t in tabs), '10 tabs all loaded')
for t in tabs:
    d.switch_to.window(t)
    wait(my_turn, 'my turn in a tab')
    cell('b1')
    cell('b3')
live = 0
for t in tabs:
    d.switch_to.window(t)
    if wait(lambda: state() and len(state()['moves']) == 2, 'the engine reply in a tab'):
        live += 1
check(live == 10, '10 tabs: each got its engine\'s reply live (%d of 10)' % live)
ids = set()
for t in tabs:
    d.switch_to.window(t)
    ids.add(state()['id'])
    d.close()
d.switch_to.window(first_tab)
check(len(ids) == 10, '10 tabs: 10 games')

# A second server: --bind 127.0.0.2 (its own address is accepted), and no --allow-seed.
def start(args, log):
    p_ = subprocess.Popen([os.path.join(BIN, 'medan-web'), '--port', '0'] + args, stdout=subprocess.PIPE,
                          stderr=open(os.path.join(OUT, log), 'w'), text=True)
    atexit.register(lambda: p_.poll() is None and (p_.kill(), p_.wait()))
    ln = p_.stdout.readline()
    mm = re.search(r'http://([0-9.]+):(\d+)/', ln)
    return p_, (int(mm.group(2)) if mm else 0)


def stop(p_):
    p_.send_signal(signal.SIGTERM)
    try:
        return p_.wait(timeout=60)
    except subprocess.TimeoutExpired:
        p_.kill()
        return -1


srv2, port2 = start(['--bind', '127.0.0.2'], 'server-bind2.log')
B2 = 'http://127.0.0.2:%d/' % port2
check(port2 and http('api/info', base=B2)[0] == 200, '--bind 127.0.0.2: asked for by its own address, it answers')
code, e = http('api/session', {'game': 'battalion', 'mode': 'play', 'seat': 1, 'players': 3, 'seed': 7}, base=B2)
check(code == 400 and 'seed' in e.get('error', ''), 'Battalion: a seed chosen by the page is refused: %s' % e)
code, st_ = http('api/session', {'game': 'battalion', 'mode': 'play', 'seat': 1, 'players': 3}, base=B2)
check(code == 200, 'Battalion: without a seed, the server deals')
code, e = http('api/session/%s/new' % st_['id'], {'seed': 7}, secret=st_['secret'], base=B2)
check(code == 400 and 'seed' in e.get('error', ''), 'Battalion: nor in a new deal of the same game')

# Text that is not UTF-8 in an error: a JSON 400, never an empty answer.
code, an = http('api/session', {'game': 'loa', 'mode': 'analyse'}, base=B2)
for what, body in (('a position string \u00e9', {'fen': '\u00e9', 'moves': []}),
                   ('a position string of \u00e9s', {'fen': '\u00e9' * 300, 'moves': []}),
                   ('a record cut mid-character', {'fen': '', 'moves': ['b1-b' + '\u00e9' * 40]})):
    code, e = http('api/session/%s/position' % an['id'], body, secret=an['secret'], base=B2)
    check(code == 400 and isinstance(e, dict) and e.get('error'), '%s: a JSON 400 (%r)' % (what, e))
code, e = http('api/session/%s/move' % an['id'], {'move': 'b1-b' + '\u00e9' * 40}, secret=an['secret'], base=B2)
check(code == 400 and isinstance(e, dict) and e.get('error'), 'a move cut mid-character: a JSON 400 (%r)' % e)
code, e = http('api/session/%s/x%%C3' % an['id'], {}, secret=an['secret'], base=B2)
check(code == 404 and isinstance(e, dict), 'an action named with half a character: a JSON 404 (%r)' % e)

# Palagan N=9: the state per event is small (the one-maneuver turns and the
# first maneuvers; the seconds of one on demand).
code, pg = http('api/session', {'game': 'palagan', 'mode': 'analyse', 'size': 9}, base=B2)
psid, psec = pg['id'], pg['secret']
for i in range(6):
    _, st_ = http('api/session/%s' % psid, secret=psec, base=B2)
    tok = sorted(st_['legal'], key=lambda t: (t == 'pass', t))[0] if st_['legal'] else None
    if not tok:
        break
    http('api/session/%s/move' % psid, {'move': tok}, secret=psec, base=B2)
so, code, rest = ws_open(psid, psec, port=port2, host='127.0.0.2')
op, data = ws_frame(so, rest) if code == 101 else (None, b'')
so.close()
pst = json.loads(data) if data else {}
first = (pst.get('firsts') or [''])[0]
code, more = http('api/session/%s/legal?first=%s' % (psid, urllib.parse.quote(first)), secret=psec, base=B2)
check(pst.get('nlegal', 0) > 10000 and len(data) < 64 * 1024 and code == 200 and
      all(t.startswith(first + ',') for t in more['legal']) and more['legal'],
      'Palagan N=9: %d legal turns, %d bytes per event; the seconds of %s: %d turns, %d bytes'
      % (pst.get('nlegal', 0), len(data), first, len(more.get('legal', [])), len(json.dumps(more))))
code, e = http('api/session/%s/legal?first=zz' % psid, secret=psec, base=B2)
check(code == 400 and isinstance(e, dict), 'Palagan: seconds of no maneuver: 400')
print('bench: palagan N=9 state per event %d bytes (%d legal turns)' % (len(data), pst.get('nlegal', 0)))
check(stop(srv2) == 0, 'the second server stops cleanly')

# --bind 0.0.0.0: a warning, and the Host check stays (DNS rebinding).
srv3, port3 = start(['--bind', '0.0.0.0'], 'server-any.log')
B3 = 'http://127.0.0.1:%d/' % port3
warned = open(os.path.join(OUT, 'server-any.log')).read()
check('warning' in warned and '0.0.0.0' in warned, '--bind 0.0.0.0 warns: %r' % warned.strip()[:160])
check(http('api/info', base=B3, headers={'Host': 'evil.example:%d' % port3})[0] == 403,
      '--bind 0.0.0.0: a foreign Host name is still refused')
check(http('api/info', base=B3)[0] == 200, '--bind 0.0.0.0: 127.0.0.1 is answered')
check(stop(srv3) == 0, 'the 0.0.0.0 server stops cleanly')
srv4, port4 = start(['--bind', '0.0.0.0', '--allow-host', 'board.test'], 'server-allow.log')
B4 = 'http://127.0.0.1:%d/' % port4
check(http('api/info', base=B4, headers={'Host': 'board.test:%d' % port4})[0] == 200 and
      http('api/info', base=B4, headers={'Host': 'evil.example:%d' % port4})[0] == 403,
      '--allow-host board.test: that name is answered, another still refused')
check(stop(srv4) == 0, 'the --allow-host server stops cleanly')

# ---- Threads and pondering on the person's time (issue 27) -------------------------
# A server with a mock that offers Threads (max 8) and ponders (its ponder
# move is the first legal reply; a stopped ponder search answers the stale
# token zz99-zz98, never to be played), one without Threads, and medan-loa.
MOCK = os.path.join(os.path.dirname(os.path.abspath(OUT)), 'mock', 'mock-engine')
PSPY = os.path.join(OUT, 'ponder-spy.log')
if os.path.exists(PSPY):
    os.remove(PSPY)
srv5, port5 = start(['--engine', 'game=loa', 'name=mockp', 'cmd=' + MOCK, 'arg=--game', 'arg=loa',
                     'arg=--mode', 'arg=ponder', 'arg=--threads', 'arg=8', 'arg=--spy', 'arg=' + PSPY,
                     '--engine', 'game=loa', 'name=mock1', 'cmd=' + MOCK, 'arg=--game', 'arg=loa',
                     '--engine', 'game=loa', 'name=medan', 'cmd=' + os.path.join(BIN, 'medan-loa'),
                     '--engine', 'game=battalion', 'name=bat', 'cmd=' + os.path.join(BIN, 'medan-battalion')],
                    'server-ponder.log')
B5 = 'http://127.0.0.1:%d/' % port5
code, info = http('api/info', base=B5)
tm = {e['name']: e.get('threads_max') for g in info.get('games', []) if g.get('name') == 'loa'
      for e in g.get('engines', [])} if isinstance(info, dict) else {}
# never more threads than the machine has cores (issue 39)
CORES = os.sysconf('SC_NPROCESSORS_ONLN')
TH = min(4, CORES)
check(tm.get('mockp') == min(8, CORES) and tm.get('mock1') == 1,
      'api/info: Threads offered where the engine has it, at most the %d cores (threads_max %s)' % (CORES, tm))
code, e = http('api/session', {'game': 'loa', 'seat': 1, 'engine': 'mock1', 'threads': 2}, base=B5)
check(code == 400 and 'Threads' in e.get('error', ''), 'threads=2 for an engine without Threads: 400 (%s)' % e)
code, e = http('api/session', {'game': 'loa', 'seat': 1, 'engine': 'mockp', 'threads': 9}, base=B5)
check(code == 400 and 'at most %d' % min(8, CORES) in e.get('error', ''), 'threads over the engine\'s max: 400 (%s)' % e)
code, e = http('api/session', {'game': 'loa', 'seat': 1, 'engine': 'mockp', 'threads': CORES + 1}, base=B5)
check(code == 400 and 'cores' in e.get('error', ''), 'threads over the machine\'s cores: 400 (%s)' % e)
code, e = http('api/session', {'game': 'loa', 'seat': 1, 'engine': 'mockp', 'threads': 0}, base=B5)
check(code == 400, 'threads=0: 400')
code, e = http('api/session', {'game': 'loa', 'seat': 1, 'ponder': 'yes'}, base=B5)
check(code == 400 and 'ponder' in e.get('error', ''), "ponder='yes': 400 (%s)" % e)
code, e = http('api/session', {'game': 'battalion', 'seat': 1, 'players': 3, 'ponder': True}, base=B5)
check(code == 400 and 'pondering needs' in e.get('error', ''), 'pondering in Battalion: 400 (%s)' % e)


def st5(sid_, sec_):
    return http('api/session/%s' % sid_, secret=sec_, base=B5)[1]


def eng_seat(s_):
    return [x for x in s_['seats'] if x['player'] != 'you'][0]


# The engine at seat 1 (threads 4, or the cores if fewer; pondering), the person at seat 2.
code, pg = http('api/session', {'game': 'loa', 'seat': 2, 'engine': 'mockp', 'threads': TH,
                                'ponder': True, 'movetime': 100}, base=B5)
psid, psec = pg.get('id'), pg.get('secret')
s5 = wait(lambda: eng_seat(st5(psid, psec))['pondering'] and st5(psid, psec), 'the engine to ponder')
check(s5 and s5['ponder'] and s5['threads'] == TH and len(s5['moves']) == 1 and eng_seat(s5)['ponder_move'],
      'after its move the engine ponders on the person\'s time (expects %s)' % (s5 and eng_seat(s5)['ponder_move']))
spy = open(PSPY).read() if os.path.exists(PSPY) else ''
check(TH < 2 or 'got setoption name Threads value %d' % TH in spy, 'Threads=%d is set on the engine' % TH)
check('got go ponder movetime 100' in spy, 'the engine got go ponder with the movetime')
if s5:
    http('api/session/%s/move' % psid, {'move': eng_seat(s5)['ponder_move']}, secret=psec, base=B5)
s5 = wait(lambda: (lambda q: len(q['moves']) == 3 and eng_seat(q)['pondering'] and q)(st5(psid, psec)),
          'the engine\'s answer after the expected move')
check(s5 and eng_seat(s5)['ponder_hits'] == 1 and eng_seat(s5)['ponder_misses'] == 0,
      'the expected move: ponderhit, the engine answers (hits %s)' % (s5 and eng_seat(s5)['ponder_hits']))
if s5:
    other = [t for t in s5['legal'] if t != eng_seat(s5)['ponder_move']][0]
    http('api/session/%s/move' % psid, {'move': other}, secret=psec, base=B5)
s5 = wait(lambda: (lambda q: len(q['moves']) == 5 and q)(st5(psid, psec)),
          'the engine\'s answer after another move')
check(s5 and eng_seat(s5)['ponder_misses'] == 1 and 'zz99' not in ' '.join(s5['moves']) and
      'illegal' not in s5['message'],
      'another move: the ponder search is stopped, its move dropped, a fresh go answers (%s)'
      % (s5 and s5['moves']))
spy = open(PSPY).read()
check(re.search(r'got ponderhit\n', spy) and re.search(r'got stop\n(\d+ pondered \d+\n)?\d+ got position', spy),
      'the engine got ponderhit, then stop and a new position')
# a take-back while the engine ponders stops the ponder search
wait(lambda: eng_seat(st5(psid, psec))['pondering'], 'pondering again')
http('api/session/%s/undo' % psid, {}, secret=psec, base=B5)
s5 = wait(lambda: (lambda q: not eng_seat(q)['pondering'] and q)(st5(psid, psec)), 'the ponder search stopped')
spy = open(PSPY).read()
last = [l for l in spy.splitlines() if ' got ' in l][-6:]
check(s5 and any(l.endswith('got stop') for l in last), 'a take-back stops the ponder search (%s)' % last[-3:])
# medan-loa pondering: the expected reply played -> ponderhit
code, pl = http('api/session', {'game': 'loa', 'seat': 2, 'engine': 'medan', 'ponder': True,
                                'movetime': 100}, base=B5)
lsid, lsec = pl.get('id'), pl.get('secret')
s6 = wait(lambda: (lambda q: eng_seat(q)['pondering'] and q)(st5(lsid, lsec)), 'medan-loa to ponder')
if s6:
    http('api/session/%s/move' % lsid, {'move': eng_seat(s6)['ponder_move']}, secret=lsec, base=B5)
s6 = wait(lambda: (lambda q: len(q['moves']) == 3 and q)(st5(lsid, lsec)), 'medan-loa\'s answer')
check(s6 and eng_seat(s6)['ponder_hits'] == 1, 'medan-loa ponders, and answers after ponderhit')
# A match in the browser: Threads and pondering through the referee's --each keys
code, e = http('api/session', {'game': 'loa', 'mode': 'match', 'a': 'mockp', 'b': 'mock1', 'tc': 'tc=30+0',
                               'threads': 2}, base=B5)
check(code == 400 and 'mock1 has no Threads' in e.get('error', ''), 'a match: threads=2 with an engine without Threads: 400 (%s)' % e)
code, mt = http('api/session', {'game': 'loa', 'mode': 'match', 'a': 'mockp', 'b': 'mockp', 'tc': 'tc=30+0',
                                'games': 2, 'threads': 2, 'ponder': True, 'options': '--maxplies 40'}, base=B5)
cmd = (mt.get('match') or {}).get('command', '') if code == 200 else ''
check(code == 200 and '--each option.Threads=2 ponder=on' in cmd, 'a match: --each option.Threads=2 ponder=on (%s)' % (cmd or mt))
mm = wait(lambda: (lambda q: not q['match']['running'] and q)(st5(mt['id'], mt['secret'])) if code == 200 else None,
          'the ponder match to end', timeout=WAIT * 2)
check(mm and mm['match']['played'] == 2 and not mm['match'].get('stopped') and 'Ponder hits: ' in mm['match']['table'].get('text', ''),
      'a match with pondering engines: 2 games, the table shows the ponder hits')
check(stop(srv5) == 0, 'the ponder server stops cleanly (its pondering engines stopped)')

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
