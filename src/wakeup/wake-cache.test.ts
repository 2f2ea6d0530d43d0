/**
 * @module wakeup/wake-cache.test
 * The session-start cache behind `cacheWakeUpPlan` / `cachedWakeUpText` (the hook's fast path,
 * issue 12): nothing before a plan is saved; the saved plan renders the same text as
 * `wakeUpResult`; '' for a plan with nothing to say; a changed dependency makes it stale; one
 * entry per working directory.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { openPalace, type Palace } from '../palace/index.js';
import { createMemoryStore } from '../store/index.js';
import { cachedWakeUpText, cacheWakeUpPlan } from './wake-cache.js';
import { planWakeUp } from './wake-up.js';
import { wakeUpResult } from './wake-render.js';

let root: string;
let home: string;
let palace: Palace;
beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'loci-wake-cache-'));
  home = join(root, 'home');
  mkdirSync(home);
  palace = await openPalace({ home, embedder: null, store: createMemoryStore() });
});
afterEach(async () => {
  await palace.close();
  rmSync(root, { recursive: true, force: true });
});

describe('session-start cache', () => {
  it('renders a saved plan as wakeUpResult does, per cwd, until a dependency changes', async () => {
    writeFileSync(join(home, 'identity.md'), 'I am the build robot of acme.');
    const cwd = join(root, 'acme');
    assert.equal(cachedWakeUpText(home, cwd), undefined, 'nothing saved yet');
    const plan = await planWakeUp({ palace, home, cwd, memoryDir: null, env: {} });
    assert.equal(cacheWakeUpPlan(home, cwd, plan), true);
    const now = Date.now();
    const text = cachedWakeUpText(home, cwd, now);
    assert.ok(text && text.includes('build robot'));
    assert.equal(text, wakeUpResult(plan, now).text);
    assert.equal(cachedWakeUpText(home, join(root, 'other')), undefined, 'another cwd has its own entry');
    writeFileSync(join(home, 'identity.md'), 'I am the release robot of acme, now.');
    assert.equal(cachedWakeUpText(home, cwd), undefined, 'a changed identity file makes the entry stale');
  });

  it("'' when the saved wake-up has nothing to say", async () => {
    const cwd = join(root, 'empty');
    cacheWakeUpPlan(home, cwd, await planWakeUp({ palace, home, cwd, memoryDir: null, env: {} }));
    assert.equal(cachedWakeUpText(home, cwd), '');
  });
});
