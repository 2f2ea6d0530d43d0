/**
 * @module context/bookkeeping.test
 * Property tests of the compaction and budget bookkeeping: whatever the sequence of turns,
 * compactions (manual, automatic, with archive or summariser failures), clears and flushes,
 * nothing is lost — every message ever appended is archived, summarised or still verbatim in
 * context; summarised messages were archived first; no tool_use is separated from its result; and
 * each message is summarised at most once (incremental compaction).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { AgentMessage } from '../providers/index.js';
import { createTokenBudget } from './budget.js';
import { createContextManager } from './manager.js';
import { blocksOf } from './messages.js';

type Action =
  | { kind: 'turn'; tools: number; size: number; text: number }
  | { kind: 'compact'; failArchive: boolean; failSummary: boolean }
  | { kind: 'prepare' }
  | { kind: 'clear' }
  | { kind: 'flush' };

const action: fc.Arbitrary<Action> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('turn' as const),
      tools: fc.nat(3),
      size: fc.nat(3_000),
      text: fc.nat(400),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('compact' as const),
      failArchive: fc.boolean(),
      failSummary: fc.boolean(),
    }),
  },
  { weight: 2, arbitrary: fc.constant({ kind: 'prepare' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'clear' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'flush' as const }) },
);

test('property: archived + summarised + kept verbatim covers every message, and pairs stay whole', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(action, { maxLength: 40 }),
      fc.integer({ min: 100, max: 4_000 }),
      async (actions, keep) => {
        const bySeq = new Map<AgentMessage, number>();
        const archivedSeqs: number[] = [];
        const summarisedSeqs: number[] = [];
        let failArchive = false;
        let failSummary = false;
        const ctx = createContextManager({
          model: 'llama3.2',
          contextWindow: 8_000,
          reserveOutputTokens: 0,
          keepRecentTokens: keep,
          systemContext: { capturedAt: '2026-01-01T00:00:00.000Z', date: '2026-01-01', cwd: '/r' },
          userContext: () => ({ claudeMd: '', claudeMdFiles: [], memory: '' }),
          archive: async (b) => {
            if (failArchive) throw new Error('archive down');
            for (const m of b.messages) {
              assert.ok(!archivedSeqs.includes(m.seq), `seq ${m.seq} archived twice`);
              archivedSeqs.push(m.seq);
              bySeq.set(m.message, m.seq);
            }
          },
          summariser: async (r) => {
            if (failSummary) throw new Error('summariser down');
            for (const m of r.messages) {
              const s = bySeq.get(m);
              assert.ok(s !== undefined, 'a summarised message was archived first');
              assert.ok(!summarisedSeqs.includes(s), `seq ${s} summarised twice`);
              summarisedSeqs.push(s);
            }
            return { text: `summary of ${r.messages.length} + ${r.previousSummary?.length ?? 0}`, by: 'test' };
          },
        });
        let n = 0;
        for (const a of actions) {
          const before = ctx.bookkeeping();
          let failed = false;
          try {
            if (a.kind === 'turn') {
              n++;
              ctx.appendUser(`prompt ${n} ${'w '.repeat(a.text)}`);
              for (let t = 0; t < a.tools; t++) {
                const id = `u${n}_${t}`;
                ctx.appendAssistant({
                  role: 'assistant',
                  content: [{ type: 'tool_use', id, name: 'read', input: {} }],
                });
                ctx.appendToolResults([{ toolUseId: id, content: 'x '.repeat(a.size) }]);
              }
              ctx.appendAssistant({ role: 'assistant', content: `done ${n}` });
            } else if (a.kind === 'compact') {
              failArchive = a.failArchive;
              failSummary = a.failSummary;
              await ctx.compact();
            } else if (a.kind === 'prepare') await ctx.prepare();
            else if (a.kind === 'clear') await ctx.clear();
            else await ctx.flushArchive();
          } catch {
            failed = true;
          } finally {
            failArchive = false;
            failSummary = false;
          }
          const book = ctx.bookkeeping();
          if (failed) assert.deepEqual(book.live, before.live, 'a failed compaction changes nothing');
          const live = new Set(book.live);
          const archived = new Set(book.archived);
          for (let s = 0; s < book.appended; s++)
            assert.ok(live.has(s) || archived.has(s), `message ${s} is neither in context nor archived`);
          for (const s of book.replaced) {
            assert.ok(!live.has(s), `replaced ${s} is still live`);
            assert.ok(archived.has(s), `replaced ${s} was archived`);
          }
          for (const s of summarisedSeqs) assert.ok(book.replaced.includes(s), `summarised ${s} left the context`);
          assert.deepEqual(
            [...archivedSeqs].sort((x, y) => x - y),
            book.archived,
          );
          const msgs = ctx.messages();
          const verbatim = ctx.summary() === undefined ? msgs : msgs.slice(1);
          assert.equal(verbatim.length, book.live.length);
          const uses = new Set<string>();
          for (const m of verbatim)
            for (const b of blocksOf(m)) {
              if (b.type === 'tool_use') uses.add(b.id);
              if (b.type === 'tool_result') assert.ok(uses.has(b.toolUseId), 'a tool_result kept without its tool_use');
            }
        }
      },
    ),
    { numRuns: 120, seed: 1313 },
  );
});

test('property: budget levels are monotonic in the context size and the peak is the max seen', () => {
  fc.assert(
    fc.property(fc.array(fc.nat(300_000), { minLength: 1, maxLength: 50 }), (sizes) => {
      const b = createTokenBudget({ contextWindow: 200_000 });
      const rank = { ok: 0, compact: 1, warn: 2, over: 3 } as const;
      for (const s of sizes) {
        const c = b.check(s);
        assert.equal(c.shouldCompact, c.fraction >= 0.85);
        assert.equal(c.nudge !== undefined, c.fraction >= 0.9);
        assert.ok(rank[b.check(s + 1).level] >= rank[c.level]);
      }
      assert.equal(b.peakContextTokens, Math.max(...sizes.map((s) => s + 1)));
    }),
    { numRuns: 200, seed: 7 },
  );
});
