/**
 * @module store/postgres/contracts.test
 * Every storage contract (drawers, graph, tunnels, vectors) on a real PostgreSQL server, each suite
 * in a schema of its own (see `test/helpers/postgres.ts` for where the server comes from; without
 * one the suites skip with the reason, except in CI, where `LOCI_REQUIRE_POSTGRES=1` fails them).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import pg from 'pg';
import { pgServer, withFreshSchema } from '../../../test/helpers/postgres.js';
import { createGraphStore } from '../../kg/index.js';
import { runGraphContract } from '../../testing/graph-contract.js';
import { runStoreContract } from '../../testing/store-contract.js';
import { runTunnelContract } from '../../testing/tunnel-contract.js';
import { runVectorContract } from '../../testing/vector-contract.js';
import { openPostgresPalace } from '../index.js';

const server = await pgServer();

if (server.skip !== undefined) {
  test('PostgreSQL storage contracts', { skip: server.skip }, () => {});
} else {
  const url = server.url;
  runStoreContract({ name: 'postgres', make: async () => (await openPostgresPalace(withFreshSchema(url))).store });
  runGraphContract({
    name: 'postgres',
    // Every step of the property test is a round trip to the server: 50 runs keep it under ~20 s.
    propertyRuns: 50,
    make: async () => {
      const p = await openPostgresPalace(withFreshSchema(url));
      const g = createGraphStore(p.graph());
      await g.init();
      const close = g.close.bind(g);
      g.close = async () => {
        await close();
        await p.store.close();
      };
      return g;
    },
  });
  runTunnelContract({
    name: 'postgres',
    make: async () => {
      const p = await openPostgresPalace(withFreshSchema(url));
      const close = p.tunnels.close.bind(p.tunnels);
      p.tunnels.close = async () => {
        await close();
        await p.store.close();
      };
      return p.tunnels;
    },
  });
  runVectorContract({
    name: 'postgres',
    make: async () => {
      const p = await openPostgresPalace(withFreshSchema(url));
      return { drawers: p.store, vectors: p.vectors(), close: () => p.store.close() };
    },
  });

  test('the graph reconnects after its connection is terminated (the next batch succeeds)', async () => {
    const p = await openPostgresPalace(withFreshSchema(url));
    const g = createGraphStore(p.graph());
    const schema = p.target.schema;
    const admin = new pg.Client({ connectionString: url });
    try {
      await g.init();
      await g.addFact({ subject: 'Maya', predicate: 'works_on', object: 'auth' });
      await admin.connect();
      const killed = await admin.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1',
        [`loci-graph:${schema}`],
      );
      assert.ok((killed.rowCount ?? 0) >= 1);
      await g.addFact({ subject: 'Maya', predicate: 'works_on', object: 'billing' });
      assert.equal((await g.stats()).facts, 2);
    } finally {
      await admin.end();
      await g.close();
      await p.store.close();
    }
  });
}
