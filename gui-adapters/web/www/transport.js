/* transport.js - how medan-web's page reaches its games (loaded before app.js).
 *
 * A game answers only to the page that created it: the server gives that
 * page a secret with the new game, kept in this tab's sessionStorage beside
 * the game's id (a reload resumes it; another tab, or another site's page,
 * has neither) and sent as X-Medan-Secret on every request.  Live updates
 * come over one WebSocket per game (the subprotocol "secret.HEX" carries
 * the secret, as a page cannot set a WebSocket's headers); the browser's
 * limit of 6 HTTP/1.1 connections per host does not count WebSockets, so
 * any number of tabs stay live.  A dropped socket is opened again; a game
 * the server closed is reported once (onGone).
 */
'use strict';

const MedanTransport = {
  secret: null,     // the current game's secret

  /* Headers for a request about the current game. */
  headers() { return this.secret ? { 'X-Medan-Secret': this.secret } : {}; },

  /* Remember a new game (its state as the server sent it) under key. */
  save(key, st) {
    if (st.secret) this.secret = st.secret;
    sessionStorage.setItem(key, JSON.stringify({ id: st.id, secret: st.secret || this.secret }));
  },

  /* The game remembered under key ({id, secret}), making it current; null if none. */
  load(key) {
    let v = null;
    try { v = JSON.parse(sessionStorage.getItem(key) || 'null'); } catch (e) { v = null; }
    if (!v || typeof v.id !== 'string' || typeof v.secret !== 'string') { this.secret = null; return null; }
    this.secret = v.secret;
    return v;
  },

  forget(key) { sessionStorage.removeItem(key); },

  /* Live states of game id: onState(st) for each, onGone() once if the server
   * closed the game.  Returns {close()}. */
  open(id, onState, onGone) {
    const secret = this.secret;
    const url = (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host +
                '/api/session/' + encodeURIComponent(id) + '/ws';
    const live = { closed: false, ws: null, tries: 0 };
    const connect = () => {
      if (live.closed) return;
      const ws = new WebSocket(url, ['medan', 'secret.' + secret]);
      live.ws = ws;
      ws.onopen = () => { live.tries = 0; };
      ws.onmessage = (ev) => { live.tries = 0; onState(JSON.parse(ev.data)); };
      ws.onclose = async () => {
        if (live.closed) return;
        // closed for good, or only the connection dropped?
        try {
          const r = await fetch('/api/session/' + encodeURIComponent(id), { headers: { 'X-Medan-Secret': secret } });
          if (r.status === 404) { live.closed = true; onGone(); return; }
        } catch (e) { /* the server is away: try again */ }
        live.tries++;
        setTimeout(connect, Math.min(10000, 500 * live.tries));
      };
    };
    connect();
    return { close() { live.closed = true; if (live.ws) live.ws.close(); } };
  },
};
window.MedanTransport = MedanTransport;
