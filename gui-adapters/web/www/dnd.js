/* dnd.js - medan-web: drag and drop on the boards (LOA, Fetlar, Palagan),
 * beside click-click.
 *
 * Pointer events, so a mouse, a pen and a finger work alike.  A drag is
 * the same two clicks the board already understands: pressing a piece and
 * moving the pointer selects it (the page draws its targets), dropping it
 * on a cell clicks that cell; so the legal moves, the Palagan two-maneuver
 * turn and the server's refusals are the click path's.  A press without a
 * move is left to the click.
 */
'use strict';

(function () {
  const board = document.getElementById('board');
  let drag = null;          // { cell, id, x, y, moved, ghost, svg }
  let swallowClick = false;

  const cellEl = (c) => board.querySelector('[data-cell="' + CSS.escape(c) + '"]');
  const clickCell = (c) => {
    const e = cellEl(c);
    if (e) e.dispatchEvent(new MouseEvent('click', { bubbles: true }));
  };
  const svgPoint = (svg, ev) => {
    const p = svg.createSVGPoint();
    p.x = ev.clientX;
    p.y = ev.clientY;
    const m = svg.getScreenCTM();
    return m ? p.matrixTransform(m.inverse()) : p;
  };

  function start(ev) {
    // select the piece the way a click does, then lift a copy of it
    if (!window.medan || window.medan.sel !== drag.cell) clickCell(drag.cell);
    if (!window.medan || window.medan.sel !== drag.cell) { drag = null; return; }   // not a piece that moves
    const g = cellEl(drag.cell);
    const piece = g && g.querySelector('circle');
    if (!piece) { drag = null; return; }
    drag.svg = g.ownerSVGElement;
    drag.ghost = piece.cloneNode(true);
    drag.ghost.setAttribute('class', 'ghost');
    drag.ghost.id = 'drag-ghost';
    drag.svg.appendChild(drag.ghost);
    piece.setAttribute('opacity', '0.35');
    move(ev);
  }

  function move(ev) {
    const p = svgPoint(drag.svg, ev);
    drag.ghost.setAttribute('cx', p.x);
    drag.ghost.setAttribute('cy', p.y);
  }

  board.addEventListener('pointerdown', (ev) => {
    if (ev.button !== 0 || !ev.isPrimary) return;
    const c = ev.target.closest && ev.target.closest('[data-cell]');
    if (!c || !c.querySelector('circle:not(.target)')) return;
    drag = { cell: c.dataset.cell, id: ev.pointerId, x: ev.clientX, y: ev.clientY, moved: false };
  });

  window.addEventListener('pointermove', (ev) => {
    if (!drag || ev.pointerId !== drag.id) return;
    if (!drag.moved) {
      if (Math.hypot(ev.clientX - drag.x, ev.clientY - drag.y) < 6) return;
      drag.moved = true;
      start(ev);
      if (!drag) return;
    }
    if (!drag.ghost.isConnected) { drag = null; return; }   // the board was redrawn (an update came)
    ev.preventDefault();
    move(ev);
  });

  function end(ev, drop) {
    if (!drag || ev.pointerId !== drag.id) return;
    const d = drag;
    drag = null;
    if (!d.moved) return;              // a click: the click handler has it
    if (d.ghost) d.ghost.remove();
    const under = drop && document.elementFromPoint(ev.clientX, ev.clientY);
    const to = under && under.closest && under.closest('#board [data-cell]');
    if (to && to.dataset.cell !== d.cell) clickCell(to.dataset.cell);
    else if (window.medan && window.medan.state) draw(window.medan.state);   // back where it was, still selected
    swallowClick = true;
    setTimeout(() => { swallowClick = false; }, 0);
  }

  window.addEventListener('pointerup', (ev) => end(ev, true));
  window.addEventListener('pointercancel', (ev) => end(ev, false));
  // the click that follows a drop is not a second click
  board.addEventListener('click', (ev) => {
    if (swallowClick) { ev.stopPropagation(); ev.preventDefault(); swallowClick = false; }
  }, true);
})();
