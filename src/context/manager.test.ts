/** @module context/manager.test — the context manager: compaction, archive, prompt caching, accounting. */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { isLociError } from '../core/errors.js';
import type { AgentMessage } from '../providers/index.js';
import type { ArchiveBatch } from './compaction.js';
import { createContextManager } from './manager.js';
import type { ContextManagerOptions } from './manager-types.js';
import { blocksOf } from './messages.js';
import { extractiveSummariser, type SummaryRequest } from './summarise.js';

const base: ContextManagerOptions = {
  model: 'claude-sonnet-4-5',
  contextWindow: 20_000,
  reserveOutputTokens: 0,
  keepRecentTokens: 2_000,
  systemContext: { capturedAt: '2026-01-01T00:00:00.000Z', date: '2026-01-01', cwd: '/repo' },
  userContext: () => ({ claudeMd: 'Use tabs.', claudeMdFiles: [], memory: '' }),
};

/** One exchange: prompt, tool call, tool result, answer. */
function exchange(ctx: ReturnType<typeof createContextManager>, i: number, resultChars = 2_000): void {
  ctx.appendUser(`question ${i}: read file ${i}`);
  ctx.appendAssistant({
    role: 'assistant',
    content: [{ type: 'tool_use', id: `t${i}`, name: 'read', input: { path: `f${i}.ts` } }],
  });
  ctx.appendToolResults([{ toolUseId: `t${i}`, content: `line ${i} `.repeat(resultChars / 8), toolName: 'read' }]);
  ctx.appendAssistant({ role: 'assistant', content: `answer ${i}` });
}

/** Every tool_result in `messages` follows its tool_use, and every tool_use is answered (but maybe the last). */
function assertPairsIntact(messages: AgentMessage[]): void {
  const uses = new Set<string>();
  for (const m of messages)
    for (const b of blocksOf(m)) {
      if (b.type === 'tool_use') uses.add(b.id);
      if (b.type === 'tool_result') assert.ok(uses.has(b.toolUseId), `result ${b.toolUseId} without its call`);
    }
}

test('auto compaction keeps the context under the threshold and archives before replacing', async () => {
  const batches: ArchiveBatch[] = [];
  const ctx = createContextManager({ ...base, archive: async (b) => void batches.push(b) });
  let compactions = 0;
  for (let i = 0; i < 100; i++) {
    exchange(ctx, i);
    const { check, compaction } = await ctx.prepare();
    if (compaction) compactions++;
    assert.ok(check.fraction < 1, `turn ${i}: context at ${check.fraction}`);
    assertPairsIntact(ctx.messages());
  }
  assert.ok(compactions >= 2, `${compactions} compactions`);
  const book = ctx.bookkeeping();
  const archivedSeqs = batches.flatMap((b) => b.messages.map((m) => m.seq));
  assert.deepEqual(
    [...archivedSeqs].sort((a, b) => a - b),
    book.archived,
  );
  for (const s of book.replaced) assert.ok(book.archived.includes(s), `replaced ${s} was archived`);
  assert.match(blocksOf(ctx.messages()[0]!)[0]!.type, /text/);
  assert.match(ctx.summary() ?? '', /question/);
});

test('incremental: the summariser sees only messages added since the last compaction, and the summary', async () => {
  const seen: SummaryRequest[] = [];
  const ctx = createContextManager({
    ...base,
    summariser: async (r) => {
      seen.push(r);
      return { text: `S${seen.length}`, by: 'test' };
    },
  });
  for (let i = 0; i < 6; i++) exchange(ctx, i);
  const first = await ctx.compact({ instructions: 'focus on the migration' });
  assert.ok(first);
  assert.equal(seen[0]!.instructions, 'focus on the migration');
  assert.equal(seen[0]!.previousSummary, undefined);
  for (let i = 6; i < 12; i++) exchange(ctx, i);
  const second = await ctx.compact();
  assert.ok(second);
  assert.equal(seen[1]!.previousSummary, 'S1');
  assert.equal(second.replaced.from, first.replaced.to + 1, 'the second starts where the first stopped');
  const texts = seen[1]!.messages.flatMap((m) => blocksOf(m)).map((b) => JSON.stringify(b));
  assert.ok(!texts.some((t) => t.includes('question 0:')), 'old messages are not summarised again');
});

test('a failing archive aborts the compaction and leaves every message in place', async () => {
  const ctx = createContextManager({
    ...base,
    archive: async () => {
      throw new Error('disk full');
    },
  });
  for (let i = 0; i < 6; i++) exchange(ctx, i);
  const before = ctx.messages();
  await assert.rejects(ctx.compact(), (e) => isLociError(e, 'CONTEXT_ARCHIVE_FAILED') && /disk full/.test(e.message));
  assert.deepEqual(ctx.messages(), before);
  assert.equal(ctx.compactions().length, 0);
});

test('a failing summariser leaves every message in place', async () => {
  const ctx = createContextManager({
    ...base,
    summariser: async () => {
      throw new Error('model down');
    },
  });
  for (let i = 0; i < 6; i++) exchange(ctx, i);
  const before = ctx.messages();
  await assert.rejects(ctx.compact(), (e) => isLociError(e, 'CONTEXT_SUMMARY_FAILED'));
  assert.deepEqual(ctx.messages(), before);
});

test('large tool results are persisted once, previewed, and referenced by the summary after compaction', async () => {
  const home = mkdtempSync(join(tmpdir(), 'loci-ctx-'));
  try {
    const ctx = createContextManager({ ...base, home, maxResultSizeChars: 1_000 });
    for (let i = 0; i < 6; i++) exchange(ctx, i, 4_000);
    const entries = ctx.toolResults.entries();
    assert.equal(entries.length, 6);
    assert.ok(entries.every((e) => e.path && existsSync(e.path)));
    assert.ok(ctx.toolResults.totals().charsKeptOut > 6 * 2_000);
    const r = await ctx.compact();
    assert.ok(r && r.persistedPaths.length > 0);
    const head = ctx.messages()[0]!.content as string;
    for (const p of r.persistedPaths) assert.ok(head.includes(p), `summary lists ${p}`);
    assert.ok(ctx.toolResults.entries().some((e) => e.where === 'summary'));
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});

test('system prompt: cached Anthropic parts; /compact rebuilds the dynamic part, /clear both', async () => {
  let loads = 0;
  const ctx = createContextManager({
    ...base,
    userContext: () => ({ claudeMd: `rules v${++loads}`, claudeMdFiles: [], memory: '' }),
  });
  const req = ctx.request();
  assert.ok(Array.isArray(req.system));
  assert.equal(req.system.length, 2);
  assert.ok(req.system.every((p) => p.cache === true));
  assert.match(req.system[1]!.text, /2026-01-01/);
  assert.deepEqual(ctx.promptBuilds(), { static: 1, dynamic: 1 });
  ctx.request();
  assert.deepEqual(ctx.promptBuilds(), { static: 1, dynamic: 1 }, 'cached between turns');
  for (let i = 0; i < 6; i++) exchange(ctx, i);
  await ctx.compact();
  ctx.request();
  assert.deepEqual(ctx.promptBuilds(), { static: 1, dynamic: 2 });
  const id = ctx.sessionId;
  await ctx.clear();
  assert.notEqual(ctx.sessionId, id);
  assert.equal(ctx.messages().length, 0);
  ctx.request();
  assert.deepEqual(ctx.promptBuilds(), { static: 2, dynamic: 3 });
  const plain = createContextManager({ ...base, model: 'gpt-4o', provider: 'openai' }).request();
  assert.equal(typeof plain.system, 'string');
});

test('breakdown by section, and the correction ratio learnt from usage', () => {
  const ctx = createContextManager(base);
  ctx.appendUser('what changed?', { memories: '<system-reminder>memory: we deploy on Tuesdays</system-reminder>' });
  ctx.appendAssistant({ role: 'assistant', content: [{ type: 'tool_use', id: 'a', name: 'grep', input: { q: 'x' } }] });
  ctx.appendToolResults([{ toolUseId: 'a', content: 'match '.repeat(200) }]);
  const b = ctx.breakdown();
  const by = Object.fromEntries(b.sections.map((s) => [s.section, s.tokens]));
  assert.ok(by['memories']! > 0 && by['tool results']! > by['memories']!);
  assert.ok(by['system (static)']! > 0 && by['system (dynamic)']! > 0);
  assert.equal(
    b.total,
    b.sections.reduce((s, r) => s + r.tokens, 0),
  );
  const est = ctx.contextTokens();
  ctx.request();
  ctx.recordUsage({ inputTokens: 10, outputTokens: 5, cacheReadTokens: est * 2 - 10, cacheCreationTokens: 0 });
  assert.ok(Math.abs(ctx.counter.ratio - 2) < 0.05, `ratio ${ctx.counter.ratio}`);
  assert.ok(Math.abs(ctx.contextTokens() - est * 2) <= 2);
});

test('the peak counts only what is sent, per-message accounting, and a prompt starts a budget turn', async () => {
  const ctx = createContextManager({ ...base, turnTokens: 1_000 });
  let maxSent = 0;
  for (let i = 0; i < 60; i++) {
    exchange(ctx, i);
    await ctx.prepare();
    maxSent = Math.max(maxSent, ctx.contextTokens());
  }
  assert.ok(ctx.compactions().length > 0);
  assert.ok(ctx.budget.peakContextTokens <= maxSent, 'a context compacted before sending is not a peak');
  assert.ok(ctx.budget.peakContextTokens < ctx.budget.window * 0.85);
  const b = ctx.breakdown();
  assert.deepEqual(
    b.messages.map((m) => m.seq),
    ctx.bookkeeping().live,
  );
  assert.equal(
    b.messages.reduce((s, m) => s + m.tokens, 0) >= b.sections.find((s) => s.section === 'tool results')!.tokens,
    true,
  );
  ctx.appendUser('next');
  ctx.recordUsage({ inputTokens: 100, outputTokens: 300, cacheReadTokens: 0, cacheCreationTokens: 0 });
  const d = ctx.budget.continuation();
  assert.ok(d.action === 'continue' && d.continuations === 1, 'a fresh turn: 300 of 1,000 output tokens');
});

test('session notes reach the summariser at each compaction; the extractive summary leads with them once', async () => {
  let notes = '# Current state\nMigrating the drawer table; step 2 of 3 done.';
  const seen: SummaryRequest[] = [];
  const ctx = createContextManager({
    ...base,
    sessionNotes: () => notes,
    summariser: async (r) => {
      seen.push(r);
      return extractiveSummariser(r);
    },
  });
  for (let i = 0; i < 6; i++) exchange(ctx, i);
  const first = await ctx.compact();
  assert.ok(first);
  assert.match(seen[0]!.sessionNotes ?? '', /step 2 of 3/);
  notes = '# Current state\nMigration done; verifying the indexes.';
  for (let i = 6; i < 12; i++) exchange(ctx, i);
  await ctx.compact();
  const summary = (await extractiveSummariser(seen[1]!)).text;
  assert.match(summary, /^Where we left off \(session notes\):\n# Current state\nMigration done/);
  assert.doesNotMatch(summary, /step 2 of 3/, 'the earlier notes are replaced, not repeated');
});

test('a failing session-notes reader leaves the notes out and the compaction goes on', async () => {
  const ctx = createContextManager({
    ...base,
    sessionNotes: () => {
      throw new Error('unreadable');
    },
  });
  for (let i = 0; i < 6; i++) exchange(ctx, i);
  assert.ok(await ctx.compact());
});
