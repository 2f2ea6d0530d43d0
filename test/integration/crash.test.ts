/**
 * @module test/integration/crash
 * Kills a real mining process with SIGKILL at random points of its run, several times (the tree
 * rewritten before each run); every following run completes, the database passes integrity checks,
 * and no drawer is duplicated or lost (the final palace equals one mined in a single clean run).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { BIN, tempDir } from '../helpers/cli.js';
import { lociIn } from '../helpers/cli-in-process.js';
import { generateTree, rng } from '../helpers/corpus.js';

function snapshot(db: string): string[] {
  const d = new Database(db, { readonly: true });
  try {
    return (
      d
        .prepare('SELECT source, chunk_index, content_hash, id FROM drawers ORDER BY source, chunk_index')
        .all() as Record<string, unknown>[]
    ).map((r) => JSON.stringify(r));
  } finally {
    d.close();
  }
}

function checkIntegrity(db: string): void {
  const d = new Database(db);
  try {
    assert.equal(d.pragma('integrity_check', { simple: true }), 'ok');
    d.prepare("INSERT INTO drawers_fts (drawers_fts, rank) VALUES ('integrity-check', 0)").run();
    const n = d.prepare('SELECT count(*) FROM drawers').pluck().get();
    const idx = d.prepare('SELECT count(*) FROM drawers_fts_docsize').pluck().get();
    assert.equal(idx, n, 'every drawer is indexed exactly once');
    const dups = d
      .prepare(
        'SELECT count(*) FROM (SELECT source, chunk_index FROM drawers GROUP BY source, chunk_index HAVING ' +
          'count(*) > 1)',
      )
      .pluck()
      .get();
    assert.equal(dups, 0, 'no duplicated chunk');
  } finally {
    d.close();
  }
}

/**
 * True once the palace file has its schema. A process killed while creating the palace (likely on
 * a loaded machine, where the kill can land before the first migration commits) leaves none; the
 * next run migrates it. Checking the tables before that would fail on the kill's timing, not on Loci.
 */
function migrated(db: string): boolean {
  if (!existsSync(db)) return false;
  const d = new Database(db, { fileMustExist: true }); // read-write: may recover the WAL of a killed writer
  try {
    return (d.pragma('user_version', { simple: true }) as number) > 0;
  } finally {
    d.close();
  }
}

test('SIGKILL during mining never corrupts, duplicates or loses drawers', async () => {
  const t = tempDir();
  try {
    const tree = join(t.dir, 'tree');
    const home = join(t.dir, 'home');
    const r = rng(42);
    let killed = 0;
    // The kill lands at a random point of the run: a share of the last finished run's length (the
    // first run is never killed: it measures). Every round rewrites each file (same paths, new
    // content), so each run has a whole tree to replace and the share means the same thing from
    // round to round, whether the machine is quiet or loaded.
    let expectedMs = Infinity;
    for (let round = 0; round < 10 && killed < 4; round++) {
      generateTree(tree, 400, 7 + round, 3000);
      const child = spawn(process.execPath, [BIN, 'mine', tree, '--json'], {
        env: { ...process.env, LOCI_HOME: home },
        stdio: 'ignore',
      });
      const started = Date.now();
      const delay = Math.floor(expectedMs * (0.15 + 0.7 * r()));
      const exited = await new Promise<boolean>((resolve) => {
        const timer = Number.isFinite(expectedMs)
          ? setTimeout(() => {
              child.kill('SIGKILL');
              resolve(false);
            }, delay)
          : undefined;
        child.on('exit', () => {
          clearTimeout(timer);
          resolve(true);
        });
      });
      if (!exited) killed++;
      else expectedMs = Date.now() - started;
      await new Promise((res) =>
        child.exitCode !== null || child.signalCode !== null ? res(null) : child.on('exit', res),
      );
      if (migrated(join(home, 'palace.db'))) checkIntegrity(join(home, 'palace.db'));
    }
    assert.ok(killed >= 3, `at least three runs were killed mid-way (killed ${killed})`);
    const final = await lociIn(['mine', tree, '--json'], { home });
    assert.equal(final.code, 0, final.stderr);
    checkIntegrity(join(home, 'palace.db'));
    const clean = join(t.dir, 'clean-home');
    assert.equal((await lociIn(['mine', tree, '--json'], { home: clean })).code, 0);
    assert.deepEqual(snapshot(join(home, 'palace.db')), snapshot(join(clean, 'palace.db')));
    const again = JSON.parse((await lociIn(['mine', tree, '--json'], { home })).stdout);
    assert.equal(again.drawers_added + again.drawers_updated + again.drawers_removed, 0);
  } finally {
    t.cleanup();
  }
});
