/**
 * @module store/postgres/admin
 * Administration of PostgreSQL palaces for benches and tests: dropping a palace's schema.
 */
import { createError } from '../../core/errors.js';
import { loadPg, mapPgError, parseDatabaseUrl, poolConfig } from './connect.js';

/** Drops the schema named by `url` (`?schema=`) with everything in it. Refuses the `public` schema. */
export async function dropPostgresPalace(url: string): Promise<void> {
  const target = parseDatabaseUrl(url);
  if (target.schema === 'public') {
    throw createError('INVALID_ARGUMENT', {
      name: 'schema',
      value: target.schema,
      expected: 'a palace schema named with ?schema= (the public schema is never dropped)',
    });
  }
  const pg = await loadPg();
  const client = new pg.Client(poolConfig(pg, target));
  try {
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS ${target.schema} CASCADE`);
  } catch (e) {
    throw mapPgError(e, target);
  } finally {
    await client.end().catch(() => {});
  }
}
