/**
 * @module scripts/screenshots
 * `npm run screenshots`: mines a small fixture palace (test/helpers/ui-palace.ts), serves `loci ui`
 * over it, opens each page in Debian's chromium and writes `docs/screenshots/<page>.png` (the
 * README's "Web UI" section shows them). Needs `npm run build` (the page's assets) and
 * /usr/bin/chromium.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveUi } from '../src/ui/index.js';
import { launchChromium } from '../test/helpers/browser.js';
import { ROOT } from '../test/helpers/cli.js';
import { buildUiPalace } from '../test/helpers/ui-palace.js';

const out = join(ROOT, 'docs', 'screenshots');
mkdirSync(out, { recursive: true });
const base = realpathSync(mkdtempSync(join(tmpdir(), 'loci-shots-')));
const fixture = await buildUiPalace(base);
const ui = await serveUi({
  home: fixture.home,
  cwd: fixture.project,
  env: fixture.env,
  port: 0,
});
const origin = ui.url.replace(/\/$/, '');
const { context, close } = await launchChromium();
try {
  const page = await context.newPage();
  const shots: [string, string, string][] = [
    ['palace', '/palace?wing=widget', 'table.list'],
    ['drawer', '', 'pre.verbatim'],
    ['search', '/search?q=login+rate+limit', 'li.hit'],
    ['kg', '/kg/widget', 'li.fact'],
    ['memory', '/memory?name=run-the-browser-tests', 'form.editor'],
    ['agents', '/agents?prompt=how+do+we+deploy', 'pre.verbatim'],
    ['status', '/status', 'svg.chart'],
  ];
  for (const [name, path, ready] of shots) {
    if (name === 'drawer') {
      // A conversation drawer: its session timeline is shown beside it.
      await page.goto(`${origin}/palace?wing=acme-api&room=auth`);
      await page.waitForSelector('table.list a');
      await page.click('table.list tbody tr:nth-child(3) a');
    } else {
      await page.goto(origin + path);
    }
    await page.waitForSelector(ready);
    await page.waitForTimeout(150);
    await page.screenshot({ path: join(out, `${name}.png`), fullPage: false });
    process.stdout.write(`wrote docs/screenshots/${name}.png\n`);
  }
} finally {
  await close();
  await ui.close();
  rmSync(base, { recursive: true, force: true });
}
