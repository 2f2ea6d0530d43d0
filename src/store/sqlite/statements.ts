/**
 * @module store/sqlite/statements
 * Prepared statements of the SQLite adapters, prepared on first use: a process uses a few of a
 * store's statements (`loci search` reads, a hook appends), and preparing all of them at open
 * parsed SQL that most processes never run (issue 12: start-up).
 */
import type Database from 'better-sqlite3';

/**
 * `sql` as an object of statements, each prepared on its first use and kept (the keys in `pluck`
 * return their first column, as `Statement.pluck()`). An error in a statement's SQL is thrown where
 * it is first used, inside the caller's error mapping.
 */
export function lazyStatements<K extends string>(
  db: Database.Database,
  sql: Readonly<Record<K, string>>,
  pluck: readonly NoInfer<K>[] = [],
): Readonly<Record<K, Database.Statement>> {
  const out = {} as Record<K, Database.Statement>;
  for (const key of Object.keys(sql) as K[]) {
    let statement: Database.Statement | undefined;
    Object.defineProperty(out, key, {
      enumerable: true,
      get: () => (statement ??= pluck.includes(key) ? db.prepare(sql[key]).pluck() : db.prepare(sql[key])),
    });
  }
  return out;
}
