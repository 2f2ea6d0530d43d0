/**
 * @module test/e2e/postgres.test
 * The CLI on a PostgreSQL palace (`--database-url`, `LOCI_DATABASE_URL`): mine, search, status
 * (engine and vector mode reported), kg; one-line errors for a bad URL and an unreachable server
 * (password hidden); concurrent first starters migrate once; and a mining run whose database
 * connections are terminated (`pg_terminate_backend`) resumes on the next run without losing or
 * duplicating a drawer. Server: `test/helpers/postgres.ts` (skips with the reason when none). Single
 * commands run in-process (`lociIn`); the concurrent starters and the miner whose connections are
 * terminated are real processes.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { lociAsync, tempDir, writeTree } from '../helpers/cli.js';
import { lociIn } from '../helpers/cli-in-process.js';
import { pgServer, withFreshSchema } from '../helpers/postgres.js';

const server = await pgServer();

/** A project of `n` small files with distinct words. */
function project(n: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < n; i++) {
    files[`notes/n${i}.md`] =
      `# Note ${i}\n\nThe deployment checklist item ${i} mentions servicename${i} and the rollback plan.\n` +
      `Owner: team${i % 7}. ${'Background detail sentence. '.repeat(20)}\n`;
  }
  files['auth.md'] = 'The authMiddleware validates JWT tokens before routing requests to handlers.';
  return files;
}

const statusOf = async (url: string, home: string) => {
  const r = await lociIn(['--database-url', url, 'status', '--json'], { home });
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout) as { drawers: number; sources: number; engine?: string; database: string };
};

describe('CLI on PostgreSQL', { skip: server.skip }, () => {
  const t = tempDir('loci-pg-e2e-');
  const home = `${t.dir}/home`;
  const src = `${t.dir}/src`;
  let admin: pg.Client;
  before(async () => {
    writeTree(src, project(120));
    admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
  });
  after(async () => {
    await admin?.end();
    t.cleanup();
  });

  it('mines, searches, reports the engine and the graph, via --database-url and LOCI_DATABASE_URL', async () => {
    const url = withFreshSchema(server.url!, 'e2e');
    const mined = await lociIn(['--database-url', url, 'mine', src], { home });
    assert.equal(mined.code, 0, mined.stderr);
    const found = await lociIn(['search', 'jwt middleware', '--json'], { home, env: { LOCI_DATABASE_URL: url } });
    assert.equal(found.code, 0, found.stderr);
    const hits = (JSON.parse(found.stdout) as { results: { source: string }[] }).results;
    assert.match(hits[0]!.source, /auth\.md$/);
    const s = await statusOf(url, home);
    assert.equal(s.sources, 121);
    assert.match(s.engine ?? '', /^PostgreSQL \d+/);
    assert.match(s.engine ?? '', /vectors: /);
    assert.match(s.database, /schema e2e_/);
    const kg = await lociIn(['--database-url', url, 'kg', 'stats', '--json'], { home });
    assert.equal(kg.code, 0, kg.stderr);
  });

  it('a bad URL and an unreachable server are one-line errors without the password', async () => {
    const bad = await lociIn(['--database-url', 'mysql://me:hunter2@localhost/db', 'status'], { home });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /^loci: invalid database URL .*\[PG_URL_INVALID\]\n$/);
    assert.doesNotMatch(bad.stderr, /hunter2/);
    const down = await lociIn(['--database-url', 'postgres://me:hunter2@127.0.0.1:1/db', 'search', 'x'], { home });
    assert.equal(down.code, 1);
    assert.match(
      down.stderr,
      /^loci: cannot use the PostgreSQL palace at postgres:\/\/me:\*\*\*@.*\[PG_UNREACHABLE\]\n$/,
    );
    assert.doesNotMatch(down.stderr, /hunter2/);
  });

  it('several processes starting on a new schema at once migrate it once', async () => {
    const url = withFreshSchema(server.url!, 'race');
    const runs = await Promise.all(
      Array.from({ length: 4 }, () => lociAsync(['--database-url', url, 'status', '--json'], { home })),
    );
    for (const r of runs) assert.equal(r.code, 0, r.stderr);
    const schema = new URL(url).searchParams.get('schema');
    const v = await admin.query(`SELECT count(*)::int AS n FROM ${schema}.loci_schema`);
    assert.equal(v.rows[0].n, 3);
  });

  it('two processes mining the same tree into one palace at once store every drawer once', async () => {
    const url = withFreshSchema(server.url!, 'twice');
    const runs = await Promise.all([0, 1].map(() => lociAsync(['--database-url', url, 'mine', src], { home })));
    for (const r of runs) assert.equal(r.code, 0, r.stderr);
    const ref = withFreshSchema(server.url!, 'once');
    assert.equal((await lociIn(['--database-url', ref, 'mine', src], { home })).code, 0);
    const [a, b] = [await statusOf(url, home), await statusOf(ref, home)];
    assert.deepEqual([a.drawers, a.sources], [b.drawers, b.sources]);
  });

  it('a mining run whose connections are terminated resumes without loss or duplicates', async () => {
    const ref = withFreshSchema(server.url!, 'ref');
    assert.equal((await lociIn(['--database-url', ref, 'mine', src], { home })).code, 0);
    const want = await statusOf(ref, home);

    const url = withFreshSchema(server.url!, 'fault');
    const schema = new URL(url).searchParams.get('schema')!;
    const run = lociAsync(['--database-url', url, 'mine', src], { home });
    // Terminate every connection of the miner as soon as its first drawers are committed.
    let killed = 0;
    for (let i = 0; i < 600 && killed === 0; i++) {
      const n = await admin
        .query(`SELECT count(*)::int AS n FROM ${schema}.drawers`)
        .then((r) => r.rows[0].n as number)
        .catch(() => 0);
      if (n > 0) {
        const r = await admin.query(
          'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = ANY($1::text[])',
          [[`loci:${schema}`, `loci-graph:${schema}`]],
        );
        killed = r.rowCount ?? 0;
      } else await new Promise((r) => setTimeout(r, 20));
    }
    await run; // may fail or finish (a write transaction is retried once on a fresh connection)
    const again = await lociIn(['--database-url', url, 'mine', src], { home });
    assert.equal(again.code, 0, again.stderr);
    const got = await statusOf(url, home);
    assert.deepEqual([got.drawers, got.sources], [want.drawers, want.sources]);
    const dup = await admin.query(
      `SELECT count(*)::int AS n FROM (SELECT source, chunk_index FROM ${schema}.drawers ` +
        'GROUP BY source, chunk_index HAVING count(*) > 1) x',
    );
    assert.equal(dup.rows[0].n, 0, 'no drawer twice');
    const terms = await admin.query(
      `SELECT (SELECT docs FROM ${schema}.lexical_totals)::int AS docs, ` +
        `(SELECT count(*) FROM ${schema}.drawers)::int AS n`,
    );
    assert.equal(terms.rows[0].docs, terms.rows[0].n, 'the term statistics count every drawer once');
  });
});
