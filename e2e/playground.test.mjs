// End-to-end tests of the web playground in a real browser: Debian's chromium
// driven by playwright-core. Starts `grundy serve --port 0` (GRUNDY_BIN, by
// default target/release/grundy), plays full games of Nim and Wythoff against
// the engine through clicks, and checks that the engine, moving first from a
// winning position, wins whatever the human plays. Screenshots go to
// e2e/screenshots/.
//
// Run: cargo build --release -p grundy-cli && cd e2e && npm ci && npm test
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { launch, settled, shots } from './harness.mjs';

let url;
let context;
let close;

before(async () => {
  ({ url, context, close } = await launch());
});

after(async () => {
  if (close) await close();
});

async function startGame(page, position) {
  await page.goto(url);
  await page.waitForSelector('#game-picker optgroup', { state: 'attached' });
  await page.fill('#position', position);
  await page.selectOption('#mode', 'engine');
  await page.click('#start');
  await page.waitForFunction((p) => document.getElementById('current').textContent === p
    && document.body.dataset.busy === 'false', position);
}

// Plays a whole game in which the engine moves first from `position` (an
// N-position); `humanMove` clicks one move. Returns the number of plies.
async function engineFirst(page, position, name, humanMove) {
  await startGame(page, position);
  assert.match(await page.textContent('#outcome'), /N-position/);
  await page.screenshot({ path: join(shots, `${name}-start.png`), fullPage: true });
  await page.click('#engine-first');
  let plies = 0;
  for (let turn = 0; turn < 200; turn++) {
    if (await settled(page)) break;
    // The engine always leaves a P-position: no move of the human wins.
    assert.match(await page.textContent('#outcome'), /P-position/);
    assert.equal(await page.locator('#moves button.move.win').count(), 0);
    assert.equal(await page.textContent('#nim-sum').catch(() => '0'), '0');
    if (turn === 1) await page.screenshot({ path: join(shots, `${name}-middle.png`), fullPage: true });
    await humanMove(page);
    plies += 2;
  }
  assert.equal(await page.evaluate(() => document.getElementById('status').dataset.over), 'true');
  assert.equal(await page.evaluate(() => document.getElementById('status').dataset.winner), 'the engine');
  assert.match(await page.textContent('#status'), /the engine wins/);
  await page.screenshot({ path: join(shots, `${name}-end.png`), fullPage: true });
  return plies;
}

test('Nim: the engine, moving first from nim(3, 5, 7), wins whatever the human plays', async () => {
  const page = await context.newPage();
  // The human takes one token from the last heap that has one: the longest game.
  const plies = await engineFirst(page, 'nim(3, 5, 7)', 'nim', async (p) => {
    const buttons = p.locator('#moves button.move');
    const count = await buttons.count();
    const texts = await buttons.allTextContents();
    let pick = count - 1;
    for (let i = count - 1; i >= 0; i--) {
      if (/^take 1 from/.test(texts[i])) { pick = i; break; }
    }
    await buttons.nth(pick).click();
  });
  assert.ok(plies >= 4, `a game of ${plies} plies`);
  await page.close();
});

test('Wythoff: the engine, moving first from wythoff(5, 8), wins; the human clicks squares on the board', async () => {
  const page = await context.newPage();
  let clicks = 0;
  await engineFirst(page, 'wythoff(5, 8)', 'wythoff', async (p) => {
    // The queen's reachable squares are clickable; take the one farthest from the corner.
    const squares = p.locator('svg.wythoff rect.square.target');
    const count = await squares.count();
    assert.ok(count > 0, 'the board shows the queen\'s moves');
    const cells = await squares.evaluateAll((nodes) => nodes.map((n) => n.dataset.cell));
    let best = 0, far = -1;
    cells.forEach((cell, i) => {
      const [x, y] = cell.split(',').map(Number);
      if (x + y > far) { far = x + y; best = i; }
    });
    await squares.nth(best).click();
    clicks += 1;
  });
  assert.ok(clicks >= 1);
  await page.close();
});

test('a human with hints beats the engine from a winning position', async () => {
  const page = await context.newPage();
  await startGame(page, 'nim(2, 3, 4)');
  for (let turn = 0; turn < 100; turn++) {
    if (await settled(page)) break;
    await page.click('#hint');
    const hinted = page.locator('#moves button.move.hinted');
    assert.equal(await hinted.count(), 1);
    assert.equal(await hinted.getAttribute('data-wins'), 'true');
    await hinted.click();
  }
  assert.equal(await page.evaluate(() => document.getElementById('status').dataset.winner), 'you');
  // Undo takes back the human's last move and the engine's answer.
  await page.click('#undo');
  await page.waitForFunction(() => document.getElementById('status').dataset.over === 'false');
  await page.close();
});

test('two humans: turns alternate, a hint shows the winning move, undo takes one move back', async () => {
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForSelector('#game-picker optgroup', { state: 'attached' });
  await page.fill('#position', 'nim(1, 2)');
  await page.selectOption('#mode', 'humans');
  await page.click('#start');
  await settled(page);
  assert.match(await page.textContent('#status'), /Player 1 to move/);
  await page.click('#hint');
  assert.equal(await page.locator('#moves button.move.hinted').getAttribute('data-to'), 'nim(1, 1)');
  await page.locator('#moves button.move.hinted').click();
  await settled(page);
  assert.match(await page.textContent('#status'), /Player 2 to move/);
  assert.equal(await page.textContent('#current'), 'nim(1, 1)');
  await page.click('#undo');
  await settled(page);
  assert.equal(await page.textContent('#current'), 'nim(1, 2)');
  // Play it out: player 1 wins from nim(1, 2) by the hinted moves.
  for (let turn = 0; turn < 10; turn++) {
    if (await settled(page)) break;
    const winning = page.locator('#moves button.move.win');
    await ((await winning.count()) > 0 ? winning.first() : page.locator('#moves button.move').first()).click();
  }
  assert.equal(await page.evaluate(() => document.getElementById('status').dataset.winner), 'player 1');
  await page.close();
});

test('graphs and coins are drawn; a coin is turned and a Hackenbush edge cut by clicks', async () => {
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForSelector('#game-picker optgroup', { state: 'attached' });
  await page.fill('#position', 'hackenbush("5 5; 1 2; 2 3; 3 4; 4 5; 5 2") + turtles("hthht")');
  await page.selectOption('#mode', 'humans');
  await page.click('#start');
  await settled(page);
  assert.equal(await page.locator('svg.graph circle.vertex').count(), 5);
  assert.equal(await page.locator('svg.coins circle.coin').count(), 5);
  await page.screenshot({ path: join(shots, 'graph-and-coins.png'), fullPage: true });
  // Coin 4 (heads) is marked by a click and turned alone by the button.
  await page.locator('svg.coins circle.coin.target[data-coin="4"]').click();
  await page.locator('.coin-row button.turn').click();
  await settled(page);
  assert.match(await page.textContent('#current'), /turtles\("hthtt"\)$/);
  // Cutting edge 1 (1-2) leaves every other edge hanging: drawn faint.
  await page.locator('svg.graph line.edge.target[data-edge="1"]').click();
  await settled(page);
  assert.match(await page.textContent('#current'), /^hackenbush\("5 5; 1 2; 2 3; 3 4; 4 5; 5 2", \[1\]\)/);
  assert.equal(await page.locator('svg.graph line.edge.faint').count(), 4);
  await page.close();
});

test('heaps, a walk on a graph and Chomp are played by clicks on their drawings', async () => {
  const page = await context.newPage();
  const startHumans = async (position) => {
    await page.goto(url);
    await page.waitForSelector('#game-picker optgroup', { state: 'attached' });
    await page.fill('#position', position);
    await page.selectOption('#mode', 'humans');
    await page.click('#start');
    await page.waitForFunction((p) => document.getElementById('current').textContent === p, position);
    await settled(page);
  };
  // A heap of 3 and a staircase: clicking the token at level 1 leaves one token.
  await startHumans('kayles(3) + staircase(1, 2)');
  assert.equal(await page.locator('svg.heaps').count(), 2);
  await page.locator('svg.heaps').first().locator('circle.token.target[data-level="1"]').click();
  await settled(page);
  assert.equal(await page.textContent('#current'), 'kayles(1) + staircase(1, 2)');
  // Geography: the token on vertex 2 goes to vertex 3 by a click.
  await startHumans('geography("4 3; 1 2; 2 3; 3 4", 2)');
  assert.equal(await page.locator('svg.graph circle.vertex.occupied').getAttribute('data-vertex'), '2');
  await page.locator('svg.graph circle.vertex.target[data-vertex="3"]').click();
  await settled(page);
  assert.equal(await page.textContent('#current'), 'geography("4 3; 1 2; 2 3; 3 4", 3, [2])');
  assert.equal(await page.locator('svg.graph circle.vertex.deleted').getAttribute('data-vertex'), '2');
  // Chomp: eating the square of column 2, row 1 (from 0) leaves rows of 3 and 2.
  await startHumans('chomp([3, 3])');
  await page.locator('svg.chomp rect.target[data-cell="2,1"]').click({ force: true });
  await settled(page);
  assert.equal(await page.textContent('#current'), 'chomp([3, 2])');
  await page.close();
});

test('Explore: a sequence with its period and a table as a heat map', async () => {
  const page = await context.newPage();
  await page.goto(url);
  await page.click('#tab-explore');
  await page.fill('#seq-rule', 'octal[0.07]');
  await page.fill('#seq-n', '150');
  await page.click('#seq-go');
  await page.waitForSelector('#seq-plot svg rect.period-band');
  assert.match(await page.textContent('#seq-info'), /period 34 from heap 53/);
  await page.click('#table-go');
  await page.waitForSelector('#table-plot svg rect.cell.p');
  // Rows found periodic (x = 1: period 3 saltus 3, ...) have their first period outlined.
  assert.ok(await page.locator('#table-plot svg rect.period-outline').count() > 0);
  await page.screenshot({ path: join(shots, 'explore.png'), fullPage: true });
  await page.close();
});

// Plays a whole game against the engine from `position` (the human first),
// the human choosing with `choose(page, answer)` among the moves the server
// lists and playing it by clicks; returns the winner and the number of turns.
async function gameByClicks(page, position, choose) {
  await startGame(page, position);
  let turns = 0;
  for (; turns < 60; turns++) {
    if (await settled(page)) break;
    const answer = await page.evaluate(async (p) => (await fetch('/api/solve', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ position: p }) })).json(),
      await page.textContent('#current'));
    const playable = answer.moves.filter((m) => m.target);
    const before = await page.textContent('#current');
    await choose(page, playable.find((m) => m.wins) || playable[0]);
    await page.waitForFunction((b) => document.getElementById('current').textContent !== b, before);
  }
  return { winner: await page.evaluate(() => document.getElementById('status').dataset.winner), turns };
}

test('Chomp: a whole game against the engine by clicks on squares of a readable size', async () => {
  const page = await context.newPage();
  const { winner, turns } = await gameByClicks(page, 'chomp([4, 4, 4])', async (p, move) => {
    const square = p.locator(`svg.chomp rect.target[data-cell="${move.target.x},${move.target.y}"]`);
    const box = await square.boundingBox();
    assert.ok(box.width >= 22, `squares ${box.width} px wide`);
    if (move.wins) await p.screenshot({ path: join(shots, 'chomp.png'), fullPage: true });
    await square.click({ force: true });
  });
  assert.ok(turns >= 2);
  assert.equal(winner, 'you');
  await page.close();
});

test('coins[...]: a whole game by marking coins and turning them over', async () => {
  const page = await context.newPage();
  let several = 0;
  const { winner } = await gameByClicks(page, 'coins[1, 2, 3, span=3]("hhthth")', async (p, move) => {
    const coins = move.target.kind === 'coin' ? [move.target.coin] : move.target.coins;
    if (coins.length > 1) several += 1;
    for (const coin of coins) await p.locator(`svg.coins circle.coin[data-coin="${coin + 1}"]`).click();
    const turn = p.locator('.coin-row button.turn');
    assert.equal(await turn.isEnabled(), true);
    if (several === 1 && coins.length > 1) await p.screenshot({ path: join(shots, 'coins.png'), fullPage: true });
    await turn.click();
  });
  assert.equal(winner, 'you');
  assert.ok(several > 0, 'a move turned several coins');
  await page.close();
});

test('Hackenbush: a whole game against the engine by cutting edges', async () => {
  const page = await context.newPage();
  const { winner } = await gameByClicks(page, 'hackenbush("6 7; 1 2; 2 3; 3 1; 1 4; 4 5; 5 6; 6 4")', async (p, move) => {
    await p.locator(`svg.graph .edge.target[data-edge="${move.target.edge + 1}"]`).click({ force: true });
  });
  assert.ok(['you', 'the engine'].includes(winner));
  await page.screenshot({ path: join(shots, 'hackenbush-end.png'), fullPage: true });
  await page.close();
});

test('the divisors game, Grid Nim and a dag with several tokens are drawn and played by clicks and keys', async () => {
  const page = await context.newPage();
  const startHumans = async (position) => {
    await page.goto(url);
    await page.waitForSelector('#game-picker optgroup', { state: 'attached' });
    await page.fill('#position', position);
    await page.selectOption('#mode', 'humans');
    await page.click('#start');
    await settled(page);
  };
  await startHumans('divisors(6)');
  assert.equal(await page.locator('svg.numbers g.number').count(), 6);
  await page.locator('svg.numbers g.number[data-number="6"]').click();
  await settled(page);
  assert.equal(await page.textContent('#current'), 'divisors([4, 5])');
  // Grid Nim: choose a cell, then how many counters go up or left.
  await startHumans('grid_nim([0, 1], [2, 3])');
  await page.locator('svg.grid g.target[data-cell="2,2"]').click();
  await page.screenshot({ path: join(shots, 'grid-nim.png'), fullPage: true });
  await page.locator('.transfers button', { hasText: '↑ 2' }).click();
  await settled(page);
  assert.equal(await page.textContent('#current'), 'grid_nim([0, 3], [2, 1])');
  // A dag with three tokens: one picture; choose the token on 1, move it to 3 by keys.
  await startHumans('dag("4 4; 1 2; 2 3; 1 3; 3 4", 1, 2, 2)');
  assert.equal(await page.locator('svg.graph').count(), 1);
  assert.equal(await page.locator('svg.graph circle.vertex.occupied').count(), 2);
  await page.screenshot({ path: join(shots, 'dag.png'), fullPage: true });
  await page.locator('svg.graph circle.vertex.chooser[data-vertex="1"]').focus();
  await page.keyboard.press('Enter');
  await page.locator('svg.graph circle.vertex.target[data-vertex="3"]').focus();
  await page.keyboard.press(' ');
  await settled(page);
  assert.equal(await page.textContent('#current'), 'dag("4 4; 1 2; 2 3; 1 3; 3 4", 3, 2, 2)');
  // A heap's token by the keyboard: Tab reaches it, Enter plays it.
  await startHumans('kayles(3)');
  await page.locator('svg.heaps circle.token.target[data-level="1"]').focus();
  await page.keyboard.press('Enter');
  await settled(page);
  assert.equal(await page.textContent('#current'), 'kayles(1)');
  await page.close();
});

test('huge numbers are shortened, a misère badge has no nimber, a failed Start clears the game', async () => {
  const page = await context.newPage();
  await startGame(page, 'nim(10000000000000000000000000000000000000000, 1)');
  // The label reads 10^40; the full number is its tooltip.
  assert.equal(await page.locator('svg.heaps text.label').first().evaluate((n) => n.firstChild.textContent), '10^40');
  assert.equal(await page.locator('#board .caption').first().evaluate((n) => n.firstChild.textContent), 'nim(10^40)  (nimber 10^40)');
  await startGame(page, 'misere(nim(1, 1))');
  const badge = await page.textContent('#outcome');
  assert.match(badge, /N-position: the player to move wins, misère play/);
  assert.doesNotMatch(badge, /nimber/);
  await page.fill('#position', 'nim(3');
  await page.click('#start');
  await page.waitForFunction(() => document.getElementById('error').textContent !== '');
  assert.equal(await page.textContent('#current'), '');
  assert.equal(await page.locator('#moves li').count(), 0);
  assert.equal(await page.locator('#board .piece').count(), 0);
  assert.equal(await page.isDisabled('#undo'), true);
  await page.close();
});

test('busy: controls are off while a request runs; Undo after "Engine moves first" gives the move back', async () => {
  const page = await context.newPage();
  await startGame(page, 'nim(1, 2)');
  await page.route('**/api/solve', async (route) => { await new Promise((r) => setTimeout(r, 600)); await route.continue(); });
  await page.click('#engine-first');
  await page.waitForFunction(() => document.body.dataset.busy === 'true');
  assert.equal(await page.isVisible('#busy'), true);
  for (const id of ['#start', '#hint', '#undo', '#engine-first']) assert.equal(await page.isDisabled(id), true, id);
  await settled(page);
  await page.unroute('**/api/solve');
  assert.equal(await page.isVisible('#busy'), false);
  assert.notEqual(await page.textContent('#current'), 'nim(1, 2)');
  await page.click('#undo');
  assert.equal(await page.textContent('#current'), 'nim(1, 2)');
  assert.match(await page.textContent('#status'), /You to move/);
  assert.equal(await page.isDisabled('#engine-first'), false);
  // The human moves from the start, and the engine answers.
  await page.locator('#moves button.move.win').first().click();
  await settled(page);
  assert.equal(await page.locator('#history li').count(), 3);
  await page.close();
});

test('a compact move (to null) is played by sending the position and the move', async () => {
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForSelector('#game-picker optgroup', { state: 'attached' });
  let sent = null;
  // The server gives full moves on small positions: here they are made compact.
  await page.route('**/api/solve', async (route) => {
    const body = route.request().postDataJSON();
    if (body.move) {
      sent = body;
      const response = await route.fetch({ postData: JSON.stringify({ position: 'nim(1, 1)' }) });
      await route.fulfill({ response });
      return;
    }
    const response = await route.fetch();
    const answer = await response.json();
    for (const move of answer.moves) move.to = null;
    await route.fulfill({ response, json: answer });
  });
  await page.fill('#position', 'nim(1, 2)');
  await page.selectOption('#mode', 'humans');
  await page.click('#start');
  await settled(page);
  await page.locator('#moves button.move.win').click();
  await page.waitForFunction(() => document.getElementById('current').textContent === 'nim(1, 1)');
  assert.deepEqual(sent, { position: 'nim(1, 2)', move: { term: 0, component: 1, component_to: 'nim(1)' } });
  await page.close();
});

test('Explore: a range not starting at 0 is labelled with its values; the heat map has ticks and a legend', async () => {
  const page = await context.newPage();
  await page.goto(url);
  await page.click('#tab-explore');
  await page.fill('#table-expression', 'kayles(x)');
  await page.fill('#table-ranges', 'x=5..20');
  await page.click('#table-go');
  await page.waitForSelector('#table-plot svg rect.value', { state: 'attached' });
  assert.equal(await page.getAttribute('#table-plot svg rect.value >> nth=0', 'data-x'), '5');
  const labels = await page.locator('#table-plot svg text.tick-label.x').allTextContents();
  assert.equal(labels[0], '5');
  assert.ok(labels.includes('20'), labels.join(' '));
  // A 2-D table from x = 5, y = 100: the first cell is (5, 100), labels do not overlap.
  await page.fill('#table-expression', 'wythoff(x, y)');
  await page.fill('#table-ranges', 'x=5..40 y=100..180');
  await page.click('#table-go');
  await page.waitForSelector('#table-plot svg rect.cell');
  assert.equal(await page.textContent('#table-plot svg rect.cell >> nth=0'), 'x = 5, y = 100: ' + (await page.evaluate(async () =>
    (await (await fetch('/api/solve', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ position: 'wythoff(5, 100)' }) })).json()).nimber)));
  for (const axis of ['x', 'y']) {
    const boxes = await page.locator(`#table-plot svg text.tick-label.${axis}`).evaluateAll((nodes) => nodes.map((n) => n.getBoundingClientRect().toJSON()));
    assert.ok(boxes.length >= 3, `${axis}: ${boxes.length} labels`);
    for (let i = 1; i < boxes.length; i++) {
      const [a, b] = [boxes[i - 1], boxes[i]];
      assert.ok(axis === 'x' ? a.right <= b.left : a.bottom <= b.top, `${axis} labels ${i - 1} and ${i} overlap`);
    }
  }
  const first = await page.locator('#table-plot svg text.tick-label.x').first().textContent();
  assert.equal(first, '100');
  assert.ok(await page.locator('#table-plot svg rect.legend-swatch').count() >= 2);
  await page.screenshot({ path: join(shots, 'explore-offset.png'), fullPage: true });
  await page.close();
});

test('a phone 390 px wide: no horizontal scroll in play and explore; the favicon is served', async () => {
  const page = await context.newPage();
  await page.setViewportSize({ width: 390, height: 844 });
  for (const position of ['nim(10000000000000000000000000000000000000000, 1)', 'wythoff(5, 8)', 'chomp([4, 4, 4]) + turtles("hthht")',
    'hackenbush("5 5; 1 2; 2 3; 3 4; 4 5; 5 2")']) {
    await startGame(page, position);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 390, `${position}: ${width} px wide`);
  }
  await page.screenshot({ path: join(shots, 'mobile-play.png'), fullPage: true });
  await page.click('#tab-explore');
  await page.click('#seq-go');
  await page.waitForSelector('#seq-plot svg rect.value', { state: 'attached' });
  await page.click('#table-go');
  await page.waitForSelector('#table-plot svg rect.cell');
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= 390);
  await page.screenshot({ path: join(shots, 'mobile-explore.png'), fullPage: true });
  assert.equal(await page.getAttribute('link[rel=icon]', 'href'), '/favicon.svg');
  const icon = await page.evaluate(async () => { const r = await fetch('/favicon.svg'); return [r.status, r.headers.get('content-type'), (await r.text()).slice(0, 4)]; });
  assert.deepEqual(icon, [200, 'image/svg+xml', '<svg']);
  await page.close();
});
