/* analysis.js - medan-web's analysis board: the tree of variations, the
 * evaluation bar and graph, records in and out, the share link.
 *
 * Loaded before app.js; its functions use app.js's helpers ($, html, el,
 * api, act, newSession, say) when called.  The server owns the rules and
 * one line of moves (start, moves, cursor); this page keeps the tree: the
 * server's line is always the path to the current node followed by that
 * node's main continuation, so the step buttons walk it, and going to a
 * node of another branch sends that line (position + moves + ply).
 *
 * Scores: MEP gives them from the side to move's point of view; the bar and
 * the graph show them from the first seat's (Black in LOA and Palagan, the
 * attackers in Fetlar), which they say.  Outside text (a pasted record, a
 * share link, the server's messages) reaches the page as textContent only.
 */
'use strict';

const A = {
  tree: null,        // { sid, start, first, root, byId, next }
  sweep: null,       // the line being evaluated: { stop }
};

/* ---- the tree ---------------------------------------------------------- */

function newNode(T, parent, tok) {
  const n = { id: T.next++, tok, parent, kids: [], score: null };
  T.byId[n.id] = n;
  if (parent) parent.kids.push(n);
  return n;
}

function pathTo(n) {
  const out = [];
  for (; n && n.parent; n = n.parent) out.unshift(n);
  return out;
}

/* The path to n then n's main continuation: the line the server holds. */
function lineOf(n) {
  const line = pathTo(n);
  for (let k = n.kids[0]; k; k = k.kids[0]) line.push(k);
  return line;
}

function treeKey(sid) { return 'medan-tree-' + sid; }

function saveTree(T) {
  const ser = (n) => ({ t: n.tok, s: n.score, k: n.kids.map(ser) });
  try {
    sessionStorage.setItem(treeKey(T.sid), JSON.stringify({ start: T.start, root: ser(T.root) }));
  } catch (e) { /* storage full: the tree lives on in the page */ }
}

function loadTree(st) {
  const T = { sid: st.id, start: st.start_fen, byId: {}, next: 0 };
  T.root = newNode(T, null, null);
  try {
    const j = JSON.parse(sessionStorage.getItem(treeKey(st.id)) || 'null');
    if (j && j.start === st.start_fen) {
      const add = (p, x) => {
        if (typeof x.t !== 'string') return;
        const n = newNode(T, p, x.t);
        n.score = x.s || null;
        (x.k || []).forEach((y) => add(n, y));
      };
      T.root.score = j.root.s || null;
      (j.root.k || []).forEach((y) => add(T.root, y));
    }
  } catch (e) { /* a stale or foreign entry: start afresh */ }
  return T;
}

/* Bring the tree in line with the server's line: moves it does not have
 * become variations (the old line stays); returns the current node. */
function syncTree(st) {
  let T = A.tree;
  if (!T || T.sid !== st.id || T.start !== st.start_fen) T = A.tree = loadTree(st);
  if (st.movers && st.movers.length) T.first = st.movers[0];
  else if (st.ply === 0 && st.to_move) T.first = st.to_move;
  let n = T.root, changed = false;
  const path = [n];
  for (const tok of st.moves) {
    let k = n.kids.find((x) => x.tok === tok);
    if (!k) { k = newNode(T, n, tok); changed = true; }
    n = k;
    path.push(n);
  }
  T.line = path;
  T.cur = path[Math.min(st.ply, path.length - 1)];
  // the analysis of this position, from the first seat's side
  const l = st.info && st.info[0];
  if (l && l.score && st.to_move && st.info_seat === 0) {
    const v = scoreValue(l.score, st.to_move, st.nseats);
    if (v !== null && (!T.cur.score || T.cur.score.depth <= l.depth)) {
      T.cur.score = { v, depth: l.depth, text: l.score, side: st.to_move };
      changed = true;
    }
  }
  if (changed) saveTree(T);
  return T.cur;
}

/* Go to node n: the server's line becomes the path to n and n's main
 * continuation (so forward follows the main line), or, with keep, stays
 * the line shown when n is on it (the graph, the evaluation of a line). */
function goTo(n, keep) {
  const st = M.state;
  const T = A.tree;
  if (!st || !T) return Promise.resolve(null);
  const i = T.line.indexOf(n);
  const line = lineOf(n).map((x) => x.tok);
  if (i >= 0 && (keep || line.join(' ') === st.moves.join(' '))) return act('step', { ply: i });
  return act('position', { fen: st.start_fen, moves: line, ply: pathTo(n).length });
}

/* The tree in #moves: the main line numbered in pairs (two seats) or by
 * seat, each variation after the move it replaces, in parentheses. */
function analysisMoves(st, ol) {
  syncTree(st);
  const T = A.tree;
  const two = st.nseats === 2;
  const firstSeat = T.first || 1;
  const seatOf = (depth) => two ? ((depth - 1 + (firstSeat - 1)) % 2) + 1 : 0;
  const numOf = (depth) => Math.floor((depth - 1 + (firstSeat === 2 ? 1 : 0)) / 2) + 1;
  const moverOf = (n, depth) => {
    if (!two) {
      const i = T.line.indexOf(n);
      return i > 0 && st.movers ? st.movers[i - 1] : 0;
    }
    return seatOf(depth);
  };
  const span = (parent, n, depth, lead) => {
    const s = html('span', { class: 'mv', 'data-node': n.id, 'data-ply': depth }, parent);
    if (two && (seatOf(depth) === 1 || lead)) html('span', { class: 'num' }, s, numOf(depth) + (seatOf(depth) === 1 ? '.' : '\u2026'));
    else if (!two && moverOf(n, depth)) html('span', { class: 'num' }, s, 's' + moverOf(n, depth));
    html('span', { class: 'tok' }, s, n.tok);
    if (n === T.cur) s.classList.add('cur');
    s.onclick = (e) => { e.stopPropagation(); goTo(n); };
    return s;
  };
  // a variation: n and its main continuation, its own variations nested
  const variation = (parent, n, depth) => {
    const v = html('span', { class: 'var' }, parent);
    let lead = true;
    for (let k = n, d = depth; k; k = k.kids[0], d++) {
      span(v, k, d, lead);
      lead = false;
      for (const alt of k.kids.slice(1)) variation(v, alt, d + 1);
    }
    return v;
  };
  let d = 1;
  for (let n = T.root.kids[0], p = T.root; n; p = n, n = n.kids[0], d++) {
    const li = html('li', { class: 'main', 'data-col': two ? String(seatOf(d)) : '' }, ol);
    const s = span(li, n, d, d === 1 || p.kids.length > 1);
    s.classList.add('main');
    if (p.kids.length > 1) {
      const vl = html('li', { class: 'vars' }, ol);
      for (const alt of p.kids.slice(1)) variation(vl, alt, d);
    }
  }
  // the current move in view, scrolling the list only (not the page)
  const cur = ol.querySelector('.cur');
  if (cur && (cur.offsetTop < ol.scrollTop || cur.offsetTop + cur.offsetHeight > ol.scrollTop + ol.clientHeight))
    ol.scrollTop = cur.offsetTop - ol.clientHeight / 2;
}

/* ---- scores ------------------------------------------------------------- */

/* An MEP score ("cp 35", "win 7", "loss 4") from side `tm`'s view, as a
 * number from the first seat's view (a proven result beyond any cp); null
 * for a score with no single side (N seats, "values"). */
function scoreValue(text, tm, nseats) {
  const m = /^(cp|win|loss)\s+(-?\d+)/.exec(text || '');
  if (!m || nseats !== 2) return null;
  const n = +m[2];
  let v = m[1] === 'cp' ? n : m[1] === 'win' ? 100000 - n : -(100000 - n);
  return tm === 1 ? v : -v;
}

/* An MEP score for people: a proven result says so ("win 7" -> "win in 7
 * (proven)"), a cp score stays as sent. */
function mepScore(text) {
  const m = /^(win|loss)\s+(\d+)$/.exec(text || '');
  if (!m) return text;
  return m[1] + ' in ' + m[2] + (m[2] === '1' ? ' ply' : ' plies') + ' (proven)';
}

function scoreText(v) {
  if (v === null || v === undefined) return '';
  if (Math.abs(v) > 50000) {
    const plies = 100000 - Math.abs(v);
    return (v > 0 ? 'won' : 'lost') + ' in ' + plies + ' pl' + (plies === 1 ? 'y' : 'ies');
  }
  return (v >= 0 ? '+' : '\u2212') + (Math.abs(v) / 100).toFixed(2);
}

/* The first seat's share of the bar, 0..1 (a logistic of the score). */
function share(v) {
  if (Math.abs(v) > 50000) return v > 0 ? 1 : 0;
  return 1 / (1 + Math.exp(-v / 250));
}

function drawBar(st, cur) {
  const bar = $('evalbar');
  const first = seatName(st, 1).split(' (')[0];
  const v = cur && cur.score ? cur.score.v : null;
  bar.classList.toggle('hidden', st.nseats !== 2);
  const f = v === null ? 0.5 : share(v);
  $('evalbar-fill').style.width = (100 * f).toFixed(1) + '%';
  $('evalbar-text').textContent = v === null
    ? 'no score yet: start the analysis (scores from ' + first + '\u2019s side)'
    : scoreText(v) + ' from ' + first + '\u2019s side (depth ' + cur.score.depth + ')';
  bar.dataset.score = v === null ? '' : String(v);
}

function drawGraph(st) {
  const box = $('evalgraph');
  box.innerHTML = '';
  if (st.nseats !== 2) return;
  const T = A.tree;
  const line = T.line;
  const W = 460, H = 120, MG = 10;
  const first = seatName(st, 1).split(' (')[0];
  html('div', { class: 'caption' }, box, 'Evaluation over the line, from ' + first + '\u2019s side (above the middle: ' +
       first + ' is better); click a point to go there.');
  const svg = el('svg', { viewBox: `0 0 ${W} ${H}`, width: W, height: H, id: 'graph' }, box);
  const X = (i) => MG + (line.length > 1 ? i / (line.length - 1) : 0.5) * (W - 2 * MG);
  const Y = (v) => H - MG - share(v) * (H - 2 * MG);
  el('rect', { x: 0, y: 0, width: W, height: H, fill: '#fbfaf6' }, svg);
  el('line', { x1: MG, y1: H / 2, x2: W - MG, y2: H / 2, stroke: '#aaa', 'stroke-dasharray': '4 3' }, svg);
  const ci = line.indexOf(T.cur);
  if (ci >= 0) el('line', { x1: X(ci), y1: 4, x2: X(ci), y2: H - 4, stroke: '#d4a000', 'stroke-width': 2 }, svg);
  const pts = [];
  line.forEach((n, i) => { if (n.score) pts.push([X(i), Y(n.score.v)]); });
  if (pts.length > 1) {
    const area = 'M' + pts[0][0] + ' ' + H / 2 + pts.map((p) => 'L' + p[0] + ' ' + p[1]).join('') +
                 'L' + pts[pts.length - 1][0] + ' ' + H / 2 + 'Z';
    el('path', { d: area, fill: '#9ec3e6', opacity: 0.5 }, svg);
    el('polyline', { points: pts.map((p) => p.join(',')).join(' '), fill: 'none', stroke: '#1e5aa8', 'stroke-width': 2 }, svg);
  }
  line.forEach((n, i) => {
    // every ply a target to click, the scored ones drawn
    const g = el('g', { class: 'gpt', 'data-ply': i }, svg);
    el('rect', { x: X(i) - 5, y: 0, width: 10, height: H, fill: 'transparent' }, g);
    if (n.score) {
      el('circle', { cx: X(i), cy: Y(n.score.v), r: i === ci ? 5 : 3.5, fill: i === ci ? '#d4a000' : '#1e5aa8' }, g);
      el('title', {}, g, 'ply ' + i + ': ' + scoreText(n.score.v));
    }
    g.addEventListener('click', () => goTo(n, true));
  });
}

/* Evaluate every position of the line to a depth, one after the other. */
async function sweepLine() {
  if (A.sweep) { A.sweep.stop = true; return; }
  const depth = +$('sweep-depth').value;
  const sw = A.sweep = { stop: false };
  $('sweep').textContent = 'Stop evaluating';
  const line = A.tree.line.slice();
  const back = A.tree.cur;                 // where the board returns at the end
  const has = (n) => n.score && n.score.depth >= depth;
  for (const n of line) {
    if (sw.stop || !M.state) break;
    if (has(n)) continue;
    const st = await goTo(n, true);
    if (!st) break;
    if (!st.to_move) continue;           // the game is over there
    await act('analyse', { on: true, multipv: 1 });
    const t0 = Date.now();
    // until this node has its score at that depth (or the search ends)
    while (!sw.stop && M.state && !has(n) && (M.state.analysing || Date.now() - t0 < 500)) {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  if (M.state && M.state.analysing) await act('analyse', { on: false });
  if (M.state && A.tree && A.tree.cur !== back && !sw.stop) await goTo(back, true);
  A.sweep = null;
  $('sweep').textContent = 'Evaluate the line';
  if (M.state) analysisShow(M.state);
}

/* ---- records in and out, the share link -------------------------------- */

function paramsOf(st) {
  const p = {};
  st.params.split(' ').filter(Boolean).forEach((kv) => { const i = kv.indexOf('='); p[kv.slice(0, i)] = kv.slice(i + 1); });
  return p;
}

function pgnEscape(s) { return String(s).replace(/[\\"]/g, (c) => '\\' + c); }

/* The referee's PGN-style record of the line on the board (docs/referee.md):
 * tags, then the move tokens numbered as the referee numbers them, with the
 * analysis score as a comment where there is one. */
function recordText(st) {
  const T = A.tree;
  const moves = T.line.slice(1);
  const two = st.nseats === 2;
  const r = st.result;
  const res = !r ? '*' : two ? (r.text.startsWith('p1win') ? '1-0' : r.text.startsWith('p2win') ? '0-1' : '1/2-1/2') : '*';
  const d = new Date();
  const date = d.getUTCFullYear() + '.' + String(d.getUTCMonth() + 1).padStart(2, '0') + '.' + String(d.getUTCDate()).padStart(2, '0');
  const tags = [['Event', 'medan-web analysis'], ['Site', location.host], ['Date', date], ['Round', '1'],
                ['Game', st.game]];
  if (st.params) tags.push(['Variant', st.params]);
  for (let k = 1; k <= st.nseats; k++) tags.push(['P' + k, 'analysis']);
  tags.push(['Result', res]);
  if (r) tags.push(['Termination', r.reason]);
  tags.push(['Opening', 'fen ' + st.start_fen]);
  tags.push(['PlyCount', String(moves.length)]);
  let out = tags.map(([k, v]) => '[' + k + ' "' + pgnEscape(v) + '"]').join('\n') + '\n\n';
  const words = [];
  moves.forEach((n, i) => {
    const who = st.movers && st.movers[i] ? st.movers[i] : 0;
    let w = '';
    if (two) { if (i % 2 === 0) w = (i / 2 + 1) + '. '; }
    else w = (i + 1) + '.p' + (who || '?') + ' ';
    w += n.tok;
    if (n.score) w += ' {' + n.score.text + '/' + n.score.depth + '}';
    words.push(w);
  });
  let line = '';
  for (const w of words.concat([res])) {
    if (line && line.length + 1 + w.length > 79) { out += line + '\n'; line = ''; }
    line += (line ? ' ' : '') + w;
  }
  return out + line + '\n';
}

function download(name, text) {
  const a = html('a', { download: name, href: URL.createObjectURL(new Blob([text], { type: 'text/plain' })) }, document.body);
  a.click();
  setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
}

function shareLink(st) {
  const q = new URLSearchParams();
  q.set('game', st.game);
  const p = paramsOf(st);
  for (const k of ['size', 'players']) if (p[k]) q.set(k, p[k]);
  q.set('fen', st.start_fen);
  q.set('moves', A.tree.line.slice(1).map((n) => n.tok).join(' '));
  q.set('ply', String(A.tree.line.indexOf(A.tree.cur)));
  return location.origin + location.pathname + '?' + q.toString() + '#analyse';
}

/* A share link opened: its analysis.  true when the URL held one. */
async function openShareLink() {
  const q = new URLSearchParams(location.search);
  if (!q.get('game')) return false;
  history.replaceState(null, '', location.pathname + '#analyse');
  setView('analyse');
  const req = { game: q.get('game'), mode: 'analyse' };
  for (const k of ['size', 'players', 'ply']) if (/^\d{1,6}$/.test(q.get(k) || '')) req[k] = +q.get(k);
  if (q.get('fen')) req.fen = q.get('fen');
  req.moves = (q.get('moves') || '').split(' ').filter(Boolean);
  if (await newSession(req)) return true;
  const why = $('message').textContent;
  await resume();
  say('The share link could not be opened: ' + why, true);
  return true;
}

/* Pasted text: a position string of the game chosen above, or a record
 * (its tags name the game). */
async function loadPasted() {
  const text = $('paste').value.trim();
  if (!text) { say('Paste a record or a position string first.', true); return; }
  const looksRecord = /^\[|(^|\s)\d+\.(\S|\s|$)/.test(text);
  const base = Object.assign(setupRequest(), { mode: 'analyse' });
  if (!looksRecord && await newSession(Object.assign({}, base, { fen: text }))) { say('Position loaded.'); return; }
  const why = $('message').textContent;
  if (await newSession(Object.assign({}, base, { record: text }))) { say('Record loaded.'); return; }
  if (!looksRecord) say('Neither a position string (' + why + ') nor a record (' + $('message').textContent + ')', true);
}

/* ---- each state --------------------------------------------------------- */

function analysisShow(st) {
  const cur = syncTree(st);
  drawBar(st, cur);
  drawGraph(st);
  $('sweep').disabled = st.nseats !== 2;
}

function analysisInit() {
  $('sweep').onclick = sweepLine;
  $('dl-record').onclick = () => { if (M.state) download('medan-' + M.state.game + '.pgn', recordText(M.state)); };
  $('dl-fen').onclick = () => { if (M.state) download('medan-' + M.state.game + '-position.txt', M.state.fen + '\n'); };
  $('share').onclick = () => {
    if (!M.state) return;
    const link = shareLink(M.state);
    $('share-link').value = link;
    $('share-link').select();
    if (navigator.clipboard) navigator.clipboard.writeText(link).catch(() => {});
    say('The share link is below (and on the clipboard when the browser allows it).');
  };
  $('load-paste').onclick = loadPasted;
}

document.addEventListener('DOMContentLoaded', analysisInit);
