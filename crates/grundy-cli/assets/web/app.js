// The grundy playground: plain JavaScript over the JSON API of `grundy serve`
// (docs/API.md). Play: a position, every move coloured win/lose with the
// nimber after it, the engine or a second person answering, hints and undo,
// the sum part by part. Explore: `seq` and `table` plotted in SVG.
'use strict';

const SVG = 'http://www.w3.org/2000/svg';
const $ = (id) => document.getElementById(id);

// ---------------------------------------------------------------- the API

async function api(path, body) {
  const options = body === undefined ? {} : {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  };
  const response = await fetch(path, options);
  let data;
  try {
    data = await response.json();
  } catch (e) {
    throw new Error(`${path}: HTTP ${response.status}, not JSON`);
  }
  if (!response.ok) {
    throw new Error(data.error || `HTTP ${response.status}`);
  }
  return data;
}

// ---------------------------------------------------------------- helpers

function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (key === 'class') node.className = value;
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children) {
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function svg(tag, attributes = {}, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

// ---------------------------------------------------------------- play state

const state = {
  history: [],      // positions, the first the start
  answers: [],      // the /api/solve answer of each
  mode: 'engine',
  engineSide: 1,    // 0: the engine moves first; 1: second
  busy: false,
  hinted: null,
  generation: 0,    // counts the games started
  board: [0, 0],    // the largest Wythoff board drawn in this game
  lastEngine: null, // the engine's last answer, for the status line
};

const moverIndex = () => (state.history.length - 1) % 2;

function playerName(index) {
  if (state.mode === 'engine') return index === state.engineSide ? 'the engine' : 'you';
  return `player ${index + 1}`;
}

function setStatus(text) { $('status').textContent = text; }

// Why the engine chose its move. With remoteness (the number of moves the game lasts
// when the winner hurries and the loser delays), how long that is.
function engineWhy(reply) {
  if (reply.remoteness == null) return reply.reason;
  const moves = `${reply.remoteness} more move${reply.remoteness === 1 ? '' : 's'}`;
  return reply.reason === 'winning'
    ? `winning: the game ends within ${moves}`
    : `prolonging: a perfect reply still needs ${moves} to win`;
}
function setError(text) { $('error').textContent = text || ''; }

function setBusy(busy) {
  state.busy = busy;
  document.body.dataset.busy = String(busy);
}

async function start(position) {
  setError('');
  // Answers still on their way for an earlier game are dropped.
  state.generation += 1;
  state.mode = $('mode').value;
  state.engineSide = 1;
  state.history = [];
  state.answers = [];
  state.lastEngine = null;
  state.board = [0, 0];
  await goTo(position, state.generation);
}

// Shows `position` as the next one in the game (of `generation`), then lets
// the engine answer if it is to move.
async function goTo(position, generation) {
  setBusy(true);
  try {
    const answer = await api('/api/solve', { position });
    if (generation !== state.generation) return;
    state.history.push(answer.position);
    state.answers.push(answer);
    state.hinted = null;
    render();
    await maybeEngine(generation);
  } catch (e) {
    if (generation === state.generation) setError(e.message);
  } finally {
    if (generation === state.generation) {
      setBusy(false);
      renderControls();
    }
  }
}

const current = () => state.answers[state.answers.length - 1];
const gameOver = (answer) => answer.moves.length === 0 && answer.moves_complete;

async function maybeEngine(generation) {
  const answer = current();
  if (state.mode !== 'engine' || gameOver(answer) || moverIndex() !== state.engineSide) return;
  setStatus('The engine is thinking...');
  const reply = await api('/api/engine', { position: answer.position });
  if (!reply.move) {
    setStatus(`The engine has no move to make (${reply.reason}).`);
    return;
  }
  await new Promise((resolve) => setTimeout(resolve, 250));
  if (generation !== state.generation) return;
  state.lastEngine = reply;
  await goTo(reply.move.to, generation);
}

async function play(move) {
  if (state.busy) return;
  if (state.mode === 'engine' && moverIndex() === state.engineSide) return;
  state.lastEngine = null;
  await goTo(move.to, state.generation);
}

function undo() {
  if (state.busy || state.history.length <= 1) return;
  // Against the engine, undo goes back to the last position where you were to move.
  let steps = 1;
  if (state.mode === 'engine' && state.history.length >= 3) {
    steps = moverIndex() === state.engineSide ? 1 : 2;
  }
  steps = Math.min(steps, state.history.length - 1);
  state.history.splice(-steps);
  state.answers.splice(-steps);
  state.hinted = null;
  state.lastEngine = null;
  render();
  renderControls();
}

function hint() {
  const answer = current();
  if (!answer) return;
  const winning = answer.moves.findIndex((m) => m.wins === true);
  if (winning >= 0) {
    state.hinted = winning;
    const move = answer.moves[winning];
    const why = answer.nimber !== null && answer.nimber !== undefined
      ? ` The nim-sum is ${answer.nimber}; this move makes it 0.` : '';
    setStatus(`Hint: ${move.move} (to ${move.to}).${why}`);
  } else if (gameOver(answer)) {
    setStatus('No move left: the game is over.');
  } else {
    state.hinted = null;
    setStatus('Hint: this is a P-position (nim-sum 0): every move loses against perfect play. ' +
      'Make a small move and hope your opponent errs.');
  }
  renderMoves();
}

// ---------------------------------------------------------------- rendering

function render() {
  const answer = current();
  if (!answer) return;
  $('current').textContent = answer.position;
  const badge = $('outcome');
  badge.textContent = answer.first_player_wins
    ? `N-position: the player to move wins${answer.nimber !== null ? ` (nimber ${answer.nimber})` : ''}`
    : 'P-position: the player to move loses (nimber 0)';
  badge.className = `badge ${answer.first_player_wins ? 'n' : 'p'}`;
  renderParts(answer);
  renderBoard(answer);
  renderMoves();
  renderHistory();
  renderStatus();
}

function renderStatus() {
  const answer = current();
  const mover = moverIndex();
  if (gameOver(answer)) {
    const winner = playerName(1 - mover);
    const loser = playerName(mover);
    let text = `Game over: ${loser} cannot move, so ${winner} ${winner === 'you' ? 'win' : 'wins'}.`;
    if (answer.convention === 'misere') {
      text = `Game over: ${loser} cannot move, so under misère play ${loser} ${loser === 'you' ? 'win' : 'wins'}.`;
    }
    setStatus(text);
    $('status').dataset.over = 'true';
    $('status').dataset.winner = answer.convention === 'misere' ? loser : winner;
    document.body.dataset.turn = 'over';
    return;
  }
  $('status').dataset.over = 'false';
  delete $('status').dataset.winner;
  document.body.dataset.turn = state.mode === 'engine' && mover === state.engineSide ? 'engine' : 'human';
  const prefix = state.lastEngine
    ? `The engine played ${state.lastEngine.move.move} (${engineWhy(state.lastEngine)}). ` : '';
  if (state.mode === 'engine' && mover === state.engineSide) {
    setStatus(`${prefix}The engine is to move.`);
  } else {
    setStatus(`${prefix}${playerName(mover)[0].toUpperCase()}${playerName(mover).slice(1)} to move.`);
  }
}

function renderControls() {
  $('undo').disabled = state.busy || state.history.length <= 1;
  $('engine-first').disabled = state.busy || state.mode !== 'engine' || state.history.length !== 1;
  $('hint').disabled = state.busy || !current();
}

function renderParts(answer) {
  const table = $('parts');
  table.replaceChildren();
  const parts = answer.parts || [];
  if (parts.length === 0) {
    table.append(el('tr', {}, el('td', {}, answer.play_note || 'no parts')));
    $('theory').textContent = '';
    return;
  }
  const known = parts.every((p) => typeof p.nimber === 'number');
  const width = known ? Math.max(1, ...parts.map((p) => p.nimber.toString(2).length)) : 0;
  const binary = (n) => (typeof n === 'number' ? n.toString(2).padStart(width, '0') : '');
  table.append(el('tr', {}, el('th', {}, 'part'), el('th', {}, 'nimber'), el('th', {}, 'binary')));
  for (const part of parts) {
    table.append(el('tr', {}, el('td', {}, el('code', {}, part.term)),
      el('td', { class: 'num' }, part.nimber === null ? '?' : part.nimber),
      el('td', { class: 'bin' }, binary(part.nimber))));
  }
  const sum = answer.nim_sum;
  table.append(el('tr', { class: 'total' }, el('td', {}, 'nim-sum (xor)'),
    el('td', { class: 'num', id: 'nim-sum' }, sum === null ? '?' : sum),
    el('td', { class: 'bin' }, binary(sum))));
  let theory = '';
  if (answer.convention === 'misere') {
    theory = 'Misère play: the nimbers of the parts do not decide the game alone; grundy searches it (or applies the Anti-SG rule).';
  } else if (sum !== null && sum !== 0) {
    const restoring = answer.moves.filter((m) => m.wins).length;
    theory = `The nim-sum is ${sum}, not 0: the player to move wins by moving one part from nimber g to g xor ${sum}, which restores a nim-sum of 0 (${restoring} such move${restoring === 1 ? '' : 's'} listed).`;
  } else if (sum === 0) {
    theory = 'The nim-sum is 0: every move changes one part, so the nim-sum stops being 0 and the opponent can restore it. The player to move loses against perfect play.';
  }
  $('theory').textContent = theory;
}

function renderMoves() {
  const answer = current();
  const list = $('moves');
  list.replaceChildren();
  const colour = $('show-colours').checked;
  const waiting = state.mode === 'engine' && moverIndex() === state.engineSide;
  answer.moves.forEach((move, index) => {
    const kind = move.wins === true ? 'win' : move.wins === false ? 'lose' : 'unknown';
    const label = move.nimber !== null ? `nimber ${move.nimber}` : (move.outcome || '?');
    const button = el('button', {
      type: 'button',
      class: `move ${colour ? kind : 'plain'}${state.hinted === index ? ' hinted' : ''}`,
      'data-to': move.to,
      'data-wins': String(move.wins),
      'data-index': String(index),
      onclick: () => play(move),
    }, el('span', { class: 'what' }, move.move), el('span', { class: 'after' }, `→ ${label}`));
    if (waiting || gameOver(answer)) button.disabled = true;
    list.append(el('li', {}, button));
  });
  const wins = answer.moves.filter((m) => m.wins).length;
  $('moves-count').textContent = answer.moves.length
    ? `(${answer.moves.length}${answer.moves_complete ? '' : '+'}, ${wins} winning)` : '';
  if (!answer.moves_complete && answer.play_note) {
    list.append(el('li', { class: 'note' }, answer.play_note));
  }
}

function renderHistory() {
  const list = $('history');
  list.replaceChildren();
  state.history.forEach((position, index) => {
    const who = index === 0 ? 'start' : playerName((index - 1) % 2);
    list.append(el('li', {}, el('code', {}, position), ` (${who})`));
  });
}

// ---------------------------------------------------------------- boards
//
// Each part comes with its drawing (`part.drawing`, or null when its game has
// none) and each move with the thing drawn that plays it when clicked
// (`move.target`): the server reads positions; the page only draws.

// A target as a key: `heap:0:2`, `coin:3`, `vertex:1`, `edge:0`, `square:2,5`, `cell:4`.
function targetKey(target) {
  switch (target.kind) {
    case 'heap': return `heap:${target.heap}:${target.level}`;
    case 'coin': return `coin:${target.coin}`;
    case 'vertex': return `vertex:${target.vertex}`;
    case 'edge': return `edge:${target.edge}`;
    case 'square': return `square:${target.x},${target.y}`;
    case 'cell': return `cell:${target.cell}`;
    default: return null;
  }
}

// The moves of one part that a click on its drawing plays, by target key.
function clickTargets(answer, part) {
  const found = new Map();
  for (const move of answer.moves) {
    if (move.term !== part.group || move.component !== part.component || !move.target) continue;
    const key = targetKey(move.target);
    if (key !== null && !found.has(key)) found.set(key, move);
  }
  return found;
}

// A size sent as a number or, past 2^53, as a decimal string: a number when small.
const small = (value, most) => (typeof value === 'number' && value <= most ? value : null);

function renderBoard(answer) {
  const board = $('board');
  board.replaceChildren();
  for (const part of answer.parts || []) {
    if (!part.drawing) continue;
    const box = el('div', { class: 'piece' }, el('div', { class: 'caption' }, `${part.term}  (nimber ${part.nimber ?? '?'})`));
    const targets = clickTargets(answer, part);
    const draw = {
      heaps: drawHeaps, wythoff: drawWythoff, coins: drawCoins, graph: drawGraph, chomp: drawChomp, board: drawCells,
    }[part.drawing.kind];
    const drawing = draw ? draw(part.drawing, targets) : null;
    if (drawing) box.append(drawing);
    board.append(box);
  }
}

function clickable(node, move) {
  if (!move) return;
  node.classList.add('target');
  if ($('show-colours').checked) node.classList.add(move.wins ? 'win' : 'lose');
  node.setAttribute('data-to', move.to);
  node.addEventListener('click', () => play(move));
  const title = svg('title', {}, `${move.move} → nimber ${move.nimber ?? '?'}`);
  node.append(title);
}

// Heaps of tokens; clicking a token takes it and every token above it: the
// heap keeps the tokens below. Heaps of more than 30 are drawn as bars.
function drawHeaps({ heaps }, targets) {
  if (heaps.length === 0) return null;
  const token = 16, gap = 10;
  const tallest = Math.min(Math.max(1, ...heaps.map((h) => small(h, 30) ?? 30)), 30);
  const width = heaps.length * (token + gap) + gap + 30;
  const height = tallest * (token + 2) + 28;
  const picture = svg('svg', { width, height, class: 'heaps', role: 'img' });
  heaps.forEach((heap, h) => {
    const x = gap + h * (token + gap) + token / 2;
    const size = small(heap, 30);
    if (size === null) {
      picture.append(svg('rect', { x: x - token / 2, y: 8, width: token, height: height - 36, class: 'bar' }));
      picture.append(svg('text', { x, y: height - 6, 'text-anchor': 'middle', class: 'label' }, heap));
      return;
    }
    for (let level = 0; level < size; level++) {
      const y = height - 24 - level * (token + 2) - token / 2;
      const circle = svg('circle', { cx: x, cy: y, r: token / 2 - 1, class: 'token', 'data-heap': h, 'data-level': level });
      clickable(circle, targets.get(`heap:${h}:${level}`));
      picture.append(circle);
    }
    picture.append(svg('text', { x, y: height - 6, 'text-anchor': 'middle', class: 'label' }, heap));
  });
  return picture;
}

// Wythoff's queen on its board; each square she may move to is clicked to move there.
function drawWythoff(drawing, targets) {
  const a = small(drawing.x, 40), b = small(drawing.y, 40);
  if (a === null || b === null) return null;
  // The board keeps the size of the game's start as the queen nears the corner.
  state.board = [Math.max(state.board[0], a), Math.max(state.board[1], b)];
  const [width, height] = state.board;
  const cell = Math.max(14, Math.min(28, Math.floor(420 / (Math.max(width, height) + 1))));
  const columns = width + 1, rows = height + 1;
  const picture = svg('svg', { width: columns * cell + 30, height: rows * cell + 30, class: 'wythoff', role: 'img' });
  for (let x = 0; x <= width; x++) {
    for (let y = 0; y <= height; y++) {
      const square = svg('rect', {
        x: 24 + x * cell, y: (height - y) * cell + 4, width: cell, height: cell,
        class: `square ${(x + y) % 2 ? 'dark' : 'light'}`, 'data-cell': `${x},${y}`,
      });
      clickable(square, targets.get(`square:${x},${y}`));
      picture.append(square);
    }
  }
  for (let x = 0; x <= width; x++) picture.append(svg('text', { x: 24 + x * cell + cell / 2, y: rows * cell + 18, 'text-anchor': 'middle', class: 'label' }, x));
  for (let y = 0; y <= height; y++) picture.append(svg('text', { x: 12, y: (height - y) * cell + 4 + cell * 0.7, 'text-anchor': 'middle', class: 'label' }, y));
  picture.append(svg('text', {
    x: 24 + a * cell + cell / 2, y: (height - b) * cell + 4 + cell * 0.78, 'text-anchor': 'middle', class: 'queen', 'font-size': cell * 0.85,
  }, '♛'));
  return picture;
}

// A row of coins, coin 1 leftmost; clicking a coin turns it alone, where the
// rule allows that (moves turning several coins are in the list).
function drawCoins({ heads }, targets) {
  const size = 26;
  const picture = svg('svg', { width: heads.length * (size + 4) + 8, height: size + 26, class: 'coins', role: 'img' });
  heads.forEach((head, i) => {
    const x = 4 + i * (size + 4) + size / 2;
    const coin = svg('circle', { cx: x, cy: size / 2 + 2, r: size / 2 - 1, class: head ? 'coin heads' : 'coin tails', 'data-coin': i + 1 });
    clickable(coin, targets.get(`coin:${i}`));
    picture.append(coin);
    picture.append(svg('text', { x, y: size / 2 + 7, 'text-anchor': 'middle', class: 'coin-face' }, head ? 'H' : 'T'));
    picture.append(svg('text', { x, y: size + 20, 'text-anchor': 'middle', class: 'label' }, i + 1));
  });
  return picture;
}

// A graph with its vertices on a circle, numbered from 1 as the position
// language numbers them (the ground, for Hackenbush, at the bottom). Cut edges
// are left out and those no longer joined to the ground drawn faint; an edge
// that can be cut is clicked to cut it. Tokens' vertices are filled, deleted
// vertices grey, and a vertex a token may go to is clicked to move there.
function drawGraph(graph, targets) {
  const n = graph.vertices;
  if (n < 1 || n > 60) return null;
  const cut = new Set(graph.cut), hanging = new Set(graph.hanging);
  const tokens = new Set(graph.tokens), deleted = new Set(graph.deleted);
  const size = 260, r = 100, c = size / 2;
  const spot = (v) => {
    const angle = Math.PI / 2 + (2 * Math.PI * v) / n;
    return [c + r * Math.cos(angle), c + r * Math.sin(angle)];
  };
  const kind = graph.ground !== null ? ' grounded' : graph.directed ? ' directed' : '';
  const picture = svg('svg', { width: size, height: size, class: `graph${kind}`, role: 'img' });
  const defs = svg('defs');
  const marker = svg('marker', { id: 'arrow', viewBox: '0 0 10 10', refX: '18', refY: '5', markerWidth: '6', markerHeight: '6', orient: 'auto-start-reverse' });
  marker.append(svg('path', { d: 'M 0 0 L 10 5 L 0 10 z', class: 'arrowhead' }));
  defs.append(marker);
  picture.append(defs);
  graph.edges.forEach(([u, v], i) => {
    if (cut.has(i)) return;
    const faint = hanging.has(i);
    const [x1, y1] = spot(u), [x2, y2] = spot(v);
    const line = u === v
      ? svg('circle', { cx: x1, cy: y1 + 14, r: 12, fill: 'none', class: `edge${faint ? ' faint' : ''}`, 'data-edge': i + 1 })
      : svg('line', { x1, y1, x2, y2, class: `edge${faint ? ' faint' : ''}`, 'data-edge': i + 1 });
    if (graph.directed) line.setAttribute('marker-end', 'url(#arrow)');
    clickable(line, targets.get(`edge:${i}`));
    picture.append(line);
  });
  for (let v = 0; v < n; v++) {
    const [x, y] = spot(v);
    const vertex = svg('circle', {
      cx: x, cy: y, r: 11, 'data-vertex': v + 1,
      class: `vertex${graph.ground === v ? ' ground' : ''}${tokens.has(v) ? ' occupied' : ''}${deleted.has(v) ? ' deleted' : ''}`,
    });
    clickable(vertex, targets.get(`vertex:${v}`));
    picture.append(vertex);
    picture.append(svg('text', { x, y: y + 4, 'text-anchor': 'middle', class: 'vertex-label' }, v + 1));
  }
  return picture;
}

// A Chomp bar, the poisoned square bottom left; clicking a square eats it and
// every square above and to the right of it.
function drawChomp({ rows }, targets) {
  if (rows.length === 0 || rows.length > 30 || Math.max(...rows) > 30) return null;
  const cell = 18;
  const picture = svg('svg', { width: Math.max(...rows) * cell + 4, height: rows.length * cell + 4, class: 'chomp', role: 'img' });
  rows.forEach((length, r) => {
    for (let c = 0; c < length; c++) {
      const square = svg('rect', { x: 2 + c * cell, y: 2 + (rows.length - 1 - r) * cell, width: cell - 2, height: cell - 2, class: r === 0 && c === 0 ? 'poison' : 'square light', 'data-cell': `${c},${r}` });
      clickable(square, targets.get(`square:${c},${r}`));
      picture.append(square);
    }
  });
  return picture;
}

// A board of cells, row 1 at the top: empty cells light, filled ones dark,
// the token's cell marked; a cell the token may go to is clicked to move there.
function drawCells({ rows, cols, cells }, targets) {
  if (rows < 1 || cols < 1 || rows > 30 || cols > 30) return null;
  const cell = 22;
  const picture = svg('svg', { width: cols * cell + 4, height: rows * cell + 4, class: 'cells', role: 'img' });
  cells.forEach((content, index) => {
    const r = Math.floor(index / cols), c = index % cols;
    const square = svg('rect', {
      x: 2 + c * cell, y: 2 + r * cell, width: cell - 2, height: cell - 2,
      class: `square ${content === 'empty' ? 'light' : 'dark'}${content === 'token' ? ' occupied' : ''}`, 'data-cell': `${r + 1},${c + 1}`,
    });
    clickable(square, targets.get(`cell:${index}`));
    picture.append(square);
    if (content === 'token') picture.append(svg('circle', { cx: 2 + c * cell + (cell - 2) / 2, cy: 2 + r * cell + (cell - 2) / 2, r: cell / 3, class: 'token' }));
  });
  return picture;
}

// ---------------------------------------------------------------- explore

function axes(picture, width, height, left, bottom, xMax, yMax, xLabel, yLabel) {
  picture.append(svg('line', { x1: left, y1: height - bottom, x2: width - 8, y2: height - bottom, class: 'axis' }));
  picture.append(svg('line', { x1: left, y1: 8, x2: left, y2: height - bottom, class: 'axis' }));
  picture.append(svg('text', { x: left - 6, y: 16, 'text-anchor': 'end', class: 'label' }, yMax));
  picture.append(svg('text', { x: left - 6, y: height - bottom, 'text-anchor': 'end', class: 'label' }, 0));
  picture.append(svg('text', { x: width - 8, y: height - bottom + 16, 'text-anchor': 'end', class: 'label' }, `${xLabel} = ${xMax}`));
  picture.append(svg('text', { x: left, y: height - bottom + 16, 'text-anchor': 'middle', class: 'label' }, 0));
  picture.append(svg('text', { x: 4, y: height / 2, class: 'label' }, yLabel));
}

// Values as bars; the periodic part shaded in alternating bands of one period.
function barPlot(values, { period = null, preperiod = null, saltus = 0, xLabel = 'n', zeros = true } = {}) {
  const width = 900, height = 260, left = 40, bottom = 24;
  const numbers = values.map((v) => (typeof v === 'number' ? v : Number(v)));
  const top = Math.max(1, ...numbers.filter(Number.isFinite));
  const picture = svg('svg', { width, height, viewBox: `0 0 ${width} ${height}`, class: 'bars', role: 'img' });
  const step = (width - left - 10) / Math.max(1, numbers.length);
  const x = (i) => left + i * step;
  const y = (v) => height - bottom - ((height - bottom - 10) * v) / top;
  if (period && preperiod !== null) {
    for (let start = preperiod, band = 0; start < numbers.length; start += period, band++) {
      const end = Math.min(numbers.length, start + period);
      picture.append(svg('rect', {
        x: x(start), y: 8, width: (end - start) * step, height: height - bottom - 8,
        class: `period-band ${band % 2 ? 'odd' : 'even'}`, 'data-period-start': start,
      }));
    }
    picture.append(svg('text', { x: x(preperiod) + 4, y: 20, class: 'label period-label' },
      `period ${period} from ${preperiod}${saltus ? `, saltus ${saltus}` : ''}`));
  }
  numbers.forEach((v, i) => {
    if (!Number.isFinite(v)) return;
    const bar = svg('rect', {
      x: x(i) + step * 0.1, y: y(v), width: Math.max(1, step * 0.8), height: Math.max(0, height - bottom - y(v)),
      class: v === 0 && zeros ? 'value zero' : 'value',
    });
    bar.append(svg('title', {}, `${xLabel} = ${i}: ${v}`));
    picture.append(bar);
    if (v === 0 && zeros) picture.append(svg('circle', { cx: x(i) + step / 2, cy: height - bottom - 3, r: Math.min(3, step / 2), class: 'p-mark' }));
  });
  axes(picture, width, height, left, bottom, numbers.length - 1, top, xLabel, 'G');
  return picture;
}

// The periods of rows and columns stated in a table's patterns:
// "x = 1: period 3 saltus 3 from y = 0" (one row), "Every row (fixed x) is
// periodic in y, all with period 3 from y = 0 on" (all of them).
function periodsOf(patterns, names, count) {
  const found = [];
  for (const pattern of patterns) {
    for (const m of pattern.matchAll(/(\w+) = (-?\d+): period (\d+)(?: saltus (\d+))? from (\w+) = (-?\d+)/g)) {
      const row = m[1] === names[0];
      found.push({ row, index: Number(m[2]), period: Number(m[3]), from: Number(m[6]) });
    }
    const every = /Every (row|column) .*?with period (\d+) from \w+ = (-?\d+)/.exec(pattern);
    if (every) {
      const row = every[1] === 'row';
      for (let index = 0; index < count[row ? 0 : 1]; index++) {
        found.push({ row, index, period: Number(every[2]), from: Number(every[3]), all: true });
      }
    }
  }
  return found;
}

function heatMap(rows, names, measure, patterns = [], variables = []) {
  const r = rows.length, c = rows[0] ? rows[0].length : 0;
  const cell = Math.max(4, Math.min(22, Math.floor(640 / Math.max(r, c, 1))));
  const picture = svg('svg', { width: c * cell + 60, height: r * cell + 40, class: 'heat', role: 'img' });
  const numbers = rows.flat().map((v) => (v === 'P' ? 0 : v === 'N' ? 1 : Number(v)));
  const top = Math.max(1, ...numbers.filter(Number.isFinite));
  rows.forEach((row, i) => row.forEach((v, j) => {
    const n = v === 'P' ? 0 : v === 'N' ? 1 : Number(v);
    const p = n === 0;
    const hue = 240 - (200 * n) / top;
    const square = svg('rect', {
      x: 40 + j * cell, y: 4 + i * cell, width: cell, height: cell,
      fill: p ? '#000' : `hsl(${hue}, 70%, ${measure === 'outcome' ? 85 : 60}%)`, class: p ? 'cell p' : 'cell',
    });
    square.append(svg('title', {}, `${names[0]} = ${i}${names[1] ? `, ${names[1]} = ${j}` : ''}: ${v}`));
    picture.append(square);
  }));
  // Each period found, outlined once: its first window of cells, from where it starts.
  const low = variables.map((v) => Number(v.from) || 0);
  for (const found of periodsOf(patterns, names, [r, c])) {
    const start = found.from - low[found.row ? 1 : 0];
    const line = found.index - low[found.row ? 0 : 1];
    if (line < 0 || line >= (found.row ? r : c) || start < 0) continue;
    const length = Math.min(found.period, (found.row ? c : r) - start);
    const box = found.row
      ? { x: 40 + start * cell, y: 4 + line * cell, width: length * cell, height: cell }
      : { x: 40 + line * cell, y: 4 + start * cell, width: cell, height: length * cell };
    const outline = svg('rect', { ...box, class: 'period-outline', fill: 'none' });
    outline.append(svg('title', {}, `${found.row ? names[0] : names[1]} = ${found.index}: period ${found.period} from ${found.from}`));
    picture.append(outline);
  }
  picture.append(svg('text', { x: 2, y: 14, class: 'label' }, `${names[0]}↓`));
  picture.append(svg('text', { x: 40, y: r * cell + 20, class: 'label' }, `${names[1]}→  (black: P-positions)`));
  return picture;
}

async function plotSeq(event) {
  if (event) event.preventDefault();
  $('seq-info').textContent = 'computing...';
  $('seq-plot').replaceChildren();
  try {
    const answer = await api('/api/seq', { rule: $('seq-rule').value, n: Number($('seq-n').value) });
    const period = answer.period
      ? `period ${answer.period} from heap ${answer.preperiod}${answer.saltus ? `, saltus ${answer.saltus}` : ''} (${answer.proven ? 'proven' : 'not proven'}: ${answer.proof})`
      : 'no period found in the values computed';
    $('seq-info').textContent = `${answer.rule}: ${period}.`;
    $('seq-plot').append(barPlot(answer.values, { period: answer.period, preperiod: answer.preperiod, saltus: answer.saltus }));
  } catch (e) {
    $('seq-info').textContent = `error: ${e.message}`;
  }
}

async function plotTable(event) {
  if (event) event.preventDefault();
  $('table-info').textContent = 'computing...';
  $('table-plot').replaceChildren();
  $('table-patterns').replaceChildren();
  try {
    const ranges = $('table-ranges').value.trim().split(/\s+/).filter((s) => s);
    const answer = await api('/api/table', { expression: $('table-expression').value, ranges, outcome: $('table-outcome').checked });
    const names = answer.variables.map((v) => v.name);
    $('table-info').textContent = `${answer.expression}: ${answer.measure} over ${answer.variables.map((v) => `${v.name} = ${v.from}..${v.to}`).join(', ')}.`;
    if (answer.variables.length === 1) {
      const values = answer.values.map((v) => (v === 'P' ? 0 : v === 'N' ? 1 : v));
      // A period among the patterns found, e.g. "period 7 from n = 3", is shaded.
      let period = null, preperiod = null;
      for (const pattern of answer.patterns) {
        const m = /period (\d+)(?:[^\d]*?(?:from|for)\s*\w*\s*(?:=|>=|≥)\s*(\d+))?/.exec(pattern);
        if (m) { period = Number(m[1]); preperiod = m[2] ? Number(m[2]) - answer.variables[0].from : 0; break; }
      }
      $('table-plot').append(barPlot(values, { period, preperiod, xLabel: names[0] }));
    } else {
      $('table-plot').append(heatMap(answer.values, names, answer.measure, answer.patterns, answer.variables));
    }
    for (const pattern of answer.patterns) $('table-patterns').append(el('li', {}, pattern));
  } catch (e) {
    $('table-info').textContent = `error: ${e.message}`;
  }
}

// ---------------------------------------------------------------- start up

async function loadGames() {
  const picker = $('game-picker');
  try {
    const { games } = await api('/api/games');
    picker.replaceChildren(el('option', { value: '' }, '(choose a game or an example)'));
    for (const game of games) {
      if (game.examples.length === 0) continue;
      const group = el('optgroup', { label: `${game.name}: ${game.summary}` });
      for (const example of game.examples) group.append(el('option', { value: example, 'data-game': game.name }, example));
      picker.append(group);
    }
    picker.addEventListener('change', () => {
      if (!picker.value) return;
      $('position').value = picker.value;
      const game = games.find((g) => g.name === picker.selectedOptions[0].dataset.game);
      $('game-summary').textContent = game ? `${game.name}: ${game.summary} Syntax: ${game.syntax}` : '';
    });
  } catch (e) {
    setError(`cannot load the games: ${e.message}`);
  }
}

function showTab(name) {
  for (const tab of document.querySelectorAll('.tab')) tab.classList.toggle('active', tab.dataset.tab === name);
  $('play').classList.toggle('hidden', name !== 'play');
  $('explore').classList.toggle('hidden', name !== 'explore');
}

document.addEventListener('DOMContentLoaded', () => {
  for (const tab of document.querySelectorAll('.tab')) tab.addEventListener('click', () => showTab(tab.dataset.tab));
  $('start-form').addEventListener('submit', (event) => { event.preventDefault(); start($('position').value); });
  $('undo').addEventListener('click', undo);
  $('hint').addEventListener('click', hint);
  $('show-colours').addEventListener('change', () => { if (current()) render(); });
  $('engine-first').addEventListener('click', async () => {
    if (state.history.length !== 1 || state.mode !== 'engine') return;
    const generation = state.generation;
    state.engineSide = 0;
    setBusy(true);
    render();
    renderControls();
    try {
      await maybeEngine(generation);
    } catch (e) {
      setError(e.message);
    } finally {
      if (generation === state.generation) { setBusy(false); renderControls(); }
    }
  });
  $('seq-form').addEventListener('submit', plotSeq);
  $('table-form').addEventListener('submit', plotTable);
  renderControls();
  loadGames();
  start($('position').value);
});
