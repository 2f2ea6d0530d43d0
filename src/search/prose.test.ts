/**
 * @module search/prose.test
 * Tool lines are told from prose, and a match found only in tool output ranks below the same
 * match said in prose (real transcripts: file dumps outranked the exchange where a thing was said).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createMemoryStore } from '../store/index.js';
import { searchHybrid } from './hybrid.js';
import { asksWhy, explains, proseShare, splitProse } from './prose.js';

test('splitProse: tool calls and results, with or without a speaker label', () => {
  const text = [
    'User: why does the build fail?',
    'Assistant: [Bash] npm run build',
    '→ error TS2307: cannot find module ⏎ at src/a.ts',
    '[Read src/a.ts]',
    '[Task general-purpose] look around',
    'The import path was missing its .js suffix, so Node could not resolve it.',
    '[1] a footnote is prose',
  ].join('\n');
  const { prose, tool } = splitProse(text);
  assert.equal(
    prose,
    'User: why does the build fail?\nThe import path was missing its .js suffix, so Node could not resolve it.\n' +
      '[1] a footnote is prose',
  );
  assert.equal(tool.split('\n').length, 4);
  assert.deepEqual(splitProse('plain chat, no tools'), { prose: 'plain chat, no tools', tool: '' });
});

test('proseShare: 1 without tool lines, lower when the match is only in tool output', () => {
  const idf = new Map<string, number>();
  assert.equal(proseShare('Ana said the cat is called Pixel', ['cat'], idf, 0.25), 1);
  const inTool = proseShare('Assistant: let me look\n→ cat pixel cat pixel', ['cat', 'pixel'], idf, 0.25);
  const inProse = proseShare('The cat is called Pixel.\n→ cat pixel', ['cat', 'pixel'], idf, 0.25);
  assert.ok(inTool < 0.5, String(inTool));
  assert.ok(inProse > inTool && inProse < 1, String(inProse));
  assert.equal(proseShare('→ cat', ['cat'], idf, 1), 1, 'toolWeight 1 turns it off');
});

test('hybrid search: a match said in prose outranks the same words in a file dump', async () => {
  const store = createMemoryStore();
  const base = { wing: 'w', room: 'r', hall: null };
  await store.init();
  await store.put([
    {
      ...base,
      id: 'dump',
      source: 'a.jsonl',
      chunkIndex: 0,
      text:
        'User: show me the config\nAssistant: [Read config.yaml]\n→ retry_limit: 5 ⏎ retry backoff seconds: 30 ' +
        '⏎ retry jitter on ⏎ queue name jobs',
    },
    {
      ...base,
      id: 'said',
      source: 'b.jsonl',
      chunkIndex: 0,
      text:
        'User: how often do jobs retry?\nAssistant: Jobs retry five times with a backoff of 30 seconds, then ' +
        'land in the dead-letter queue.',
    },
  ]);
  const r = await searchHybrid({ store }, 'retry backoff queue');
  assert.equal(r.hits[0]?.id, 'said');
  const off = await searchHybrid({ store, params: { toolWeight: 1 } }, 'retry backoff queue');
  assert.equal(off.hits[0]?.id, 'dump', 'without the discount the dump wins (the defect this guards)');
});

test('asksWhy and explains', () => {
  assert.ok(asksWhy('why did we pick postgres?'));
  assert.ok(asksWhy('What was the reason for the rewrite'));
  assert.ok(!asksWhy('which port does the api use?'));
  assert.ok(explains('We went with it because the team runs it already.'));
  assert.ok(!explains('[Bash] echo because\n→ because'), 'tool lines do not count');
});

test('hybrid search: a why-question prefers the drawer that gives a reason', async () => {
  const store = createMemoryStore();
  await store.init();
  const base = { wing: 'w', room: 'r', hall: null };
  await store.put([
    {
      ...base,
      id: 'what',
      source: 'a.jsonl',
      chunkIndex: 0,
      text: 'User: switch the cache to redis\nAssistant: Done, the cache now runs on redis.',
    },
    {
      ...base,
      id: 'why',
      source: 'b.jsonl',
      chunkIndex: 0,
      text:
        'User: should we switch the cache to redis?\nAssistant: Yes: a redis cache, because sessions must ' +
        'survive a restart.',
    },
  ]);
  const r = await searchHybrid({ store, params: { source: 0 } }, 'why did we switch the cache to redis?');
  assert.equal(r.hits[0]?.id, 'why');
  const off = await searchHybrid({ store, params: { source: 0, why: 0 } }, 'why did we switch the cache to redis?');
  assert.equal(off.hits[0]?.id, 'what', 'without the answer-type signal the plain mention wins');
});
