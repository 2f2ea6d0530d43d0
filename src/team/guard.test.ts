/**
 * @module team/guard.test — the guarded palace of a member over an in-memory palace: reads narrowed to
 * readable wings, writes refused without the right and audited with it, the graph behind `*`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createMemoryStore, isLociError, openPalace } from '../internal.js';
import { openTeam } from './team.js';

const code = async (p: Promise<unknown>) => {
  try {
    await p;
    return 'ok';
  } catch (e) {
    if (isLociError(e)) return e.code;
    throw e;
  }
};

test('rights per wing: narrowed reads, refused and audited writes, the graph behind *', async () => {
  const palace = await openPalace({ store: createMemoryStore(), embedder: null, env: { LOCI_KG_EXTRACT: '0' } });
  const team = await openTeam(palace);
  await palace.addDrawer({ wing: 'api', room: 'auth', text: 'tokens rotate every hour in the api' });
  await palace.addDrawer({ wing: 'web', room: 'auth', text: 'tokens rotate every hour in the web app' });
  const reader = { user: 'rita', tokenId: 't1', grants: [{ wing: 'web', right: 'read' as const }] };
  const writer = { user: 'will', tokenId: 't2', grants: [{ wing: 'api', right: 'write' as const }] };
  const r = team.guard(reader);
  const w = team.guard(writer);

  const hits = (await r.search('tokens rotate')).hits.map((h) => h.wing);
  assert.deepEqual(hits, ['web']);
  assert.equal(await code(r.search('tokens', { wing: 'api' })), 'TEAM_FORBIDDEN');
  assert.deepEqual(Object.keys(await r.listWings()), ['web']);
  const st = await r.status();
  const webBytes = Buffer.byteLength('tokens rotate every hour in the web app');
  assert.deepEqual(st.textBytes, { total: webBytes, wings: { web: webBytes }, rooms: { web: { auth: webBytes } } });
  const apiId = (await palace.search('api')).hits.find((h) => h.wing === 'api')!.id;
  assert.equal(await code(r.get(apiId)), 'TEAM_FORBIDDEN');

  assert.equal(await code(r.addDrawer({ wing: 'web', room: 'x', text: 'no' })), 'TEAM_FORBIDDEN');
  const added = await w.addDrawer({ wing: 'api', room: 'notes', text: 'written by will' });
  assert.equal((await palace.get(added.id))?.addedBy, 'will');
  assert.equal(await code(w.deleteDrawer(added.id)), 'TEAM_FORBIDDEN', 'deleting needs admin');
  assert.equal(await code(w.graph()), 'TEAM_FORBIDDEN', 'the graph needs a right on *');
  assert.equal(await code(w.mine('/etc')), 'TEAM_FORBIDDEN');

  const log = await team.auditLog();
  assert.deepEqual(
    log.map((e) => [e.user, e.action, e.wing, e.target]),
    [['will', 'drawer.add', 'api', added.id]],
  );
  const all = team.guard({ user: 'ada', tokenId: 't3', grants: [{ wing: '*', right: 'write' }] });
  const fact = await (await all.graph()).graph.addFact({ subject: 'ada', predicate: 'uses', object: 'loci' });
  assert.equal((await team.auditLog()).at(-1)?.target, fact.id);
  await palace.close();
});
