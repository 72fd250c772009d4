// The grundy playground: plain JavaScript over the JSON API of `grundy serve`
// (docs/API.md). Play: a position, every move coloured win/lose with the
// nimber after it, the engine or a second person answering, hints and undo,
// the sum part by part. Explore: `seq` and `table` plotted in SVG.
'use strict';

const SVG = 'http://www.w3.org/2000/svg';
const $ = (id) => document.getElementById(id);

// ---------------------------------------------------------------- the API

// A failed request: `status` is the HTTP status (0 when no answer came),
// `raw` the server's own message.
class RequestError extends Error {
  constructor(message, status, raw = message) {
    super(message);
    this.status = status;
    this.raw = raw;
  }
}

// Sends a request; an error (a refused request, a limit, a busy server, a
// dropped connection) is a RequestError whose message is for the learner.
async function api(path, body) {
  const options = body === undefined ? {} : {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  };
  let response;
  try {
    response = await fetch(path, options);
  } catch (e) {
    throw new RequestError('No answer from the server: the connection was lost (the server may have stopped).', 0);
  }
  let data;
  try {
    data = await response.json();
  } catch (e) {
    throw new RequestError(`The server's answer could not be read (HTTP ${response.status}).`, response.status);
  }
  if (!response.ok) {
    if (response.status === 503) {
      const wait = response.headers.get('retry-after');
      throw new RequestError(`The server is busy with other requests${wait ? `: try again in ${wait} s` : ': try again'}.`, 503);
    }
    const raw = data.error || `HTTP ${response.status}`;
    throw new RequestError(plainMessage(raw), response.status, raw);
  }
  return data;
}

// The server's message as a learner at the page should read it: without the
// command-line flags that raise a limit (the page cannot change them) nor
// advice to run `grundy ...` commands, with a word on what to do instead.
function plainMessage(text) {
  let limit = false;
  const flag = '--[a-z][\\w-]*(?: [A-Z]+)?';
  let message = String(text)
    .replace(new RegExp(`;?\\s*raise (?:it|the limit) with ${flag}`, 'g'), () => { limit = true; return ''; })
    .replace(new RegExp(`;?\\s*(?:the server's )?${flag} raises it`, 'g'), () => { limit = true; return ''; });
  const lines = message.split('\n').map((line) => line
    .replace(/to let `([^`]+)` vary, use `grundy table [^`]*`/g, 'to let `$1` vary, tabulate it under Explore (Table)')
    .replace(/`grundy \w+[^`]*`/g, 'the command line'));
  message = lines
    .map((line) => line.split('; ').filter((clause) => !new RegExp(flag).test(clause)).join('; '))
    .filter((line) => line.trim() !== '' && !/^help: *$/.test(line))
    .join('\n');
  if (limit) message += '\nThis is one of the server\'s limits on a request: try a smaller position, fewer or smaller heaps, or a smaller range.';
  return message;
}

// A table's error names the cell it came from (`in the cell x = 3, y = 5`)
// and quotes the expression with that cell's values put in, a caret under the
// place: the page quotes the expression as the learner typed it instead,
// the caret under the same place.
function tableMessage(text, expression, names) {
  const cell = /\nin the cell ([^\n]*)$/.exec(text);
  if (!cell) return plainMessage(text);
  const values = {};
  for (const binding of cell[1].split(', ')) {
    const [name, value] = binding.split(' = ');
    if (names.includes(name)) values[name] = value;
  }
  // The text with the values put in, and for each of its characters the
  // place in the learner's text it comes from.
  let filled = '';
  const from = [];
  for (let i = 0; i < expression.length;) {
    if (expression[i] === '"') {
      const end = expression.indexOf('"', i + 1);
      const stop = end < 0 ? expression.length : end + 1;
      for (; i < stop; i++) { filled += expression[i]; from.push(i); }
      continue;
    }
    const word = /^[A-Za-z_]\w*/.exec(expression.slice(i));
    if (word && (i === 0 || !/\w/.test(expression[i - 1]))) {
      const value = Object.hasOwn(values, word[0]) ? values[word[0]] : word[0];
      for (const character of value) { filled += character; from.push(i); }
      i += word[0].length;
      continue;
    }
    filled += expression[i];
    from.push(i);
    i += 1;
  }
  from.push(expression.length);
  const lines = text.slice(0, cell.index).split('\n');
  const quoted = lines.findIndex((line, k) => line.trim() === filled.trim() && /^\s*\^+\s*$/.test(lines[k + 1] || ''));
  if (quoted < 0) return plainMessage(text);
  const indent = lines[quoted].length - lines[quoted].trimStart().length;
  const caret = lines[quoted + 1];
  const start = caret.indexOf('^') - indent, length = caret.trim().length;
  const at = from[Math.min(start, from.length - 1)];
  const end = from[Math.min(start + length, from.length - 1)];
  lines[quoted] = `${' '.repeat(indent)}${expression}`;
  lines[quoted + 1] = `${' '.repeat(indent + at)}${'^'.repeat(Math.max(1, end - at))}`;
  const message = lines.join('\n').replace(/\(column \d+\)/, `(column ${at + 1})`);
  return plainMessage(message);
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

// An SVG element; a picture (`svg`) of a given size gets the matching
// viewBox, so that the style sheet may shrink it to a narrow screen.
function svg(tag, attributes = {}, text) {
  const node = document.createElementNS(SVG, tag);
  if (tag === 'svg' && attributes.width && attributes.height && !attributes.viewBox) {
    node.setAttribute('viewBox', `0 0 ${attributes.width} ${attributes.height}`);
  }
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

// ---------------------------------------------------------------- play state

const state = {
  games: [],        // the catalogue (/api/games)
  history: [],      // positions, the first the start
  answers: [],      // the /api/solve answer of each
  mode: 'engine',
  engineSide: 1,    // 0: the engine moves first; 1: second
  busy: false,
  hinted: null,
  selected: null,   // a choice made on a drawing before a move: {part, coins | cell}
  generation: 0,    // counts the games started
  board: [0, 0],    // the largest Wythoff board drawn in this game
  lastEngine: null, // the engine's last answer, for the status line
  failed: null,     // the request that failed, to retry: {action}
  engineStuck: false, // the engine's request failed: the human may move for it
  focus: null,      // where the keyboard focus was when a move was played
  partMoves: new Map(), // each part's own moves, asked for when the list is a sample
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
function setError(text) { showError(text || '', null); }

// An error under the status line; `retry`, when given, is what the Retry
// button does (the request that failed, sent again).
function showError(text, retry) {
  const box = $('error');
  box.replaceChildren();
  state.failed = retry ? { retry } : null;
  if (!text) return;
  box.append(el('span', { class: 'error-text' }, text));
  if (retry) {
    box.append(' ', el('button', { type: 'button', id: 'retry', onclick: () => { if (!state.busy) retry(); } }, 'Retry'));
  }
}

// While a request runs, the busy indicator shows and every control that would
// send another (Start, Hint, Undo, the moves and the drawings' targets) is off.
function setBusy(busy) {
  state.busy = busy;
  document.body.dataset.busy = String(busy);
  $('busy').hidden = !busy;
  renderControls();
}

// Forgets the game shown: a Start that fails leaves no old game on screen.
function clearGame() {
  state.history = [];
  state.answers = [];
  state.hinted = null;
  state.selected = null;
  state.lastEngine = null;
  state.board = [0, 0];
  state.partMoves = new Map();
  state.engineStuck = false;
  for (const id of ['current', 'outcome', 'theory', 'moves-count', 'status', 'how-to-play']) $(id).textContent = '';
  $('rules').replaceChildren();
  $('rules-box').hidden = true;
  $('outcome').className = 'badge';
  for (const id of ['board', 'parts', 'moves', 'history']) $(id).replaceChildren();
  delete document.body.dataset.turn;
}

async function start(position) {
  setError('');
  state.engineStuck = false;
  // Answers still on their way for an earlier game are dropped.
  state.generation += 1;
  state.mode = $('mode').value;
  state.engineSide = 1;
  clearGame();
  await goTo({ position }, state.generation);
}

// The request for the position a move leaves: its `to`, or, for a compact
// move (`to` null, positions longer than 10,000 bytes), the current position
// and the component the move changes, which the server plays.
function afterMove(position, move) {
  if (move.to !== null && move.to !== undefined) return { position: move.to };
  return { position, move: { term: move.term, component: move.component, component_to: move.component_to } };
}

// Shows the position `request` names (`{position}`, or `{position, move}` for a
// compact move) as the next one in the game (of `generation`), then lets the
// engine answer if it is to move.
async function goTo(request, generation) {
  setBusy(true);
  setError('');
  let moved = false;
  try {
    const answer = await api('/api/solve', request);
    if (generation !== state.generation) return;
    state.history.push(answer.position);
    state.answers.push(answer);
    state.hinted = null;
    state.selected = null;
    state.partMoves = new Map();
    moved = true;
    render();
    await maybeEngine(generation);
    await fillLeftOutParts(generation);
  } catch (e) {
    if (generation !== state.generation) return;
    if (!moved) {
      // The position after the move never came: the move is still to make.
      showError(`The move could not be played: ${e.message}`, () => goTo(request, generation));
    } else {
      engineFailed(e, generation);
    }
  } finally {
    requestEnded(generation);
  }
}

async function engineRetry(generation) {
  state.engineStuck = false;
  setError('');
  setBusy(true);
  try {
    await maybeEngine(generation);
  } catch (e) {
    if (generation !== state.generation) return;
    engineFailed(e, generation);
  } finally {
    requestEnded(generation);
  }
}

// The engine did not answer: its move may be retried, or made by hand.
function engineFailed(e, generation) {
  state.engineStuck = true;
  showError(`The engine could not answer: ${e.message} Retry, make its move yourself, or Undo.`, () => engineRetry(generation));
}

// A request of this game ended, answered or not: moves enabled again, focus kept.
function requestEnded(generation) {
  if (generation === state.generation) {
    setBusy(false);
    if (current()) { renderStatus(); renderMoves(); renderControls(); }
    keepFocus();
  }
}

const current = () => state.answers[state.answers.length - 1];
const gameOver = (answer) => answer.moves.length === 0 && answer.moves_complete;

async function maybeEngine(generation) {
  const answer = current();
  if (state.mode !== 'engine' || gameOver(answer) || moverIndex() !== state.engineSide || state.engineStuck) return;
  setStatus('The engine is thinking...');
  const reply = await api('/api/engine', { position: answer.position });
  if (!reply.move) {
    setStatus(`The engine has no move to make (${reply.reason}).`);
    return;
  }
  await new Promise((resolve) => setTimeout(resolve, 250));
  if (generation !== state.generation) return;
  state.lastEngine = reply;
  await goTo(afterMove(answer.position, reply.move), generation);
}

async function play(move) {
  if (state.busy || !current()) return;
  if (engineToMove()) return;
  state.focus = focusOf(document.activeElement) || state.focus;
  state.lastEngine = null;
  state.selected = null;
  // A move made for an engine that could not answer: the engine's turn is over.
  state.engineStuck = false;
  await goTo(afterMove(current().position, move), state.generation);
}

// The engine is to move and waits for no one (its request did not fail).
const engineToMove = () => state.mode === 'engine' && moverIndex() === state.engineSide && !state.engineStuck;

function undo() {
  if (state.busy) return;
  setError('');
  if (state.history.length <= 1) {
    state.engineStuck = false;
    if (current()) { render(); }
    return;
  }
  state.focus = focusOf(document.activeElement) || state.focus;
  // Against the engine, undo goes back to the last position where you were to move.
  let steps = 1;
  if (state.mode === 'engine' && state.history.length >= 3) {
    steps = moverIndex() === state.engineSide ? 1 : 2;
  }
  state.engineStuck = false;
  steps = Math.min(steps, state.history.length - 1);
  state.history.splice(-steps);
  state.answers.splice(-steps);
  // Back at the start after "Engine moves first": the human moves first now
  // (or asks the engine again), rather than wait for an engine that is idle.
  if (state.history.length === 1) state.engineSide = 1;
  state.hinted = null;
  state.selected = null;
  state.lastEngine = null;
  state.partMoves = new Map();
  render();
  renderControls();
}

// The hint follows the position's outcome (as the badge does), not the moves
// listed: an N-position has a winning move even when the list lacks it.
function hint() {
  const answer = current();
  if (!answer || state.busy) return;
  state.hinted = null;
  const normal = answer.convention !== 'misere';
  if (gameOver(answer)) {
    setStatus('No move left: the game is over.');
  } else if (answer.outcome === 'N') {
    const winning = answer.moves.findIndex((m) => m.wins === true);
    const why = normal && typeof answer.nimber === 'number'
      ? ` The nim-sum is ${answer.nimber}; this move makes it 0.` : '';
    if (winning >= 0) {
      state.hinted = winning;
      const move = answer.moves[winning];
      setStatus(`Hint: ${move.move}${move.to ? ` (to ${shortenDigits(move.to)})` : ''}.${why}`);
    } else {
      const known = (answer.winning_moves || [])[0];
      setStatus(`Hint: this is an N-position: a winning move exists${known ? `: ${known.move}` : ''}, but it is not among the moves listed here.`);
    }
  } else {
    const zero = normal ? ' (nim-sum 0)' : '';
    setStatus(`Hint: this is a P-position${zero}: every move loses against perfect play. ` +
      'Make a small move and hope your opponent errs.');
  }
  renderMoves();
}

// The engine makes the first move; if it cannot, the human keeps the first
// move (and may ask again with Retry).
async function engineFirst() {
  if (state.history.length !== 1 || state.mode !== 'engine' || state.busy) return;
  const generation = state.generation;
  state.engineSide = 0;
  state.engineStuck = false;
  setError('');
  setBusy(true);
  render();
  try {
    await maybeEngine(generation);
  } catch (e) {
    if (generation === state.generation && state.history.length === 1) state.engineSide = 1;
    if (generation === state.generation) showError(`The engine could not answer: ${e.message}`, engineFirst);
  } finally {
    if (generation === state.generation) { setBusy(false); render(); keepFocus(); }
  }
}

// ---------------------------------------------------------------- focus
//
// A move re-draws the position, and the element that had the keyboard focus
// goes with it: the focus moves to its twin in the new drawing (the same
// token, cell or vertex when it is still there), else to the first move of
// the same picture or list, else to the game itself (never to the page's body).

function focusOf(node) {
  if (!node || node === document.body) return null;
  const area = node.closest('#board') ? 'board' : node.closest('#moves') ? 'moves' : node.closest('#game') ? 'game' : null;
  if (!area) return null;
  const attributes = [...node.attributes].filter((a) => /^data-(heap|level|cell|vertex|edge|coin|number|choose-heap|part|index)$/.test(a.name));
  const selector = attributes.length ? `${node.tagName.toLowerCase()}${attributes.map((a) => `[${a.name}="${CSS.escape(a.value)}"]`).join('')}` : null;
  const piece = node.closest('[data-piece]');
  return { area, selector, piece: piece ? piece.dataset.piece : null };
}

const focusable = (node) => node && !node.disabled && node.getAttribute('aria-disabled') !== 'true'
  && (node.tabIndex >= 0 || node.tagName === 'BUTTON' || node.tagName === 'INPUT');

function keepFocus() {
  const active = document.activeElement;
  if (active && active !== document.body && active.id !== 'game' && document.contains(active)) return;
  const hint = state.focus;
  if (!hint) return;
  const area = hint.area === 'moves' ? $('moves') : $('board');
  const candidates = [];
  if (hint.selector) candidates.push(...area.querySelectorAll(hint.selector));
  if (hint.piece) {
    const piece = area.querySelector(`[data-piece="${CSS.escape(hint.piece)}"]`);
    if (piece) candidates.push(...piece.querySelectorAll('[role=button], button, input'));
  }
  candidates.push(...area.querySelectorAll('[role=button], button'), ...$('moves').querySelectorAll('button'));
  const target = candidates.find(focusable) || $('game');
  target.focus({ preventScroll: true });
}

// ---------------------------------------------------------------- rendering

function render() {
  const answer = current();
  if (!answer) return;
  $('current').textContent = answer.position;
  const badge = $('outcome');
  // Under misère play a position has no nimber: the badge says only who wins.
  const nimber = answer.nimber !== null && answer.nimber !== undefined
    ? ` (nimber ${shortenDigits(String(answer.nimber))})` : '';
  const misere = answer.convention === 'misere' ? ', misère play' : '';
  badge.textContent = answer.first_player_wins
    ? `N-position: the player to move wins${nimber}${misere}`
    : `P-position: the player to move loses${nimber}${misere}`;
  badge.className = `badge ${answer.first_player_wins ? 'n' : 'p'}`;
  renderParts(answer);
  renderBoard(answer);
  renderMoves();
  renderHistory();
  renderStatus();
  renderControls();
  renderRules(answer);
  keepFocus();
}

// What a click does on each kind of picture.
const HOW_TO_PLAY = {
  heaps: 'Heaps: click a token to take it and every token above it; or press a heap\'s button under the picture to see all its moves (splits and moves of several heaps too) and to take any number you type.',
  coins: 'Coins: click the coins to turn over (they are marked), then press the button under them.',
  graph: 'Graph: click an edge to cut it, or the vertex a token moves to (with several tokens, click the token first).',
  tokenBoard: 'Board: click the cell the token moves to.',
  cram: 'Cram: click an empty cell, then a neighbour: a domino covers both.',
  wythoff: 'Wythoff: click the square the queen moves to (left, down, or diagonally towards the corner).',
  chomp: 'Chomp: click a square to eat it and every square above and to its right; the poisoned square ☠ is never eaten.',
  numbers: 'Numbers: click a number to take it away with every divisor of it still there.',
  grid: 'Grid: click a cell, then choose how many counters move up or left.',
  none: 'A game without a picture: press one of the moves listed with it.',
};

// The rules of each game in the position (the catalogue's text, as `grundy
// games NAME` prints it) and how to play its pictures.
function renderRules(answer) {
  const kinds = new Set();
  for (const part of answer.parts || []) {
    if (!part.drawing) { kinds.add('none'); continue; }
    const kind = part.drawing.kind;
    if (kind === 'board') kinds.add(part.drawing.cells.includes('token') ? 'tokenBoard' : 'cram');
    else kinds.add(kind);
  }
  if ((answer.parts || []).length === 0) kinds.add('none');
  const how = $('how-to-play');
  how.replaceChildren(el('strong', {}, 'How to play: '),
    ...[...kinds].map((kind) => HOW_TO_PLAY[kind]).filter(Boolean).flatMap((text) => [text, ' ']),
    'Every move is also in the list of moves, grouped by part, winning moves (✓) first.');
  const rules = $('rules');
  rules.replaceChildren();
  const names = new Set([...String(answer.position).matchAll(/\b([a-z_][a-z0-9_]*)\s*[[(]/g)].map((m) => m[1]));
  for (const game of state.games) {
    if (!names.has(game.name) && !game.aliases.some((alias) => names.has(alias))) continue;
    rules.append(el('h3', {}, `${game.name}: ${game.summary}`), el('p', {}, withoutFiles(game.rules)));
  }
  const shown = [...rules.querySelectorAll('h3')].map((h) => h.textContent.split(':')[0]);
  $('rules-box').querySelector('summary').textContent = `Rules of ${shown.join(', ')}`;
  $('rules-box').hidden = shown.length === 0;
}

// The catalogue's texts name forms the server refuses (`@PATH`, `@FILE`: a
// file on the server's disk): left out here.
function withoutFiles(text) {
  return String(text)
    .replace(/,? or @FILE(?::counted)? \([^()]*(?:\([^()]*\)[^()]*)*\)/g, '')
    .replace(/@PATH \([^()]*\) or /g, '')
    .replace(/\S*@PATH\S* or /g, '')
    .replace(/ or `?@PATH`?/g, '');
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
  if (state.mode === 'engine' && mover === state.engineSide && state.engineStuck) {
    setStatus(`${prefix}The engine is to move, but it could not answer: Retry, make its move for it, or Undo.`);
  } else if (state.mode === 'engine' && mover === state.engineSide) {
    setStatus(`${prefix}The engine is to move.`);
  } else {
    setStatus(`${prefix}${playerName(mover)[0].toUpperCase()}${playerName(mover).slice(1)} to move.`);
  }
}

function renderControls() {
  $('start').disabled = state.busy;
  $('undo').disabled = state.busy || state.history.length <= 1;
  $('engine-first').disabled = state.busy || state.mode !== 'engine' || state.history.length !== 1
    || state.engineSide === 0 || !current() || gameOver(current());
  $('hint').disabled = state.busy || !current();
  const waiting = current() && engineToMove();
  // The board's buttons say whether they play a move (`data-playable`).
  for (const button of document.querySelectorAll('#moves button.move, #board button')) {
    button.disabled = state.busy || waiting || (current() && gameOver(current())) || button.dataset.playable === 'false';
  }
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
    table.append(el('tr', {}, el('td', {}, el('code', { title: part.term }, shortenDigits(part.term))),
      el('td', { class: 'num' }, part.nimber === null ? '?' : shortNumber(part.nimber)),
      el('td', { class: 'bin' }, binary(part.nimber))));
  }
  if (answer.parts_complete === false) {
    table.append(el('tr', {}, el('td', { colspan: '3' },
      `… and more parts: the first ${parts.length} are shown (the nim-sum counts them all)`)));
  }
  const sum = answer.nim_sum;
  table.append(el('tr', { class: 'total' }, el('td', {}, 'nim-sum (xor)'),
    el('td', { class: 'num', id: 'nim-sum' }, sum === null ? '?' : shortNumber(sum)),
    el('td', { class: 'bin' }, binary(sum))));
  let theory = '';
  if (answer.convention === 'misere') {
    theory = 'Misère play: the nimbers of the parts do not decide the game alone; grundy searches it (or applies the Anti-SG rule).';
  } else if (sum !== null && sum !== 0) {
    const restoring = answer.moves.filter((m) => m.wins).length;
    theory = `The nim-sum is ${shortNumber(sum)}, not 0: the player to move wins by moving one part from nimber g to g xor ${shortNumber(sum)}, which restores a nim-sum of 0 (${restoring} such move${restoring === 1 ? '' : 's'} listed).`;
  } else if (sum === 0) {
    theory = 'The nim-sum is 0: every move changes one part, so the nim-sum stops being 0 and the opponent can restore it. The player to move loses against perfect play.';
  }
  $('theory').textContent = theory;
}

// Winning moves first, then those whose value is unknown, then the others
// (each kept in the order listed).
function winningFirst(moves) {
  const rank = (move) => (move.wins === true ? 0 : move.wins === false ? 2 : 1);
  return moves.map((move, order) => ({ move, order })).sort((a, b) => rank(a.move) - rank(b.move) || a.order - b.order).map(({ move }) => move);
}

// The moves of one part (a component of the sum) among those listed.
const movesOfPart = (moves, part) => moves.filter((m) => m.term === part.group && m.component === part.component);

// What a move leaves: the term its component becomes, or the whole position.
function leaves(move) {
  if (move.component_to !== undefined && move.component_to !== null) return move.component_to;
  return move.to || '';
}

// Labels for a list of moves: numbers past 12 digits are shortened, except
// where two moves would then read the same (those keep every digit).
function moveLabels(moves) {
  const short = moves.map((move) => `${shortenDigits(move.move)}|${shortenDigits(leaves(move))}`);
  const seen = new Map();
  for (const label of short) seen.set(label, (seen.get(label) || 0) + 1);
  return moves.map((move, i) => {
    const exact = seen.get(short[i]) > 1;
    const text = exact ? String(move.move) : shortenDigits(move.move);
    const left = exact ? String(leaves(move)) : shortenDigits(leaves(move));
    return { text, left, exact };
  });
}

// A move as a button: what it does, what it leaves, and whether it wins
// (a word and a sign, besides the colour).
function moveButton(move, label, extra = {}) {
  const answer = current();
  const colour = $('show-colours').checked;
  const kind = move.wins === true ? 'win' : move.wins === false ? 'lose' : 'unknown';
  const value = move.nimber !== null && move.nimber !== undefined
    ? `nimber ${shortenDigits(String(move.nimber))}` : (move.outcome ? `${move.outcome}-position` : 'value unknown');
  const verdict = move.wins === true ? '✓ wins' : move.wins === false ? '✗ loses' : '? unknown';
  const index = answer ? answer.moves.indexOf(move) : -1;
  const button = el('button', {
    type: 'button',
    class: `move ${colour ? kind : 'plain'}${index >= 0 && state.hinted === index ? ' hinted' : ''}${label.exact ? ' exact' : ''}`,
    'data-wins': String(move.wins),
    title: `${move.move}: leaves ${leaves(move)}`,
    onclick: () => play(move),
    ...extra,
  }, el('span', { class: 'what' }, label.text),
  el('span', { class: 'left' }, `leaves ${label.left}`),
  el('span', { class: 'after' }, `${verdict} · ${value}`));
  if (index >= 0) button.dataset.index = String(index);
  if (move.to) button.dataset.to = move.to;
  button.disabled = state.busy || engineToMove() || (answer && gameOver(answer));
  return button;
}

// The moves, grouped by the part they move, winning moves first in each
// group; a part whose moves the list (a sample) lacks can ask for them.
function renderMoves() {
  const answer = current();
  const list = $('moves');
  list.replaceChildren();
  const parts = answer.parts || [];
  const groups = parts.length === 0
    ? [{ title: 'Moves of the whole position', moves: answer.moves, part: null }]
    : parts.map((part, i) => ({ title: `Part ${i + 1}: ${shortenDigits(part.term)}`, moves: partMoves(answer, part), part }));
  const grouped = new Set(groups.flatMap((group) => group.moves));
  const others = answer.moves.filter((move) => !grouped.has(move));
  if (others.length) groups.push({ title: 'Other moves', moves: others, part: null });
  for (const group of groups) {
    const moves = winningFirst(group.moves);
    const section = el('section', { class: 'move-group' });
    const wins = moves.filter((m) => m.wins === true).length;
    const known = group.part ? partMovesKnown(answer, group.part) : answer.moves_complete;
    section.append(el('h3', { title: group.part ? group.part.term : '' }, group.title,
      el('small', {}, ` ${moves.length}${known ? '' : '+'} move${moves.length === 1 ? '' : 's'}, ${wins} winning`)));
    const ordered = el('ol', { class: 'move-list' });
    const labels = moveLabels(moves);
    moves.forEach((move, k) => ordered.append(el('li', {}, moveButton(move, labels[k]))));
    section.append(ordered);
    if (group.part && !known && !state.partMoves.has(partKey(group.part))) {
      section.append(el('button', {
        type: 'button', class: 'more', 'data-part': partKey(group.part),
        onclick: () => loadPartMoves(group.part),
      }, moves.length ? 'list more moves of this part' : 'list the moves of this part'));
    }
    list.append(section);
  }
  const wins = answer.moves.filter((m) => m.wins).length;
  $('moves-count').textContent = answer.moves.length
    ? `(${answer.moves.length}${answer.moves_complete ? '' : '+'}, ${wins} winning)` : '';
  if (!answer.moves_complete && answer.play_note) {
    list.append(el('p', { class: 'note' }, answer.play_note));
  }
}

// The moves of a part: those listed, or, once asked for, those of the part
// alone (the list of a large sum is a sample that may leave a part out).
function partMoves(answer, part) {
  const own = state.partMoves.get(partKey(part));
  return own ? own.moves : movesOfPart(answer.moves, part);
}

const partMovesKnown = (answer, part) => answer.moves_complete
  || Boolean(state.partMoves.get(partKey(part)) && state.partMoves.get(partKey(part)).complete);

// A sample of the moves of a large sum may leave parts out entirely (the
// heap of 1 beside a heap of 10^40): up to 8 such parts have their own moves
// asked for at once, so that their pictures and lists play them too.
async function fillLeftOutParts(generation) {
  const answer = current();
  if (!answer || answer.moves_complete || engineToMove() || gameOver(answer)) return;
  const left = (answer.parts || []).filter((part) => !state.partMoves.has(partKey(part))
    && movesOfPart(answer.moves, part).length === 0).slice(0, 8);
  if (left.length === 0) return;
  const length = state.history.length;
  const found = await Promise.all(left.map((part) => api('/api/solve', { position: part.term }).catch(() => null)));
  if (generation !== state.generation || length !== state.history.length) return;
  left.forEach((part, i) => { if (found[i]) state.partMoves.set(partKey(part), asMovesOfSum(answer, part, found[i])); });
  render();
}

// The moves of `part` alone (`alone`, its /api/solve answer) as moves of the
// whole position: compact (the part's term and component, what it becomes),
// valued from the nim-sum under normal play; a move listed already is kept.
function asMovesOfSum(answer, part, alone) {
  const normal = answer.convention !== 'misere';
  const known = normal && answer.nim_sum !== null && part.nimber !== null;
  const listed = movesOfPart(answer.moves, part);
  const moves = alone.moves.map((m) => {
    const to = m.component_to !== undefined && m.component_to !== null ? m.component_to : m.to;
    const same = listed.find((l) => l.component_to === to);
    if (same) return same;
    let nimber = null;
    if (known && m.nimber !== null) nimber = BigInt(answer.nim_sum) ^ BigInt(part.nimber) ^ BigInt(m.nimber);
    return {
      ...m, to: null, term: part.group, component: part.component, component_to: to,
      nimber: nimber === null ? null : (nimber <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(nimber) : String(nimber)),
      outcome: nimber === null ? null : (nimber === 0n ? 'P' : 'N'),
      wins: nimber === null ? null : nimber === 0n,
    };
  });
  return { moves, complete: alone.moves_complete };
}

// Asks the server for the moves of one part alone and makes each a move of
// the whole position: compact (the part's term and component, what it
// becomes), its value from the nim-sum under normal play.
async function loadPartMoves(part) {
  const answer = current();
  if (!answer || state.busy) return;
  const generation = state.generation, length = state.history.length;
  setBusy(true);
  try {
    const alone = await api('/api/solve', { position: part.term });
    if (generation !== state.generation || length !== state.history.length) return;
    state.partMoves.set(partKey(part), asMovesOfSum(answer, part, alone));
    render();
  } catch (e) {
    if (generation === state.generation) setError(`The moves of ${shortenDigits(part.term)} could not be listed: ${e.message}`);
  } finally {
    if (generation === state.generation) { setBusy(false); keepFocus(); }
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

// A target as a key: `heap:0:2`, `coin:3`, `vertex:1`, `edge:0`, `square:2,5`,
// `cell:4`, `coins:1,3`, `number:6`, `transfer:1,1>0,1:2`.
function targetKey(target) {
  switch (target.kind) {
    case 'heap': return `heap:${target.heap}:${target.level}`;
    case 'coin': return `coin:${target.coin}`;
    case 'vertex': return `vertex:${target.vertex}`;
    case 'edge': return `edge:${target.edge}`;
    case 'square': return `square:${target.x},${target.y}`;
    case 'cell': return `cell:${target.cell}`;
    case 'coins': return `coins:${target.coins.join(',')}`;
    case 'number': return `number:${target.number}`;
    case 'transfer': return `transfer:${target.from}>${target.to}:${target.counters}`;
    case 'domino': return `domino:${target.cells.join(',')}`;
    default: return null;
  }
}

// The moves of one part that a click on its drawing plays, by target key.
function clickTargets(answer, part) {
  const found = new Map();
  for (const move of partMoves(answer, part)) {
    if (move.term !== part.group || move.component !== part.component || !move.target) continue;
    const key = targetKey(move.target);
    if (key !== null && !found.has(key)) found.set(key, move);
  }
  return found;
}

// A size sent as a number or, past 2^53, as a decimal string: a number when small.
const small = (value, most) => (typeof value === 'number' && value <= most ? value : null);

// A number of more than 12 digits, shortened for a drawing or a button:
// `10^40` for a power of ten, `1.23…×10^40` otherwise (the full number goes in
// a tooltip).
function shortNumber(value) {
  const digits = String(value);
  if (!/^\d{13,}$/.test(digits)) return digits;
  const exponent = digits.length - 1;
  if (/^10*$/.test(digits)) return `10^${exponent}`;
  const rest = digits.slice(1, 3).replace(/0+$/, '');
  return `${digits[0]}${rest ? `.${rest}` : ''}…×10^${exponent}`;
}

// Every number of more than 12 digits in a text, shortened.
const shortenDigits = (text) => String(text).replace(/\d{13,}/g, shortNumber);

function renderBoard(answer) {
  const board = $('board');
  board.replaceChildren();
  const parts = answer.parts || [];
  if (parts.length === 0 && answer.moves.length) {
    // every(...), rounds[k](...): no parts to draw, the moves are of the whole.
    board.append(choicesBox(answer, null, answer.moves, 'This position moves as a whole: choose one of its moves.'));
  }
  for (const group of pictures(parts.filter((part) => part.drawing))) {
    if (group.length > 1) {
      board.append(drawTokensOnOneGraph(answer, group));
      continue;
    }
    const [part] = group;
    const nimber = part.nimber === null || part.nimber === undefined ? '?' : shortNumber(part.nimber);
    const box = el('div', { class: 'piece', 'data-piece': partKey(part) },
      el('div', { class: 'caption', title: part.term }, `${shortenDigits(part.term)}  (nimber ${nimber})`));
    const targets = clickTargets(answer, part);
    const draw = {
      heaps: drawHeaps, wythoff: drawWythoff, coins: drawCoins, graph: drawGraph, chomp: drawChomp, board: drawCells,
      numbers: drawNumbers, grid: drawGrid,
    }[part.drawing.kind];
    const drawing = draw ? draw(part.drawing, targets, part) : null;
    if (drawing) box.append(drawing);
    if (part.drawing.kind === 'heaps') box.append(heapChooser(answer, part));
    else if (!drawing) box.append(choicesBox(answer, part, partMoves(answer, part), 'Too large to draw: choose one of its moves.', false));
    board.append(box);
  }
  // The parts of games with no picture: their moves, to choose from.
  for (const part of parts.filter((p) => !p.drawing)) {
    board.append(choicesBox(answer, part, partMoves(answer, part), 'No picture for this game: choose one of its moves.'));
  }
  for (const picture of board.querySelectorAll('svg')) {
    // A picture with things to click is a group of buttons; one without, an image.
    const interactive = picture.querySelector('[role=button]') !== null;
    picture.setAttribute('role', interactive ? 'group' : 'img');
    picture.classList.toggle('interactive', interactive);
    if (!picture.getAttribute('aria-label')) {
      const caption = picture.closest('.piece') && picture.closest('.piece').querySelector('.caption');
      picture.setAttribute('aria-label', caption ? caption.textContent : 'the position');
    }
  }
}

// A part (or the whole position, `part` null) played by choosing among its
// moves: a caption and a button for each, winning moves first.
function choicesBox(answer, part, moves, how, framed = true) {
  const inner = el('div', { class: 'choices' }, el('p', { class: 'how' }, how));
  const ordered = winningFirst(moves);
  const labels = moveLabels(ordered);
  const list = el('ol', { class: 'move-list' });
  ordered.forEach((move, k) => list.append(el('li', {}, moveButton(move, labels[k]))));
  inner.append(list);
  if (part && !partMovesKnown(answer, part) && !state.partMoves.has(partKey(part))) {
    inner.append(el('button', { type: 'button', class: 'more', onclick: () => loadPartMoves(part) }, 'list the moves of this part'));
  }
  if (!framed) return inner;
  const nimber = part && part.nimber !== null && part.nimber !== undefined ? `  (nimber ${shortNumber(part.nimber)})` : '';
  return el('div', { class: 'piece', 'data-piece': part ? partKey(part) : 'whole' },
    el('div', { class: 'caption', title: part ? part.term : answer.position }, `${shortenDigits(part ? part.term : answer.position)}${nimber}`), inner);
}

// The moves of heap `heap` of a part drawn as heaps: those that take from it,
// split it, or (staircase, Moore's Nim) take from it among others.
function movesOfHeap(moves, heaps, heap) {
  if (heaps.length === 1) return moves;
  return moves.filter((move) => {
    const t = move.target;
    if (!t) return false;
    if (t.kind === 'heap' || t.kind === 'split') return t.heap === heap;
    if (t.kind === 'heaps') return t.heaps.some((h) => h.heap === heap && BigInt(h.level) < BigInt(heaps[heap]));
    return false;
  });
}

// The game of a term, with its parameters: `sub[1, 3, 4]` of `sub[1, 3, 4](10)`.
const headOf = (term) => { const m = /^(.*)\([^()]*\)$/s.exec(term); return m ? m[1] : null; };

// Games whose one move is to take any number of tokens from one heap (and,
// for Lasker's Nim, to split a heap): a take typed in is a move of the game
// even when the list of moves is a sample.
const TAKE_ANY = new Set(['nim', 'anti_nim', 'lasker']);

// Below a picture of heaps: a button for each heap; the heap chosen shows all
// its moves (splits, moves of several heaps) and a box to take any number.
function heapChooser(answer, part) {
  const heaps = part.drawing.heaps;
  const key = partKey(part);
  const moves = partMoves(answer, part);
  const box = el('div', { class: 'heap-chooser' });
  const chosen = state.selected && state.selected.part === key && state.selected.heap !== undefined ? state.selected.heap : null;
  const row = el('div', { class: 'heap-buttons', role: 'group', 'aria-label': `the heaps of ${shortenDigits(part.term)}` });
  heaps.forEach((size, h) => {
    const button = el('button', {
      type: 'button', class: `choose-heap${chosen === h ? ' chosen' : ''}`, 'data-choose-heap': String(h),
      'aria-pressed': String(chosen === h),
      onclick: () => {
        state.selected = chosen === h ? null : { part: key, heap: h };
        state.focus = { area: 'board', selector: `button[data-choose-heap="${h}"]`, piece: key };
        renderBoard(current());
        renderControls();
        const again = document.querySelector(`#board [data-piece="${key}"] button[data-choose-heap="${h}"]`);
        if (again) again.focus();
      },
    }, heaps.length === 1 ? `all moves of this heap (${shortNumber(size)})` : `heap ${h + 1} (${shortNumber(size)})`);
    button.dataset.playable = String(BigInt(size) > 0n);
    row.append(button);
  });
  box.append(row);
  if (chosen === null || chosen >= heaps.length) return box;
  const size = heaps[chosen];
  const own = movesOfHeap(moves, heaps, chosen);
  const panel = el('div', { class: 'heap-moves' });
  // Take any number: the move listed that leaves as many, or, for a game
  // whose rule allows any take, the move built (compact).
  const game = (headOf(part.term) || '').replace(/\[.*$/s, '');
  const form = el('form', { class: 'take' });
  const amount = el('input', { type: 'text', inputmode: 'numeric', id: `take-${key.replace(':', '-')}`, size: '8', value: '1' });
  const message = el('span', { class: 'take-message', role: 'status' });
  form.append(el('label', { for: amount.id }, `take `), amount, ` from heap ${chosen + 1} (of ${shortNumber(size)}) `,
    el('button', { type: 'submit', class: 'take-go' }, 'Play'), ' ', message);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const text = amount.value.trim();
    if (!/^\d+$/.test(text) || BigInt(text) === 0n || BigInt(text) > BigInt(size)) {
      message.textContent = `Type a number from 1 to ${shortNumber(size)}.`;
      return;
    }
    const level = BigInt(size) - BigInt(text);
    const listed = own.find((m) => m.target && m.target.kind === 'heap' && m.target.heap === chosen && BigInt(m.target.level) === level);
    if (listed) { play(listed); return; }
    const head = headOf(part.term);
    if (heaps.length === 1 && TAKE_ANY.has(game) && head) {
      play({ to: null, term: part.group, component: part.component, component_to: `${head}(${level})`, move: `take ${text} from the heap of ${size}` });
      return;
    }
    message.textContent = partMovesKnown(answer, part) ? `Taking ${shortNumber(text)} is not a move here.`
      : `Taking ${shortNumber(text)} is not among the moves listed (a sample).`;
  });
  panel.append(form);
  const ordered = winningFirst(own);
  const labels = moveLabels(ordered);
  const list = el('ol', { class: 'move-list' });
  ordered.forEach((move, k) => list.append(el('li', {}, moveButton(move, labels[k]))));
  panel.append(list);
  if (!partMovesKnown(answer, part) && !state.partMoves.has(key)) {
    panel.append(el('button', { type: 'button', class: 'more', onclick: () => loadPartMoves(part) }, 'list the moves of this part'));
  }
  box.append(panel);
  return box;
}

// The parts drawn together: the tokens of one term on the same graph (a
// `dag` with several tokens) make one picture; every other part its own.
function pictures(parts) {
  const groups = [];
  const sameGraph = (a, b) => a.group === b.group && a.drawing.kind === 'graph' && b.drawing.kind === 'graph'
    && a.drawing.directed && b.drawing.directed && a.drawing.vertices === b.drawing.vertices
    && JSON.stringify(a.drawing.edges) === JSON.stringify(b.drawing.edges);
  for (const part of parts) {
    const last = groups[groups.length - 1];
    if (last && sameGraph(last[0], part)) last.push(part);
    else groups.push([part]);
  }
  return groups;
}

// A part's key for the selection of a picture in two steps (a token, then
// where it goes; a grid's cell, then how many counters).
const partKey = (part) => `${part.group}:${part.component}`;

// Makes a drawn thing play `move` when clicked, or when focused and Enter or
// Space is pressed (it takes the keyboard focus in turn).
function clickable(node, move) {
  if (!move) return;
  node.classList.add('target');
  if ($('show-colours').checked) node.classList.add(move.wins ? 'win' : 'lose');
  if (move.to) node.setAttribute('data-to', move.to);
  const verdict = move.wins === true ? 'wins' : move.wins === false ? 'loses' : 'value unknown';
  const label = `${shortenDigits(move.move)}: ${verdict} (${move.nimber === null || move.nimber === undefined ? (move.outcome || '?') : `nimber ${shortNumber(move.nimber)}`})`;
  activates(node, label, () => play(move));
}

// A drawn thing that does `action` on a click, Enter or Space, with `label`
// as its tooltip and its name for a screen reader.
function activates(node, label, action) {
  node.setAttribute('tabindex', '0');
  node.setAttribute('role', 'button');
  node.setAttribute('aria-label', label);
  node.addEventListener('click', () => { if (!state.busy) action(); });
  node.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter' && event.key !== ' ') return;
    event.preventDefault();
    if (!state.busy) action();
  });
  node.append(svg('title', {}, label));
}

// Heaps of tokens; clicking a token takes it and every token above it: the
// heap keeps the tokens below. Heaps of more than 20 are drawn as bars, their
// sizes shortened past 12 digits (`10^40`).
function drawHeaps({ heaps }, targets) {
  if (heaps.length === 0) return null;
  const token = 26;
  const labels = heaps.map(shortNumber);
  const column = Math.max(token + 10, ...labels.map((label) => label.length * 7 + 8));
  const tallest = Math.min(Math.max(1, ...heaps.map((h) => small(h, 20) ?? 20)), 20);
  const width = heaps.length * column + 10;
  const height = tallest * (token + 2) + 28;
  const picture = svg('svg', { width, height, class: 'heaps' });
  heaps.forEach((heap, h) => {
    const x = 5 + h * column + column / 2;
    const size = small(heap, 20);
    const label = svg('text', { x, y: height - 6, 'text-anchor': 'middle', class: 'label' }, labels[h]);
    if (labels[h] !== String(heap)) label.append(svg('title', {}, String(heap)));
    if (size === null) {
      picture.append(svg('rect', { x: x - token / 2, y: 8, width: token, height: height - 36, class: 'bar' }));
      picture.append(label);
      return;
    }
    for (let level = 0; level < size; level++) {
      const y = height - 24 - level * (token + 2) - token / 2;
      const circle = svg('circle', { cx: x, cy: y, r: token / 2, class: 'token', 'data-heap': h, 'data-level': level });
      clickable(circle, targets.get(`heap:${h}:${level}`));
      picture.append(circle);
    }
    picture.append(label);
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
  const cell = Math.max(26, Math.min(32, Math.floor(420 / (Math.max(width, height) + 1))));
  const columns = width + 1, rows = height + 1;
  const picture = svg('svg', { width: columns * cell + 30, height: rows * cell + 30, class: 'wythoff' });
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

// A row of coins, coin 1 leftmost. A move turns one coin or several: clicking
// (or Enter, Space) marks a coin or unmarks it, and the button below turns the
// marked coins over when they make a move (its colour says whether it wins).
function drawCoins({ heads }, targets, part) {
  const key = partKey(part);
  const marked = state.selected && state.selected.part === key ? state.selected.coins : new Set();
  const byCoins = new Map();
  for (const [target, move] of targets) {
    const coins = target.startsWith('coins:') ? target.slice(6) : target.startsWith('coin:') ? target.slice(5) : null;
    if (coins !== null) byCoins.set(coins, move);
  }
  const playable = new Set([...byCoins.keys()].flatMap((coins) => coins.split(',').map(Number)));
  const size = 26;
  const picture = svg('svg', { width: heads.length * (size + 4) + 8, height: size + 26, class: 'coins' });
  heads.forEach((head, i) => {
    const x = 4 + i * (size + 4) + size / 2;
    const coin = svg('circle', {
      cx: x, cy: size / 2 + 2, r: size / 2 - 1, 'data-coin': i + 1,
      class: `coin ${head ? 'heads' : 'tails'}${marked.has(i) ? ' marked' : ''}`,
    });
    if (playable.has(i)) {
      coin.classList.add('target');
      activates(coin, `${marked.has(i) ? 'unmark' : 'mark'} coin ${i + 1}`, () => {
        const coins = new Set(marked);
        if (coins.has(i)) coins.delete(i); else coins.add(i);
        state.selected = { part: key, coins };
        renderBoard(current());
        const again = document.querySelector(`#board [data-part="${key}"] circle.coin[data-coin="${i + 1}"]`);
        if (again) again.focus();
      });
    }
    picture.append(coin);
    picture.append(svg('text', { x, y: size / 2 + 7, 'text-anchor': 'middle', class: 'coin-face' }, head ? 'H' : 'T'));
    picture.append(svg('text', { x, y: size + 20, 'text-anchor': 'middle', class: 'label' }, i + 1));
  });
  const chosen = [...marked].sort((a, b) => a - b);
  const move = byCoins.get(chosen.join(','));
  const colour = move && $('show-colours').checked ? (move.wins ? ' win' : ' lose') : '';
  const turn = el('button', { type: 'button', class: `turn${colour}`, onclick: () => { if (move) play(move); } },
    chosen.length === 0 ? 'mark the coins to turn over'
      : move ? `turn over coin${chosen.length > 1 ? 's' : ''} ${chosen.map((c) => c + 1).join(', ')}`
        : `coins ${chosen.map((c) => c + 1).join(', ')}: not a move`);
  turn.dataset.playable = String(Boolean(move));
  turn.disabled = !move || state.busy;
  if (move && move.to) turn.dataset.to = move.to;
  const box = el('div', { class: 'coin-row', 'data-part': key });
  box.append(picture, turn);
  return box;
}

// A graph with its vertices on a circle, numbered from 1 as the position
// language numbers them (the ground, for Hackenbush, at the bottom). Cut edges
// are left out and those no longer joined to the ground drawn faint; an edge
// that can be cut is clicked to cut it. Tokens' vertices are filled (with
// their count when several stand there), deleted vertices grey, and a vertex
// a token may go to is clicked to move there; `select`, when given, is what
// a click on a token's vertex does instead (choose the token to move).
function drawGraph(graph, targets, part, select = null) {
  const n = graph.vertices;
  if (n < 1 || n > 60) return null;
  const cut = new Set(graph.cut), hanging = new Set(graph.hanging);
  const deleted = new Set(graph.deleted);
  const tokens = new Map();
  for (const v of graph.tokens) tokens.set(v, (tokens.get(v) || 0) + 1);
  const size = n > 16 ? 340 : 260, r = size / 2 - 30, c = size / 2;
  const spot = (v) => {
    const angle = Math.PI / 2 + (2 * Math.PI * v) / n;
    return [c + r * Math.cos(angle), c + r * Math.sin(angle)];
  };
  const kind = graph.ground !== null ? ' grounded' : graph.directed ? ' directed' : '';
  const picture = svg('svg', { width: size, height: size, class: `graph${kind}` });
  const defs = svg('defs');
  const marker = svg('marker', { id: 'arrow', viewBox: '0 0 10 10', refX: '18', refY: '5', markerWidth: '6', markerHeight: '6', orient: 'auto-start-reverse' });
  marker.append(svg('path', { d: 'M 0 0 L 10 5 L 0 10 z', class: 'arrowhead' }));
  defs.append(marker);
  picture.append(defs);
  // The edges' wide click areas lie under every edge drawn.
  const hits = svg('g', { class: 'edge-hits' });
  picture.append(hits);
  graph.edges.forEach(([u, v], i) => {
    if (cut.has(i)) return;
    const faint = hanging.has(i);
    const [x1, y1] = spot(u), [x2, y2] = spot(v);
    const line = u === v
      ? svg('circle', { cx: x1, cy: y1 + 14, r: 12, fill: 'none', class: `edge${faint ? ' faint' : ''}`, 'data-edge': i + 1 })
      : svg('line', { x1, y1, x2, y2, class: `edge${faint ? ' faint' : ''}`, 'data-edge': i + 1 });
    if (graph.directed) line.setAttribute('marker-end', 'url(#arrow)');
    const move = targets.get(`edge:${i}`);
    if (move) {
      // A wide invisible stroke under the edge takes its clicks: a target of 24 px.
      const hit = line.cloneNode();
      hit.setAttribute('class', 'edge-hit');
      hit.removeAttribute('marker-end');
      hit.removeAttribute('data-edge');
      hit.setAttribute('aria-hidden', 'true');
      hit.addEventListener('click', () => { if (!state.busy) play(move); });
      hits.append(hit);
    }
    clickable(line, move);
    picture.append(line);
    if (move && !move.wins && $('show-colours').checked) {
      // A losing edge looks dashed: light gaps drawn over it, which take no clicks.
      const gaps = line.cloneNode();
      gaps.setAttribute('class', 'edge-gaps');
      for (const name of ['marker-end', 'data-edge', 'role', 'tabindex', 'aria-label', 'data-to']) gaps.removeAttribute(name);
      gaps.setAttribute('aria-hidden', 'true');
      picture.append(gaps);
    }
  });
  for (let v = 0; v < n; v++) {
    const [x, y] = spot(v);
    const vertex = svg('circle', {
      cx: x, cy: y, r: 12.5, 'data-vertex': v + 1,
      class: `vertex${graph.ground === v ? ' ground' : ''}${tokens.has(v) ? ' occupied' : ''}${deleted.has(v) ? ' deleted' : ''}`,
    });
    const move = targets.get(`vertex:${v}`);
    if (move) clickable(vertex, move);
    else if (select && select.choices.has(v)) {
      vertex.classList.add('chooser');
      if (select.chosen === v) vertex.classList.add('chosen');
      activates(vertex, select.chosen === v ? `the token on ${v + 1}: chosen (again to let go)` : `move the token on ${v + 1}`, () => select.choose(v));
    }
    picture.append(vertex);
    picture.append(svg('text', { x, y: y + 4, 'text-anchor': 'middle', class: 'vertex-label' }, v + 1));
    if ((tokens.get(v) || 0) > 1) {
      picture.append(svg('text', { x: x + 12, y: y - 9, class: 'token-count' }, `×${tokens.get(v)}`));
    }
  }
  return picture;
}

// The tokens of one `dag` term on one picture of its graph: a click on a
// token's vertex chooses the token (chosen at once when only one can move),
// then a click on a vertex it may go to moves it there.
function drawTokensOnOneGraph(answer, parts) {
  const targetsOf = new Map(parts.map((part) => [partKey(part), clickTargets(answer, part)]));
  const movable = parts.filter((part) => targetsOf.get(partKey(part)).size > 0);
  const tokenOf = (part) => part.drawing.tokens[0];
  let chosen = state.selected && movable.find((part) => partKey(part) === state.selected.part);
  if (!chosen && movable.length === 1) [chosen] = movable;
  const drawing = { ...parts[0].drawing, tokens: parts.flatMap((part) => part.drawing.tokens) };
  const select = {
    choices: new Set(movable.map(tokenOf)),
    chosen: chosen ? tokenOf(chosen) : null,
    choose: (v) => {
      const part = movable.find((p) => tokenOf(p) === v);
      state.selected = chosen && tokenOf(chosen) === v ? null : { part: partKey(part) };
      renderBoard(current());
      const again = document.querySelector(`#board svg.graph circle.vertex[data-vertex="${v + 1}"]`);
      if (again) again.focus();
    },
  };
  const nimbers = parts.map((part) => (part.nimber === null || part.nimber === undefined ? '?' : part.nimber));
  const caption = `tokens on ${parts.map((part) => tokenOf(part) + 1).join(', ')} (nimbers ${nimbers.join(', ')})`;
  const hint = chosen ? `the token on ${tokenOf(chosen) + 1} moves: click where it goes`
    : movable.length ? 'click a token to move it' : 'no token can move';
  const box = el('div', { class: 'piece' }, el('div', { class: 'caption' }, caption));
  const picture = drawGraph(drawing, chosen ? targetsOf.get(partKey(chosen)) : new Map(), parts[0], select);
  if (picture) box.append(picture);
  box.append(el('div', { class: 'caption' }, hint));
  return box;
}

// A Chomp bar, the poisoned square bottom left (marked ☠, never a move);
// clicking a square eats it and every square above and to the right of it.
function drawChomp({ rows }, targets) {
  if (rows.length === 0 || rows.length > 30 || Math.max(...rows) > 30) return null;
  const widest = Math.max(...rows);
  const cell = Math.max(26, Math.min(40, Math.floor(340 / Math.max(widest, rows.length))));
  const picture = svg('svg', { width: widest * cell + 4, height: rows.length * cell + 4, class: 'chomp' });
  rows.forEach((length, r) => {
    for (let c = 0; c < length; c++) {
      const x = 2 + c * cell, y = 2 + (rows.length - 1 - r) * cell;
      const poison = r === 0 && c === 0;
      const square = svg('rect', { x, y, width: cell - 2, height: cell - 2, rx: 3, class: poison ? 'poison' : 'square light', 'data-cell': `${c},${r}` });
      clickable(square, targets.get(`square:${c},${r}`));
      picture.append(square);
      if (poison) picture.append(svg('text', { x: x + (cell - 2) / 2, y: y + cell * 0.68, 'text-anchor': 'middle', class: 'poison-mark', 'font-size': cell * 0.55 }, '☠'));
    }
  });
  return picture;
}

// A board of cells, row 1 at the top: empty cells light, filled ones dark,
// the token's cell marked; a cell the token may go to is clicked to move there.
// Cram (no token): a domino is placed by clicking one of its cells, then the
// other (each cell that can start a domino is a button).
function drawCells({ rows, cols, cells }, targets, part) {
  if (rows < 1 || cols < 1 || rows > 30 || cols > 30) return null;
  const key = partKey(part);
  const cell = Math.max(26, Math.min(40, Math.floor(340 / Math.max(rows, cols))));
  const dominoes = new Map(); // cell -> [[other cell, move]]
  for (const [target, move] of targets) {
    const m = /^domino:(\d+),(\d+)$/.exec(target);
    if (!m) continue;
    const [a, b] = [Number(m[1]), Number(m[2])];
    for (const [here, there] of [[a, b], [b, a]]) {
      if (!dominoes.has(here)) dominoes.set(here, []);
      dominoes.get(here).push([there, move]);
    }
  }
  const chosen = state.selected && state.selected.part === key && state.selected.cell !== undefined ? state.selected.cell : null;
  const pairs = chosen !== null ? new Map(dominoes.get(chosen) || []) : new Map();
  const name = (index) => `(${Math.floor(index / cols) + 1},${(index % cols) + 1})`;
  const picture = svg('svg', { width: cols * cell + 4, height: rows * cell + 4, class: 'cells' });
  cells.forEach((content, index) => {
    const r = Math.floor(index / cols), c = index % cols;
    const square = svg('rect', {
      x: 2 + c * cell, y: 2 + r * cell, width: cell - 2, height: cell - 2,
      class: `square ${content === 'empty' ? 'light' : 'dark'}${content === 'token' ? ' occupied' : ''}${chosen === index ? ' chosen' : ''}`, 'data-cell': `${r + 1},${c + 1}`,
    });
    if (targets.has(`cell:${index}`)) {
      clickable(square, targets.get(`cell:${index}`));
    } else if (pairs.has(index)) {
      clickable(square, pairs.get(index));
    } else if (dominoes.has(index)) {
      square.classList.add('chooser');
      const choose = () => {
        state.selected = chosen === index ? null : { part: key, cell: index };
        renderBoard(current());
        renderControls();
        const again = document.querySelector(`#board [data-piece="${key}"] rect[data-cell="${r + 1},${c + 1}"]`);
        if (again) again.focus();
      };
      activates(square, chosen === index ? `cell ${name(index)}: chosen (click again to let go)` : `place a domino on cell ${name(index)} and a neighbour`, choose);
    }
    picture.append(square);
    if (content === 'token') picture.append(svg('circle', { cx: 2 + c * cell + (cell - 2) / 2, cy: 2 + r * cell + (cell - 2) / 2, r: cell / 3, class: 'token' }));
  });
  if (dominoes.size === 0) return picture;
  const box = el('div', { class: 'cells-box' }, picture);
  box.append(el('div', { class: 'caption' }, chosen !== null
    ? `cell ${name(chosen)} chosen: click the other cell of the domino (or the same cell to let go)`
    : 'click a cell, then a neighbour: a domino covers both'));
  return box;
}

// The numbers left of the divisors game: picking one (a click, Enter or
// Space) deletes it and every divisor of it left; focusing or hovering over
// a number marks the divisors that go with it.
function drawNumbers({ numbers }, targets) {
  if (numbers.length === 0) return null;
  const labels = numbers.map(shortNumber);
  const width = Math.max(30, ...labels.map((label) => label.length * 8 + 12));
  const perRow = Math.max(1, Math.min(10, Math.floor(340 / (width + 4))));
  const picture = svg('svg', {
    width: Math.min(numbers.length, perRow) * (width + 4) + 4, height: Math.ceil(numbers.length / perRow) * 34 + 4, class: 'numbers',
  });
  const chips = [];
  numbers.forEach((number, i) => {
    const x = 4 + (i % perRow) * (width + 4), y = 4 + Math.floor(i / perRow) * 34;
    const chip = svg('g', { class: 'number', 'data-number': String(number) });
    chip.append(svg('rect', { x, y, width, height: 30, rx: 6 }));
    chip.append(svg('text', { x: x + width / 2, y: y + 20, 'text-anchor': 'middle' }, labels[i]));
    clickable(chip, targets.get(`number:${number}`));
    chips.push(chip);
    picture.append(chip);
  });
  // Exact for numbers below 2^53 (the page gets larger ones as strings).
  const divides = (d, n) => typeof d === 'number' && typeof n === 'number' && n % d === 0;
  const mark = (number, on) => chips.forEach((chip, i) => chip.classList.toggle('divides', on && divides(numbers[i], number)));
  chips.forEach((chip, i) => {
    for (const [event, on] of [['mouseenter', true], ['mouseleave', false], ['focus', true], ['blur', false]]) {
      chip.addEventListener(event, () => mark(numbers[i], on));
    }
  });
  return picture;
}

// Grid Nim's heaps on their cells, row 1 at the top; the cells whose heaps
// make the nimber (row + column odd, counted from 1) are shaded. A click on a
// cell with moves chooses it; its moves (counters up or left) are then the
// buttons below the grid.
function drawGrid({ rows }, targets, part) {
  if (rows.length === 0 || rows.length > 20 || rows[0].length > 20) return null;
  const key = partKey(part);
  const transfers = new Map();
  for (const [target, move] of targets) {
    const m = /^transfer:(\d+),(\d+)>(\d+),(\d+):(\d+)$/.exec(target);
    if (!m) continue;
    const from = `${m[1]},${m[2]}`;
    if (!transfers.has(from)) transfers.set(from, []);
    transfers.get(from).push({ move, up: Number(m[3]) < Number(m[1]), counters: m[5] });
  }
  const chosen = state.selected && state.selected.part === key ? state.selected.cell : null;
  const labels = rows.map((row) => row.map(shortNumber));
  const cell = Math.max(34, Math.min(56, ...labels.flat().map((label) => label.length * 8 + 12)));
  const columns = rows[0].length;
  const picture = svg('svg', { width: columns * cell + 4, height: rows.length * cell + 4, class: 'grid' });
  rows.forEach((row, r) => row.forEach((heap, c) => {
    const x = 2 + c * cell, y = 2 + r * cell;
    const here = `${r},${c}`;
    const square = svg('g', { class: `grid-cell${(r + c) % 2 ? ' odd' : ''}${chosen === here ? ' chosen' : ''}`, 'data-cell': `${r + 1},${c + 1}` });
    square.append(svg('rect', { x, y, width: cell - 2, height: cell - 2 }));
    square.append(svg('text', { x: x + (cell - 2) / 2, y: y + cell / 2 + 4, 'text-anchor': 'middle' }, labels[r][c]));
    if (transfers.has(here)) {
      square.classList.add('target');
      activates(square, `${labels[r][c]} counters in cell (${r + 1}, ${c + 1}): move them`, () => {
        state.selected = chosen === here ? null : { part: key, cell: here };
        renderBoard(current());
        const again = document.querySelector(`#board svg.grid g[data-cell="${r + 1},${c + 1}"]`);
        if (again) again.focus();
      });
    }
    picture.append(square);
  }));
  const box = el('div', { class: 'grid-box' }, picture);
  if (chosen && transfers.has(chosen)) {
    const [r, c] = chosen.split(',').map(Number);
    const moves = el('div', { class: 'transfers' }, `from cell (${r + 1}, ${c + 1}): `);
    for (const { move, up, counters } of transfers.get(chosen)) {
      const colour = $('show-colours').checked ? (move.wins ? ' win' : ' lose') : '';
      const button = el('button', { type: 'button', class: `transfer${colour}`, title: move.move, onclick: () => play(move) },
        `${up ? '↑' : '←'} ${shortNumber(counters)}`);
      if (move.to) button.dataset.to = move.to;
      button.disabled = state.busy;
      moves.append(button);
    }
    box.append(moves);
  } else if (transfers.size) {
    box.append(el('div', { class: 'caption' }, 'click a cell to move its counters'));
  }
  return box;
}

// ---------------------------------------------------------------- explore

// The step between labelled ticks: the smallest of 1, 2, 5, 10, 20, 50, ...
// at which labels `room` pixels wide, `spacing` pixels apart per unit, do not
// overlap.
function tickStep(spacing, room) {
  for (let power = 1; ; power *= 10) {
    for (const step of [1, 2, 5]) {
      if (step * power * spacing >= room || step * power > 1e15) return step * power;
    }
  }
}

// The values `from..from + count - 1` along an axis, labelled at multiples of
// a step that keeps the labels apart: `at(i)` places index i, `horizontal`
// says which way the axis runs.
function ticks(picture, { from, count, spacing, at, horizontal, across }) {
  const widest = Math.max(String(from).length, String(from + count - 1).length);
  const step = tickStep(spacing, horizontal ? widest * 7 + 8 : 14);
  const first = Math.ceil(from / step) * step;
  const labelled = [];
  for (let value = first; value < from + count; value += step) labelled.push(value);
  // The end of the axis is always labelled: in place of the last round
  // value when the two would overlap.
  const end = from + count - 1;
  if (labelled[labelled.length - 1] !== end) {
    const room = horizontal ? widest * 7 + 8 : 14;
    if (labelled.length && Math.abs(at(end - from) - at(labelled[labelled.length - 1] - from)) < room) labelled.pop();
    labelled.push(end);
  }
  for (const value of labelled) {
    const position = at(value - from);
    if (horizontal) {
      picture.append(svg('line', { x1: position, y1: across, x2: position, y2: across + 4, class: 'tick' }));
      picture.append(svg('text', { x: position, y: across + 15, 'text-anchor': 'middle', class: 'label tick-label x' }, value));
    } else {
      picture.append(svg('line', { x1: across - 4, y1: position, x2: across, y2: position, class: 'tick' }));
      picture.append(svg('text', { x: across - 6, y: position + 4, 'text-anchor': 'end', class: 'label tick-label y' }, value));
    }
  }
}

// The width a plot may take in its box: the picture is drawn at that size,
// so that its text keeps its size on a phone.
const plotWidth = (box) => Math.max(300, Math.min(900, Math.floor($(box).clientWidth || 900)));

// Values as bars, the first standing for `from` (a table's range need not
// start at 0); the periodic part shaded in alternating bands of one period
// (`preperiod` counted from the first bar). More values than pixels: each
// pixel column is a band from the least to the greatest value it covers, with
// a mark below when one of them is 0 (a P-position).
function barPlot(values, { period = null, preperiod = null, saltus = 0, xLabel = 'n', zeros = true, from = 0, width = 900 } = {}) {
  const height = 260, left = 44, bottom = 30;
  const numbers = values.map((v) => (typeof v === 'number' ? v : Number(v)));
  const top = Math.max(1, ...numbers.filter(Number.isFinite));
  const count = numbers.length;
  const picture = svg('svg', {
    width, height, viewBox: `0 0 ${width} ${height}`, class: 'bars', role: 'img',
    'aria-label': `${xLabel} from ${from} to ${from + count - 1}: values up to ${top}`,
  });
  const inner = width - left - 10;
  const step = inner / Math.max(1, count);
  const x = (i) => left + i * step;
  const y = (v) => height - bottom - ((height - bottom - 10) * v) / top;
  if (period && preperiod !== null) {
    if (period * step >= 3) {
      for (let start = preperiod, band = 0; start < count; start += period, band++) {
        const end = Math.min(count, start + period);
        picture.append(svg('rect', {
          x: x(start), y: 8, width: (end - start) * step, height: height - bottom - 8,
          class: `period-band ${band % 2 ? 'odd' : 'even'}`, 'data-period-start': from + start,
        }));
      }
    } else if (preperiod < count) {
      // Periods narrower than 3 pixels: one band where the periodic part runs.
      picture.append(svg('rect', {
        x: x(preperiod), y: 8, width: (count - preperiod) * step, height: height - bottom - 8,
        class: 'period-band even', 'data-period-start': from + preperiod,
      }));
    }
    picture.append(svg('text', { x: x(preperiod) + 4, y: 20, class: 'label period-label' },
      `period ${period} from ${from + preperiod}${saltus ? `, saltus ${saltus}` : ''}`));
  }
  if (step >= 2) {
    numbers.forEach((v, i) => {
      if (!Number.isFinite(v)) return;
      const bar = svg('rect', {
        x: x(i) + step * 0.1, y: y(v), width: Math.max(1, step * 0.8), height: Math.max(0, height - bottom - y(v)),
        class: v === 0 && zeros ? 'value zero' : 'value', 'data-x': from + i,
      });
      bar.append(svg('title', {}, `${xLabel} = ${from + i}: ${v}`));
      picture.append(bar);
      if (v === 0 && zeros) picture.append(svg('circle', { cx: x(i) + step / 2, cy: height - bottom - 3, r: Math.min(3, step / 2), class: 'p-mark' }));
    });
  } else {
    const columns = Math.floor(inner);
    for (let c = 0; c < columns; c++) {
      const a = Math.floor((c * count) / columns), b = Math.max(a + 1, Math.floor(((c + 1) * count) / columns));
      let low = Infinity, high = -Infinity, zero = false;
      for (let i = a; i < b && i < count; i++) {
        const v = numbers[i];
        if (!Number.isFinite(v)) continue;
        if (v < low) low = v;
        if (v > high) high = v;
        if (v === 0) zero = true;
      }
      if (high === -Infinity) continue;
      const band = svg('rect', {
        x: left + c, y: y(high), width: 1, height: Math.max(1, y(low) - y(high)),
        class: 'value band', 'data-x': from + a,
      });
      band.append(svg('title', {}, `${xLabel} = ${from + a}..${from + b - 1}: ${low === high ? low : `${low}..${high}`}`));
      picture.append(band);
      if (zero && zeros) picture.append(svg('rect', { x: left + c, y: height - bottom + 1, width: 1, height: 3, class: 'p-mark' }));
    }
  }
  picture.append(svg('line', { x1: left, y1: height - bottom, x2: width - 8, y2: height - bottom, class: 'axis' }));
  picture.append(svg('line', { x1: left, y1: 8, x2: left, y2: height - bottom, class: 'axis' }));
  ticks(picture, { from, count, spacing: step, at: (i) => x(i) + step / 2, horizontal: true, across: height - bottom });
  ticks(picture, { from: 0, count: top + 1, spacing: (height - bottom - 10) / top, at: (v) => y(v), horizontal: false, across: left });
  picture.append(svg('text', { x: width - 8, y: height - 2, 'text-anchor': 'end', class: 'label' }, `${xLabel} →`));
  picture.append(svg('text', { x: 4, y: 12, class: 'label' }, 'G'));
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

// Up to 6 values of a legend between 1 and `top`, at a round step.
function tickValues(top) {
  const step = tickStep(1, top / 5);
  const values = [];
  for (let n = step; n < top; n += step) values.push(n);
  return values;
}

// A table as a heat map: rows are the first variable, columns the second,
// each labelled with its real values (from the range's start, thinned so
// that labels never overlap); a legend gives the colour of each value.
function heatMap(rows, names, measure, patterns = [], variables = [], width = 900) {
  const r = rows.length, c = rows[0] ? rows[0].length : 0;
  const low = variables.map((v) => Number(v.from) || 0);
  const room = Math.min(640, width - 40 - 110);
  const cell = Math.max(4, Math.min(22, Math.floor(room / Math.max(r, c, 1))));
  const legendX = 40 + c * cell + 18;
  const picture = svg('svg', {
    width: legendX + 90, height: Math.max(r * cell, 120) + 44, class: 'heat', role: 'img',
    'aria-label': `${measure === 'outcome' ? 'outcomes' : 'nimbers'} of ${names.join(' and ')}, as colours (black: P-positions)`,
  });
  const numbers = rows.flat().map((v) => (v === 'P' ? 0 : v === 'N' ? 1 : Number(v)));
  const top = Math.max(1, ...numbers.filter(Number.isFinite));
  const outcome = measure === 'outcome';
  const colour = (n) => (n === 0 ? '#000' : `hsl(${240 - (200 * n) / top}, 70%, ${outcome ? 85 : 60}%)`);
  rows.forEach((row, i) => row.forEach((v, j) => {
    const n = v === 'P' ? 0 : v === 'N' ? 1 : Number(v);
    const square = svg('rect', {
      x: 40 + j * cell, y: 4 + i * cell, width: cell, height: cell,
      fill: colour(n), class: n === 0 ? 'cell p' : 'cell',
    });
    square.append(svg('title', {}, `${names[0]} = ${low[0] + i}${names[1] ? `, ${names[1]} = ${low[1] + j}` : ''}: ${v}`));
    picture.append(square);
  }));
  ticks(picture, { from: low[0], count: r, spacing: cell, at: (i) => 4 + i * cell + cell / 2, horizontal: false, across: 40 });
  ticks(picture, { from: low[1], count: c, spacing: cell, at: (j) => 40 + j * cell + cell / 2, horizontal: true, across: 4 + r * cell });
  // The legend: black for 0 (P-positions), then a colour per value up to the largest.
  const legend = svg('g', { class: 'legend' });
  const entries = outcome ? [[0, 'P'], [1, 'N']] : [...new Set([0, top, ...tickValues(top)])].sort((a, b) => a - b).map((n) => [n, n]);
  const swatch = Math.min(18, Math.floor(Math.max(r * cell, 120) / entries.length));
  legend.append(svg('text', { x: legendX, y: 10, class: 'label' }, outcome ? 'outcome' : 'nimber'));
  entries.forEach(([n, label], k) => {
    legend.append(svg('rect', { x: legendX, y: 16 + k * swatch, width: 14, height: swatch - 2, fill: colour(n), class: 'legend-swatch' }));
    legend.append(svg('text', { x: legendX + 20, y: 16 + k * swatch + swatch / 2 + 3, class: 'label legend-label' }, n === 0 && !outcome ? '0 (P)' : label));
  });
  picture.append(legend);
  // Each period found, outlined once: its first window of cells, from where it starts.
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
  picture.append(svg('text', { x: 40, y: r * cell + 36, class: 'label' }, `${names[1]}→  (black: P-positions)`));
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
    $('seq-plot').append(barPlot(answer.values, { period: answer.period, preperiod: answer.preperiod, saltus: answer.saltus, width: plotWidth('seq-plot') }));
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
      $('table-plot').append(barPlot(values, { period, preperiod, xLabel: names[0], from: Number(answer.variables[0].from) || 0, width: plotWidth('table-plot') }));
    } else {
      $('table-plot').append(heatMap(answer.values, names, answer.measure, answer.patterns, answer.variables, plotWidth('table-plot')));
    }
    for (const pattern of answer.patterns) $('table-patterns').append(el('li', {}, pattern));
  } catch (e) {
    // Names of the table's variables, from the ranges typed (`x=0..20`).
    const names = $('table-ranges').value.trim().split(/\s+/).map((range) => range.split('=')[0]).filter(Boolean);
    $('table-info').textContent = `error: ${e.raw ? tableMessage(e.raw, $('table-expression').value, names) : e.message}`;
  }
}

// ---------------------------------------------------------------- start up

async function loadGames() {
  const picker = $('game-picker');
  try {
    const { games } = await api('/api/games');
    state.games = games;
    if (current()) renderRules(current());
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
      $('game-summary').textContent = game ? `${game.name}: ${game.summary} Syntax: ${withoutFiles(game.syntax)}` : '';
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
  $('engine-first').addEventListener('click', engineFirst);
  $('seq-form').addEventListener('submit', plotSeq);
  $('table-form').addEventListener('submit', plotTable);
  renderControls();
  loadGames();
  start($('position').value);
});
