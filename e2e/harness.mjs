// What the browser tests share: `grundy serve --port 0` (GRUNDY_BIN, by
// default target/release/grundy) and Debian's chromium (CHROMIUM) driven by
// playwright-core, and the steps of a game on the page.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { createRequire } from 'node:module';
import { chromium } from 'playwright-core';

export const here = dirname(fileURLToPath(import.meta.url));
export const shots = join(here, 'screenshots');
const binary = process.env.GRUNDY_BIN || resolve(here, '../target/release/grundy');
const browserPath = process.env.CHROMIUM || '/usr/bin/chromium';

// Starts the server and the browser: `{ url, context, close }`.
export async function launch() {
  mkdirSync(shots, { recursive: true });
  const server = spawn(binary, ['serve', '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error('grundy serve printed no URL in 10 s')), 10_000);
    server.once('exit', (code) => reject(new Error(`grundy serve exited with ${code}`)));
    createInterface({ input: server.stdout }).once('line', (line) => {
      clearTimeout(timer);
      const match = /^listening on (http:\/\/\S+)$/.exec(line.trim());
      if (match) resolveUrl(match[1]);
      else reject(new Error(`unexpected first line: ${line}`));
    });
  });
  let closing = false;
  server.on('exit', (code, signal) => {
    if (!closing) console.error(`grundy serve stopped during the tests: exit ${code}, signal ${signal}`);
  });
  const profile = mkdtempSync(join(tmpdir(), 'grundy-e2e-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: browserPath,
    headless: true,
    viewport: { width: 1280, height: 900 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  return {
    url,
    context,
    close: async () => {
      closing = true;
      await context.close();
      server.kill();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

// The page's state after a move: the game is over, or the human is to move.
export async function settled(page) {
  await page.waitForFunction(() => document.body.dataset.busy === 'false'
    && ['over', 'human'].includes(document.body.dataset.turn), null, { timeout: 20_000 });
  return page.evaluate(() => document.body.dataset.turn === 'over');
}

// Starts `position` in `mode` ('engine' or 'humans') and waits until it is shown.
export async function start(page, url, position, mode = 'humans') {
  // The page is loaded once; a new game starts on it without a reload.
  if (!page.url().startsWith(url)) await page.goto(url);
  await page.waitForSelector('#game-picker optgroup', { state: 'attached' });
  if (await page.isHidden('#play')) await page.click('#tab-play');
  await page.fill('#position', position);
  await page.selectOption('#mode', mode);
  await page.click('#start');
  await page.waitForFunction(() => document.body.dataset.busy === 'false' && document.getElementById('current').textContent !== ''
    && ['over', 'human'].includes(document.body.dataset.turn));
}

// Waits for the position shown to change from `before`.
export async function changed(page, before) {
  await page.waitForFunction((b) => document.body.dataset.busy === 'false'
    && document.getElementById('current').textContent !== b, before, { timeout: 20_000 });
  return page.textContent('#current');
}

// The API's answer, asked from the page.
export function post(page, path, body) {
  return page.evaluate(async ([p, b]) => {
    const response = await fetch(p, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(b) });
    return response.json();
  }, [path, body]);
}

const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

// Runs axe-core on the page; fails on any violation of impact "serious" or
// "critical", naming the rule and the elements.
export async function noSeriousViolations(page, where) {
  if (!(await page.evaluate(() => typeof window.axe !== 'undefined'))) await page.addScriptTag({ path: axePath });
  const violations = await page.evaluate(async () => {
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations.filter((v) => ['serious', 'critical'].includes(v.impact))
      .map((v) => `${v.id} (${v.impact}): ${v.help}\n    ${v.nodes.slice(0, 5).map((n) => `${n.target.join(' ')}: ${n.failureSummary.replace(/\s+/g, ' ').slice(0, 200)}`).join('\n    ')}`);
  });
  assert.deepEqual(violations, [], `${where}:\n${violations.join('\n')}`);
}
