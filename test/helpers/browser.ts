/**
 * @module test/helpers/browser
 * Debian's chromium (`/usr/bin/chromium`, or `LOCI_CHROMIUM`) driven by playwright-core: nothing
 * downloads a browser. Headless, no sandbox (CI runs as root), no network side traffic, a fresh
 * profile each launch. `chromiumMissing()` says why browser tests cannot run here; they skip only
 * when it does and `LOCI_REQUIRE_BROWSER` is unset (`.ci/run` sets it, so CI never skips them).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

/** The chromium binary used. */
export const CHROMIUM = process.env.LOCI_CHROMIUM || '/usr/bin/chromium';

/** Flags of every launch (see the module comment). */
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/** A reason to skip browser tests, or false when they must run. */
export function browserSkip(): string | false {
  if (existsSync(CHROMIUM)) return false;
  if (process.env.LOCI_REQUIRE_BROWSER) throw new Error(`${CHROMIUM} is missing but LOCI_REQUIRE_BROWSER is set`);
  return `${CHROMIUM} is not installed (apt-get install chromium); set LOCI_REQUIRE_BROWSER=1 to fail instead`;
}

/** Launches chromium with a fresh profile; `close()` also removes the profile. */
export async function launchChromium(): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), 'loci-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: FLAGS,
    viewport: { width: 1280, height: 820 },
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
