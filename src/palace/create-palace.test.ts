/**
 * @module palace/create-palace.test
 * The composition root with injected ports: a whole palace built from the in-memory adapters of
 * `store/memory` (no SQLite, no environment) mines, searches, adds drawers and extracts facts, and
 * every time it stamps comes from the injected clock.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixedClock, isoAt } from '../core/clock.js';
import {
  createMemoryGraphTables,
  createMemoryStore,
  createMemoryTunnelStore,
  createMemoryVectorStore,
} from '../store/index.js';
import { createHashEmbedder } from '../embed/index.js';
import { createPalace, PALACE_CONFIG_DEFAULTS, type PalaceConfig } from './palace.js';

const T0 = Date.UTC(2031, 0, 2, 3, 4, 5);

function memoryPalace(config: Partial<PalaceConfig> = {}) {
  const clock = fixedClock(T0);
  const store = createMemoryStore({ now: () => clock.now() });
  return {
    clock,
    palace: createPalace({
      store,
      graph: createMemoryGraphTables(),
      tunnels: () => createMemoryTunnelStore({ clock }),
      vectors: createMemoryVectorStore(store),
      embedder: createHashEmbedder(),
      clock,
      config: { home: '/nowhere/loci', userName: 'Ana', ...config },
    }),
  };
}

test('createPalace: a whole palace from the in-memory adapters mines, searches, adds drawers and facts', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'loci-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, 'auth'));
  writeFileSync(join(dir, 'auth', 'tokens.md'), '# Tokens\n\nRefresh tokens rotate every hour in the gateway.\n');
  writeFileSync(join(dir, 'notes.md'), '# Notes\n\nThe billing export runs nightly.\n');

  const { clock, palace: opening } = memoryPalace();
  const palace = await opening;
  assert.equal(palace.home, '/nowhere/loci');

  const mined = await palace.mine(dir, { wing: 'demo' });
  assert.equal(mined.filesMined, 2);
  const hits = await palace.search('refresh tokens rotate');
  assert.equal(hits.hits[0]?.room, 'auth');
  assert.ok(hits.signals.includes('vector'), `signals: ${hits.signals.join(', ')}`);
  assert.ok(hits.hits[0]?.text.includes('Refresh tokens'));

  clock.t = T0 + 60_000;
  const added = await palace.addDrawer({ wing: 'demo', room: 'team', text: 'Maya works for Acme Inc.' });
  assert.equal(added.added, true);
  const drawer = await palace.get(added.id);
  assert.equal(drawer?.filedAt, isoAt(T0 + 60_000), 'the store stamps with the injected clock');

  const g = await palace.graph();
  const facts = await g.graph.query('Maya');
  const worksAt = facts.find((f) => f.predicate === 'works_at');
  assert.ok(worksAt, `extracted facts: ${JSON.stringify(facts)}`);
  assert.equal(worksAt.recordedAt, isoAt(T0 + 60_000), 'the graph stamps with the injected clock');

  clock.t = T0 + 120_000;
  const fact = await g.graph.addFact({ subject: 'Ana', predicate: 'uses', object: 'pnpm' });
  assert.equal(fact.recordedAt, isoAt(T0 + 120_000));
  assert.equal(fact.validFrom, isoAt(T0 + 120_000));

  const diary = await palace.diaryWrite({ agent: 'reviewer', entry: 'looked at auth' });
  assert.equal(diary.date.slice(0, 10), '2031-01-02');
  // A retried write with the same time is the same entry, not a second one.
  const at = '2031-01-02T08:00:00.000Z';
  const once = await palace.diaryWrite({ agent: 'reviewer', entry: 'retried', at });
  const twice = await palace.diaryWrite({ agent: 'reviewer', entry: 'retried', at });
  assert.deepEqual(twice, once);
  assert.equal(once.date, at);
  assert.equal((await palace.diaryRead('reviewer')).total, 2);
  await assert.rejects(palace.diaryWrite({ agent: 'reviewer', entry: 'x', at: 'yesterday' }), {
    code: 'INVALID_ARGUMENT',
  });

  const status = await palace.status();
  assert.equal(status.home, '/nowhere/loci');
  assert.match(status.index.vectors, /hash/, 'the injected embedder and vector index are used');
  assert.equal(status.drawers, 5, 'the retried diary entry is stored once');
  await palace.close();
});

test('createPalace: config turns extraction off; defaults are documented values', async () => {
  assert.equal(PALACE_CONFIG_DEFAULTS.extractGraph, true);
  assert.equal(PALACE_CONFIG_DEFAULTS.userName, null);
  let built = 0;
  const store = createMemoryStore();
  const palace = await createPalace({
    store,
    graph: () => (built++, createMemoryGraphTables()),
    tunnels: createMemoryTunnelStore(),
    config: { extractGraph: false },
  });
  await palace.addDrawer({ wing: 'demo', room: 'team', text: 'Maya works for Acme Inc.' });
  assert.equal(built, 0, 'the graph is built on first use only');
  assert.equal(palace.home, '');
  assert.match((await palace.status()).index.vectors, /off/);
  const g = await palace.graph();
  assert.equal(built, 1);
  assert.deepEqual(await g.graph.query('Maya'), []);
  await palace.close();
});
