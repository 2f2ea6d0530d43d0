/**
 * @module test/e2e/ui-server
 * `loci ui`'s server over a real socket, without a browser: the JSON API over a mined fixture palace,
 * paging, errors, and the guards — DNS-rebinding Host check, CSRF token and Origin on writes, the
 * access token off loopback, the Content-Security-Policy — and that writes go through the library
 * (a memory edited over the API changes its file and MEMORY.md).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveUi, type UiServing } from '../../src/ui/index.js';
import type { DrawerPage, MemoryWriteAnswer, PalaceTree, UiSearchResult } from '../../src/ui/api-types.js';
import { isLociError, openPalace } from '../../src/internal.js';
import { loci } from '../helpers/cli.js';
import { buildUiPalace, type UiPalace } from '../helpers/ui-palace.js';

/** One HTTP request with any headers (fetch refuses to set Host). */
function http(
  url: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: opts.method ?? 'GET', headers: opts.headers ?? {} }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(parts).toString('utf8') }),
      );
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

describe('loci ui server', () => {
  let base: string;
  let fx: UiPalace;
  let ui: UiServing;
  let origin: string;
  let csrf: string;
  before(async () => {
    base = realpathSync(mkdtempSync(join(tmpdir(), 'loci-ui-')));
    fx = await buildUiPalace(base);
    ui = await serveUi({ home: fx.home, cwd: fx.project, env: fx.env, port: 0 });
    origin = ui.url.replace(/\/$/, '');
    const page = await http(`${origin}/search?q=x`);
    csrf = /name="loci-csrf" content="([^"]+)"/.exec(page.text)![1]!;
  });
  after(async () => {
    await ui.close();
    rmSync(base, { recursive: true, force: true });
  });

  test('every page path answers the app with a strict Content-Security-Policy', async () => {
    for (const path of ['/', '/palace', '/search?q=a', '/drawer/d1', '/kg/widget', '/memory', '/agents', '/status']) {
      const r = await http(origin + path);
      assert.equal(r.status, 200, path);
      assert.match(r.text, /<script type="module" src="\/assets\/app.js">/);
      assert.match(String(r.headers['content-security-policy']), /script-src 'self'/);
    }
    const js = await http(`${origin}/assets/app.js`);
    assert.equal(js.status, 200);
    assert.match(String(js.headers['content-type']), /javascript/);
  });

  test('search returns the mined text with each signal explained', async () => {
    const r = JSON.parse((await http(`${origin}/api/search?q=hybrid+fusion`)).text) as UiSearchResult;
    const hit = r.hits[0]!;
    assert.match(hit.excerpt, /hybrid fusion/);
    assert.ok(hit.explain && hit.explain.signals.bm25!.contribution > 0);
    assert.ok(hit.spans.length >= 2);
    const none = JSON.parse((await http(`${origin}/api/search?q=hybrid&wing=acme-api`)).text) as UiSearchResult;
    assert.ok(none.hits.every((h) => h.wing === 'acme-api'));
  });

  test('drawers are paged, never listed whole', async () => {
    const p = JSON.parse((await http(`${origin}/api/drawers?limit=2`)).text) as DrawerPage;
    assert.equal(p.drawers.length, 2);
    assert.equal(p.next, 2);
    assert.ok(p.total > 2);
    const bad = await http(`${origin}/api/drawers?limit=100000`);
    assert.equal(bad.status, 400);
    assert.equal(JSON.parse(bad.text).error.code, 'INVALID_ARGUMENT');
    const miss = await http(`${origin}/api/drawer/dnothere`);
    assert.equal(miss.status, 404);
    assert.equal(JSON.parse(miss.text).error.code, 'DRAWER_NOT_FOUND');
  });

  test('the palace tree has each wing and room with its drawers and the UTF-8 bytes of their text', async () => {
    const t = JSON.parse((await http(`${origin}/api/palace`)).text) as PalaceTree;
    const widget = t.wings.find((w) => w.name === 'widget')!;
    assert.equal(
      widget.drawers,
      widget.rooms.reduce((n, r) => n + r.drawers, 0),
    );
    assert.equal(
      widget.bytes,
      widget.rooms.reduce((n, r) => n + r.bytes, 0),
    );
    assert.equal(
      t.bytes,
      t.wings.reduce((n, w) => n + w.bytes, 0),
    );
    const page = JSON.parse((await http(`${origin}/api/drawers?wing=widget&limit=200`)).text) as DrawerPage;
    const palace = await openPalace({ home: fx.home, env: fx.env, embedder: null });
    try {
      const texts = await Promise.all(page.drawers.map(async (d) => (await palace.get(d.id))!.text));
      assert.deepEqual(
        page.drawers.map((d) => d.bytes),
        texts.map((x) => Buffer.byteLength(x)),
      );
      assert.equal(
        widget.bytes,
        texts.reduce((n, x) => n + Buffer.byteLength(x), 0),
        'the wing is its drawers',
      );
    } finally {
      await palace.close();
    }
  });

  test('a Host header other than the loopback address and port is refused (DNS rebinding)', async () => {
    const r = await http(`${origin}/api/palace`, { headers: { host: `evil.example:${ui.port}` } });
    assert.equal(r.status, 403);
    const ok = await http(`${origin}/api/palace`, { headers: { host: `localhost:${ui.port}` } });
    assert.equal(ok.status, 200);
  });

  test('writes need the CSRF token and the page origin; then they go through memdir', async () => {
    const body = JSON.stringify({ description: 'deploys, edited over HTTP', body: 'Deploys run on a Friday.' });
    const json = { 'content-type': 'application/json' };
    const noToken = await http(`${origin}/api/memory/deploys`, {
      method: 'PUT',
      headers: { ...json, origin },
      body,
    });
    assert.equal(noToken.status, 403);
    const otherOrigin = await http(`${origin}/api/memory/deploys`, {
      method: 'PUT',
      headers: { ...json, origin: 'http://evil.example', 'x-loci-csrf': csrf },
      body,
    });
    assert.equal(otherOrigin.status, 403);
    const ok = await http(`${origin}/api/memory/deploys`, {
      method: 'PUT',
      headers: { ...json, origin, 'x-loci-csrf': csrf },
      body,
    });
    assert.equal(ok.status, 200, ok.text);
    const r = JSON.parse(ok.text) as MemoryWriteAnswer;
    assert.equal(r.changed, true);
    assert.match(readFileSync(r.memory.path, 'utf8'), /Deploys run on a Friday\./);
    assert.match(readFileSync(join(fx.memoryDir, 'MEMORY.md'), 'utf8'), /deploys, edited over HTTP/);
    const invalid = await http(`${origin}/api/memory/deploys`, {
      method: 'PUT',
      headers: { ...json, origin, 'x-loci-csrf': csrf },
      body: JSON.stringify({ type: 'nonsense' }),
    });
    assert.equal(invalid.status, 400);
    assert.equal(JSON.parse(invalid.text).error.code, 'MEMORY_INVALID_TYPE');
  });

  test('a fact is invalidated through the graph', async () => {
    const r = await http(`${origin}/api/kg/invalidate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin, 'x-loci-csrf': csrf },
      body: JSON.stringify({ subject: 'widget', predicate: 'uses', object: 'SQLite', ended: '2026-03-01' }),
    });
    assert.equal(r.status, 200, r.text);
    const view = JSON.parse((await http(`${origin}/api/kg/widget`)).text) as { timeline: { validTo: string | null }[] };
    assert.ok(view.timeline.some((f) => f.validTo?.startsWith('2026-03-01')));
  });

  test('off loopback a token is required; with one, the printed URL sets a cookie once', async () => {
    await assert.rejects(serveUi({ home: fx.home, env: fx.env, host: '0.0.0.0', port: 0 }), (e: unknown) =>
      isLociError(e, 'UI_TOKEN_REQUIRED'),
    );
    const t = await serveUi({ home: fx.home, cwd: fx.project, env: fx.env, port: 0, token: 's3cret-token' });
    try {
      const o = `http://127.0.0.1:${t.port}`;
      assert.match(t.url, /\?token=s3cret-token$/);
      assert.equal((await http(`${o}/api/palace`)).status, 401);
      const first = await http(t.url);
      assert.equal(first.status, 303);
      const cookie = String(first.headers['set-cookie']).split(';')[0]!;
      assert.match(String(first.headers['set-cookie']), /HttpOnly; SameSite=Strict/);
      assert.equal((await http(`${o}/api/palace`, { headers: { cookie } })).status, 200);
      const bearer = await http(`${o}/api/palace`, { headers: { authorization: 'Bearer s3cret-token' } });
      assert.equal(bearer.status, 200);
    } finally {
      await t.close();
    }
  });

  test('a port in use is UI_LISTEN_FAILED; the CLI refuses another host without a token', async () => {
    await assert.rejects(
      serveUi({ home: fx.home, env: fx.env, port: ui.port }),
      (e: unknown) => isLociError(e, 'UI_LISTEN_FAILED') && /in use/.test(e.message),
    );
    const r = loci(['ui', '--host', '0.0.0.0', '--port', '0'], { env: { ...fx.env, LOCI_TOKEN: '' } });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /\[UI_TOKEN_REQUIRED\]/);
  });
});
