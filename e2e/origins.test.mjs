// A page on another origin cannot make `grundy serve` compute. A second local
// HTTP server (another port: another origin) serves a page whose script
// tries the requests a browser lets any page send to any address without
// asking the server first: a `text/plain` fetch POST and a form POST (both
// "simple" requests, sent without a CORS preflight), and a JSON fetch POST
// (preflighted). The browser's own record of the traffic (playwright sees
// the real status of answers the page cannot read) shows the server refused
// each POST that reached it (403 or 415) and never answered one with 200; a
// same-origin request from the playground's own page still computes.
//
// Run: cargo build --release -p grundy-cli && cd e2e && npm ci && npm test
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, request as httpRequest } from 'node:http';
import { launch } from './harness.mjs';

let url;
let foreign;
let foreignUrl;
let context;
let close;

// The other origin's page: `GRUNDY` is the playground's address.
function foreignPage(grundy) {
  const body = JSON.stringify({ position: 'nim(1, 2)' });
  return `<!doctype html><html><body>
<iframe name="sink"></iframe>
<form id="form" method="POST" action="${grundy}/api/solve" enctype="text/plain" target="sink">
  <input name='{"position": "nim(1, 2)", "padding": "' value='"}'>
</form>
<script>
window.probe = async function () {
  const results = {};
  try {
    const response = await fetch('${grundy}/api/solve', {
      method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: '${body}' });
    results.plain = 'read ' + response.status;
  } catch (e) { results.plain = 'blocked'; }
  try {
    await fetch('${grundy}/api/solve', {
      method: 'POST', mode: 'no-cors', headers: { 'Content-Type': 'text/plain' }, body: '${body}' });
    results.opaque = 'sent';
  } catch (e) { results.opaque = 'blocked'; }
  try {
    const response = await fetch('${grundy}/api/solve', {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '${body}' });
    results.json = 'read ' + response.status;
  } catch (e) { results.json = 'blocked'; }
  return results;
};
</script></body></html>`;
}

// The status the playground answers a `text/plain` POST to /api/solve that
// carries `origin`, asked directly (not through the browser).
function directAnswer(origin) {
  return new Promise((resolveStatus, reject) => {
    const body = JSON.stringify({ position: 'nim(1, 2)' });
    const ask = httpRequest(`${url}/api/solve`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain', Origin: origin, 'Content-Length': Buffer.byteLength(body) },
    }, (response) => {
      response.resume();
      resolveStatus(response.statusCode);
    });
    ask.on('error', reject);
    ask.end(body);
  });
}

before(async () => {
  ({ url, context, close } = await launch());
  foreign = createServer((request, response) => {
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    response.end(foreignPage(url));
  });
  await new Promise((ready) => foreign.listen(0, '127.0.0.1', ready));
  foreignUrl = `http://127.0.0.1:${foreign.address().port}/`;
});

after(async () => {
  if (foreign) foreign.close();
  if (close) await close();
});

test('a page on another origin cannot make the server compute', async () => {
  const page = await context.newPage();
  // Every request of the page (and its frame) to the playground with the
  // status the browser received, read from the browser's network log
  // (DevTools protocol): it records even the answers the page may not read,
  // such as a cross-origin fetch's that the browser blocks.
  const traffic = new Map();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  cdp.on('Network.requestWillBeSent', ({ requestId, request, type }) => {
    if (request.url.startsWith(`${url}/api/`)) {
      traffic.set(requestId, { kind: type, method: request.method, type: request.headers['Content-Type'] });
    }
  });
  // The status comes in either of two events (the extra-info one carries the
  // raw headers and is sometimes not sent for an opaque no-cors answer):
  // listen to both, and note a request that failed without an answer.
  cdp.on('Network.responseReceivedExtraInfo', ({ requestId, statusCode }) => {
    if (traffic.has(requestId)) traffic.get(requestId).status = statusCode;
  });
  cdp.on('Network.responseReceived', ({ requestId, response }) => {
    if (traffic.has(requestId) && response.status) traffic.get(requestId).status = response.status;
  });
  cdp.on('Network.loadingFailed', ({ requestId, errorText }) => {
    if (traffic.has(requestId)) traffic.get(requestId).failed = errorText;
  });
  await page.goto(foreignUrl);

  const results = await page.evaluate(() => window.probe());
  // The page reads nothing: the server grants no cross-origin reading.
  assert.deepEqual(results, { plain: 'blocked', opaque: 'sent', json: 'blocked' });

  // The form posts into the frame (another process: the browser's log of
  // this page does not see its answer, playwright does).
  const navigated = page.waitForResponse((response) => response.url() === `${url}/api/solve`
    && response.request().isNavigationRequest());
  await page.evaluate(() => document.getElementById('form').submit());
  const form = await navigated;

  // The browser's log may report a status a moment after the fetch settled:
  // wait (5 s at most) until the refused fetches have theirs. A refused
  // preflight's status is not always logged (Chromium may drop the extra
  // info of a failed OPTIONS request), so it is not waited for.
  const refusedHaveStatus = () => [...traffic.values()]
    .filter((r) => r.kind === 'Fetch' && r.method === 'POST' && r.type === 'text/plain')
    .every((r) => r.status !== undefined);
  for (let tries = 0; tries < 100 && !refusedHaveStatus(); tries += 1) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const requests = [...traffic.values()];
  const log = JSON.stringify(requests);
  // The two text/plain fetches reached the server, which refused them. The
  // browser's log sometimes drops the status of the one it blocked by CORS
  // (it records the failure alone): such a fetch must have failed, at least
  // one refusal must be logged, and the server, asked the same request
  // directly with the page's origin, refuses it.
  const plain = requests.filter((r) => r.kind === 'Fetch' && r.method === 'POST' && r.type === 'text/plain');
  assert.equal(plain.length, 2, log);
  for (const request of plain) {
    const refused = [403, 415].includes(request.status);
    assert.ok(refused || (request.status === undefined && request.failed !== undefined), log);
  }
  assert.ok(plain.some((request) => [403, 415].includes(request.status)), log);
  const direct = await directAnswer(new URL(foreignUrl).origin);
  assert.ok([403, 415].includes(direct), `a text/plain POST with the page's origin: ${direct}`);
  // The JSON fetch did not get past its preflight: the server refused the
  // OPTIONS request, so the POST was never sent.
  const json = requests.filter((r) => r.method === 'POST' && r.type === 'application/json');
  assert.equal(json.length, 1, log);
  assert.equal(json[0].status, undefined, log);
  // Its preflight was sent; where the browser logged the answer, it is a refusal
  // (the server's answer to a foreign OPTIONS request is checked in the Rust tests).
  const preflights = requests.filter((r) => r.method === 'OPTIONS');
  assert.ok(preflights.length >= 1 && preflights.every((r) => r.status === undefined || r.status >= 400), log);
  // The form reached the server, which refused it.
  assert.ok([403, 415].includes(form.status()), `form: ${form.status()}`);
  const refusal = JSON.parse(await form.text());
  assert.match(refusal.error, /own page/);
  await page.close();
});

test("the playground's own page still computes", async () => {
  const page = await context.newPage();
  await page.goto(url);
  const answer = await page.evaluate(async () => {
    const response = await fetch('/api/solve', {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ position: 'nim(1, 2)' }) });
    return { status: response.status, body: await response.json() };
  });
  assert.equal(answer.status, 200);
  assert.equal(answer.body.nimber, 3);
  await page.close();
});
