/**
 * @module test/torture/support
 * Shared pieces of the fault and fuzz suite (issue 11): the size knobs (environment variables set by
 * `npm run torture`; the defaults are the short CI form), the figures file the long runner reads,
 * killing a real `loci` process at a chosen moment, and the palace checks (SQLite integrity, the
 * full-text index in step with the drawers, no duplicated chunk, no orphan vector).
 */
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { BIN } from '../helpers/cli.js';

function num(name: string, fallback: number): number {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v > 0 ? Math.floor(v) : fallback;
}

/**
 * Sizes of the suite. CI (no variables set): 10 crash rounds, 60 fuzz cases per parser, work scale 1.
 * `npm run torture` sets `LOCI_TORTURE_ROUNDS` (100), `LOCI_TORTURE_FUZZ_RUNS` (1000),
 * `LOCI_TORTURE_WORK` (5) and `LOCI_TORTURE_SEED`.
 */
export const TORTURE = {
  /** Crash rounds (each kills one or two processes). */
  rounds: num('LOCI_TORTURE_ROUNDS', 10),
  /** fast-check runs per in-process property. */
  fuzzRuns: num('LOCI_TORTURE_FUZZ_RUNS', 60),
  /** Multiplier of the fixed work of the concurrency test (and of the spawned fuzz cases). */
  work: num('LOCI_TORTURE_WORK', 1),
  /** Seed of every random choice (fast-check and the kill schedule). */
  seed: num('LOCI_TORTURE_SEED', 20261201),
} as const;

/** Appends one JSON line of figures to `LOCI_TORTURE_REPORT` (read by `npm run torture`); no-op without it. */
export function recordFigures(section: string, figures: Record<string, number | string | boolean>): void {
  const file = process.env['LOCI_TORTURE_REPORT'];
  if (file) appendFileSync(file, `${JSON.stringify({ section, ...figures })}\n`);
}

/** What happened to a process started by {@link runAndKill}. */
export interface KillRun {
  /** True when SIGKILL ended it (false: it finished before the kill). */
  killed: boolean;
  code: number | null;
  stderr: string;
  /** Wall time from spawn to exit, ms. */
  ms: number;
}

/** Starts `loci …args` and sends SIGKILL after `delayMs` unless it exits first. */
export function runAndKill(args: string[], env: NodeJS.ProcessEnv, delayMs: number, input?: string): Promise<KillRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { ...process.env, NO_COLOR: '1', ...env },
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    let stderr = '';
    let killed = false;
    const t0 = performance.now();
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdin.on('error', () => {});
    child.stdin.end(input ?? '');
    const timer = setTimeout(() => {
      killed = child.kill('SIGKILL');
    }, delayMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ killed: killed && signal === 'SIGKILL', code, stderr, ms: performance.now() - t0 });
    });
  });
}

/** True once `home/palace.db` exists with its schema (a process killed while creating it leaves none). */
export function migrated(home: string): boolean {
  const db = join(home, 'palace.db');
  if (!existsSync(db)) return false;
  const d = new Database(db, { fileMustExist: true }); // read-write: recovers the WAL of a killed writer
  try {
    return (d.pragma('user_version', { simple: true }) as number) > 0;
  } finally {
    d.close();
  }
}

/** Counts found by {@link checkPalace}. */
export interface PalaceCheck {
  /** `PRAGMA integrity_check` answer ('ok' when sound). */
  integrity: string;
  drawers: number;
  /** Drawers without a full-text entry plus full-text entries without a drawer. */
  orphans: number;
  /** (source, chunk) pairs stored more than once. */
  duplicated: number;
  /** Vectors whose drawer is gone. */
  orphanVectors: number;
}

/** Checks a palace database: integrity, FTS5 integrity, index in step with the drawers, no duplicates. */
export function checkPalace(home: string): PalaceCheck {
  const d = new Database(join(home, 'palace.db'));
  try {
    sqliteVec.load(d);
    const integrity = String(d.pragma('integrity_check', { simple: true }));
    d.prepare("INSERT INTO drawers_fts (drawers_fts, rank) VALUES ('integrity-check', 0)").run();
    const n = (sql: string) => Number(d.prepare(sql).pluck().get());
    const orphans =
      n('SELECT count(*) FROM drawers WHERE rid NOT IN (SELECT id FROM drawers_fts_docsize)') +
      n('SELECT count(*) FROM drawers_fts_docsize WHERE id NOT IN (SELECT rid FROM drawers)');
    const duplicated = n(
      'SELECT count(*) FROM (SELECT source, chunk_index FROM drawers WHERE source IS NOT NULL GROUP BY source, ' +
        'chunk_index HAVING count(*) > 1)',
    );
    let orphanVectors = 0;
    for (const tbl of d.prepare('SELECT tbl FROM vector_models').pluck().all() as string[]) {
      orphanVectors += n(`SELECT count(*) FROM "${tbl}" WHERE rowid NOT IN (SELECT rid FROM drawers)`);
    }
    return { integrity, drawers: n('SELECT count(*) FROM drawers'), orphans, duplicated, orphanVectors };
  } finally {
    d.close();
  }
}

/** The drawers as comparable rows (no filing time): sorted `id wing room hall source chunk lines hash`. */
export function drawerRows(home: string): string[] {
  const d = new Database(join(home, 'palace.db'), { readonly: true });
  try {
    const q =
      'SELECT id, wing, room, hall, source, chunk_index, line_start, line_end, content_hash FROM drawers ORDER BY id';
    return (d.prepare(q).all() as Record<string, unknown>[]).map((r) => JSON.stringify(r));
  } finally {
    d.close();
  }
}

/** The knowledge-graph facts whose subject starts with `prefix` (entity keys are lower case), sorted. */
export function factRows(home: string, prefix: string): string[] {
  const d = new Database(join(home, 'palace.db'), { readonly: true });
  try {
    const q =
      'SELECT subject, predicate, object, object_is_literal, valid_from, valid_to FROM kg_facts WHERE subject LIKE ' +
      "? || '%' ORDER BY subject, predicate, object, valid_from";
    return (d.prepare(q).all(prefix.toLowerCase()) as Record<string, unknown>[]).map((r) => JSON.stringify(r));
  } finally {
    d.close();
  }
}

/** Every file under `root` (relative, sorted), skipping the folders in `skip` (relative to `root`). */
export function listFiles(root: string, skip: readonly string[] = []): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      const rel = relative(root, p);
      if (skip.some((s) => rel === s || rel.startsWith(`${s}/`))) continue;
      if (statSync(p).isDirectory()) walk(p);
      else out.push(rel);
    }
  };
  if (existsSync(root)) walk(root);
  return out.sort();
}

/** True when `text` is one line (no line break of any kind). */
export function isOneLine(text: string): boolean {
  return !/[\r\n\u2028\u2029]/.test(text);
}

/** Result of {@link runLoci}. */
export interface LociRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `loci …args` to completion in `cwd` with `env` added to the environment. */
export function runLoci(args: string[], env: NodeJS.ProcessEnv, cwd: string, input = ''): Promise<LociRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env: { ...process.env, NO_COLOR: '1', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdin.on('error', () => {});
    child.stdin.end(input);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}
