/**
 * @module testing/team-contract
 * The contract every {@link TeamStore} adapter must pass: tokens (hash lookup, revocation), the
 * audit log (increasing sequence, paging, wing filter) and the memory documents (version history,
 * tombstones, compare-and-swap under concurrent writers). Adapters call `runTeamContract` from their
 * own test file; a test may be skipped only with a stated reason.
 */
import { describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { TeamStore, TeamToken } from '../store/index.js';
import { registrar, type ContractSkips } from './contract-helpers.js';

/** Options of {@link runTeamContract}. */
interface TeamContractOptions {
  name: string;
  /** Returns a fresh, initialised team store. */
  make: () => Promise<TeamStore>;
  skip?: ContractSkips;
}

const token = (id: string, user: string): TeamToken => ({
  id,
  user,
  hash: `h-${id}`,
  grants: [{ wing: '*', right: 'read' }],
  createdAt: '2026-01-15T12:00:00.000Z',
  revokedAt: null,
});

/** Registers the team-store contract tests for one adapter. */
export function runTeamContract(opts: TeamContractOptions): void {
  let t: TeamStore;
  const it = registrar(opts.skip, () => t);
  describe(`team contract: ${opts.name}`, () => {
    before(async () => {
      t = await opts.make();
    });
    after(async () => {
      await t.close();
    });

    it('tokens: stored, found by hash, listed, revoked once', async () => {
      await t.addToken(token('tok_a', 'alice'));
      await t.addToken({ ...token('tok_b', 'bob'), grants: [{ wing: 'api', right: 'write' }] });
      assert.equal((await t.tokenByHash('h-tok_a'))?.user, 'alice');
      assert.deepEqual((await t.tokenByHash('h-tok_b'))?.grants, [{ wing: 'api', right: 'write' }]);
      assert.equal(await t.tokenByHash('nope'), undefined);
      assert.deepEqual(
        (await t.listTokens()).map((x) => x.id),
        ['tok_a', 'tok_b'],
      );
      assert.equal(await t.revokeToken('tok_a', '2026-01-16T00:00:00.000Z'), true);
      assert.equal(await t.revokeToken('tok_a', '2026-01-17T00:00:00.000Z'), false);
      assert.equal(await t.revokeToken('tok_zz', '2026-01-17T00:00:00.000Z'), false);
      assert.equal((await t.tokenByHash('h-tok_a'))?.revokedAt, '2026-01-16T00:00:00.000Z');
      await assert.rejects(t.addToken(token('tok_a', 'again')));
    });

    it('audit: increasing sequence, paging after a sequence, wing filter', async () => {
      const at = '2026-01-15T12:00:00.000Z';
      const a = await t.appendAudit({ at, user: 'u', action: 'drawer.add', wing: 'w1', target: 'd1', details: {} });
      const b = await t.appendAudit({ at, user: 'u', action: 'kg.add', wing: '*', target: 'f1', details: { n: 1 } });
      const c = await t.appendAudit({ at, user: 'v', action: 'drawer.add', wing: 'w1', target: 'd2', details: {} });
      assert.ok(a.seq < b.seq && b.seq < c.seq);
      assert.deepEqual(
        (await t.listAudit()).map((e) => e.target),
        ['d1', 'f1', 'd2'],
      );
      assert.deepEqual((await t.listAudit({ after: a.seq, limit: 1 }))[0]?.details, { n: 1 });
      assert.deepEqual(
        (await t.listAudit({ wing: 'w1' })).map((e) => e.user),
        ['u', 'v'],
      );
    });

    it('memories: versions, history, tombstones and the latest of each file', async () => {
      const base = { project: 'p', author: 'alice', at: '2026-01-15T12:00:00.000Z' };
      assert.equal(await t.latestMemory('p', 'a.md'), undefined);
      assert.equal(await t.commitMemory({ ...base, file: 'a.md', text: 'one\n' }, 0), true);
      assert.equal(await t.commitMemory({ ...base, file: 'a.md', text: 'two\n' }, 1), true);
      assert.equal(await t.commitMemory({ ...base, file: 'b.md', text: 'b\n' }, 0), true);
      assert.equal(await t.commitMemory({ ...base, file: 'b.md', text: null }, 1), true);
      assert.equal(await t.commitMemory({ ...base, project: 'q', file: 'a.md', text: 'other\n' }, 0), true);
      assert.equal((await t.latestMemory('p', 'a.md'))?.version, 2);
      assert.equal((await t.memoryVersion('p', 'a.md', 1))?.text, 'one\n');
      assert.equal(await t.memoryVersion('p', 'a.md', 3), undefined);
      assert.deepEqual(
        (await t.listMemories('p')).map((m) => [m.file, m.version, m.text]),
        [
          ['a.md', 2, 'two\n'],
          ['b.md', 2, null],
        ],
      );
    });

    it('memories: compare-and-swap lets exactly one of concurrent writers win', async () => {
      const base = { project: 'p', file: 'c.md', author: 'x', at: '2026-01-15T12:00:00.000Z' };
      assert.equal(await t.commitMemory({ ...base, text: 'v1' }, 1), false, 'no version 1 yet');
      const wins = await Promise.all(
        Array.from({ length: 8 }, (_, i) => t.commitMemory({ ...base, text: `w${i}` }, 0)),
      );
      assert.equal(wins.filter(Boolean).length, 1);
      const latest = await t.latestMemory('p', 'c.md');
      assert.equal(latest?.version, 1);
      assert.equal(latest?.text, `w${wins.indexOf(true)}`);
    });
  });
}
