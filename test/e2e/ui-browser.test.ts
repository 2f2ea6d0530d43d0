/**
 * @module test/e2e/ui-browser
 * `loci ui` in a real browser: Debian's chromium driven by playwright-core (test/helpers/browser.ts;
 * nothing downloads a browser) against `bin/loci.js ui --port 0` over a mined fixture palace. Each
 * page loads without a script error; the palace shows wings and rooms with counts and sizes; a
 * search typed in the box returns the mined text; a memory edited in the page changes its file and
 * MEMORY.md; a drawer holding `<script>` shows it as text and runs nothing; the keyboard alone
 * reaches the search box, a hit and its drawer. Skips only when chromium is missing and
 * `LOCI_REQUIRE_BROWSER` is unset (`.ci/run` sets it).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { browserSkip, launchChromium } from '../helpers/browser.js';
import { BIN } from '../helpers/cli.js';
import { buildUiPalace, type UiPalace } from '../helpers/ui-palace.js';
import type { PalaceTree } from '../../src/ui/api-types.js';
import { openPalace } from '../../src/internal.js';

/** The page's globals inside a predicate that runs in the browser (the tests compile without the DOM types). */
type PageGlobal = {
  document: {
    querySelector(selector: string): { textContent: string | null } | null;
    activeElement: { id: string } | null;
  };
};

const skip = browserSkip();

/** Starts `loci ui --port 0` and resolves with its URL (the first stdout line). */
function startUi(fx: UiPalace): Promise<{ child: ChildProcess; origin: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'ui', '--port', '0'], {
      cwd: fx.project,
      env: { PATH: process.env.PATH, ...fx.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /loci ui: (http:\/\/\S+)/.exec(out);
      if (m) resolve({ child, origin: m[1]!.replace(/\/$/, '') });
    });
    child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
    child.once('exit', (code) => reject(new Error(`loci ui exited ${code}: ${err}`)));
  });
}

describe('loci ui in chromium', { skip }, () => {
  let base: string;
  let fx: UiPalace;
  let ui: { child: ChildProcess; origin: string };
  let browser: { context: BrowserContext; close: () => Promise<void> };
  let page: Page;
  const errors: string[] = [];
  before(async () => {
    base = realpathSync(mkdtempSync(join(tmpdir(), 'loci-ui-browser-')));
    fx = await buildUiPalace(base);
    ui = await startUi(fx);
    browser = await launchChromium();
    page = await browser.context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
  });
  after(async () => {
    await browser?.close();
    ui?.child.kill('SIGTERM');
    rmSync(base, { recursive: true, force: true });
  });

  test('each page loads', async () => {
    const pages: [string, string][] = [
      ['/', 'nav.tree a.wing'],
      ['/palace?wing=widget', 'table.list tbody tr'],
      ['/search?q=decisions', 'li.hit'],
      ['/kg', 'ul.chips li'],
      ['/kg/widget', 'li.fact'],
      ['/memory', 'nav.tree li'],
      ['/memory?name=deploys', 'form.editor textarea'],
      ['/agents', 'section pre.verbatim'],
      ['/status', 'svg.chart'],
    ];
    for (const [path, ready] of pages) {
      await page.goto(ui.origin + path);
      await page.waitForSelector(ready, { timeout: 15_000 });
      assert.equal(await page.locator('.error').count(), 0, `${path} shows an error`);
    }
    assert.deepEqual(errors, []);
  });

  test('the palace shows each wing and room with its drawers and the size of their text', async () => {
    const tree = (await (await fetch(`${ui.origin}/api/palace`)).json()) as PalaceTree;
    const widget = tree.wings.find((w) => w.name === 'widget')!;
    const room = widget.rooms[0]!;
    await page.goto(`${ui.origin}/palace?wing=widget&room=${encodeURIComponent(room.name)}`);
    const link = page.locator('nav.tree a.wing', { hasText: 'widget' }).locator('.count');
    await link.waitFor();
    const sized = /^[\d,]+ · \d+(\.\d)? (B|KB|MB)$/;
    assert.match((await link.textContent()) ?? '', sized);
    assert.equal(
      await link.getAttribute('title'),
      `${widget.drawers} drawers, ${widget.bytes.toLocaleString('en')} bytes of text`,
    );
    const roomCount = page.locator('nav.tree a.active .count');
    assert.match((await roomCount.textContent()) ?? '', new RegExp(`^${room.drawers} · `));
    assert.match((await page.textContent('section.main p.muted')) ?? '', / · \d+(\.\d)? (B|KB|MB) of text · /);
    assert.match((await page.textContent('table.list tbody td.num')) ?? '', /^\d+(\.\d)? (B|KB)$/);
  });

  test('without a prompt the agents page asks for one instead of loading for ever', async () => {
    await page.goto(`${ui.origin}/agents`);
    await page.waitForSelector('.recall-hint');
    // Predicates are functions, never strings: the page's CSP forbids eval, which a string predicate needs.
    await page.waitForFunction(
      () => !(globalThis as unknown as PageGlobal).document.querySelector('main')?.textContent?.includes('loading…'),
      null,
      {
        timeout: 15_000,
      },
    );
  });

  test('the status page shows the text size and says vectors on or off once', async () => {
    await page.goto(`${ui.origin}/status`);
    await page.waitForSelector('svg.chart');
    const tree = (await (await fetch(`${ui.origin}/api/palace`)).json()) as PalaceTree;
    assert.ok(tree.bytes > 0);
    assert.match((await page.locator('.card').nth(2).textContent()) ?? '', /^\d+(\.\d)? (B|KB|MB)of text$/);
    const vectors = (await page.locator('dd', { has: page.locator('.badge') }).textContent()) ?? '';
    assert.doesNotMatch(vectors, /^(on|off)\s+\1\b/, vectors);
  });

  test('the graph index pages its entities by 100, each page with its own URL', async () => {
    const palace = await openPalace({ home: fx.home, env: fx.env, embedder: null });
    try {
      const g = (await palace.graph()).graph;
      for (let i = 0; i < 120; i++)
        await g.addFact({ subject: `zz-part-${i}`, predicate: 'part_of', object: 'widget' });
    } finally {
      await palace.close();
    }
    await page.goto(`${ui.origin}/kg`);
    await page.waitForSelector('ul.chips li');
    const first = await page.locator('ul.chips li a').allTextContents();
    assert.equal(first.length, 100);
    await page.click('.pager a.next');
    await page.waitForURL(/\/kg\?cursor=/);
    await page.waitForFunction(
      (old) => (globalThis as unknown as PageGlobal).document.querySelector('ul.chips li a')?.textContent !== old,
      first[0],
    );
    const second = await page.locator('ul.chips li a').allTextContents();
    assert.ok(second.length > 0 && second.every((n) => !first.includes(n)), 'the next page holds other entities');
    const again = page.url();
    await page.goto(again);
    await page.waitForSelector('ul.chips li');
    assert.deepEqual(await page.locator('ul.chips li a').allTextContents(), second, 'the page is addressable');
  });

  test('a search typed in the box returns the mined text', async () => {
    await page.goto(`${ui.origin}/search`);
    await page.fill('#q', 'hybrid fusion');
    await page.waitForSelector('li.hit pre.excerpt mark');
    assert.match((await page.textContent('li.hit pre.excerpt')) ?? '', /ranks search results with hybrid fusion/);
    assert.ok((await page.locator('li.hit .signal .fill').count()) > 0, 'signal bars are drawn');
    assert.match(page.url(), /\/search\?q=hybrid\+fusion$/);
  });

  test('a memory edited in the page changes on disk and in MEMORY.md', async () => {
    await page.goto(`${ui.origin}/memory?name=deploys`);
    await page.waitForSelector('form.editor textarea');
    await page.fill('input[name="description"]', 'deploy steps, edited in the browser');
    await page.fill('textarea[name="body"]', 'Deploys run on GitHub Actions; tag a release first.');
    await page.click('form.editor button[type="submit"]');
    await page.waitForSelector('[role="status"]');
    assert.match((await page.textContent('[role="status"]')) ?? '', /saved/);
    assert.match(readFileSync(join(fx.memoryDir, 'project_deploys.md'), 'utf8'), /tag a release first/);
    assert.match(readFileSync(join(fx.memoryDir, 'MEMORY.md'), 'utf8'), /deploy steps, edited in the browser/);
  });

  test('a drawer holding <script> shows it as text and runs nothing', async () => {
    await page.goto(`${ui.origin}/search?q=escaping+notes`);
    await page.waitForSelector('li.hit a.hit-link');
    await page.click('li.hit a.hit-link');
    await page.waitForSelector('[data-testid="verbatim"]');
    const shown = (await page.textContent('[data-testid="verbatim"]')) ?? '';
    assert.ok(shown.includes(fx.hostile), 'the markup is shown verbatim');
    assert.equal(await page.locator('[data-testid="verbatim"] script, [data-testid="verbatim"] img').count(), 0);
    assert.equal(await page.evaluate('window.__lociPwned'), undefined);
  });

  test('the keyboard reaches the search box, a hit and its drawer', async () => {
    await page.goto(`${ui.origin}/palace`);
    await page.waitForSelector('nav.tree a.wing');
    await page.keyboard.press('/');
    await page.waitForURL(/\/search$/);
    await page.waitForFunction(() => (globalThis as unknown as PageGlobal).document.activeElement?.id === 'q');
    await page.keyboard.type('jenkins');
    await page.waitForSelector('li.hit');
    await page.keyboard.press('ArrowDown');
    assert.equal(await page.evaluate('document.activeElement?.className'), 'hit-link');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/drawer\/d[0-9a-f]+$/);
    await page.waitForSelector('[data-testid="verbatim"]');
    assert.match((await page.textContent('[data-testid="verbatim"]')) ?? '', /Jenkins/);
    await page.goBack();
    await page.waitForURL(/\/search\?q=jenkins$/);
    await page.waitForSelector('li.hit');
  });
});
