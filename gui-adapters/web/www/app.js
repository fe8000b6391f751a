/* app.js - medan-web's page: plain JavaScript, no framework.
 *
 * The server owns the rules: this page draws the position string it gets,
 * offers the legal moves the server lists, and sends move tokens back.  It
 * never decides whether a move is legal (a click the list does not have is
 * sent anyway and the server's refusal is shown).
 *
 * Hooks for tests and scripts: every board cell carries data-cell and every
 * card data-card with its MEP notation; action buttons data-move with the
 * token; #moves, #status, #result hold the moves, whose turn it is and the
 * result.  window.medan.state is the last state received.
 */
'use strict';

const SVGNS = 'http://www.w3.org/2000/svg';
const $ = (id) => document.getElementById(id);
const SEAT_NAMES = {
  loa: ['Black', 'White'],
  fetlar: ['Attackers (black)', 'Defenders (white)'],
  palagan: ['Black', 'White'],
};
const SUITS = { c: '\u2663', d: '\u2666', h: '\u2665', s: '\u2660' };

const M = {
  info: null,        // /api/info
  view: 'play',      // play | analyse | match
  state: null,       // the session's state
  es: null,          // its live updates (transport.js)
  flip: false,
  sel: null,         // selected cell
  turn: [],          // Palagan: maneuvers chosen this turn
  cards: [],         // Battalion: selected hand cards (indexes)
  fenShown: null,    // analysis: the position string last written into #fen
};
window.medan = M;

function seatName(st, k) {
  const n = SEAT_NAMES[st.game];
  return n ? n[k - 1] : 'Seat ' + k;
}

function el(tag, attrs, parent, text) {
  const e = document.createElementNS(SVGNS, tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}

function html(tag, attrs, parent, text) {
  const e = document.createElement(tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}

function say(text, isError) {
  const m = $('message');
  m.textContent = text || '';
  m.className = isError ? 'error' : '';
}

/* ---- the server ---------------------------------------------------- */

async function api(path, body) {
  const opt = body === undefined ? { headers: MedanTransport.headers() } : {
    method: 'POST', headers: { 'Content-Type': 'application/json', ...MedanTransport.headers() },
    body: JSON.stringify(body),
  };
  const r = await fetch('/api/' + path, opt);
  let data = null;
  try { data = await r.json(); } catch (e) { data = { error: 'bad answer from the server' }; }
  if (!r.ok) {
    const err = new Error(data && data.error ? data.error : 'HTTP ' + r.status);
    err.status = r.status;
    throw err;
  }
  return data;
}

function storeKey() { return 'medan-session-' + M.view; }

function listen(id) {
  if (M.es) M.es.close();
  M.es = MedanTransport.open(id, (st) => {
    if (!M.state || st.id !== M.state.id || st.version >= M.state.version) show(st);
  }, () => {
    M.es = null;
    MedanTransport.forget(storeKey());
    say('This game was closed by the server (idle too long): start a new one.', true);
  });
}

async function act(action, body) {
  if (!M.state) return null;
  try {
    const st = await api('session/' + M.state.id + '/' + action, body || {});
    if (st.version >= M.state.version) show(st);
    return st;
  } catch (e) {
    say(e.message, true);
    M.sel = null;
    M.turn = [];
    M.cards = [];
    if (M.state) draw(M.state);
    return null;
  }
}

async function move(tok) {
  M.sel = null;
  M.turn = [];
  M.cards = [];
  const st = await act('move', { move: tok });
  // (a live state newer than this answer may carry a message: keep it)
  if (st) say(M.state && M.state.message ? M.state.message : '', M.state && /crash|fail|illegal/.test(M.state.message));
}

/* ---- setup form ------------------------------------------------------ */

function gameInfo(name) { return M.info.games.find((g) => g.name === name); }

function fillSelect(sel, values, labels, keep) {
  const old = sel.value;
  sel.innerHTML = '';
  values.forEach((v, i) => html('option', { value: v }, sel, labels ? labels[i] : v));
  if (keep && values.map(String).includes(old)) sel.value = old;
}

function fillEngines() {
  const g = gameInfo($('game').value);
  const names = g.engines.map((e) => e.name);
  fillSelect($('engine'), names, null, true);
  fillSelect($('eng-a'), names, null, true);
  fillSelect($('eng-b'), names, null, true);
  const strat = (sel, eng) => {
    const e = g.engines.find((x) => x.name === eng.value);
    const v = e ? e.strategies : [];
    fillSelect(sel, v, null, true);
  };
  strat($('strategy'), $('engine'));
  /* Threads only where the engine has the option; pondering in two-seat
   * games of perfect information (the server checks both again) */
  const pe = g.engines.find((x) => x.name === $('engine').value);
  const tmax = pe && pe.threads_max ? pe.threads_max : 1;
  $('threads').max = tmax;
  if (+$('threads').value > tmax) $('threads').value = tmax;
  $('threads-label').classList.toggle('hidden', tmax <= 1);
  $('ponder-label').classList.toggle('hidden', g.max_seats !== 2 || g.name === 'battalion');
  if ($('ponder-label').classList.contains('hidden')) $('ponder').checked = false;
  strat($('strat-a'), $('eng-a'));
  strat($('strat-b'), $('eng-b'));
}

/* The board sizes a game offers (its `size` parameter) and its default. */
const SIZES = { loa: [[8, 6], 8], palagan: [[4, 5, 6, 7, 8, 9], 5] };

/* The size list of game g in the form (kept when it is already g's). */
function fillSizes(g) {
  if ($('size').dataset.game === g) return;
  $('size').dataset.game = g;
  fillSelect($('size'), SIZES[g][0]);
  $('size').value = SIZES[g][1];
}

function fillSetup() {
  const g = gameInfo($('game').value);
  const sizes = !!SIZES[g.name];
  const players = g.max_seats > 2;
  $('setup').querySelectorAll('.p-size').forEach((e) => e.classList.toggle('hidden', !sizes));
  $('setup').querySelectorAll('.p-players').forEach((e) => e.classList.toggle('hidden', !players));
  if (sizes) fillSizes(g.name);
  if (players && !$('players').options.length) { fillSelect($('players'), [3, 4, 5, 6]); $('players').value = 4; }
  const n = players ? +$('players').value : 2;
  const seats = [];
  const labels = [];
  for (let k = 1; k <= n; k++) { seats.push(k); labels.push(SEAT_NAMES[g.name] ? SEAT_NAMES[g.name][k - 1] : 'Seat ' + k); }
  fillSelect($('seat'), seats, labels, true);
  fillEngines();
}

/* The form shows the settings of the game on the board. */
function syncSetup(st) {
  $('game').value = st.game;
  const p = {};
  st.params.split(' ').filter(Boolean).forEach((kv) => { const [k, v] = kv.split('='); p[k] = v; });
  if (SIZES[st.game]) { fillSizes(st.game); $('size').value = p.size || SIZES[st.game][1]; }
  if (p.players) { fillSelect($('players'), [3, 4, 5, 6]); $('players').value = p.players; }
  else if (st.game === 'battalion') { fillSelect($('players'), [3, 4, 5, 6]); $('players').value = st.nseats; }
  fillSetup();
  if (st.mode === 'play') {
    if (st.human) $('seat').value = st.human;
    if (st.engine) { $('engine').value = st.engine; fillEngines(); }
    if (st.strategy) $('strategy').value = st.strategy;
    $('movetime').value = st.movetime;
    if (st.threads) $('threads').value = st.threads;
    $('ponder').checked = !!st.ponder;
  }
  if (st.mode === 'match') matchSync(st);     // match.js
}

function setupRequest() {
  const g = $('game').value;
  const req = { game: g, mode: M.view };
  // LOA's 8x8 is the game without parameters: its records and links stay as they were
  if (SIZES[g] && !(g === 'loa' && +$('size').value === 8)) req.size = +$('size').value;
  if (gameInfo(g).max_seats > 2) req.players = +$('players').value;
  if (M.view === 'play') {
    req.seat = +$('seat').value;
    req.engine = $('engine').value;
    req.strategy = $('strategy').value;
    req.movetime = +$('movetime').value;
    req.threads = +$('threads').value || 1;
    req.ponder = $('ponder').checked;
  }
  if (M.view === 'match') matchRequest(req);  // match.js
  return req;
}

async function newSession(req) {
  try {
    const st = await api('session', req || setupRequest());
    MedanTransport.save(storeKey(), st);
    M.state = null;
    M.sel = null; M.turn = []; M.cards = [];
    say('');
    show(st);
    listen(st.id);
    return st;
  } catch (e) {
    say(e.message, true);
    return null;
  }
}

/* ---- drawing the state -------------------------------------------------- */

function show(st) {
  const changed = !M.state || M.state.fen !== st.fen || M.state.ply !== st.ply ||
        M.state.id !== st.id;
  if (changed) { M.sel = null; M.turn = []; M.cards = []; }
  const fresh = !M.state || M.state.id !== st.id;
  M.state = st;
  if (fresh) { syncSetup(st); M.fenShown = null; }   // a new session's position is written
  document.body.dataset.game = st.game;
  document.body.dataset.version = st.version;
  draw(st);
  // status
  const s = $('status');
  if (st.result) s.textContent = 'Game over';
  else if (!st.to_move) s.textContent = '';
  else {
    let who = seatName(st, st.to_move);
    let tail = '';
    if (st.mode === 'play') tail = st.to_move === st.human ? ' \u2014 your turn' : ' \u2014 engine thinking\u2026';
    else if (st.mode === 'match') tail = ' \u2014 ' + (st.seats[st.to_move - 1] || {}).player;
    s.textContent = who + ' to move' + tail;
  }
  s.dataset.toMove = st.to_move;
  const r = $('result');
  r.textContent = st.result ? resultText(st) : '';
  r.dataset.result = st.result ? st.result.text : '';
  if (st.message) say(st.message, /crash|fail|illegal/.test(st.message));
  // moves
  const ol = $('moves');
  ol.innerHTML = '';
  ol.className = st.nseats === 2 ? 'pairs' : 'seats';
  if (st.mode === 'analyse') analysisMoves(st, ol);      // the tree of variations (analysis.js)
  else {
    st.moves.forEach((m, i) => html('li', Object.assign({ 'data-ply': i + 1 }, moveLabel(st, i)), ol, m));
    ol.scrollTop = ol.scrollHeight;
  }
  if (st.mode === 'analyse') {
    // Rewritten only when the position changed: a string being typed (or just
    // cleared) survives the many updates a running analysis sends.
    if (st.fen !== M.fenShown && document.activeElement !== $('fen')) {
      $('fen').value = st.fen;
      M.fenShown = st.fen;
    }
    showAnalysis(st);
    analysisShow(st);      // eval bar and graph, records, share link (analysis.js)
  } else {
    $('analysis').innerHTML = '';
    if (st.mode === 'play' && st.info && st.info.length && st.info_seat) {
      const l = st.info[0];
      html('div', {}, $('analysis'), 'Engine: depth ' + l.depth + ', ' + mepScore(l.score) + ', nodes ' +
           l.nodes + ', pv ' + l.pv);
    }
  }
  if (st.mode === 'match') showMatch(st);
  $('undo').disabled = !(st.mode === 'play' && st.moves.length && st.game !== 'battalion');
}

/* How a move is shown: numbered in pairs in a two-seat game (1. a b 2. c),
 * by seat in Battalion; data attributes, the text stays the token. */
function moveLabel(st, i) {
  const movers = st.movers || [];
  const who = movers[i] || 0;
  if (st.nseats !== 2) return who ? { 'data-seat': 'seat ' + who } : {};
  const first = movers[0] || 1;
  const k = i + (first === 2 ? 1 : 0);
  const n = Math.floor(k / 2) + 1;
  return k % 2 === 0 ? { 'data-num': n + '.', 'data-col': '1' }
                     : { 'data-num': i === 0 ? n + '\u2026' : '', 'data-col': '2' };
}

function resultText(st) {
  const r = st.result;
  if (st.nseats === 2) {
    const w = r.text.startsWith('p1win') ? 1 : r.text.startsWith('p2win') ? 2 : 0;
    const who = w ? seatName(st, w) + ' wins' : 'Draw';
    const you = st.mode === 'play' && w ? (w === st.human ? ' \u2014 you win' : ' \u2014 you lose') : '';
    return who + ' (' + r.reason + ', scores ' + r.scores.join(' : ') + ')' + you;
  }
  const win = [];
  r.ranks.forEach((k, i) => { if (k === 1) win.push(i + 1); });
  return 'Seat' + (win.length > 1 ? 's ' : ' ') + win.join(', ') + (win.length > 1 ? ' share the win' : ' wins') +
    ' (' + r.reason + '; chips ' + r.scores.join(', ') + ')';
}

function canMove(st) {
  return !st.result && st.legal.length > 0 &&
    (st.mode === 'analyse' || (st.mode === 'play' && st.to_move === st.human && st.ply === st.moves.length));
}

function draw(st) {
  const box = $('board');
  box.innerHTML = '';
  $('turnbar').innerHTML = '';
  if (st.game === 'loa' || st.game === 'fetlar') drawSquare(st, box);
  else if (st.game === 'palagan') drawHex(st, box);
  else if (st.game === 'battalion') drawTable(st, box);
  if (!M.firstDraw) M.firstDraw = performance.now();   // since the page was asked for
}

/* ---- square boards: LOA 8x8 or 6x6, Fetlar 11x11 ------------------------ */

function parseSquare(st) {
  const grid = {};
  let size, side;
  if (st.game === 'loa') {
    const [rows, s] = st.fen.split(' ');
    size = rows.split('/').length;      // 8, or 6 (size=6)
    side = s;
    rows.split('/').forEach((row, i) => {
      const rank = size - i;
      let f = 0;
      for (const m of row.match(/\d+|[a-z]/gi)) {
        if (/\d/.test(m)) f += +m;
        else { grid[String.fromCharCode(97 + f) + rank] = m; f++; }
      }
    });
  } else {
    size = 11;
    const parts = st.fen.split(' ');
    side = parts[1];
    parts[0].replace(/^\/|\/$/g, '').split('/').forEach((row, i) => {
      const rank = i + 1;
      let f = 0;
      for (const m of row.match(/\d+|[a-z]/gi) || []) {
        if (/\d/.test(m)) f += +m;
        else { grid[String.fromCharCode(97 + f) + rank] = m; f++; }
      }
    });
  }
  return { grid, size, side };
}

function parseMoveCells(tok) {
  const m = /^([a-z]\d+)[-x]([a-z]\d+)$/.exec(tok);
  return m ? [m[1], m[2]] : null;
}

function drawSquare(st, box) {
  const { grid, size } = parseSquare(st);
  const C = size <= 8 ? 60 : 46, MG = 22, W = size * C + 2 * MG;
  const svg = el('svg', { viewBox: `0 0 ${W} ${W}`, width: W, height: W, id: 'svgboard' }, box);
  const xy = (cell) => {
    const f = cell.charCodeAt(0) - 97, r = +cell.slice(1) - 1;
    const x = MG + (M.flip ? size - 1 - f : f) * C;
    const y = MG + (M.flip ? r : size - 1 - r) * C;
    return [x, y];
  };
  const legal = canMove(st) ? st.legal : [];
  const from = {};
  for (const t of legal) {
    const c = parseMoveCells(t);
    if (c) (from[c[0]] = from[c[0]] || []).push({ to: c[1], tok: t });
  }
  const last = st.ply ? parseMoveCells(st.moves[st.ply - 1]) : null;
  for (let r = 1; r <= size; r++) {
    for (let f = 0; f < size; f++) {
      const cell = String.fromCharCode(97 + f) + r;
      const [x, y] = xy(cell);
      let fill = (f + r) % 2 ? '#e8d5a8' : '#c9a66b';
      if (st.game === 'fetlar') {
        fill = '#ead9b0';
        if (['a1', 'a11', 'k1', 'k11'].includes(cell)) fill = '#8c6d46';
        if (cell === 'f6') fill = '#a88b5c';
      }
      const g = el('g', { class: 'cell', 'data-cell': cell }, svg);
      el('rect', { x, y, width: C, height: C, fill, stroke: '#8a7550', 'stroke-width': 1 }, g);
      if (st.game === 'fetlar' && (cell === 'f6' || ['a1', 'a11', 'k1', 'k11'].includes(cell))) {
        el('path', { d: `M${x + 8} ${y + 8}L${x + C - 8} ${y + C - 8}M${x + C - 8} ${y + 8}L${x + 8} ${y + C - 8}`,
                     stroke: '#5a4630', 'stroke-width': 2 }, g);
      }
      if (last && (cell === last[0] || cell === last[1])) el('rect', { x, y, width: C, height: C, class: 'lastmove' }, g);
      const p = grid[cell];
      if (p) {
        const dark = p === 'b' || p === 't';
        const circ = el('circle', { cx: x + C / 2, cy: y + C / 2, r: C * 0.36,
                                    fill: dark ? '#222' : '#f8f8f0', stroke: '#111', 'stroke-width': 2 }, g);
        if (M.sel === cell) circ.setAttribute('class', 'selected');
        if (p === 'K') el('text', { x: x + C / 2, y: y + C / 2 + 7, 'text-anchor': 'middle', 'font-size': 22,
                                    'font-weight': 700, fill: '#7a1f1f', 'pointer-events': 'none' }, g, '\u265A');
      }
      g.addEventListener('click', () => clickSquare(st, cell, from));
    }
  }
  for (let i = 0; i < size; i++) {
    const f = String.fromCharCode(97 + i);
    const [x] = xy(f + '1');
    el('text', { x: x + C / 2, y: W - 6, 'text-anchor': 'middle', class: 'coord' }, svg, f);
    const [, y] = xy('a' + (i + 1));
    el('text', { x: 6, y: y + C / 2 + 4, class: 'coord' }, svg, String(i + 1));
  }
  if (M.sel && from[M.sel]) {
    for (const t of from[M.sel]) {
      const [x, y] = xy(t.to);
      el('circle', { cx: x + C / 2, cy: y + C / 2, r: C * 0.16, class: 'target' }, svg);
    }
  }
  drawArrows(st, svg, (cell) => { const [x, y] = xy(cell); return [x + C / 2, y + C / 2]; },
             (tok) => { const c = parseMoveCells(tok); return c ? [c] : []; });
}

function clickSquare(st, cell, from) {
  if (!canMove(st)) {
    say(st.result ? 'The game is over.' : 'Not your turn.', true);
    return;
  }
  if (M.sel && from[M.sel]) {
    const t = from[M.sel].find((x) => x.to === cell);
    if (t) { move(t.tok); return; }
  }
  if (from[cell]) { M.sel = cell; say(''); draw(st); return; }
  if (M.sel) {
    // Not in the list: the server says why.
    const tok = M.sel + '-' + cell;
    M.sel = null;
    move(tok);
    return;
  }
  say('No move starts on ' + cell + '.', true);
}

/* ---- PV arrows (analysis) ------------------------------------------------ */

/* A colour per analysis line (line 1 first), shared by the arrows and the
 * list of lines. */
const PV_COLOURS = ['#1e5aa8', '#2e8b3e', '#c07000', '#a8321e', '#7b3fa0', '#3a8a8a', '#8a6d3b', '#555555'];

function drawArrows(st, svg, center, cellsOf) {
  if (st.mode !== 'analyse' || !st.info || !st.info.length) return;
  const defs = el('defs', {}, svg);
  st.info.forEach((line, li) => {
    const colour = PV_COLOURS[(line.multipv - 1) % PV_COLOURS.length];
    const mk = el('marker', { id: 'ah' + line.multipv, viewBox: '0 0 10 10', refX: 6, refY: 5, markerWidth: 4,
                              markerHeight: 4, orient: 'auto' }, defs);
    el('path', { d: 'M0 0L10 5L0 10z', fill: colour }, mk);
    const pv = (line.pv || '').split(' ').filter(Boolean).slice(0, li ? 1 : 3);
    pv.forEach((tok, i) => {
      const opacity = li ? 0.6 : [0.85, 0.55, 0.35][i];
      for (const [a, b] of cellsOf(tok)) {
        if (!center(a) || !center(b)) continue;
        const [x1, y1] = center(a), [x2, y2] = center(b);
        el('line', { x1, y1, x2, y2, class: 'arrow', 'marker-end': 'url(#ah' + line.multipv + ')',
                     'data-pv': tok, 'data-line': line.multipv, opacity, stroke: colour }, svg);
      }
      // Palagan: a summon (@c3) is a ring on the cell it fills
      for (const m of tok.split(',')) {
        if (m[0] !== '@' || !center(m.slice(1))) continue;
        const [x, y] = center(m.slice(1));
        el('circle', { cx: x, cy: y, r: 13, class: 'arrow summon', fill: 'none', 'data-pv': tok,
                       'data-line': line.multipv, opacity, stroke: colour }, svg);
      }
    });
  });
}

/* ---- Palagan: hex-hex board of side N --------------------------------------- */

function parseHex(st) {
  const f = st.fen.split(' ');
  const rows = f[0].split('/');
  const D = rows.length, N = (D + 1) / 2;
  const grid = {};
  rows.forEach((row, i) => {
    const y = D - 1 - i;
    let x = Math.max(0, y - (N - 1));
    for (const m of row.match(/\d+|[bw]/g) || []) {
      if (/\d/.test(m)) x += +m;
      else { grid[String.fromCharCode(97 + x) + (y + 1)] = m; x++; }
    }
  });
  const [rb, rw] = f[2].split('/').map(Number);
  const [cb, cw] = f[3].split('/').map(Number);
  return { grid, N, D, side: f[1], reserve: [rb, rw], captures: [cb, cw], first: f[4], quiet: +f[5], passes: +f[6] };
}

function hexCells(N) {
  const D = 2 * N - 1, out = [];
  for (let y = 0; y < D; y++) for (let x = 0; x < D; x++) if (Math.abs(x - y) <= N - 1) out.push([x, y]);
  return out;
}

/* Apply a maneuver to a copy of the grid, for the half-played turn. */
function applyManeuver(grid, m, side) {
  const g = Object.assign({}, grid);
  if (m[0] === '@') { g[m.slice(1)] = side; return g; }
  const [a, b] = m.split('-');
  if (g[b]) {
    const ax = a.charCodeAt(0), ay = +a.slice(1), bx = b.charCodeAt(0), by = +b.slice(1);
    g[String.fromCharCode(2 * bx - ax) + (2 * by - ay)] = g[b];
  }
  g[b] = g[a];
  delete g[a];
  return g;
}

function drawHex(st, box) {
  const P = parseHex(st);
  const W = Math.max(34, Math.min(60, 560 / (2 * P.N - 1))), H = W * Math.sqrt(3) / 2, R = W / Math.sqrt(3);
  const cells = hexCells(P.N);
  const pos = {};
  let minx = 1e9, maxx = -1e9, miny = 1e9, maxy = -1e9;
  for (const [x, y] of cells) {
    let px = (x - 0.5 * y) * W, py = -y * H;
    if (M.flip) { px = -px; py = -py; }
    pos[String.fromCharCode(97 + x) + (y + 1)] = [px, py];
    minx = Math.min(minx, px); maxx = Math.max(maxx, px); miny = Math.min(miny, py); maxy = Math.max(maxy, py);
  }
  const pad = R + 8, top = 40, bottom = 40;
  const SW = maxx - minx + 2 * pad, SH = maxy - miny + 2 * pad + top + bottom;
  const svg = el('svg', { viewBox: `0 0 ${SW} ${SH}`, width: SW, height: SH, id: 'svgboard' }, box);
  const cxy = (c) => [pos[c][0] - minx + pad, pos[c][1] - miny + pad + top];
  const side = P.side;
  const legal = canMove(st) ? st.legal : [];
  // the maneuvers open now
  const firsts = new Set(), alone = new Set(), seconds = {};
  for (const t of legal) {
    if (t === 'pass') continue;
    const [a, b] = t.split(',');
    firsts.add(a);
    if (b === undefined) alone.add(a);
    else (seconds[a] = seconds[a] || new Set()).add(b);
  }
  // the compact form: first maneuvers that take a second come in st.firsts,
  // their seconds from the server when one is picked (M.more)
  if (st.firsts && legal === st.legal) {
    for (const a of st.firsts) { firsts.add(a); seconds[a] = seconds[a] || new Set(); }
    if (M.more && M.more.version === st.version && M.more.id === st.id) {
      for (const t of M.more.legal) { const [a, b] = t.split(','); seconds[a].add(b); }
    }
  }
  let grid = P.grid;
  for (const m of M.turn) grid = applyManeuver(grid, m, side);
  const open = M.turn.length === 0 ? firsts : (seconds[M.turn[0]] || new Set());
  const last = st.ply ? st.moves[st.ply - 1] : '';
  const lastCells = new Set((last.match(/[a-z]\d+/g)) || []);
  for (const c of Object.keys(pos)) {
    const [x, y] = cxy(c);
    const pts = [];
    for (let k = 0; k < 6; k++) {
      const a = Math.PI / 180 * (60 * k - 90);
      pts.push((x + R * Math.cos(a)).toFixed(1) + ',' + (y + R * Math.sin(a)).toFixed(1));
    }
    const g = el('g', { class: 'cell', 'data-cell': c }, svg);
    el('polygon', { points: pts.join(' '), fill: lastCells.has(c) && !M.turn.length ? '#f0dc8a' : '#e6d3a3',
                    stroke: '#8a7550', 'stroke-width': 1.2 }, g);
    const p = grid[c];
    if (p) {
      const circ = el('circle', { cx: x, cy: y, r: R * 0.62, fill: p === 'b' ? '#222' : '#f8f8f0', stroke: '#111', 'stroke-width': 2 }, g);
      if (M.sel === c) circ.setAttribute('class', 'selected');
    } else {
      el('text', { x, y: y + 4, 'text-anchor': 'middle', class: 'coord' }, g, c);
      if (!M.sel && open.has('@' + c)) el('circle', { cx: x, cy: y, r: R * 0.18, class: 'target' }, g);
    }
    g.addEventListener('click', () => clickHex(st, c, grid, open, alone, seconds, side));
  }
  if (M.sel) {
    for (const m of open) {
      if (m.startsWith(M.sel + '-')) {
        const [x, y] = cxy(m.split('-')[1]);
        el('circle', { cx: x, cy: y, r: R * 0.25, class: 'target' }, svg);
      }
    }
  }
  const names = SEAT_NAMES.palagan;
  el('text', { x: 8, y: 18, 'font-size': 14 }, svg,
     `${names[0]}: reserve ${P.reserve[0]}, captured ${P.captures[0]}`).setAttribute('data-reserve', 'b');
  el('text', { x: 8, y: SH - 12, 'font-size': 14 }, svg,
     `${names[1]}: reserve ${P.reserve[1]}, captured ${P.captures[1]}`).setAttribute('data-reserve', 'w');
  el('text', { x: SW - 8, y: 18, 'font-size': 12, 'text-anchor': 'end', class: 'coord' }, svg,
     `quiet ${P.quiet}/20 \u00B7 passes ${P.passes}`);
  // the turn bar: pass, end the turn after one maneuver, cancel
  const bar = $('turnbar');
  if (legal.length) {
    if (M.turn.length === 0 && legal.includes('pass')) {
      html('button', { type: 'button', 'data-move': 'pass' }, bar, 'Pass').onclick = () => move('pass');
    }
    if (M.turn.length === 1) {
      const b = html('button', { type: 'button', id: 'end-turn', 'data-move': M.turn[0] }, bar, 'End turn after ' + M.turn[0]);
      b.disabled = !alone.has(M.turn[0]);
      b.onclick = () => move(M.turn[0]);
      html('button', { type: 'button', id: 'cancel-turn' }, bar, 'Cancel').onclick = () => { M.turn = []; M.sel = null; draw(st); };
      html('span', {}, bar, 'Second maneuver: click on the board.');
    } else html('span', {}, bar, 'Click an empty cell to summon, or a piece then a cell to move or push.');
  }
  drawArrows(st, svg, (c) => pos[c] && cxy(c), (tok) => tok.split(',').filter((m) => m.includes('-')).map((m) => m.split('-')));
}

function clickHex(st, c, grid, open, alone, seconds, side) {
  if (!canMove(st)) { say(st.result ? 'The game is over.' : 'Not your turn.', true); return; }
  const choose = (m) => {
    if (M.turn.length === 0) {
      if (st.firsts && st.firsts.includes(m) &&
          !(M.more && M.more.version === st.version && M.more.id === st.id && M.more.first === m)) {
        api('session/' + st.id + '/legal?first=' + encodeURIComponent(m)).then((r) => {
          if (M.state !== st) return;       // a newer state came meanwhile
          M.more = { id: st.id, version: st.version, first: m, legal: r.legal };
          M.turn = [m]; M.sel = null; say(''); draw(st);
        }).catch((e) => say(e.message, true));
        return;
      }
      if (!seconds[m] || !seconds[m].size) { move(m); return; }
      M.turn = [m]; M.sel = null; say(''); draw(st);
    } else move(M.turn[0] + ',' + m);
  };
  if (M.sel) {
    const m = M.sel + '-' + c;
    if (open.has(m)) { choose(m); return; }
    if (grid[c] === side) { M.sel = c; draw(st); return; }
    M.sel = null;
    move(M.turn.length ? M.turn[0] + ',' + m : m);   // the server says why not
    return;
  }
  if (grid[c] === side) { M.sel = c; say(''); draw(st); return; }
  if (!grid[c]) {
    const m = '@' + c;
    if (open.has(m)) { choose(m); return; }
    move(M.turn.length ? M.turn[0] + ',' + m : m);
    return;
  }
  say(c + ' holds an enemy piece: select one of yours first.', true);
}

/* ---- Battalion: the table of 3-6 seats -------------------------------------------- */

function cardsOf(s) {
  return s && s !== '-' ? s.match(/[A2-9TJQK][cdhs]/g) || [] : [];
}

function parseTable(st) {
  const f = st.fen.split(' ');
  const P = { kind: f[0] };
  for (const kv of f.slice(1)) {
    const i = kv.indexOf('=');
    P[kv.slice(0, i)] = kv.slice(i + 1);
  }
  P.chips = P.chips.split(',').map(Number);
  P.bids = P.bids.split(',');
  P.hands = P.hands.split('/').map((h) => {
    const [c, u] = h.split('+');
    return { cards: cardsOf(c), unknown: u ? +u : 0 };
  });
  P.known = P.known.split('/').map(cardsOf);
  P.pileCards = cardsOf(P.pile);
  P.deckCount = /^\d+$/.test(P.deck) ? +P.deck : cardsOf(P.deck).length;
  P.act = +P.act;
  P.me = P.kind.startsWith('view:') ? +P.kind.slice(5) : (st.human || 0);
  return P;
}

function cardSvg(parent, x, y, card, w, h, attrs) {
  const g = el('g', Object.assign({ class: 'card', 'data-card': card }, attrs || {}), parent);
  el('rect', { x, y, width: w, height: h, rx: 5 }, g);
  const red = card[1] === 'd' || card[1] === 'h';
  el('text', { x: x + w / 2, y: y + h / 2 + 6, 'text-anchor': 'middle', 'font-size': h * (card[0] === 'T' ? 0.3 : 0.36),
               'font-weight': 700, fill: red ? '#b00020' : '#111', 'pointer-events': 'none' },
     g, (card[0] === 'T' ? '10' : card[0]) + SUITS[card[1]]);
  return g;
}

function sameCards(a, b) {
  return a.length === b.length && a.slice().sort().join() === b.slice().sort().join();
}

function drawTable(st, box) {
  const P = parseTable(st);
  const n = P.chips.length, W = 940, H = 600;
  const svg = el('svg', { viewBox: `0 0 ${W} ${H}`, width: 800, height: 800 * H / W, id: 'svgboard' }, box);
  el('ellipse', { cx: W / 2, cy: 250, rx: 390, ry: 200, fill: '#2f6b3a', stroke: '#1d4424', 'stroke-width': 6 }, svg);
  const legal = canMove(st) ? st.legal : [];
  const me = P.me;
  const selCards = M.cards.map((i) => P.hands[me - 1] ? P.hands[me - 1].cards[i] : null).filter(Boolean);
  const attackable = new Set();
  if (P.phase === 'attack' && selCards.length) {
    for (const t of legal) {
      const m = /^attack:(\d+):(.*)$/.exec(t);
      if (m && sameCards(m[2].split(','), selCards)) attackable.add(+m[1]);
    }
  }
  for (let k = 1; k <= n; k++) {
    const rel = ((k - (me || 1)) + n) % n;       // 0 = me, at the bottom
    const ang = Math.PI / 2 + rel * 2 * Math.PI / n;
    const x = W / 2 + 330 * Math.cos(ang) - 90, y = 250 + 175 * Math.sin(ang) - 38;
    const g = el('g', { class: 'seatbox' + (attackable.has(k) ? ' attackable' : ''), 'data-seat': k }, svg);
    el('rect', { x, y, width: 180, height: 76, rx: 8, fill: P.act === k ? '#fff3b0' : '#f6f1e3', stroke: '#333' }, g);
    const who = st.seats[k - 1] ? st.seats[k - 1].player : '';
    el('text', { x: x + 8, y: y + 18, 'font-weight': 700, 'font-size': 14 }, g, `Seat ${k} (${who})`);
    const bid = P.bids[k - 1] === '-' ? '' : P.bids[k - 1] === 'p' ? ' \u00B7 passed' : ' \u00B7 bid ' + P.bids[k - 1];
    el('text', { x: x + 8, y: y + 36, 'font-size': 13, 'data-chips': k }, g, `${P.chips[k - 1]} chips${bid}`);
    const h = P.hands[k - 1];
    el('text', { x: x + 8, y: y + 53, 'font-size': 13 }, g, `${h.cards.length + h.unknown} cards`);
    if (k !== me) {
      P.known[k - 1].forEach((c, i) => cardSvg(g, x + 70 + i * 22, y + 42, c, 20, 28, { class: 'card known' }));
    }
    g.addEventListener('click', () => clickSeat(st, P, k, selCards));
  }
  // deck, pile, battle
  const dk = el('g', { class: 'deck', 'data-move': 'draw:deck' }, svg);
  el('rect', { x: 330, y: 190, width: 60, height: 86, rx: 6, fill: '#3a4f8c', stroke: '#111' }, dk);
  el('text', { x: 360, y: 240, 'text-anchor': 'middle', fill: '#fff', 'font-size': 16, 'pointer-events': 'none' }, dk, String(P.deckCount));
  el('text', { x: 360, y: 292, 'text-anchor': 'middle', fill: '#fff', 'font-size': 12 }, svg, 'deck');
  if (legal.includes('draw:deck')) dk.classList.add('legal');
  dk.addEventListener('click', () => legal.includes('draw:deck') ? move('draw:deck') : say('You cannot draw now.', true));
  const pile = P.pileCards.slice(-5);
  pile.forEach((c, i) => {
    const top = i === pile.length - 1;
    const g = cardSvg(svg, 420 + i * 26, 190, c, 60, 86, top ? { 'data-move': 'draw:pile' } : {});
    if (top && legal.includes('draw:pile')) g.classList.add('legal');
    if (top) g.addEventListener('click', () => legal.includes('draw:pile') ? move('draw:pile') : say('You cannot take the pile now.', true));
  });
  el('text', { x: 450, y: 292, 'text-anchor': 'middle', fill: '#fff', 'font-size': 12 }, svg, 'pile');
  let phase = { draw: 'collection: draw', discard: 'collection: discard', bid: 'bidding', attack: 'attack', defend: 'defence' }[P.phase] || P.phase;
  el('text', { x: W / 2, y: 150, 'text-anchor': 'middle', fill: '#fff', 'font-size': 15, id: 'phase' }, svg,
     `${phase} \u00B7 seat ${P.act} to act \u00B7 attacks ${P.attacks}` + (P.last !== '-' ? ` \u00B7 last suit ${SUITS[P.last] || P.last}` : ''));
  if (P.battle && P.battle !== '-') {
    const m = /^(\d+)>(\d+):(.*)$/.exec(P.battle);
    if (m) {
      el('text', { x: W / 2, y: 320, 'text-anchor': 'middle', fill: '#fff', 'font-size': 14 }, svg, `Seat ${m[1]} attacks seat ${m[2]}:`);
      cardsOf(m[3]).forEach((c, i) => cardSvg(svg, W / 2 - 60 + i * 26, 328, c, 36, 50, { class: 'card battle' }));
    }
  }
  // my hand
  if (me && P.hands[me - 1]) {
    const hand = P.hands[me - 1].cards;
    el('text', { x: 20, y: 478, 'font-size': 14, 'font-weight': 700 }, svg, 'Your hand');
    hand.forEach((c, i) => {
      const disc = legal.includes('discard:' + c);
      const g = cardSvg(svg, 20 + i * 60, 488, c, 54, 80, { class: 'card hand' + (M.cards.includes(i) ? ' sel' : '') + (disc ? ' legal' : ''), 'data-index': i });
      g.addEventListener('click', () => clickCard(st, P, i, c));
    });
  }
  // the action bar: bids, pass, defend, surrender
  const bar = $('turnbar');
  if (legal.length) {
    const bids = legal.filter((t) => t.startsWith('bid:'));
    for (const t of bids) html('button', { type: 'button', 'data-move': t }, bar, 'Bid ' + t.slice(4)).onclick = () => move(t);
    if (legal.includes('pass')) html('button', { type: 'button', 'data-move': 'pass' }, bar, 'Pass').onclick = () => move('pass');
    if (P.phase === 'defend') {
      const b = html('button', { type: 'button', 'data-move': 'defend', id: 'defend' }, bar, 'Defend with the selected cards');
      b.onclick = () => {
        const t = legal.find((x) => x.startsWith('defend:') && sameCards(x.slice(7).split(','), selCards));
        move(t || 'defend:' + selCards.join(','));
      };
      if (legal.includes('surrender')) html('button', { type: 'button', 'data-move': 'surrender' }, bar, 'Surrender').onclick = () => move('surrender');
    }
    const hint = { draw: 'Take the top of the deck or of the pile.', discard: 'Click a card of your hand to discard it.',
                   bid: 'Bid or pass.', attack: 'Select cards of one suit, then click the seat to attack.',
                   defend: 'Select cards of the attacking suit, then Defend; or Surrender.' }[P.phase];
    html('span', {}, bar, hint || '');
  }
}

function clickCard(st, P, i, c) {
  if (!canMove(st)) { say(st.result ? 'The game is over.' : 'Not your turn.', true); return; }
  if (P.phase === 'discard') { move('discard:' + c); return; }
  if (P.phase === 'attack' || P.phase === 'defend') {
    const k = M.cards.indexOf(i);
    if (k >= 0) M.cards.splice(k, 1); else M.cards.push(i);
    draw(st);
    return;
  }
  say('Cards are not played now.', true);
}

function clickSeat(st, P, k, selCards) {
  if (!canMove(st) || P.phase !== 'attack') return;
  if (!selCards.length) { say('Select the cards to attack with first.', true); return; }
  const t = st.legal.find((x) => {
    const m = /^attack:(\d+):(.*)$/.exec(x);
    return m && +m[1] === k && sameCards(m[2].split(','), selCards);
  });
  move(t || 'attack:' + k + ':' + selCards.join(','));
}

/* ---- analysis ------------------------------------------------------------------------- */

function showAnalysis(st) {
  const a = $('analysis');
  a.innerHTML = '';
  html('div', { id: 'analysis-state' }, a, st.analysing ? 'Analysing\u2026' : 'Analysis stopped.');
  const ol = html('ol', { id: 'pv-lines' }, a);
  for (const l of st.info || []) {
    const li = html('li', { 'data-multipv': l.multipv }, ol,
                    `depth ${l.depth} \u00B7 ${mepScore(l.score) || '-'} \u00B7 nodes ${l.nodes} \u00B7 ${l.pv}`);
    li.style.borderLeft = '6px solid ' + PV_COLOURS[(l.multipv - 1) % PV_COLOURS.length];
  }
  $('analyse-start').disabled = st.analysing || !!st.result;
  $('analyse-stop').disabled = !st.analysing;
}

/* ---- match: match.js (the referee's matches and results files) ---------------------------- */

/* ---- views and start-up ------------------------------------------------------------------- */

function setView(v) {
  M.view = ['play', 'analyse', 'match'].includes(v) ? v : 'play';
  document.body.className = 'view-' + M.view;
  for (const x of ['play', 'analyse', 'match']) {
    $('nav-' + x).classList.toggle('on', x === M.view);
    document.querySelectorAll('.v-' + x).forEach((e) => e.classList.toggle('hidden', x !== M.view));
  }
  $('new').textContent = M.view === 'analyse' ? 'New analysis' : 'New game';
  $('new').classList.toggle('hidden', M.view === 'match');
}

async function resume() {
  if (M.es) { M.es.close(); M.es = null; }
  M.state = null;
  $('board').innerHTML = '';
  $('turnbar').innerHTML = '';       // a Palagan Pass bar must not outlive its game
  $('moves').innerHTML = '';
  $('status').textContent = '';
  $('result').textContent = '';
  $('analysis').innerHTML = '';
  say('');
  const saved = MedanTransport.load(storeKey());
  if (saved) {
    const id = saved.id;
    try {
      const st = await api('session/' + id);
      show(st);
      listen(id);
      return;
    } catch (e) { MedanTransport.forget(storeKey()); }
  }
  if (M.view !== 'match') await newSession();
}

async function init() {
  M.info = await api('info');
  fillSelect($('game'), M.info.games.map((g) => g.name), M.info.games.map((g) => g.title));
  $('game').value = 'loa';
  fillSetup();
  $('game').onchange = fillSetup;
  $('players').onchange = fillSetup;
  $('engine').onchange = fillEngines;
  $('eng-a').onchange = fillEngines;
  $('eng-b').onchange = fillEngines;
  $('new').onclick = () => newSession();
  $('undo').onclick = () => act('undo');
  $('flip').onclick = () => { M.flip = !M.flip; if (M.state) draw(M.state); };
  $('strategy').onchange = $('movetime').onchange = $('threads').onchange = $('ponder').onchange = () => {
    if (M.state && M.view === 'play')
      act('settings', { strategy: $('strategy').value, movetime: +$('movetime').value, engine: $('engine').value,
                        threads: +$('threads').value || 1, ponder: $('ponder').checked });
  };
  $('set-position').onclick = () => act('position', { fen: $('fen').value.trim(),
                                                     moves: $('record').value.trim().split(/\s+/).filter(Boolean) });
  const step = (d) => M.state && act('step', { ply: Math.max(0, Math.min(M.state.moves.length, d(M.state.ply))) });
  $('step-first').onclick = () => step(() => 0);
  $('step-back').onclick = () => step((p) => p - 1);
  $('step-fwd').onclick = () => step((p) => p + 1);
  $('step-last').onclick = () => step(() => 1e9);
  $('analyse-start').onclick = () => act('analyse', { on: true, multipv: +$('multipv').value });
  $('analyse-stop').onclick = () => act('analyse', { on: false });
  $('play-from').onclick = async () => {
    if (!M.state) return;
    const req = { game: M.state.game, mode: 'play', fen: M.state.fen, seat: M.state.to_move || 1,
                  movetime: +$('movetime').value };
    const p = {};
    M.state.params.split(' ').filter(Boolean).forEach((kv) => { const [k, v] = kv.split('='); p[k] = +v; });
    Object.assign(req, p);
    const st = await api('session', req).catch((e) => { say(e.message, true); return null; });
    if (st) { MedanTransport.save('medan-session-play', st); location.hash = '#play'; }
  };
  matchInit();   // match.js
  window.addEventListener('hashchange', () => { setView(location.hash.slice(1)); resume(); });
  setView(location.hash.slice(1));
  if (!(await openShareLink())) await resume();    // a share link (analysis.js) or this tab's game
  M.ready = true;     // for scripts: the page has its game (or its match form)
}

init().catch((e) => say('Cannot reach medan-web: ' + e.message, true));
