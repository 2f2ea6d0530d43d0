/** @module kg/query-entities.test — entities named in a search query, longest match first. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createMemoryGraphStore, queryEntities } from './index.js';

test('queryEntities resolves names and aliases in a query, longest match first, skipping stop words', async () => {
  const g = createMemoryGraphStore();
  await g.upsertEntity({ name: 'Dr. Chen', type: 'person', aliases: ['Chen'] });
  await g.upsertEntity({ name: 'Chen Li', type: 'person' });
  await g.upsertEntity({ name: 'auth-migration', type: 'project' });
  await g.upsertEntity({ name: 'The', type: 'unknown' });
  const names = async (q: string) => (await queryEntities(g, q)).map((e) => e.id);
  assert.deepEqual(await names('what did Dr Chen say about the auth migration?'), ['chen', 'auth_migration']);
  assert.deepEqual(await names('Chen Li and `auth-migration`'), ['chen_li', 'auth_migration']);
  assert.deepEqual(await names('ask chen'), ['chen']);
  assert.deepEqual(await names('the of and'), []);
  assert.deepEqual(await queryEntities(g, 'Dr Chen and Chen Li', { limit: 1 }).then((r) => r.length), 1);
});
