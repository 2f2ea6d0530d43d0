/**
 * @module test/integration/mine-workers
 * Mining with worker threads gives exactly the drawers of inline mining (drawers cross from the
 * workers packed, with their metadata as JSON: see ingest/prepare-file `toWire`).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createMemoryStore, mineAuto, mineProject, openPalace, type MemoryStore } from '../../src/internal.js';
import { tempDir } from '../helpers/cli.js';
import { generateTree } from '../helpers/corpus.js';

test('workers and inline mining store the same drawers', async () => {
  const t = tempDir();
  try {
    generateTree(join(t.dir, 'tree'), 60, 5);
    const a = createMemoryStore();
    const b = createMemoryStore();
    const sa = await mineProject(a, join(t.dir, 'tree'), { workers: 0 });
    const sb = await mineProject(b, join(t.dir, 'tree'), { workers: 2 });
    assert.equal(sa.drawersAdded, sb.drawersAdded);
    assert.ok(sa.drawersAdded > 60);
    const key = (s: typeof a) =>
      s
        .list({}, { limit: 10_000, order: 'source' })
        .then((r) =>
          r.drawers.map((d) => [
            d.id,
            d.text,
            d.lineStart,
            d.lineEnd,
            d.chunkIndex,
            d.wing,
            d.room,
            d.contentDate,
            d.sourceHash,
            d.metadata,
          ]),
        );
    assert.deepEqual(await key(a), await key(b));
  } finally {
    t.cleanup();
  }
});

test('worker-prepared drawers land in SQLite with the metadata of inline mining', async () => {
  const t = tempDir();
  try {
    generateTree(join(t.dir, 'tree'), 40, 7);
    const inline = createMemoryStore();
    await mineProject(inline, join(t.dir, 'tree'), { workers: 0, wing: 'w' });
    const palace = await openPalace({ home: join(t.dir, 'home'), embedder: null });
    try {
      const s = await palace.mine(join(t.dir, 'tree'), { mode: 'projects', workers: 2, wing: 'w' });
      assert.ok(s.drawersAdded > 40);
      const key = (st: MemoryStore) =>
        st
          .list({}, { limit: 10_000, order: 'source' })
          .then((r) => r.drawers.map((d) => [d.id, d.text, d.room, d.metadata]));
      const want = await key(inline);
      assert.deepEqual(await key(palace.store), want);
      assert.ok(want.some(([, , , m]) => (m as { language?: string }).language === 'typescript'));
      // Re-mining a touched but identical tree rewrites nothing.
      const again = await palace.mine(join(t.dir, 'tree'), { mode: 'projects', workers: 2, wing: 'w' });
      assert.equal(again.drawersAdded + again.drawersUpdated + again.drawersRemoved, 0);
    } finally {
      await palace.close();
    }
  } finally {
    t.cleanup();
  }
});

test('auto mode lists the stored sources once per run (discovery and project mining share them)', async () => {
  const t = tempDir();
  try {
    generateTree(join(t.dir, 'tree'), 20, 3);
    const store = createMemoryStore();
    let lists = 0;
    let stamps = 0;
    const counted: MemoryStore = {
      ...store,
      listSources: (o) => {
        lists++;
        return store.listSources(o);
      },
      listSourceStamps: (under) => {
        stamps++;
        return store.listSourceStamps(under);
      },
    };
    await mineAuto(counted, join(t.dir, 'tree'));
    lists = 0;
    stamps = 0;
    const again = await mineAuto(counted, join(t.dir, 'tree'));
    assert.equal(again.filesUnchanged, 20);
    // Project files only: their stamps, listed once; no full state is listed.
    assert.deepEqual({ stamps, lists }, { stamps: 1, lists: 0 });
  } finally {
    t.cleanup();
  }
});

test('auto mode: a project file over maxFileBytes is skipped, a conversation of any size is mined', async () => {
  const t = tempDir();
  try {
    const dir = join(t.dir, 'tree');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'small.md'), '# small\n\nA short note about the cache.\n');
    writeFileSync(join(dir, 'big.md'), `# big\n\n${'A long line about the index. '.repeat(40)}\n`);
    const turns = [
      { type: 'user', message: { role: 'user', content: 'How do I rebuild the index? '.repeat(20) } },
      { type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: 'Run the rebuild.' }] } },
    ];
    writeFileSync(join(dir, 'session.jsonl'), turns.map((x) => JSON.stringify({ ...x, sessionId: 's1' })).join('\n'));
    const store = createMemoryStore();
    const s = await mineAuto(store, dir, { maxFileBytes: 400, workers: 0 });
    assert.equal(s.skipped['too-large'], 1);
    assert.deepEqual(
      s.skippedFiles.filter((f) => f.reason === 'too-large').map((f) => f.path),
      [join(dir, 'big.md')],
    );
    // The transcript (over 400 bytes too) goes to the conversation miner, which has no size limit.
    assert.equal(s.filesMined, 2);
    const again = await mineAuto(store, dir, { maxFileBytes: 400, workers: 0 });
    assert.equal(again.filesUnchanged, 2);
    assert.equal(again.skipped['too-large'], 1);
  } finally {
    t.cleanup();
  }
});
