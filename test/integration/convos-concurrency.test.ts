/**
 * @module test/integration/convos-concurrency
 * Real processes mining one growing transcript at once: 10 rounds of "append some bytes (often
 * cutting a line in half), then two `loci mine` processes on the file at the same time", and a
 * round of SIGKILLs in the middle of appends. The palace always passes the integrity checks and
 * ends equal to one clean mine of the final file: no drawer duplicated, none lost.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { generateClaudeSession } from '../fixtures/convos/generate-claude-session.js';
import { BIN, lociAsync, tempDir } from '../helpers/cli.js';
import { lociIn } from '../helpers/cli-in-process.js';
import { rng } from '../helpers/corpus.js';

function snapshot(home: string): string[] {
  const d = new Database(join(home, 'palace.db'), { readonly: true });
  try {
    const q =
      'SELECT id, chunk_index, wing, room, hall, content_date, line_start, line_end, content_hash FROM drawers ' +
      'ORDER BY source, chunk_index';
    return (d.prepare(q).all() as Record<string, unknown>[]).map((r) => JSON.stringify(r));
  } finally {
    d.close();
  }
}

function checkIntegrity(home: string): void {
  const d = new Database(join(home, 'palace.db'));
  try {
    assert.equal(d.pragma('integrity_check', { simple: true }), 'ok');
    d.prepare("INSERT INTO drawers_fts (drawers_fts, rank) VALUES ('integrity-check', 0)").run();
    assert.equal(
      d.prepare('SELECT count(*) FROM drawers_fts_docsize').pluck().get(),
      d.prepare('SELECT count(*) FROM drawers').pluck().get(),
    );
    const dups = d
      .prepare(
        'SELECT count(*) FROM (SELECT source, chunk_index FROM drawers GROUP BY source, chunk_index HAVING ' +
          'count(*) > 1)',
      )
      .pluck()
      .get();
    assert.equal(dups, 0, 'no chunk stored twice');
    const texts = d
      .prepare('SELECT count(*) FROM (SELECT content_hash FROM drawers GROUP BY content_hash HAVING count(*) > 1)')
      .pluck()
      .get();
    assert.equal(texts, 0, 'no text stored twice');
  } finally {
    d.close();
  }
}

/** True once a palace file exists with its schema (a kill while creating it leaves none; the next open migrates). */
function migrated(home: string): boolean {
  if (!existsSync(join(home, 'palace.db'))) return false;
  // read-write: may recover the WAL of a killed writer
  const d = new Database(join(home, 'palace.db'), { fileMustExist: true });
  try {
    return (d.pragma('user_version', { simple: true }) as number) > 0;
  } finally {
    d.close();
  }
}

/** Cut points: `n` growing byte offsets, most in the middle of a line, the last at the end. */
function cuts(text: string, n: number, seed: number): number[] {
  const r = rng(seed);
  const out: number[] = [];
  for (let i = 1; i < n; i++) out.push(Math.floor((text.length * (i - 0.5 + r() * 0.8)) / n));
  out.push(text.length);
  return out;
}

test('10 interleaved append-and-mine rounds with two concurrent miners: nothing doubled or lost', async () => {
  const t = tempDir('loci-convos-conc-');
  try {
    // Rewinds make some rounds re-read the whole file (replace) while others append.
    const text = generateClaudeSession(2500, 77, { rewinds: true });
    const dir = join(t.dir, 'projects', '-home-dev-generated-app');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'session.jsonl');
    writeFileSync(file, '');
    const home = join(t.dir, 'home');
    let written = 0;
    const added: number[] = [];
    for (const cut of cuts(text, 10, 5)) {
      appendFileSync(file, text.slice(written, cut));
      written = cut;
      const runs = await Promise.all(
        [0, 1].map(() => lociAsync(['mine', file, '--mode', 'convos', '--json'], { home })),
      );
      for (const r of runs) {
        assert.equal(r.code, 0, r.stderr);
        assert.doesNotMatch(r.stderr, /BUSY|locked/i);
      }
      added.push(runs.reduce((s, r) => s + (JSON.parse(r.stdout) as { drawers_added: number }).drawers_added, 0));
      checkIntegrity(home);
    }
    assert.ok(added.filter((n) => n > 0).length >= 8, `drawers arrive as the file grows: ${added.join(',')}`);
    const clean = join(t.dir, 'clean');
    assert.equal((await lociIn(['mine', file, '--mode', 'convos'], { home: clean })).code, 0);
    const got = snapshot(home);
    assert.ok(got.length > 100);
    assert.deepEqual(got, snapshot(clean));
  } finally {
    t.cleanup();
  }
});

test('a miner killed in the middle of appends leaves no half append; the next run converges', async () => {
  const t = tempDir('loci-convos-kill-');
  try {
    const text = generateClaudeSession(3000, 78);
    const dir = join(t.dir, 'sessions');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'session.jsonl');
    writeFileSync(file, '');
    const home = join(t.dir, 'home');
    const r = rng(9);
    let written = 0;
    for (const cut of cuts(text, 8, 6)) {
      appendFileSync(file, text.slice(written, cut));
      written = cut;
      const child = spawn(process.execPath, [BIN, 'mine', file, '--mode', 'convos'], {
        env: { ...process.env, LOCI_HOME: home },
        stdio: 'ignore',
      });
      const delay = 150 + Math.floor(r() * 500);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          child.kill('SIGKILL');
          resolve();
        }, delay);
        child.on('exit', () => {
          clearTimeout(timer);
          resolve();
        });
      });
      if (migrated(home)) checkIntegrity(home); // a process killed while creating the palace leaves no schema yet
    }
    assert.equal((await lociIn(['mine', file, '--mode', 'convos'], { home })).code, 0);
    checkIntegrity(home);
    const clean = join(t.dir, 'clean');
    assert.equal((await lociIn(['mine', file, '--mode', 'convos'], { home: clean })).code, 0);
    assert.deepEqual(snapshot(home), snapshot(clean));
  } finally {
    t.cleanup();
  }
});
