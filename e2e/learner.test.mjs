// The playground as a learner uses it, in Chromium: failed requests are said
// and can be retried; every legal move can be played (a sampled list, a take
// typed in, a heap split, Cram's domino, games without a picture); the rules
// and how to play are shown; keyboard focus, accessible names, contrast and
// target sizes (axe-core on the main views, at 1280 and 390 px wide); plots
// of 10^5 values; errors that speak of what the learner typed.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { launch, settled, start, changed, post, noSeriousViolations, shots } from './harness.mjs';

let session;
before(async () => { session = await launch(); });
after(async () => { if (session) await session.close(); });

const moveButtons = '#moves button.move';
const enabledMoves = (page) => page.locator(`${moveButtons}:enabled`).count();

test('a failed engine request (503, 422, dropped) is said, Retry plays on, moves stay enabled, Undo clears it', async () => {
  const page = await session.context.newPage();
  await start(page, session.url, 'nim(3, 5, 7)', 'engine');
  // 503: the server is busy.
  await page.route('**/api/engine', (route) => route.fulfill({
    status: 503, headers: { 'retry-after': '2' }, contentType: 'application/json', body: JSON.stringify({ error: 'every worker is busy' }),
  }));
  await page.locator(moveButtons).first().click();
  await page.waitForFunction(() => document.getElementById('error').textContent.includes('busy'));
  assert.match(await page.textContent('#error'), /engine could not answer.*busy.*try again in 2 s/s);
  assert.doesNotMatch(await page.textContent('#status'), /thinking/);
  assert.equal(await page.isVisible('#retry'), true);
  assert.ok(await enabledMoves(page) > 0, 'moves are enabled again');
  assert.equal(await page.isEnabled('#undo'), true);
  // Retry, the server answering again: the engine moves, the error goes.
  await page.unroute('**/api/engine');
  await page.click('#retry');
  await settled(page);
  assert.equal(await page.locator('#history li').count(), 3);
  assert.equal(await page.textContent('#error'), '');
  assert.match(await page.textContent('#status'), /The engine played/);
  // 422 (a limit): said without the server's flag; Undo clears the error.
  await page.route('**/api/engine', (route) => route.fulfill({
    status: 422, contentType: 'application/json',
    body: JSON.stringify({ error: "the request took longer than 10 s (the time limit); the server's --request-time SECONDS raises it" }),
  }));
  const before = await page.textContent('#current');
  await page.locator(moveButtons).first().click();
  await page.waitForFunction(() => document.getElementById('error').textContent.includes('time limit'));
  assert.doesNotMatch(await page.textContent('#error'), /--request-time/);
  assert.ok(await enabledMoves(page) > 0);
  await page.click('#undo');
  assert.equal(await page.textContent('#error'), '');
  assert.equal(await page.textContent('#current'), before);
  await page.unroute('**/api/engine');
  // A dropped connection while playing a move: the move can be retried.
  await page.route('**/api/solve', (route) => route.abort('connectionreset'));
  await page.locator(moveButtons).first().click();
  await page.waitForFunction(() => /connection/.test(document.getElementById('error').textContent));
  assert.equal(await page.textContent('#current'), before);
  assert.ok(await enabledMoves(page) > 0);
  await page.unroute('**/api/solve');
  await page.click('#retry');
  await settled(page);
  assert.notEqual(await page.textContent('#current'), before);
  assert.equal(await page.textContent('#error'), '');
  await page.close();
});

test('every move can be played: a part the sample leaves out, a take typed in, distinct labels, winning moves first', async () => {
  const page = await session.context.newPage();
  const huge = 10n ** 40n;
  await start(page, session.url, `nim(${huge}, 1)`);
  const groups = page.locator('#moves section.move-group');
  assert.equal(await groups.count(), 2);
  // The 300 moves listed of the heap of 10^40 read differently.
  const labels = await groups.nth(0).locator('button.move').allTextContents();
  assert.ok(labels.length >= 100, `${labels.length} moves`);
  assert.equal(new Set(labels).size, labels.length, 'two moves read the same');
  // Winning moves first in each group.
  const wins = await groups.nth(0).locator('button.move').evaluateAll((nodes) => nodes.map((n) => n.dataset.wins));
  assert.deepEqual(wins, [...wins].sort((a, b) => (a === 'true' ? 0 : 1) - (b === 'true' ? 0 : 1)));
  // The heap of 1 has no move in the server's sample: the page asks for its
  // moves alone; they are listed (winning: 10^40 xor 0 is not 0, so no) and
  // its token plays by a click.
  const heapOfOne = groups.nth(1).locator('button.move', { hasText: 'take 1 from the heap of 1' });
  assert.equal(await heapOfOne.count(), 1);
  assert.equal(await heapOfOne.getAttribute('data-wins'), 'false');
  await page.locator('#board [data-piece="0:1"] circle.token.target[data-level="0"]').click();
  assert.equal(await changed(page, `nim(${huge}, 1)`), `nim(${huge}, 0)`);
  // A move of a part asked for alone is played by its button too.
  await start(page, session.url, `nim(${huge}, 2)`);
  await page.locator('#moves section.move-group').nth(1).locator('button.move', { hasText: 'take 1 from the heap of 2' }).click();
  assert.equal(await changed(page, `nim(${huge}, 2)`), `nim(${huge}, 1)`);
  // A take typed in: 1 from the heap of 10^40 (a move the sample lacks).
  await start(page, session.url, `nim(${huge}, 1)`);
  await page.locator('#board [data-piece="0:0"] button[data-choose-heap="0"]').click();
  await page.fill('#board form.take input', '1');
  await page.locator('#board form.take button[type=submit]').click();
  assert.equal(await changed(page, `nim(${huge}, 1)`), `nim(${huge - 1n}, 1)`);
  // A take that is no move of a subtraction game is refused, not played.
  await start(page, session.url, 'sub[1, 3, 4](10)');
  await page.locator('#board button[data-choose-heap="0"]').click();
  await page.fill('#board form.take input', '2');
  await page.locator('#board form.take button[type=submit]').click();
  assert.match(await page.textContent('#board .take-message'), /not a move/);
  assert.equal(await page.textContent('#current'), 'sub[1, 3, 4](10)');
  await page.fill('#board form.take input', '3');
  await page.locator('#board form.take button[type=submit]').click();
  assert.equal(await changed(page, 'sub[1, 3, 4](10)'), 'sub[1, 3, 4](7)');
  await page.close();
});

test('Kayles splits, Grundy\'s game, staircase and Cram are played by clicks on their pictures', async () => {
  const page = await session.context.newPage();
  const playFromHeap = async (position, heap, text) => {
    await start(page, session.url, position);
    await page.locator(`#board button[data-choose-heap="${heap}"]`).click();
    await page.locator('#board .heap-moves button.move', { hasText: text }).first().click();
    return changed(page, position);
  };
  assert.equal(await playFromHeap('kayles(4)', 0, 'leaving 1 and 2'), 'kayles(1, 2)');
  const grundy = await playFromHeap('grundy_game(7)', 0, 'split');
  assert.match(grundy, /^grundy_game\(\d+, \d+\)$/);
  assert.equal(await playFromHeap('staircase(0, 5, 1)', 1, 'move 2 coins from step 2 to step 1'), 'staircase(2, 3, 1)');
  // Cram: a cell, then its neighbour (the second by the keyboard).
  await start(page, session.url, 'cram("..#./....")');
  await page.locator('#board svg.cells rect[data-cell="2,1"]').click();
  await page.locator('#board svg.cells rect.target[data-cell="2,2"]').focus();
  await page.keyboard.press('Enter');
  assert.equal(await changed(page, 'cram("..#./....")'), 'cram("..#./##..")');
  await page.screenshot({ path: join(shots, 'cram.png'), fullPage: true });
  await page.close();
});

test('the rules and how to play are shown; every example without a picture is played from its own list', async () => {
  const page = await session.context.newPage();
  await page.goto(session.url);
  const { games } = await page.evaluate(async () => (await fetch('/api/games')).json());
  // The examples of the picker that draw nothing: the whole position, or a part, has no drawing.
  const examples = games.flatMap((game) => game.examples.map((example) => ({ game, example })));
  const answers = await Promise.all(examples.map(({ example }) => post(page, '/api/solve', { position: example })));
  const undrawn = examples.map((e, i) => ({ ...e, answer: answers[i] }))
    .filter(({ answer }) => answer.parts && (answer.parts.length === 0 || answer.parts.some((part) => !part.drawing)));
  assert.ok(undrawn.length >= 15, `${undrawn.length} examples without a picture`);
  for (const { game, example, answer } of undrawn) {
    await start(page, session.url, example);
    const rules = await page.textContent('#rules');
    assert.ok(rules.includes(game.rules.slice(0, 40)), `${example}: the rules of ${game.name}`);
    assert.match(await page.textContent('#how-to-play'), /press one of the moves/, example);
    if (answer.moves.length === 0) continue;
    // The moves are on the board, next to the part they move: one is played.
    const choices = page.locator('#board .choices button.move:enabled');
    assert.ok(await choices.count() > 0, `${example}: moves to choose on the board`);
    await choices.first().click();
    await changed(page, answer.position);
  }
  // A drawn game says what to click.
  await start(page, session.url, 'wythoff(3, 5)');
  assert.match(await page.textContent('#how-to-play'), /click the square the queen moves to/);
  assert.match(await page.textContent('#rules'), /Wythoff/);
  await page.close();
});

test('focus stays on the game after a move; tokens are named buttons; wins and losses are told apart without colour', async () => {
  const page = await session.context.newPage();
  await start(page, session.url, 'kayles(3) + nim(2, 2)');
  // A token played by the keyboard: the focus stays in the game, and a second move follows by Enter.
  await page.locator('svg.heaps circle.token.target[data-level="1"]').first().focus();
  await page.keyboard.press('Enter');
  await changed(page, 'kayles(3) + nim(2, 2)');
  const inGame = () => page.evaluate(() => document.activeElement !== document.body && document.getElementById('game').contains(document.activeElement));
  assert.equal(await inGame(), true, 'focus kept on the game after a click on the picture');
  await page.locator(moveButtons).first().focus();
  const position = await page.textContent('#current');
  await page.keyboard.press('Enter');
  await changed(page, position);
  assert.equal(await inGame(), true, 'focus kept on the game after a move of the list');
  // Clickable things are buttons with names, none inside an image.
  const named = await page.evaluate(() => [...document.querySelectorAll('#board [role=button]')].map((n) => ({
    name: n.getAttribute('aria-label') || '', inImage: n.closest('[role=img]') !== null,
  })));
  assert.ok(named.length > 0);
  for (const node of named) { assert.ok(node.name.length > 3); assert.equal(node.inImage, false); }
  // Win and loss in words and signs, and on the picture as a solid or dashed outline.
  await start(page, session.url, 'nim(3, 5, 7)');
  assert.match(await page.locator('#moves button.move.win').first().textContent(), /✓ wins/);
  assert.match(await page.locator('#moves button.move.lose').first().textContent(), /✗ loses/);
  const dash = (selector) => page.locator(selector).first().evaluate((n) => getComputedStyle(n).strokeDasharray);
  assert.equal(await dash('svg.heaps circle.token.target.win'), 'none');
  assert.notEqual(await dash('svg.heaps circle.token.target.lose'), 'none');
  assert.match(await page.locator('svg.heaps circle.token.target.win').first().getAttribute('aria-label'), /: wins/);
  // The outlines that tell wins from losses: 3:1 at least against white and against their own fill.
  for (const position of ['nim(3, 5, 7)', 'wythoff(5, 8)', 'chomp([4, 4, 4]) + turtles("hthht")', 'divisors(10)',
    'hackenbush("5 5; 1 2; 2 3; 3 4; 4 5; 5 2")', 'geography("5 5; 1 2; 2 3; 3 4; 4 5; 5 1")']) {
    await start(page, session.url, position);
    const weak = await page.evaluate(() => {
      const luminance = (colour) => {
        const [r, g, b] = colour.match(/[\d.]+/g).slice(0, 3).map(Number).map((c) => {
          const v = c / 255;
          return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
        });
        return 0.2126 * r + 0.7152 * g + 0.0722 * b;
      };
      const contrast = (a, b) => { const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
      const found = [];
      for (const node of document.querySelectorAll('#board svg .target.win, #board svg .target.lose')) {
        const shape = node.tagName === 'g' ? node.querySelector('rect') : node;
        const style = getComputedStyle(shape);
        if (!/^rgb/.test(style.stroke)) { found.push(`${node.getAttribute('aria-label')}: no outline`); continue; }
        const against = ['rgb(255, 255, 255)'];
        // A line's fill is not drawn.
        if (shape.tagName !== 'line' && /^rgb\(/.test(style.fill)) against.push(style.fill);
        for (const colour of against) {
          const ratio = contrast(style.stroke, colour);
          if (ratio < 3) found.push(`${node.getAttribute('aria-label')}: ${style.stroke} on ${colour} is ${ratio.toFixed(2)}:1`);
        }
      }
      return found;
    });
    assert.deepEqual(weak, [], position);
  }
  await page.close();
});

test('a phone 390x844: targets of 24 px, move numbers not clipped, the engine\'s reply in view', async () => {
  const page = await session.context.newPage();
  await page.setViewportSize({ width: 390, height: 844 });
  for (const position of ['nim(3, 5, 7)', 'wythoff(5, 8)', 'chomp([4, 4, 4]) + turtles("hthht")', 'cram(3, 4)',
    'hackenbush("5 5; 1 2; 2 3; 3 4; 4 5; 5 2")', 'divisors(10)', 'dag("4 4; 1 2; 2 3; 1 3; 3 4", 1, 2, 2)']) {
    await start(page, session.url, position);
    const small = await page.evaluate(() => [...document.querySelectorAll('#board [role=button], #board button, #moves button, #board .edge-hit')]
      .map((n) => {
        if (n.classList.contains('edge-hit')) return { what: 'edge', width: parseFloat(getComputedStyle(n).strokeWidth), height: 24 };
        if (n.tagName === 'line') return null; // an edge: its click area is the edge-hit below it
        const box = n.getBoundingClientRect();
        return { what: n.getAttribute('aria-label') || n.textContent, width: box.width, height: box.height };
      })
      .filter((t) => t && (t.width < 24 || t.height < 24)));
    assert.deepEqual(small, [], `${position}: targets under 24 px`);
  }
  // More than 9 moves: every number is inside its button, none clipped.
  await start(page, session.url, 'nim(3, 5, 7)', 'engine');
  const numbers = await page.evaluate(() => [...document.querySelectorAll('#moves button.move')].map((n) => {
    const list = n.closest('ol').getBoundingClientRect(), box = n.getBoundingClientRect();
    return { content: getComputedStyle(n, '::before').content, inside: box.left >= list.left - 0.5 && box.right <= list.right + 0.5 };
  }));
  assert.ok(numbers.length >= 10);
  for (const n of numbers) { assert.match(n.content, /counter|\d/); assert.equal(n.inside, true); }
  // The last move of the list, far down the page: the engine's answer is in view.
  const last = page.locator(moveButtons).last();
  await last.scrollIntoViewIfNeeded();
  await last.click();
  await settled(page);
  assert.match(await page.textContent('#status'), /The engine played/);
  const box = await page.locator('#status').boundingBox();
  assert.ok(box.y >= 0 && box.y + box.height <= 844, `status at ${box.y}..${box.y + box.height}`);
  await page.screenshot({ path: join(shots, 'mobile-engine-reply.png') });
  await page.close();
});

test('axe-core finds no serious or critical violation on the main views, at 1280 and 390 px wide', async () => {
  for (const [width, height] of [[1280, 900], [390, 844]]) {
    const page = await session.context.newPage();
    await page.setViewportSize({ width, height });
    await start(page, session.url, 'nim(3, 5, 7)');
    await noSeriousViolations(page, `${width}: start`);
    await page.locator('#board [data-piece="0:1"] button[data-choose-heap="0"]').click();
    await page.locator('#board .heap-moves button.move').first().click();
    await settled(page);
    await noSeriousViolations(page, `${width}: a game of Nim in progress, a heap chosen`);
    // Every kind of picture at once, then a position without one.
    for (const position of ['wythoff(5, 8) + turtles("hthht") + hackenbush("5 5; 1 2; 2 3; 3 4; 4 5; 5 2") + chomp(2, 3)'
      + ' + cram(3, 4) + divisors(6) + grid_nim([0, 1], [2, 3]) + dag("4 4; 1 2; 2 3; 1 3; 3 4", 1, 2) + stones(1, 4, 9)',
    'every(nim(1, 2) + bash[2](5))']) {
      await start(page, session.url, position);
      await noSeriousViolations(page, `${width}: ${position}`);
    }
    await page.click('#tab-explore');
    await page.click('#seq-go');
    await page.waitForSelector('#seq-plot svg');
    await page.click('#table-go');
    await page.waitForSelector('#table-plot svg');
    await noSeriousViolations(page, `${width}: explore`);
    await page.close();
  }
});

test('plots of 10^5 values stay readable; the end of the axis is labelled; on a phone the labels keep their size', async () => {
  const page = await session.context.newPage();
  await page.goto(session.url);
  await page.click('#tab-explore');
  await page.fill('#seq-rule', 'octal[0.07]');
  await page.fill('#seq-n', '100000');
  await page.click('#seq-go');
  await page.waitForSelector('#seq-plot svg', { timeout: 20_000 });
  const plot = await page.evaluate(() => {
    const picture = document.querySelector('#seq-plot svg');
    const labels = [...picture.querySelectorAll('text.tick-label.x')].map((n) => n.textContent);
    const bands = [...picture.querySelectorAll('rect.value')];
    return { nodes: picture.querySelectorAll('*').length, labels, bands: bands.length, tall: bands.filter((b) => Number(b.getAttribute('height')) > 2).length };
  });
  assert.ok(plot.nodes < 5000, `${plot.nodes} elements`);
  assert.equal(plot.labels[plot.labels.length - 1], '100000');
  assert.ok(plot.bands > 300 && plot.tall > 100, `${plot.bands} columns, ${plot.tall} of them spanning several values`);
  await page.screenshot({ path: join(shots, 'explore-100000.png'), fullPage: true });
  // The end of the axis when it is no round number.
  await page.fill('#seq-n', '153');
  await page.click('#seq-go');
  await page.waitForFunction(() => document.querySelector('#seq-plot svg text.tick-label.x'));
  const ends = await page.locator('#seq-plot svg text.tick-label.x').allTextContents();
  assert.equal(ends[ends.length - 1], '153');
  // A phone: the plot is drawn at its width, its labels at least 9 px high.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.click('#seq-go');
  await page.waitForFunction(() => document.querySelector('#seq-plot svg text.tick-label.x'));
  const heights = await page.locator('#seq-plot svg text.tick-label').evaluateAll((nodes) => nodes.map((n) => n.getBoundingClientRect().height));
  assert.ok(Math.min(...heights) >= 9, `labels ${Math.min(...heights)} px high`);
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= 390);
  await page.close();
});

test('errors point at what the learner typed and name no command-line flag nor command', async () => {
  const page = await session.context.newPage();
  await page.goto(session.url);
  await page.click('#tab-explore');
  // A table's bad expression: quoted as typed, the caret under the place.
  await page.fill('#table-expression', 'wythoff(x, y');
  await page.fill('#table-ranges', 'x=0..3 y=0..3');
  await page.click('#table-go');
  await page.waitForFunction(() => document.getElementById('table-info').textContent.startsWith('error'));
  const info = await page.textContent('#table-info');
  assert.match(info, /\n  wythoff\(x, y\n {14}\^/);
  assert.doesNotMatch(info, /wythoff\(0, 0/);
  // Limits: no flag.
  for (const [expression, ranges] of [['wythoff(x, y)', 'x=0..300 y=0..300'], ['cram(x, y)', 'x=1..9 y=1..9']]) {
    await page.fill('#table-expression', expression);
    await page.fill('#table-ranges', ranges);
    await page.click('#table-go');
    await page.waitForFunction(() => document.getElementById('table-info').textContent.startsWith('error'), null, { timeout: 20_000 });
    const text = await page.textContent('#table-info');
    assert.match(text, /limit/);
    assert.doesNotMatch(text, /--[a-z]/);
  }
  await page.fill('#seq-n', '1000000');
  await page.click('#seq-go');
  await page.waitForFunction(() => document.getElementById('seq-info').textContent.startsWith('error'));
  assert.match(await page.textContent('#seq-info'), /value limit/);
  assert.doesNotMatch(await page.textContent('#seq-info'), /--max-values/);
  // A variable in a position: no `grundy table` command, but where to tabulate it.
  await page.click('#tab-play');
  await page.fill('#position', 'nim(x)');
  await page.click('#start');
  await page.waitForFunction(() => document.getElementById('error').textContent !== '');
  const error = await page.textContent('#error');
  assert.doesNotMatch(error, /grundy table/);
  assert.match(error, /Explore/);
  // The syntax shown for a game names no file form.
  await page.selectOption('#game-picker', 'nim(3, 5, 7)');
  assert.doesNotMatch(await page.textContent('#game-summary'), /@FILE/);
  await page.close();
});
