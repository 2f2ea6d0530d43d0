/**
 * @module testing/graph-contract
 * The contract every {@link GraphStore} adapter must pass, including a property test: a random
 * history of adds, contradicting adds and invalidations answers every as-of query like a naive
 * replay (`graph-replay-model.ts`), and windows of one key never overlap. Adapters call
 * `runGraphContract` from their own test file (tunnels: `tunnel-contract.ts`); a test may be
 * skipped only with a stated reason.
 */
import { describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Fact, GraphStore } from '../kg/index.js';
import { clock, code, day, registrar } from './contract-helpers.js';
import { assertReplayProperty, factWindow } from './graph-replay-model.js';

/** Options of {@link runGraphContract}. */
interface GraphContractOptions {
  name: string;
  /** Returns a fresh, initialised store with the default functional predicates. */
  make: () => Promise<GraphStore>;
  /**
   * Runs of the replay property test. Default 200; an adapter on a network server may pass fewer
   * (each step is a round trip).
   */
  propertyRuns?: number;
  /** Tests this adapter cannot pass, each with the reason. */
  skip?: { reason: string; tests: string[] }[];
}

/** Registers the graph contract tests for one adapter. */
export function runGraphContract(opts: GraphContractOptions): void {
  let g: GraphStore;
  const it = registrar(opts.skip, () => g);
  describe(`graph contract: ${opts.name}`, () => {
    before(async () => {
      g = await opts.make();
    });
    after(async () => {
      await g.close();
    });

    it('applyMany applies batches in order in one call, each lenient on its own', async () => {
      const res = await g.applyMany(
        [
          { facts: [{ subject: 'Ana', predicate: 'uses', object: 'MySQL', validFrom: '2026-01-01' }] },
          {
            invalidations: [{ subject: 'Ana', predicate: 'uses', object: 'MySQL', ended: '2026-02-01' }],
            facts: [{ subject: 'Ana', predicate: 'uses', object: 'PostgreSQL', validFrom: '2026-02-01' }],
          },
          {
            facts: [
              { subject: 'Ana', predicate: 'uses', object: 'Redis', validFrom: 'not a date' },
              { subject: 'Ana', predicate: 'works_at', object: 'Acme', validFrom: '2026-01-05' },
            ],
          },
        ],
        { lenient: true },
      );
      assert.equal(res.length, 3);
      assert.equal(res[2]!.skipped.length, 1, 'the bad item is skipped, the good one kept');
      const now = await g.query('Ana', { asOf: '2026-03-01' });
      assert.deepEqual(now.map((f) => f.objectName).sort(), ['Acme', 'PostgreSQL']);
      const jan = await g.query('Ana', { asOf: '2026-01-15' });
      assert.deepEqual(jan.map((f) => f.objectName).sort(), ['Acme', 'MySQL']);
    });

    it('entities resolve by case-, accent- and punctuation-folded name and by declared alias', async () => {
      const e = await g.upsertEntity({ name: 'Dr. Chén', type: 'person', aliases: ['Chen', '@lchen'] }, { clock });
      assert.equal(e.id, 'chen');
      assert.equal(e.name, 'Dr. Chén');
      // "Chen" is the entity's own key once the title is dropped: not an alias
      assert.deepEqual(e.aliases, ['@lchen']);
      for (const n of ['dr chen', 'DR. CHEN', 'Dr Chen', 'chen', 'Chén', 'lchen', '@LChen', 'dr_chen'])
        assert.equal((await g.resolveEntity(n))?.id, 'chen', n);
      assert.equal(await g.resolveEntity('Chen Li'), undefined);
      await g.upsertEntity({ name: 'Lin', type: 'person' }, { clock });
      assert.equal(await code(g.upsertEntity({ name: 'Maya', aliases: ['chen'] })), 'KG_ALIAS_TAKEN');
      assert.equal(await code(g.upsertEntity({ name: 'Maya', aliases: ['Lin'] })), 'KG_ALIAS_TAKEN');
      assert.equal(await code(g.upsertEntity({ name: ' -- ' })), 'KG_INVALID_ENTITY');
    });

    it('upsert keeps the first spelling and a known type, fills unknown, merges properties', async () => {
      await g.upsertEntity({ name: 'Acme Corp', properties: { a: 1 } }, { clock });
      let e = await g.upsertEntity({ name: 'ACME corp', type: 'organisation', properties: { b: 2 } }, { clock });
      assert.deepEqual([e.name, e.type, e.properties], ['Acme Corp', 'organisation', { a: 1, b: 2 }]);
      e = await g.upsertEntity({ name: 'acme corp', type: 'project' }, { clock });
      assert.equal(e.type, 'organisation');
      e = await g.upsertEntity({ name: 'acme corp', type: 'project', retype: true }, { clock });
      assert.equal(e.type, 'project');
    });

    it('addFact creates both entities, defaults validFrom to now and normalises dates', async () => {
      const f = await g.addFact(
        {
          subject: 'Maya',
          subjectType: 'person',
          predicate: 'Works On',
          object: 'auth-migration',
          objectType: 'project',
        },
        { clock },
      );
      assert.deepEqual(
        [f.subject, f.subjectName, f.predicate, f.object, f.objectName],
        ['maya', 'Maya', 'works_on', 'auth_migration', 'auth-migration'],
      );
      assert.deepEqual([f.validFrom, f.validTo, f.confidence, f.literal], ['2026-01-15T12:00:00.000Z', null, 1, false]);
      assert.equal((await g.resolveEntity('auth migration'))?.type, 'project');
      const h = await g.addFact(
        {
          subject: 'Maya',
          predicate: 'uses',
          object: 'Rust',
          validFrom: '2025-03-01T10:00:00+02:00',
          validTo: '2025-04-01',
        },
        { clock },
      );
      assert.deepEqual([h.validFrom, h.validTo], ['2025-03-01T08:00:00.000Z', '2025-04-01T00:00:00.000Z']);
      assert.equal(
        await code(g.addFact({ subject: 'a', predicate: 'p', object: 'b', validFrom: '2025-02-30' })),
        'KG_INVALID_DATE',
      );
      assert.equal(
        await code(g.addFact({ subject: 'a', predicate: 'p', object: 'b', validFrom: 'yesterday' })),
        'KG_INVALID_DATE',
      );
      assert.equal(
        await code(
          g.addFact({ subject: 'a', predicate: 'p', object: 'b', validFrom: '2025-02-02', validTo: '2025-02-01' }),
        ),
        'KG_INVALID_WINDOW',
      );
      assert.equal(await code(g.addFact({ subject: 'a', predicate: '  ', object: 'b' })), 'KG_INVALID_TERM');
      assert.equal(
        await code(g.addFact({ subject: 'a', predicate: 'p', object: 'b', confidence: 2 })),
        'INVALID_ARGUMENT',
      );
      assert.equal(await g.resolveEntity('a'), undefined, 'a rejected fact creates no entity');
    });

    it('an identical open fact is deduplicated: sources merged, dates kept unless asked', async () => {
      const a = await g.addFact(
        {
          subject: 'Maya',
          predicate: 'works_on',
          object: 'billing',
          validFrom: '2026-01-02',
          sources: ['d2'],
          confidence: 0.5,
        },
        { clock },
      );
      const b = await g.addFact(
        {
          subject: 'maya',
          predicate: 'works on',
          object: 'Billing',
          validFrom: '2026-01-09',
          sources: ['d1', 'd2'],
          confidence: 0.7,
        },
        { clock },
      );
      assert.equal(b.id, a.id);
      assert.deepEqual([b.validFrom, b.sources, b.confidence], ['2026-01-02T00:00:00.000Z', ['d1', 'd2'], 0.7]);
      const c = await g.addFact(
        { subject: 'maya', predicate: 'works_on', object: 'billing', validFrom: '2025-12-01' },
        { clock, dates: 'replace' },
      );
      assert.deepEqual([c.id, c.validFrom], [a.id, '2025-12-01T00:00:00.000Z']);
      assert.equal((await g.stats()).facts, 1);
    });

    it('a functional predicate closes the open window where the new one starts and keeps both', async () => {
      await g.addFact({ subject: 'Maya', predicate: 'works_at', object: 'Acme', validFrom: '2020-01-01' }, { clock });
      await g.addFact({ subject: 'Maya', predicate: 'works_at', object: 'Globex', validFrom: '2023-06-01' }, { clock });
      const tl = (await g.timeline('maya')).items.map(factWindow);
      assert.deepEqual(tl, [
        'maya works_at acme [2020-01-01T00:00:00.000Z, 2023-06-01T00:00:00.000Z)',
        'maya works_at globex [2023-06-01T00:00:00.000Z, open)',
      ]);
      assert.deepEqual(
        (await g.query('Maya', { asOf: '2021-05-05' })).map((f) => f.object),
        ['acme'],
      );
      assert.deepEqual(
        (await g.query('Maya', { clock })).map((f) => f.object),
        ['globex'],
      );
      // A back-filled older window ends where the later one starts (the later start wins).
      await g.addFact(
        { subject: 'Maya', predicate: 'works_at', object: 'Initech', validFrom: '2018-01-01' },
        { clock },
      );
      assert.deepEqual((await g.query('Maya', { asOf: '2019-01-01' })).map(factWindow), [
        'maya works_at initech [2018-01-01T00:00:00.000Z, 2020-01-01T00:00:00.000Z)',
      ]);
      // Non-functional predicates accumulate.
      await g.addFact({ subject: 'Maya', predicate: 'uses', object: 'npm', validFrom: '2020-01-01' }, { clock });
      await g.addFact({ subject: 'Maya', predicate: 'uses', object: 'pnpm', validFrom: '2024-01-01' }, { clock });
      assert.deepEqual(
        (await g.query('Maya', { predicate: 'uses', clock })).map((f) => f.object),
        ['npm', 'pnpm'],
      );
    });

    it('literal objects: a new role closes the previous one; literals never become entities', async () => {
      await g.addFact(
        { subject: 'Sam', predicate: 'role', object: 'engineer', literal: true, validFrom: '2024-01-01' },
        { clock },
      );
      await g.addFact(
        { subject: 'Sam', predicate: 'role', object: 'Tech Lead', literal: true, validFrom: '2025-01-01' },
        { clock },
      );
      const now = await g.query('sam', { clock });
      assert.deepEqual(
        now.map((f) => [f.object, f.objectName, f.literal]),
        [['Tech Lead', 'Tech Lead', true]],
      );
      assert.equal(await g.resolveEntity('tech lead'), undefined);
      assert.equal((await g.invalidate('Sam', 'role', 'Tech Lead', { ended: '2025-06-01' })).length, 1);
    });

    it('windows are half-open [from, to); a bare as-of date means the end of that day', async () => {
      await g.addFact(
        {
          subject: 'x',
          predicate: 'status',
          object: 'open',
          literal: true,
          validFrom: '2026-01-01',
          validTo: '2026-02-01',
        },
        { clock },
      );
      const at = async (d: string) => (await g.query('x', { asOf: d })).length;
      assert.equal(await at('2026-01-01T00:00:00Z'), 1);
      assert.equal(await at('2025-12-31T23:59:59.999Z'), 0);
      assert.equal(await at('2026-01-31T23:59:59Z'), 1);
      assert.equal(await at('2026-02-01T00:00:00Z'), 0);
      assert.equal(await at('2026-01-31'), 1);
      assert.equal(await at('2026-02-01'), 0);
      assert.equal(await at('2025-12-31'), 0);
      await g.addFact(
        { subject: 'y', predicate: 'status', object: 'ancient', literal: true, validFrom: null },
        { clock },
      );
      assert.equal((await g.query('y', { asOf: '1900-01-01' })).length, 1, 'null validFrom = since forever');
    });

    it('invalidate closes a window, never deletes, and refuses an end before the start', async () => {
      await g.addFact(
        {
          subject: 'Maya',
          predicate: 'assigned_to',
          object: 'auth-migration',
          validFrom: '2026-01-15',
          sources: ['d1'],
        },
        { clock },
      );
      assert.equal(
        await code(g.invalidate('Maya', 'assigned_to', 'auth-migration', { ended: '2026-01-01' })),
        'KG_INVALID_WINDOW',
      );
      const closed = await g.invalidate('maya', 'assigned to', 'Auth Migration', { ended: '2026-03-01' });
      assert.deepEqual(closed.map(factWindow), [
        'maya assigned_to auth_migration [2026-01-15T00:00:00.000Z, 2026-03-01T00:00:00.000Z)',
      ]);
      assert.deepEqual(
        await g.invalidate('maya', 'assigned_to', 'auth-migration'),
        [],
        'nothing open: a result, not an error',
      );
      assert.deepEqual(await g.invalidate('nobody', 'assigned_to', 'x'), []);
      assert.equal((await g.query('maya', { asOf: '2026-02-01' })).length, 1);
      assert.equal((await g.query('maya', { asOf: '2026-03-01' })).length, 0);
      assert.deepEqual(await g.stats(), { entities: 2, facts: 1, openFacts: 0, predicates: { assigned_to: 1 } });
      const both = await g.apply(
        {
          facts: [{ subject: 'sam', predicate: 'uses', object: 'vim', validFrom: '2026-01-01' }],
          invalidations: [{ subject: 'sam', predicate: 'uses', object: 'vim', ended: '2026-01-02' }],
        },
        { clock },
      );
      assert.deepEqual(
        [both.facts[0]?.validTo, both.invalidated[0]?.validTo],
        ['2026-01-02T00:00:00.000Z', '2026-01-02T00:00:00.000Z'],
      );
    });

    it('recordIfMissing keeps "what did we use before?" answerable, once', async () => {
      const inv = {
        subject: 'loci',
        predicate: 'uses',
        object: 'npm',
        ended: '2025-03-01',
        recordIfMissing: true,
        sources: ['d9'],
      };
      const [rec] = (
        await g.apply(
          {
            facts: [{ subject: 'loci', predicate: 'uses', object: 'pnpm', validFrom: '2025-03-01' }],
            invalidations: [inv],
          },
          { clock },
        )
      ).invalidated;
      assert.deepEqual(
        [rec && factWindow(rec), rec?.sources],
        ['loci uses npm [-inf, 2025-03-01T00:00:00.000Z)', ['d9']],
      );
      assert.deepEqual(
        (await g.query('loci', { asOf: '2024-06-01' })).map((f) => f.object),
        ['npm'],
      );
      assert.deepEqual(
        (await g.apply({ invalidations: [inv] }, { clock })).invalidated,
        [],
        'a stored window is never recorded twice',
      );
      assert.equal((await g.stats()).facts, 2);
    });

    it('query directions, predicate filter and unknown entities', async () => {
      await g.addFact({ subject: 'Maya', predicate: 'works_on', object: 'loci', validFrom: '2025-01-01' }, { clock });
      await g.addFact({ subject: 'Sam', predicate: 'works_on', object: 'loci', validFrom: '2025-02-01' }, { clock });
      await g.addFact({ subject: 'loci', predicate: 'uses', object: 'sqlite', validFrom: '2025-03-01' }, { clock });
      await g.addFact({ subject: 'loci', predicate: 'depends_on', object: 'loci', validFrom: '2025-03-01' }, { clock });
      const q = async (direction: 'in' | 'out' | 'both') =>
        (await g.query('Loci', { direction, clock })).map((f) => `${f.subject}>${f.object}`);
      assert.deepEqual(await q('out'), ['loci>sqlite', 'loci>loci']);
      assert.deepEqual(await q('in'), ['maya>loci', 'sam>loci', 'loci>loci']);
      assert.deepEqual(await q('both'), ['maya>loci', 'sam>loci', 'loci>sqlite', 'loci>loci']);
      assert.deepEqual((await g.query('loci', { predicate: 'Works On', clock })).length, 2);
      assert.deepEqual(await g.query('nobody', { clock }), []);
    });

    it('timeline pages with a cursor and has no hard cap', async () => {
      const batch = Array.from({ length: 230 }, (_, i) => ({
        subject: 'log',
        predicate: 'event',
        object: `e${i}`,
        validFrom: i % 10 === 0 ? null : day(i % 50),
        validTo: day(60),
      }));
      await g.apply({ facts: batch }, { clock });
      const all = (await g.timeline('log', { limit: 1000 })).items;
      assert.equal(all.length, 230);
      const paged: Fact[] = [];
      let cursor: string | null = null;
      do {
        const page = await g.timeline('log', { limit: 17, cursor });
        paged.push(...page.items);
        cursor = page.nextCursor;
      } while (cursor);
      assert.deepEqual(
        paged.map((f) => f.id),
        all.map((f) => f.id),
      );
      const starts = all.map((f) => f.validFrom ?? '');
      assert.deepEqual(starts, [...starts].sort());
      assert.equal(await code(g.timeline('log', { cursor: 'nonsense' })), 'KG_INVALID_CURSOR');
    });

    it('entities list by type and prefix with paging; stats count predicates', async () => {
      for (const n of ['alpha', 'alps', 'beta', 'alpine'])
        await g.upsertEntity({ name: n, type: n === 'beta' ? 'tool' : 'place' }, { clock });
      const p1 = await g.entities({ prefix: 'AL', limit: 2 });
      assert.deepEqual(
        p1.items.map((e) => e.id),
        ['alpha', 'alpine'],
      );
      const p2 = await g.entities({ prefix: 'al', limit: 2, cursor: p1.nextCursor });
      assert.deepEqual([p2.items.map((e) => e.id), p2.nextCursor], [['alps'], null]);
      assert.deepEqual(
        (await g.entities({ type: 'tool' })).items.map((e) => e.id),
        ['beta'],
      );
      await g.addFact({ subject: 'alpha', predicate: 'near', object: 'alps' }, { clock });
      assert.deepEqual(await g.stats(), { entities: 4, facts: 1, openFacts: 1, predicates: { near: 1 } });
    });

    it('provenance: facts for a drawer and drawers for entities', async () => {
      await g.apply(
        {
          entities: [{ name: 'Caroline', type: 'person', sources: ['s1', 's2'] }],
          facts: [
            { subject: 'Caroline', predicate: 'member_of', object: 'Mentorship Program', sources: ['s3'] },
            { subject: 'Melanie', predicate: 'uses', object: 'pottery', sources: ['s3', 's4'] },
          ],
        },
        { clock },
      );
      assert.deepEqual(
        (await g.factsForDrawer('s3')).map((f) => f.predicate),
        ['member_of', 'uses'],
      );
      assert.deepEqual(await g.factsForDrawer('nope'), []);
      const links = await g.drawersForEntities(['caroline', 'mentorship_program', 'melanie']);
      assert.deepEqual(links, [
        { drawerId: 's3', entities: ['caroline', 'melanie', 'mentorship_program'] },
        { drawerId: 's1', entities: ['caroline'] },
        { drawerId: 's2', entities: ['caroline'] },
        { drawerId: 's4', entities: ['melanie'] },
      ]);
      assert.equal((await g.drawersForEntities(['caroline'], { limit: 1 })).length, 1);
    });

    it('a batch is atomic, or lenient and skips what it cannot store', async () => {
      const bad = { subject: 'b', predicate: 'p', object: 'c', validFrom: '2025-02-02', validTo: '2025-01-01' };
      assert.equal(
        await code(
          g.apply(
            { entities: [{ name: 'Zed' }], facts: [{ subject: 'a', predicate: 'p', object: 'b' }, bad] },
            { clock },
          ),
        ),
        'KG_INVALID_WINDOW',
      );
      assert.deepEqual(await g.stats(), { entities: 0, facts: 0, openFacts: 0, predicates: {} });
      const r = await g.apply(
        {
          entities: [{ name: '!!' }, { name: 'Zed' }],
          facts: [bad, { subject: 'a', predicate: 'p', object: 'b' }],
          invalidations: [{ subject: 'a', predicate: 'p', object: 'b', ended: '1999-01-01' }],
        },
        { clock, lenient: true },
      );
      assert.deepEqual(
        r.skipped.map((s) => [s.kind, s.index, s.code]),
        [
          ['entity', 0, 'KG_INVALID_ENTITY'],
          ['fact', 0, 'KG_INVALID_WINDOW'],
          ['invalidation', 0, 'KG_INVALID_WINDOW'],
        ],
      );
      assert.deepEqual([r.entities.length, r.facts.length, r.invalidated.length], [1, 1, 0]);
      assert.deepEqual(await g.stats(), { entities: 3, facts: 1, openFacts: 1, predicates: { p: 1 } });
    });

    it('property: as-of answers equal a naive replay; windows of one key never overlap', async () => {
      await assertReplayProperty(g, opts.propertyRuns ?? 200);
    });
  });
}
