#!/usr/bin/python3
"""medan-web's analysis board in headless Chromium (issue 26 section 2).

usage: test_board.py BIN OUTDIR

Drag and drop (pointer events through Selenium's ActionChains) beside
click-click; the moves numbered in pairs and Battalion's by seat; the tree
of variations (a move played while stepped back keeps the old line, which
the page goes back to); the evaluation bar and graph (their point of view
stated, a line evaluated, a point clicked), a colour per PV line, Palagan's
summons drawn; records out (the referee's PGN-style record, the position
string) and in (pasted, tags and comments of any kind); the share link; a
hostile record and a hostile link inject nothing; the Palagan Pass bar gone
from the match view.  Screenshots go to OUTDIR; the figures (page load,
move round trip in the analysis board) are printed, never asserted.

Waits are driven by the page's state, never by wall-clock bounds.
"""
import atexit
import os
import re
import subprocess
import sys
import time
import urllib.parse

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

BIN, OUT = sys.argv[1], sys.argv[2]
os.makedirs(OUT, exist_ok=True)
WAIT = float(os.environ.get('WEB_TEST_WAIT', '60'))
n_ok = n_bad = 0


def check(cond, msg):
    global n_ok, n_bad
    if cond:
        n_ok += 1
        print('ok   ' + msg, flush=True)
    else:
        n_bad += 1
        print('FAIL ' + msg, flush=True)
    return cond


server = subprocess.Popen([os.path.join(BIN, 'medan-web'), '--port', '0', '--idle', '30'],
                          stdout=subprocess.PIPE, stderr=open(os.path.join(OUT, 'server-board.log'), 'w'),
                          text=True)


def cleanup():
    if server.poll() is None:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


atexit.register(cleanup)
m = re.search(r'http://127\.0\.0\.1:(\d+)/', server.stdout.readline())
if not m:
    print('FAIL medan-web did not print its address')
    sys.exit(1)
BASE = 'http://127.0.0.1:%s/' % m.group(1)

o = Options()
for a in ['--headless=new', '--no-sandbox', '--disable-gpu', '--window-size=1500,1100',
          '--disable-dev-shm-usage', '--hide-scrollbars']:
    o.add_argument(a)
d = webdriver.Chrome(service=Service('/usr/bin/chromedriver'), options=o)
atexit.register(lambda: d.quit())
d.set_script_timeout(120)


def js(code, *args):
    return d.execute_script(code, *args)


def state():
    return js('return window.medan && window.medan.state')


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
    check(False, 'timed out waiting for ' + what)
    return None


def find(sel):
    return d.find_element(By.CSS_SELECTOR, sel)


def click(sel):
    for i in range(20):
        try:
            find(sel).click()
            return
        except (StaleElementReferenceException, NoSuchElementException):
            if i == 19:
                raise
            time.sleep(0.1)


def drag(a, b):
    """Press on cell a, move over the board, release on cell b (pointer events)."""
    for i in range(10):
        try:
            src, dst = find('[data-cell="%s"]' % a), find('[data-cell="%s"]' % b)
            ActionChains(d).click_and_hold(src).move_by_offset(8, 8).move_to_element(dst).release().perform()
            return
        except StaleElementReferenceException:
            time.sleep(0.1)


def text(id_):
    return js("const e = document.getElementById(arguments[0]); return e ? e.innerText : ''", id_)


def load(url):
    d.get(url)
    return wait(lambda: js('return window.medan && window.medan.ready'), 'the page ready: ' + url)


def new_game(req):
    old = (state() or {}).get('id')
    d.execute_async_script('const cb = arguments[1]; newSession(arguments[0]).then(() => cb(1));', req)
    return wait(lambda: state() and state()['id'] != old and state()['game'] == req['game'] and state(),
                'the new %s game' % req['game'])


def shot(name):
    time.sleep(0.3)
    d.save_screenshot(os.path.join(OUT, name))


def moves():
    return state()['moves']


def injected():
    """Elements or effects a hostile text would have made."""
    return js("return document.querySelectorAll('#right script, #message img, #message b, #moves img, img').length"
              " + (window.__pwned ? 1000 : 0)")


# ---- page load (figure) -------------------------------------------------------------
loads = []
for i in range(5):
    d.get('about:blank')
    load(BASE + '#analyse')
    loads.append(wait(lambda: js('return window.medan && window.medan.firstDraw'), 'the board drawn'))
load_ms = sorted(loads)[len(loads) // 2]

# ---- drag and drop, numbered pairs (play) -------------------------------------------
load(BASE + '#play')
new_game({'game': 'loa', 'mode': 'play', 'seat': 1, 'movetime': 50, 'strategy': 'random'})
drag('b1', 'b3')
s = wait(lambda: len(state()['moves']) == 2 and state(), 'the engine reply after a drag')
check(s and s['moves'][0] == 'b1-b3', 'drag and drop: b1 dragged to b3 is played (%s)' % (s or {}).get('moves'))
check(not d.find_elements(By.ID, 'drag-ghost'), 'drag and drop: the dragged copy is gone after the drop')
drag('c1', 'c1')       # dropped where it was: nothing played, the piece stays selected
check(len(moves()) == 2 and js('return window.medan.sel') == 'c1', 'drag and drop: a piece dropped back is not moved, stays selected')
click('[data-cell="c1"]')
tgt = js("return [...document.querySelectorAll('.target')].length")
check(tgt > 0, 'click-click still works beside drag (c1 selected by click, %d targets)' % tgt)
lis = js("return [...document.querySelectorAll('#moves li')].map((e) => [e.textContent, e.dataset.num, e.dataset.col])")
check(lis[0] == ['b1-b3', '1.', '1'] and lis[1][0] == s['moves'][1] and lis[1][2] == '2',
      'moves numbered in pairs, the text still the token (%s)' % lis)
# from a position with White to move, the first move is "1..." in the second column
new_game({'game': 'loa', 'mode': 'play', 'seat': 1, 'movetime': 50, 'strategy': 'random',
          'fen': '1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1 w'})
wait(lambda: len(state()['moves']) >= 1, 'the engine to open')
lis = js("return [...document.querySelectorAll('#moves li')].map((e) => [e.dataset.num, e.dataset.col])")
check(lis and lis[0] == ['1\u2026', '2'], 'a game White opens starts with 1\u2026 in the second column (%s)' % lis[:1])

# ---- Battalion: the moves labelled by seat -------------------------------------------
new_game({'game': 'battalion', 'mode': 'play', 'seat': 3, 'players': 3, 'movetime': 20, 'strategy': 'random'})
wait(lambda: len(state()['moves']) >= 1, 'Battalion engines to move')
# the list and the state it was drawn from, read at once (the engines go on moving)
seats, movers, nmoves = js("return [[...document.querySelectorAll('#moves li')].map((e) => e.dataset.seat),"
                           " window.medan.state.movers, window.medan.state.moves.length]")
check(seats and len(seats) == nmoves == len(movers) and all(x == 'seat %d' % k for x, k in zip(seats, movers))
      and js("return document.getElementById('moves').className") == 'seats',
      'Battalion: each move labelled by its seat (%s)' % seats[:4])

# ---- the stray Palagan Pass bar --------------------------------------------------------
new_game({'game': 'palagan', 'mode': 'play', 'seat': 1, 'size': 5, 'movetime': 50, 'strategy': 'random'})
wait(lambda: find('#turnbar').text, 'the Palagan turn bar')
check(find('#turnbar').text != '', 'Palagan: the turn bar shows in play (%r)' % find('#turnbar').text[:40])
d.get(BASE + '#match')
wait(lambda: js('return window.medan && window.medan.ready'), 'the match view')
check(js("return document.getElementById('turnbar').children.length") == 0,
      'the match view of a tab that had a Palagan game has no Pass bar')

# ---- variations ------------------------------------------------------------------------
load(BASE + '#analyse')
new_game({'game': 'loa', 'mode': 'analyse'})
drag('b1', 'b3')
wait(lambda: moves() == ['b1-b3'], 'b1-b3 by drag in the analysis')
click('[data-cell="a2"]')
click('[data-cell="c2"]')
wait(lambda: moves() == ['b1-b3', 'a2-c2'], 'a2-c2 by clicks')
black2 = state()['legal'][0]
click('#step-back')
wait(lambda: state()['ply'] == 1, 'a step back')
alt = [t for t in state()['legal'] if t != 'a2-c2'][0]
a, b = alt.replace('x', '-').split('-')
click('[data-cell="%s"]' % a)       # another move while stepped back
click('[data-cell="%s"]' % b)
wait(lambda: moves() == ['b1-b3', alt], 'the variation played')
vars_ = js("return [...document.querySelectorAll('#moves .var .tok')].map((e) => e.textContent)")
main = js("return [...document.querySelectorAll('#moves li.main .tok')].map((e) => e.textContent)")
check(main == ['b1-b3', 'a2-c2'] and vars_ == [alt],
      'variations: the old line stays the main line, the new move a variation (main %s, variation %s)' % (main, vars_))
check(js("return document.querySelector('#moves .mv.cur .tok').textContent") == alt, 'variations: the current move marked')
click('#moves li.main .mv[data-ply="2"]')
wait(lambda: moves() == ['b1-b3', 'a2-c2'] and state()['ply'] == 2, 'back to the old line')
check(moves() == ['b1-b3', 'a2-c2'] and state()['ply'] == 2, 'variations: a click on the old line goes back to it')
click('#moves .var .mv')
wait(lambda: moves() == ['b1-b3', alt] and state()['ply'] == 2, 'to the variation again')
check(state()['ply'] == 2 and len(js("return [...document.querySelectorAll('#moves .var .tok')]")) == 1,
      'variations: and to the variation again, the tree unchanged')
click('#moves li.main .mv[data-ply="1"]')
wait(lambda: state()['ply'] == 1, 'ply 1')
click('#step-fwd')
wait(lambda: state()['ply'] == 2, 'forward')
check(moves()[1] == 'a2-c2', 'variations: forward from a branch point follows the main line (%s)' % moves())

# ---- the evaluation bar, PV colours, the graph -------------------------------------------
d.find_element(By.ID, 'multipv').send_keys('2')
click('#analyse-start')
wait(lambda: len(state()['info']) >= 2 and js("return document.getElementById('evalbar').dataset.score"), 'two lines scored')
bar = text('evalbar-text')
sc = state()['info'][0]['score']
check('from Black\u2019s side' in bar, 'the eval bar says its point of view: %r (engine: %r)' % (bar, sc))
cols = js("return [...new Set([...document.querySelectorAll('line.arrow')].map((e) => e.getAttribute('data-line') + e.getAttribute('stroke')))]")
colours = js("return [...document.querySelectorAll('#pv-lines li')].map((e) => e.style.borderLeftColor)")
check(len(set(c[1:] for c in cols)) >= 2 and len(set(colours)) >= 2,
      'a colour per PV line, on the board and in the list (%s)' % cols)
shot('web-analysis-board.png')
click('#analyse-stop')
wait(lambda: not state()['analysing'], 'the analysis to stop')
# the score is converted to Black's side: the sign flips when White is to move
ns = js('return A.tree.cur.score')
bar_v = js("return document.getElementById('evalbar').dataset.score")
cpn = re.match(r'cp (-?\d+)', ns['text'])
check(str(ns['v']) == bar_v and (not cpn or ns['v'] == (int(cpn.group(1)) if ns['side'] == 1 else -int(cpn.group(1)))),
      'the eval bar converts the side to move\'s score (%s, seat %d to move) to Black\'s side (%s)' % (ns['text'], ns['side'], bar_v))
conv = js("return [scoreValue('cp 35', 1, 2), scoreValue('cp 35', 2, 2), scoreValue('win 3', 2, 2), scoreValue('loss 4', 1, 2), scoreValue('cp 5', 1, 3)]")
check(conv == [35, -35, -99997, -99996, None], 'scores: side to move to the first seat\'s side (%s)' % conv)
said = js("return [mepScore('win 7'), mepScore('loss 1'), mepScore('cp 35'), mepScore(undefined)]")
check(said == ['win in 7 plies (proven)', 'loss in 1 ply (proven)', 'cp 35', None],
      'a proven score shown as such (%s)' % said)
# evaluate the line to depth 2, then click a point of the graph
d.find_element(By.ID, 'sweep-depth').send_keys('2')
click('#sweep')
wait(lambda: find('#sweep').text == 'Evaluate the line' and
     len(d.find_elements(By.CSS_SELECTOR, '#graph .gpt circle')) == 3, 'the line evaluated', timeout=WAIT * 2)
pts = js("return [...document.querySelectorAll('#graph .gpt')].map((g) => !!g.querySelector('circle'))")
check(pts == [True, True, True], 'the graph: every position of the line scored (%s)' % pts)
check('Black\u2019s side' in text('evalgraph'), 'the graph says its point of view')
click('#graph .gpt[data-ply="0"]')
wait(lambda: state()['ply'] == 0, 'the graph clicked')
check(state()['ply'] == 0, 'the graph: a click on a point goes to that position')

# ---- records out and in -------------------------------------------------------------------
click('#moves li.main .mv[data-ply="2"]')
wait(lambda: state()['ply'] == 2, 'ply 2')
rec = js('return recordText(window.medan.state)')
check(re.search(r'\[Game "loa"\]', rec) and '1. b1-b3' in rec and 'a2-c2' in rec and '[Opening "fen ' in rec
      and rec.rstrip().endswith('*'), 'the record out: tags, numbered movetext, scores as comments:\n' + rec)
js("window.__dl = []; const o = HTMLAnchorElement.prototype.click; HTMLAnchorElement.prototype.click = function () {"
   " if (this.download) window.__dl.push(this.download); else o.call(this); }")
click('#dl-record')
click('#dl-fen')
check(js('return window.__dl') == ['medan-loa.pgn', 'medan-loa-position.txt'], 'the record and the position offered as downloads')
old = state()['id']
find('#paste').send_keys(rec)
click('#load-paste')
wait(lambda: state()['id'] != old, 'the pasted record')
check(moves() == ['b1-b3', 'a2-c2'] and state()['mode'] == 'analyse', 'records in: the downloaded record pasted back (%s)' % moves())
# a referee record as another engineer's version may write it: other tags, comments of any kind
ref = ('[Event "medan-referee match"]\n[Site "?"]\n[Date "2026.12.02"]\n[Round "3"]\n[White "a"]\n[Black "b"]\n'
       '[Game "loa"]\n[P1 "a"]\n[P2 "b"]\n[TimeControl "40/60"]\n[Result "*"]\n[Opening "startpos"]\n[Anything "x \\" y"]\n\n'
       '1. b1-b3 {+0.12/7 0.105s} a2-c2 {-0.03/6 0.1s} ; a line comment\n(1... h2-f2 2. c1-c3) 2. %s $1 {reason} *\n' % black2)
old = state()['id']
find('#paste').clear()
find('#paste').send_keys(ref)
click('#load-paste')
wait(lambda: state()['id'] != old, 'the referee record')
check(moves() == ['b1-b3', 'a2-c2', black2], 'records in: a referee record with any tags, comments, a variation (%s)' % moves())
# a Palagan record switches the game and its size
old = state()['id']
find('#paste').clear()
find('#paste').send_keys('[Game "palagan"]\n[Variant "size=4"]\n[Opening "startpos"]\n\n1. pass *\n')
click('#load-paste')
wait(lambda: state()['id'] != old, 'the Palagan record')
check(state()['game'] == 'palagan' and state()['params'] == 'size=4' and moves() == ['pass'],
      'records in: the Game and Variant tags choose the game (%s %s %s)' % (state()['game'], state()['params'], moves()))
# a position string pasted
new_game({'game': 'loa', 'mode': 'analyse'})
pos = 'ww6/8/8/8/8/4b3/7b/6w1 b'
old = state()['id']
find('#paste').clear()
find('#paste').send_keys(pos)
click('#load-paste')
wait(lambda: state()['id'] != old, 'the position string')
check(state()['fen'] == pos and moves() == [], 'records in: a position string pasted (%s)' % state()['fen'])
# a bad one changes nothing
old = state()['id']
find('#paste').clear()
find('#paste').send_keys('[Game "loa"]\n1. b1-b3 b1-b3 *')
js("say('')")
click('#load-paste')
wait(lambda: 'move' in text('message'), 'the refusal')
check(state()['id'] == old and 'move 2' in text('message'), 'records in: an illegal record refused with the reason: %r' % text('message'))

# ---- hostile records and links -------------------------------------------------------------
find('#paste').clear()
find('#paste').send_keys('[Game "loa"]\n[Event "<img src=x onerror=window.__pwned=1>"]\n'
                         '1. <script>window.__pwned=1</script> <img/src=x/onerror=window.__pwned=1> *')
click('#load-paste')
wait(lambda: 'script' in text('message') or 'img' in text('message'), 'the hostile record refused')
check(injected() == 0 and state()['id'] == old and '<' in text('message'),
      'a hostile record is refused, shown as text, nothing injected: %r' % text('message'))
q = urllib.parse.urlencode({'game': 'loa', 'fen': '<img src=x onerror=window.__pwned=1>', 'moves': '<b>x</b>'})
load(BASE + '?' + q + '#analyse')
wait(lambda: 'share link' in text('message'), 'the hostile link refused')
check(injected() == 0 and 'could not be opened' in text('message'), 'a hostile share link is refused as text, nothing injected: %r' % text('message'))
load(BASE + '?game=loa&moves=%3Cimg%20src%3Dx%20onerror%3Dwindow.__pwned%3D1%3E#analyse')
wait(lambda: 'share link' in text('message'), 'the hostile moves refused')
check(injected() == 0 and '<img' in text('message'), 'a hostile share link in the moves: refused as text, nothing injected: %r' % text('message'))

# ---- the share link -------------------------------------------------------------------------
new_game({'game': 'loa', 'mode': 'analyse'})
for a, b in [('b1', 'b3'), ('a2', 'c2')]:
    n = len(moves())
    click('[data-cell="%s"]' % a)
    click('[data-cell="%s"]' % b)
    wait(lambda: len(moves()) == n + 1, 'a move')
click('#step-back')
wait(lambda: state()['ply'] == 1, 'back')
click('#share')
link = wait(lambda: find('#share-link').get_attribute('value'), 'the share link')
sid = state()['id']
load(link)
s = wait(lambda: state() and state()['id'] != sid and state(), 'the shared analysis')
check(s and s['moves'] == ['b1-b3', 'a2-c2'] and s['ply'] == 1 and s['mode'] == 'analyse' and '?' not in d.current_url,
      'the share link restores the position, the moves and the ply (%s)' % link)
pal = urllib.parse.urlencode({'game': 'palagan', 'size': '5', 'moves': '', 'ply': '0'})
load(BASE + '?' + pal + '#analyse')
wait(lambda: state()['game'] == 'palagan', 'a Palagan link')
check(state()['params'] == 'size=5', 'a share link carries the game and its size')

# ---- Palagan: summons drawn ------------------------------------------------------------------
d.find_element(By.ID, 'multipv').send_keys('2')
click('#analyse-start')
wait(lambda: state()['info'] and state()['info'][0]['pv'] and d.find_elements(By.CSS_SELECTOR, '#svgboard'), 'Palagan analysis')
time.sleep(0.3)
click('#analyse-stop')
wait(lambda: not state()['analysing'], 'the analysis to stop')
info = state()['info']
want = sum(m_.startswith('@') for li, l in enumerate(info) for t in l['pv'].split()[:1 if li else 3] for m_ in t.split(','))
got = js("return document.querySelectorAll('circle.summon').length")
check(want == got and want > 0, 'Palagan: the summons of the PV drawn as rings (%d in the PV, %d drawn)' % (want, got))
shot('web-analysis-palagan.png')

# ---- a longer line evaluated (the graph's screenshot) ------------------------------------------
new_game({'game': 'loa', 'mode': 'analyse'})
for k in range(16):
    lg = state()['legal']
    if not lg:
        break
    tok = lg[(k * 7 + 3) % len(lg)]
    d.execute_async_script("const cb = arguments[1]; act('move', {move: arguments[0]}).then(() => cb(1));", tok)
    wait(lambda: state()['ply'] == k + 1, 'move %d' % (k + 1))
n = state()['ply']
d.find_element(By.ID, 'sweep-depth').send_keys('3')
click('#sweep')
wait(lambda: find('#sweep').text == 'Evaluate the line' and
     len(d.find_elements(By.CSS_SELECTOR, '#graph .gpt circle')) >= n, 'the long line evaluated', timeout=WAIT * 4)
check(len(d.find_elements(By.CSS_SELECTOR, '#graph .gpt circle')) == n + 1 and state()['ply'] == n,
      'the graph of a %d-ply line: a point per position, the board back at the end of the line' % n)
click('#graph .gpt[data-ply="%d"]' % (n // 2))
wait(lambda: state()['ply'] == n // 2, 'the middle of the line')
check(state()['ply'] == n // 2 and len(moves()) == n, 'the graph: a click goes there, the line kept')
shot('web-analysis-graph.png')

# ---- the analysis round trip (figure) ------------------------------------------------------------
new_game({'game': 'loa', 'mode': 'analyse'})
rts = []
for k in range(10):
    tok = state()['legal'][k]
    a, b = tok.replace('x', '-').split('-')
    n = state()['ply']
    # from the click on the target (the browser's own event) to the new
    # position drawn, both taken in the page
    js("""window.__t0 = null; window.__rt = null; const to = arguments[0], want = arguments[1];
       document.addEventListener('click', (e) => { const c = e.target.closest('[data-cell]');
         if (c && c.dataset.cell === to && window.__t0 === null) window.__t0 = performance.now(); }, {capture: true});
       const ob = new MutationObserver(() => { if (window.__t0 !== null && window.medan.state.ply === want && !window.__rt) {
         window.__rt = performance.now() - window.__t0; ob.disconnect(); } });
       ob.observe(document.getElementById('board'), {childList: true});""", b, n + 1)
    click('[data-cell="%s"]' % a)
    click('[data-cell="%s"]' % b)
    wait(lambda: state()['ply'] == n + 1 and moves()[n] == tok and js('return window.__rt'), 'the move shown')
    rts.append(js('return window.__rt') or -1)
    click('#step-back')
    wait(lambda: state()['ply'] == n, 'back')
rt = sorted(rts)[len(rts) // 2]
print('bench: analysis page load (request to board drawn, median of 5) %.0f ms; analysis move round trip '
      '(click to the new position shown, median of %d) %.0f ms' % (load_ms, len(rts), rt), flush=True)
with open(os.path.join(OUT, 'bench-board.txt'), 'w') as f:
    f.write('analysis_page_load_ms %.0f\nanalysis_move_round_trip_ms %.0f\n' % (load_ms, rt))
print('board tests: %d passed, %d failed' % (n_ok, n_bad))
sys.exit(1 if n_bad else 0)
