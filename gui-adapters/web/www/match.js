/* match.js - medan-web's match view: a match played by the referee's library
 * on the server (the same settings as medan-referee's command line), and
 * referee results files followed while a running medan-referee still writes
 * them.  The table, Elo intervals and SPRT figures are the referee's own,
 * computed on the server; this file only draws them.  Every name from a
 * results file goes into the page as text (textContent), never as HTML.
 *
 * Uses app.js's helpers: $, html, el, api, act, say, seatName, fillEngines,
 * newSession.  Its own names start with "match" (and showMatch): the page's
 * scripts share one global scope.
 */
'use strict';

const MATCH = {
  follow: null,      // { name, n (games read), rows (the last 200), timer }: a results file being followed
};

/* The match settings of the form, for POST /api/session. */
function matchRequest(req) {
  req.a = $('eng-a').value;
  req.b = $('eng-b').value;
  req.a_strategy = $('strat-a').value;
  req.b_strategy = $('strat-b').value;
  req.games = +$('games').value;
  req.tc = $('match-tc').value.trim();
  req.seed = +$('match-seed').value;
  req.openings = $('match-openings').value.trim();
  req.sprt = $('match-sprt').value.trim();
  req.options = $('match-options').value.trim();
  return req;
}

/* The form shows the settings of the match on the board. */
function matchSync(st) {
  const s = st.match && st.match.settings;
  if (!s) return;
  $('eng-a').value = s.a;
  $('eng-b').value = s.b;
  fillEngines();
  if (s.a_strategy) $('strat-a').value = s.a_strategy;
  if (s.b_strategy) $('strat-b').value = s.b_strategy;
  $('games').value = s.games;
  $('match-tc').value = s.tc;
  $('match-seed').value = s.seed;
  $('match-openings').value = s.openings;
  $('match-sprt').value = s.sprt;
  $('match-options').value = s.options;
}

/* ---- the referee's table ------------------------------------------------------------------ */

const matchFmtElo = (x) => (x >= 0 ? '+' : '') + x.toFixed(1);

function matchEloText(t) {
  if (!t.elo) return '';
  const n = t.wins + t.losses + t.draws;
  const games = `${n} game${n === 1 ? '' : 's'}`;
  let s;
  if (t.elo.elo === null)
    s = `every game ${t.elo.score >= 1 ? 'won' : 'lost'} over ${games}: no finite Elo estimate yet`;
  else if (t.elo.lo === null || t.elo.hi === null)
    s = `Elo ${matchFmtElo(t.elo.elo)} over ${games} (no interval yet)`;
  else
    s = `Elo ${matchFmtElo(t.elo.elo)} (95% ${matchFmtElo(t.elo.lo)} .. ${matchFmtElo(t.elo.hi)}) over ${games}`;
  if (t.elo_pairs && t.elo_pairs.elo !== null && t.elo_pairs.lo !== null)
    s += `; by pairs ${matchFmtElo(t.elo_pairs.elo)} (95% ${matchFmtElo(t.elo_pairs.lo)} .. ${matchFmtElo(t.elo_pairs.hi)})`;
  if (t.sprt)
    s += `; SPRT LLR ${t.sprt.llr.toFixed(2)} (${t.sprt.lower.toFixed(2)} .. ${t.sprt.upper.toFixed(2)})` +
      (t.sprt.decision ? ` ${t.sprt.decision} accepted` : '');
  return `${t.a} against ${t.b}: ${s}`;
}

/* Elo after each game with its 95% band; an infinite value is drawn at the
 * edge on its side. */
function matchChart(path) {
  const c = $('chart');
  c.innerHTML = '';
  if (!path || !path.length) return;
  const W = 460, H = 180, MG = 34;
  const svg = el('svg', { viewBox: `0 0 ${W} ${H}`, width: W, height: H }, c);
  const fin = [];
  path.forEach((p) => [p.elo, p.lo, p.hi].forEach((v) => { if (v !== null) fin.push(Math.abs(v)); }));
  const lim = Math.max(100, Math.min(800, fin.length ? Math.max(...fin) : 100));
  const side = (p, v, s) => (v !== null ? v : (s > 0 ? lim : -lim));
  const pts = path.map((p) => ({
    elo: side(p, p.elo, p.score - 0.5), lo: side(p, p.lo, -1), hi: side(p, p.hi, 1),
  }));
  const X = (i) => MG + (pts.length > 1 ? (i / (pts.length - 1)) * (W - 2 * MG) : (W - 2 * MG) / 2);
  const Y = (e) => H / 2 - Math.max(-lim, Math.min(lim, e)) / lim * (H / 2 - 14);
  el('line', { x1: MG, y1: H / 2, x2: W - 8, y2: H / 2, stroke: '#999' }, svg);
  el('text', { x: 2, y: 14, 'font-size': 11 }, svg, '+' + lim.toFixed(0));
  el('text', { x: 2, y: H - 4, 'font-size': 11 }, svg, '-' + lim.toFixed(0));
  el('text', { x: W - 8, y: H - 4, 'font-size': 11, 'text-anchor': 'end' }, svg, 'games \u2192');
  let band = '';
  pts.forEach((e, i) => { band += (i ? 'L' : 'M') + X(i) + ' ' + Y(e.hi); });
  for (let i = pts.length - 1; i >= 0; i--) band += 'L' + X(i) + ' ' + Y(pts[i].lo);
  el('path', { d: band + 'Z', fill: '#9ec3e6', opacity: 0.5 }, svg);
  el('polyline', { points: pts.map((e, i) => X(i) + ',' + Y(e.elo)).join(' '), fill: 'none', stroke: '#1e5aa8', 'stroke-width': 2 }, svg);
}

function matchRows(rows) {
  const t = $('results-table');
  t.innerHTML = '';
  if (!rows.length) return;
  const tab = html('table', {}, t);
  const hr = html('tr', {}, tab);
  ['game', 'seats', 'result', 'reason', 'plies'].forEach((h) => html('th', {}, hr, h));
  for (const g of rows) {
    const tr = html('tr', { 'data-game': g.game }, tab);
    [g.game, g.seats.join(' vs '), g.result, g.reason + (g.detail ? ': ' + g.detail : ''), g.plies]
      .forEach((v) => html('td', {}, tr, String(v)));
  }
}

/* The referee's table: its own text, the score, Elo and the chart. */
function matchTable(t, rows) {
  $('match-table').textContent = t.text || '';
  const two = t.nseats === 2 && t.a !== undefined;
  $('score').textContent = two
    ? `${t.a} ${t.wins} \u2013 ${t.losses} ${t.b}, ${t.draws} draw${t.draws === 1 ? '' : 's'}`
    : t.engines.map((e) => `${e.name}: ${e.wins} win${e.wins === 1 ? '' : 's'} in ${e.games}`).join('; ');
  $('elo').textContent = two ? matchEloText(t) : '';
  matchChart(two ? t.path : []);
  matchRows(rows);
}

/* ---- a match played on the server ---------------------------------------------------------- */

function showMatch(st) {
  const m = st.match;
  if (!m) return;
  const c = $('clocks');
  c.innerHTML = '';
  st.seats.forEach((s) => {
    html('div', { 'data-seat': s.seat }, c,
         `${seatName(st, s.seat)}: ${s.player}${s.strategy ? ' (' + s.strategy + ')' : ''} \u00B7 used ${(s.used_ms / 1000).toFixed(1)} s, last move ${s.last_ms} ms`);
  });
  const over = !m.running;
  html('div', { id: 'match-progress' }, c,
       `Game ${Math.min(Math.max(m.game, 1), m.games)} of ${m.games}, ${m.played} played` +
       (over ? ' \u2014 match over' + (m.stopped ? ' (' + m.stopped + ')' : '') : ''));
  $('stop-match').disabled = over;
  $('match-command').textContent = m.command;
  $('match-file').textContent = m.results_file ? 'Results file: ' + m.results_file : '';
  if (!MATCH.follow) matchTable(m.table, m.rows);
}

/* ---- results files of --results-dir, followed as they grow ---------------------------------- */

async function matchListResults() {
  const sel = $('results-list');
  try {
    const r = await api('results');
    const cur = sel.value;
    sel.innerHTML = '';
    r.files.forEach((f) => html('option', { value: f.name }, sel, f.name));
    if (r.files.some((f) => f.name === cur)) sel.value = cur;
    $('results-open').disabled = !r.files.length;
  } catch (e) {
    sel.innerHTML = '';
    $('results-open').disabled = true;
    $('results-note').textContent = e.message;
  }
}

function matchStopFollow() {
  if (MATCH.follow && MATCH.follow.timer) clearTimeout(MATCH.follow.timer);
  MATCH.follow = null;
}

/* Read the file again from game n on; the server reads whole lines only, so
 * a game being written comes with the next read. */
async function matchFollowStep(f) {
  if (MATCH.follow !== f) return;
  try {
    const r = await api('results/' + encodeURIComponent(f.name) + '?since=' + f.n);
    if (MATCH.follow !== f) return;
    if (f.epoch !== undefined && r.epoch !== f.epoch) {
      // the file was cut or replaced: its games again from the first
      f.rows = [];
      f.n = 0;
      f.epoch = r.epoch;
      return matchFollowStep(f);
    }
    f.epoch = r.epoch;
    // the server keeps the last games only ("first": the first it sent);
    // the page keeps the last 200
    if (r.first > f.n) f.rows = [];
    f.rows = f.rows.concat(r.rows).slice(-200);
    f.n = r.first + r.rows.length;
    matchTable(r.table, f.rows);
    $('results-note').textContent = `Following ${r.name}: ${r.table.games} game${r.table.games === 1 ? '' : 's'}` +
      (r.bad_lines ? `, ${r.bad_lines} line${r.bad_lines === 1 ? '' : 's'} refused` : '') +
      (r.partial_bytes ? ' (a game being written)' : '');
    $('results-note').dataset.games = r.table.games;
  } catch (e) {
    if (MATCH.follow !== f) return;
    $('results-note').textContent = e.message;
  }
  if (MATCH.follow === f && M.view === 'match') f.timer = setTimeout(() => matchFollowStep(f), 1000);
}

function matchFollow(name) {
  matchStopFollow();
  if (!name) return;
  const f = { name, rows: [], n: 0, timer: null };
  MATCH.follow = f;
  $('clocks').innerHTML = '';
  matchFollowStep(f);
}

function matchInit() {
  $('start-match').onclick = () => { matchStopFollow(); newSession(); };
  $('stop-match').onclick = () => act('stop');
  $('results-refresh').onclick = matchListResults;
  $('results-open').onclick = () => matchFollow($('results-list').value);
  window.addEventListener('hashchange', () => { if (location.hash !== '#match') matchStopFollow(); });
  matchListResults();
}
