/**
 * @module testing/store-contract
 * The contract every {@link MemoryStore} adapter must pass. Adapters call
 * `runStoreContract({ name, make })` from their own test file; a test may be skipped only with a
 * stated reason.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { DrawerInput, MemoryStore, SourceState } from '../store/ports.js';
import { queryTokens } from '../text/index.js';

/** Options of {@link runStoreContract}. */
interface StoreContractOptions {
  name: string;
  /** Returns a fresh, empty, initialised store. */
  make: () => Promise<MemoryStore>;
  /** Tests this adapter cannot pass, each with the reason. */
  skip?: { reason: string; tests: string[] }[];
}

function src(source: string, hash = 'h1', extra: Partial<SourceState> = {}): SourceState {
  return {
    source,
    wing: 'proj',
    kind: 'project',
    root: '/root',
    size: 10,
    mtimeMs: 1,
    hash,
    offset: 0,
    prefixHash: null,
    config: 'c1',
    state: {},
    minedAt: '2026-01-01T00:00:00.000Z',
    ...extra,
  };
}

const d = (text: string, extra: Partial<DrawerInput> = {}): DrawerInput => ({
  wing: 'proj',
  room: 'general',
  text,
  ...extra,
});

/** Registers the contract tests for one adapter. */
export function runStoreContract(opts: StoreContractOptions): void {
  const skipped = new Map<string, string>();
  for (const s of opts.skip ?? []) for (const t of s.tests) skipped.set(t, s.reason);
  let store: MemoryStore;
  const it = (name: string, fn: () => Promise<void>) =>
    test(name, skipped.has(name) ? { skip: skipped.get(name) } : {}, async () => {
      await store.dangerouslyClearAll();
      await fn();
    });

  describe(`store contract: ${opts.name}`, () => {
    before(async () => {
      store = await opts.make();
    });
    after(async () => {
      await store.close();
    });

    it('put then get returns the verbatim text and metadata', async () => {
      const text = 'Line one\n\n  indented — ünïcode 认证 🙂\n';
      const { added } = await store.put([
        d(text, { hall: 'facts', metadata: { a: 1, nested: { b: [1, 2] } }, contentDate: '2026-01-15' }),
      ]);
      assert.equal(added.length, 1);
      const got = await store.get(added[0]!);
      assert.ok(got);
      assert.equal(got.text, text);
      assert.equal(got.hall, 'facts');
      assert.deepEqual(got.metadata, { a: 1, nested: { b: [1, 2] } });
      assert.equal(got.contentDate, '2026-01-15');
      assert.match(got.filedAt, /^\d{4}-\d{2}-\d{2}T/);
      assert.equal(got.contentHash.length, 64);
    });

    it('put is idempotent: the same content in the same place is stored once', async () => {
      const a = await store.put([d('same words here')]);
      const b = await store.put([d('same words here')]);
      assert.equal(a.added.length, 1);
      assert.deepEqual(b.added, []);
      assert.deepEqual(b.existing, a.added);
      assert.equal(await store.count(), 1);
    });

    it('put rejects invalid input and stores nothing of the batch', async () => {
      await assert.rejects(store.put([d('fine'), d('', {})]), /text/);
      await assert.rejects(store.put([d('x', { wing: 'a/b' })]), /wing/);
      assert.equal(await store.count(), 0);
    });

    it('getMany keeps the order of ids and skips missing ones', async () => {
      const { added } = await store.put([d('alpha'), d('beta'), d('gamma')]);
      const got = await store.getMany([added[2]!, 'missing', added[0]!]);
      assert.deepEqual(
        got.map((x) => x.text),
        ['gamma', 'alpha'],
      );
    });

    it('filters: wing, room, hall, source prefix, since/until, ids', async () => {
      await store.put([
        d('one', { wing: 'w1', room: 'r1', hall: 'facts', source: '/a/x.md', contentDate: '2026-01-10' }),
        d('two', { wing: 'w1', room: 'r2', source: '/a/y.md', contentDate: '2026-01-15T10:00:00.000Z' }),
        d('three', { wing: 'w2', room: 'r1', source: '/b/z.md', contentDate: '2026-02-01' }),
        d('four', { wing: 'w2', room: 'r1' }),
      ]);
      assert.equal(await store.count({ wing: 'w1' }), 2);
      assert.equal(await store.count({ wing: ['w1', 'w2'], room: 'r1' }), 3);
      assert.equal(await store.count({ hall: 'facts' }), 1);
      assert.equal(await store.count({ source: '/a/*' }), 2);
      assert.equal(await store.count({ source: '/a/x.md' }), 1);
      assert.equal(await store.count({ since: '2026-01-15' }), 2);
      assert.equal(await store.count({ until: '2026-01-15' }), 2, 'a bare until date includes that whole day');
      assert.equal(await store.count({ since: '2026-01-11', until: '2026-01-31' }), 1);
      const all = await store.list({}, { limit: 10 });
      assert.equal(await store.count({ ids: [all.drawers[0]!.id] }), 1);
      assert.deepEqual(await store.countBy('wing'), { w1: 2, w2: 2 });
      assert.deepEqual(await store.countBy('room', { wing: 'w2' }), { r1: 2 });
      assert.deepEqual(await store.countRooms(), [
        { wing: 'w1', room: 'r1', count: 1 },
        { wing: 'w1', room: 'r2', count: 1 },
        { wing: 'w2', room: 'r1', count: 2 },
      ]);
    });

    it('roomSizes: drawers and UTF-8 bytes of text per room, filtered like countRooms', async () => {
      assert.deepEqual(await store.roomSizes(), [], 'an empty palace has no rooms');
      await store.put([
        d('abc', { wing: 'w1', room: 'r1', hall: 'facts' }),
        d('é→😀', { wing: 'w1', room: 'r1' }), // 2 + 3 + 4 bytes, 3 characters, 4 UTF-16 units
        d('xy', { wing: 'w1', room: 'r2' }),
        d('<script>', { wing: 'w2', room: 'r1' }),
      ]);
      const all = (await store.list({}, { limit: 10 })).drawers;
      assert.equal(all.find((x) => x.text.startsWith('é'))?.text, 'é→😀', 'the text is stored as given');
      assert.deepEqual(await store.roomSizes(), [
        { wing: 'w1', room: 'r1', count: 2, bytes: 3 + 9 },
        { wing: 'w1', room: 'r2', count: 1, bytes: 2 },
        { wing: 'w2', room: 'r1', count: 1, bytes: 8 },
      ]);
      assert.deepEqual(await store.roomSizes({ hall: 'facts' }), [{ wing: 'w1', room: 'r1', count: 1, bytes: 3 }]);
      assert.deepEqual(await store.roomSizes({ wing: 'w2' }), [{ wing: 'w2', room: 'r1', count: 1, bytes: 8 }]);
      const counts = (await store.roomSizes()).map(({ wing, room, count }) => ({ wing, room, count }));
      assert.deepEqual(await store.countRooms(), counts, 'the same rooms, counts and order as countRooms');
    });

    it('list pages and orders', async () => {
      for (let i = 0; i < 5; i++)
        await store.put([d(`doc ${i}`, { source: '/s', chunkIndex: 4 - i, contentDate: `2026-01-0${i + 1}` })]);
      const p1 = await store.list({}, { limit: 2, order: 'source' });
      assert.equal(p1.total, 5);
      assert.deepEqual(
        p1.drawers.map((x) => x.chunkIndex),
        [0, 1],
      );
      const p2 = await store.list({}, { limit: 2, offset: 2, order: 'source' });
      assert.deepEqual(
        p2.drawers.map((x) => x.chunkIndex),
        [2, 3],
      );
      const byDate = await store.list({}, { limit: 1, order: 'date' });
      assert.equal(byDate.drawers[0]!.contentDate, '2026-01-05');
    });

    it('searchLexical finds words over the whole corpus, best first, honouring filters', async () => {
      const docs: DrawerInput[] = [];
      for (let i = 0; i < 30; i++)
        docs.push(d(`filler text number ${i} about nothing in particular`, { room: i % 2 ? 'odd' : 'even' }));
      docs.push(d('the OAuth2 migration of the authentication module was decided', { room: 'auth' }));
      docs.push(d('authentication authentication authentication everywhere', { room: 'noise' }));
      await store.put(docs);
      const hits = await store.searchLexical(queryTokens('oauth2 migration'), undefined, 5);
      assert.ok(hits.length >= 1);
      const top = await store.get(hits[0]!.id);
      assert.equal(top?.room, 'auth');
      assert.equal(hits[0]!.room, 'auth', 'hits carry the ranking fields');
      assert.equal(hits[0]!.wing, 'proj');
      assert.ok(hits.every((h, i) => i === 0 || hits[i - 1]!.score >= h.score));
      const filtered = await store.searchLexical(queryTokens('authentication'), { room: 'noise' }, 5);
      assert.equal(filtered.length, 1);
      const none = await store.searchLexical(queryTokens('authentication'), { room: 'odd' }, 5);
      assert.equal(none.length, 0);
      const many = await store.searchLexical(queryTokens('filler'), undefined, 7);
      assert.equal(many.length, 7);
    });

    it('searchLexical finds Chinese and Japanese text with short queries', async () => {
      await store.put([
        d('我们决定把认证模块迁移到OAuth2'),
        d('私たちは認証モジュールをOAuth2に移行することに決めました'),
        d('unrelated english text'),
      ]);
      const zh = await store.searchLexical(queryTokens('认证'), undefined, 5);
      assert.ok(zh.length >= 1);
      assert.match((await store.get(zh[0]!.id))!.text, /认证/);
      const mod = await store.searchLexical(queryTokens('模块'), undefined, 5);
      assert.match((await store.get(mod[0]!.id))!.text, /模块/);
      const ja = await store.searchLexical(queryTokens('認証'), undefined, 5);
      assert.ok(ja.some((h) => h.score > 0));
    });

    it('update changes text and re-indexes it, keeping the id', async () => {
      const { added } = await store.put([d('old words aardvark')]);
      const id = added[0]!;
      const u = await store.update(id, { text: 'new words zebra', room: 'moved' });
      assert.equal(u?.id, id);
      assert.equal(u?.room, 'moved');
      assert.equal((await store.searchLexical(['aardvark'], undefined, 5)).length, 0);
      assert.equal((await store.searchLexical(['zebra'], undefined, 5))[0]?.id, id);
      assert.equal(await store.update('nope', { text: 'x' }), undefined);
    });

    it('delete removes drawers from storage and index', async () => {
      const { added } = await store.put([d('keep this'), d('remove this platypus')]);
      assert.equal(await store.delete([added[1]!, 'missing']), 1);
      assert.equal(await store.get(added[1]!), undefined);
      assert.equal((await store.searchLexical(['platypus'], undefined, 5)).length, 0);
      assert.equal(await store.count(), 1);
    });

    it('findByContentHash finds duplicates', async () => {
      const { added } = await store.put([d('dup text', { wing: 'a' }), d('dup text', { wing: 'b' })]);
      const first = await store.get(added[0]!);
      const dups = await store.findByContentHash(first!.contentHash);
      assert.equal(dups.length, 2);
    });

    it('neighbours returns ±n chunks of the same source in order', async () => {
      const docs = [0, 1, 2, 3, 4].map((i) => d(`chunk ${i}`, { source: '/f.md', chunkIndex: i }));
      const { added } = await store.put(docs);
      const n = await store.neighbours(added[2]!, 1);
      assert.deepEqual(
        n.map((x) => x.chunkIndex),
        [1, 2, 3],
      );
      const free = await store.put([d('no source')]);
      assert.equal((await store.neighbours(free.added[0]!, 2)).length, 1);
      assert.deepEqual(await store.neighbours('missing', 1), []);
    });

    it('replaceSource adds, keeps, updates and removes atomically', async () => {
      const s1 = src('/p/a.md', 'h1');
      const r1 = await store.replaceSource(s1, [
        d('para one', { id: 'da1', chunkIndex: 0, lineStart: 1, lineEnd: 1 }),
        d('para two', { id: 'da2', chunkIndex: 1, lineStart: 3, lineEnd: 3 }),
      ]);
      assert.deepEqual({ ...r1, ids: undefined }, { added: 2, updated: 0, removed: 0, ids: undefined });
      const again = await store.replaceSource(s1, [], { skipIfHash: 'h1' });
      assert.equal(again, null, 'same hash and config: nothing to do');
      const r2 = await store.replaceSource(
        src('/p/a.md', 'h2'),
        [
          d('para zero', { id: 'da0', chunkIndex: 0, lineStart: 1, lineEnd: 1 }),
          d('para one', { id: 'da1', chunkIndex: 1, lineStart: 3, lineEnd: 3 }),
        ],
        { skipIfHash: 'h2' },
      );
      assert.deepEqual(
        { added: r2!.added, updated: r2!.updated, removed: r2!.removed },
        { added: 1, updated: 1, removed: 1 },
      );
      assert.deepEqual(r2!.ids, ['da0', 'da1']);
      assert.equal((await store.get('da1'))!.lineStart, 3);
      assert.equal(await store.get('da2'), undefined);
      assert.equal((await store.getSource('/p/a.md'))!.hash, 'h2');
      assert.equal(await store.count({ source: '/p/a.md' }), 2);
    });

    it('replaceSources writes several sources in one call, each with its own skip rule', async () => {
      await store.replaceSource(src('/b/one', 'h1'), [d('first file', { id: 'b1', chunkIndex: 0 })]);
      const r = await store.replaceSources([
        { state: src('/b/one', 'h1'), drawers: [d('ignored', { id: 'bx', chunkIndex: 0 })], skipIfHash: 'h1' },
        {
          state: src('/b/two', 'h2'),
          drawers: [d('second file', { id: 'b2', chunkIndex: 0 }), d('more', { id: 'b3', chunkIndex: 1 })],
        },
      ]);
      assert.equal(r[0], null);
      assert.equal(r[1]?.added, 2);
      assert.equal(await store.get('bx'), undefined);
      assert.equal(await store.count({ source: '/b/*' }), 3);
      await assert.rejects(
        store.replaceSources([
          { state: src('/b/three', 'h3'), drawers: [d('fine', { id: 'b4', chunkIndex: 0 })] },
          { state: src('/b/four', 'h4'), drawers: [d('', { id: 'b5', chunkIndex: 0 })] },
        ]),
      );
      assert.equal(await store.get('b4'), undefined, 'a failing batch writes nothing');
    });

    it('prepared drawers are indexed from their precomputed search column', async () => {
      const { prepareDrawer } = await import('../store/shared.js');
      const p = prepareDrawer(d('The Quokka smiles', { indexExtra: 'notes/animals.md' }));
      const { added } = await store.put([p]);
      assert.equal((await store.searchLexical(['quokka'], undefined, 5))[0]?.id, added[0]);
      assert.equal((await store.searchLexical(['anim'], undefined, 5))[0]?.id, added[0], 'extra words are indexed');
    });

    it('appendSource appends only from the expected offset', async () => {
      const st = src('/c/s.jsonl', 'h', { kind: 'convo', offset: 100 });
      const a = await store.appendSource(st, [d('turn one', { id: 'c1', chunkIndex: 0 })], 0);
      assert.deepEqual(a, { added: 1, updated: 0, removed: 0, ids: ['c1'] });
      const stale = await store.appendSource({ ...st, offset: 150 }, [d('turn x', { id: 'cx', chunkIndex: 1 })], 0);
      assert.equal(stale, null, 'another writer already advanced the offset');
      assert.equal(await store.get('cx'), undefined);
      const b = await store.appendSource({ ...st, offset: 200 }, [d('turn two', { id: 'c2', chunkIndex: 1 })], 100);
      assert.equal(b?.added, 1);
      assert.equal((await store.getSource('/c/s.jsonl'))!.offset, 200);
    });

    it('appendSource replaces an open drawer: same ids refreshed, listed ids of its own source removed', async () => {
      const st = src('/c/o.jsonl', 'h', { kind: 'convo', offset: 10 });
      await store.put([d('other source', { id: 'x1', source: '/c/other.jsonl' })]);
      await store.appendSource(st, [d('Q', { id: 'o1', chunkIndex: 0, metadata: { parts: 1 } })], 0);
      const r = await store.appendSource(
        { ...st, offset: 20 },
        [
          d('Q', { id: 'o1', chunkIndex: 0, lineEnd: 9, metadata: { parts: 2 } }),
          d('Q and A', { id: 'o2', chunkIndex: 1 }),
        ],
        10,
        { remove: ['o1', 'x1', 'nope'] },
      );
      assert.deepEqual(r, { added: 1, updated: 1, removed: 0, ids: ['o1', 'o2'] }, 'o1 is rewritten, so not removed');
      assert.deepEqual((await store.get('o1'))?.metadata, { parts: 2 });
      const r2 = await store.appendSource(
        { ...st, offset: 30 },
        [d('Q and A, longer', { id: 'o3', chunkIndex: 1 })],
        20,
        { remove: ['o2', 'x1'] },
      );
      assert.deepEqual(r2, { added: 1, updated: 0, removed: 1, ids: ['o3'] });
      assert.equal(await store.get('o2'), undefined);
      assert.ok(await store.get('x1'), 'a drawer of another source is never removed');
      assert.equal((await store.searchLexical(['longer'], undefined, 5))[0]?.id, 'o3');
    });

    it('sources: list by root and kind, touch, remove', async () => {
      await store.replaceSource(src('/r1/a', 'h', { root: '/r1' }), [d('a text', { chunkIndex: 0 })]);
      await store.replaceSource(src('/r2/b', 'h', { root: '/r2', kind: 'convo' }), [d('b text', { chunkIndex: 0 })]);
      assert.deepEqual(
        (await store.listSources({ root: '/r1' })).map((s) => s.source),
        ['/r1/a'],
      );
      assert.deepEqual(
        (await store.listSources({ kind: 'convo' })).map((s) => s.source),
        ['/r2/b'],
      );
      await store.touchSource({ ...src('/r1/a', 'h', { root: '/r1' }), mtimeMs: 99, state: { k: [1] } });
      const t = await store.getSource('/r1/a');
      assert.equal(t!.mtimeMs, 99);
      assert.deepEqual(t!.state, { k: [1] });
      assert.equal(await store.removeSource('/r1/a'), 1);
      assert.equal(await store.getSource('/r1/a'), undefined);
      assert.equal(await store.count(), 1);
    });

    it('source stamps: the folder itself and the paths below it, without the neighbours', async () => {
      const put = (source: string, extra: Partial<SourceState> = {}) =>
        store.replaceSource(src(source, 'h', extra), [d(`text of ${source}`, { chunkIndex: 0 })]);
      await put('/t/a', { size: 5, mtimeMs: 1700000000123.5, wing: 'w', config: 'c9' });
      await put('/t/sub/b', { kind: 'convo' });
      await put('/t');
      await put('/t\\win');
      for (const other of ['/t0', '/t-x/c', '/ta', '/s/t/a', '/t.', '/']) await put(other);
      const stamps = await store.listSourceStamps('/t');
      assert.deepEqual(stamps.map((s) => s.source).sort(), ['/t', '/t/a', '/t/sub/b', '/t\\win']);
      assert.deepEqual(
        stamps.find((s) => s.source === '/t/a'),
        { source: '/t/a', wing: 'w', kind: 'project', size: 5, mtimeMs: 1700000000123.5, config: 'c9' },
      );
      assert.equal(stamps.find((s) => s.source === '/t/sub/b')?.kind, 'convo');
      assert.deepEqual((await store.listSourceStamps('/t/')).length, 4, 'a trailing separator is the same folder');
      assert.deepEqual((await store.listSourceStamps('/nothing')).length, 0);
    });

    it('source stamps: every mtime comes back as the same double, whatever the settings of its row', async () => {
      // A file's mtime in ms is a double with a fraction (ns / 1e6): re-mining compares it with `===`.
      const mtimes = [1796185830818.8398, 0.1 + 0.2, 1700000000000, 2 ** 53 - 1, 1796185836098.8401, 1234.000001];
      const sources = mtimes.map((m, i) => [`/m/f${i}`, m] as const);
      for (const [i, [source, mtimeMs]] of sources.entries())
        await store.replaceSource(
          src(source, 'h', { mtimeMs, size: i * 1000, ...(i === 3 ? { wing: 'w2' } : {}) }),
          [],
        );
      await store.replaceSource(src('/m\\win', 'h', { mtimeMs: 0.7 }), []);
      const stamps = new Map((await store.listSourceStamps('/m')).map((s) => [s.source, s]));
      assert.equal(stamps.size, sources.length + 1);
      for (const [i, [source, mtimeMs]] of sources.entries()) {
        assert.equal(stamps.get(source)?.mtimeMs, mtimeMs, source);
        assert.equal(stamps.get(source)?.size, i * 1000);
        assert.equal(stamps.get(source)?.wing, i === 3 ? 'w2' : 'proj');
      }
      assert.equal(stamps.get('/m\\win')?.mtimeMs, 0.7);
    });

    it('feed: positions increase in filing order, survive an update, are never reused', async () => {
      const { added } = await store.put([
        d('alpha one'),
        d('beta two'),
        d('gamma three', { metadata: { speakers: ['Ann'] } }),
      ]);
      const feed = await store.feedAfter(0);
      assert.deepEqual(
        feed.map((f) => f.id),
        added,
      );
      assert.ok(feed.every((f, i) => i === 0 || f.seq > feed[i - 1]!.seq) && feed[0]!.seq > 0);
      assert.deepEqual(
        (await store.feedAfter(feed[0]!.seq, 1)).map((f) => f.id),
        [added[1]],
      );
      await store.update(added[1]!, { text: 'beta changed' });
      assert.deepEqual(await store.feedAfter(0), feed);
      const range = await store.feedRange(feed[0]!.seq, feed[2]!.seq);
      assert.deepEqual(
        range.map((r) => [r.id, r.text]),
        [
          [added[1], 'beta changed'],
          [added[2], 'gamma three'],
        ],
      );
      assert.deepEqual(range[1]!.metadata, { speakers: ['Ann'] });
      assert.equal(range[1]!.wing, 'proj');
      await store.delete([added[2]!]);
      const [late] = (await store.put([d('delta four')])).added;
      const after = await store.feedAfter(feed[1]!.seq);
      assert.deepEqual(
        after.map((f) => f.id),
        [late],
      );
      assert.ok(after[0]!.seq > feed[2]!.seq, 'a deleted position is not reused');
      assert.deepEqual(await store.feedAfter(after[0]!.seq), []);
    });

    it('meta: compare-and-swap sets a value only from the expected one', async () => {
      assert.equal(await store.getMeta('test.mark'), undefined);
      assert.equal(await store.casMeta('test.mark', '5', '9'), false);
      assert.equal(await store.casMeta('test.mark', undefined, '3'), true);
      assert.equal(await store.casMeta('test.mark', undefined, '4'), false);
      assert.equal(await store.casMeta('test.mark', '3', '7'), true);
      assert.equal(await store.getMeta('test.mark'), '7');
      await store.dangerouslyClearAll();
      assert.equal(await store.getMeta('test.mark'), undefined);
    });

    it('usage: counts once per call, reads, lists the most used by prefix', async () => {
      const t1 = '2026-01-01T00:00:01.000Z';
      const t2 = '2026-01-01T00:00:02.000Z';
      assert.equal(await store.recordUsage(['drawer:d1', 'drawer:d1', 'memory:/m/a.md'], t1), 2);
      assert.equal(await store.recordUsage(['drawer:d1', 'drawer:d2'], t2), 2);
      assert.equal(await store.recordUsage([], t2), 0);
      const got = new Map(
        (await store.readUsage(['drawer:d1', 'drawer:d2', 'memory:/m/a.md', 'drawer:none', 'drawer:d1'])).map((r) => [
          r.item,
          r,
        ]),
      );
      assert.deepEqual([...got.keys()].sort(), ['drawer:d1', 'drawer:d2', 'memory:/m/a.md']);
      assert.deepEqual(got.get('drawer:d1'), { item: 'drawer:d1', uses: 2, lastUsed: t2 });
      assert.deepEqual(got.get('memory:/m/a.md'), { item: 'memory:/m/a.md', uses: 1, lastUsed: t1 });
      assert.deepEqual(
        (await store.topUsage('drawer:', 10)).map((r) => [r.item, r.uses]),
        [
          ['drawer:d1', 2],
          ['drawer:d2', 1],
        ],
      );
      assert.deepEqual(
        (await store.topUsage('drawer:', 1)).map((r) => r.item),
        ['drawer:d1'],
      );
      assert.deepEqual(
        (await store.topUsage('memory:', 10)).map((r) => r.item),
        ['memory:/m/a.md'],
      );
      assert.equal((await store.topUsage('', 10)).length, 3);
      await store.dangerouslyClearAll();
      assert.deepEqual(await store.readUsage(['drawer:d1']), []);
    });

    it('stats reports counts and a healthy index', async () => {
      await store.put([d('x one'), d('x two')]);
      const s = await store.stats();
      assert.equal(s.drawers, 2);
      assert.equal(s.lexicalIndex, 'ok');
    });
  });
}
