/**
 * @module hooks/state
 * The `stop` hook's per-transcript counter, in `<LOCI_HOME>/hooks/state/<hash>.json` (mode 0600,
 * written atomically): how far the transcript was read, how many human prompts it holds, and at
 * which count an archive job was last queued. Read tolerantly: a missing, corrupt or foreign file
 * is a fresh state. Files untouched for 30 days are pruned when a new one is created.
 * Node built-ins and `light-core` only (fast path).
 */
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { sha256, writeFileAtomic } from './light-core.js';

/** What is kept per transcript. */
interface TranscriptState {
  v: 1;
  /** The transcript this state counts. */
  transcript: string;
  /** Session id, when Claude Code gave one. */
  sessionId: string | null;
  /** Byte offset after the last complete line counted. */
  offset: number;
  /** Human prompts up to `offset`. */
  humans: number;
  /** Value of `humans` when an archive job was last queued (0 when never). */
  queuedAt: number;
  /** ISO-8601 time of the last update. */
  updatedAt: string;
}

/** State files untouched for longer are deleted, in days. */
const STATE_TTL_DAYS = 30;

/** The folder of the state files. */
function stateDir(home: string): string {
  return join(home, 'hooks', 'state');
}

/** The state file of a transcript (named by a hash of its path). */
function statePath(home: string, transcript: string): string {
  return join(stateDir(home), `${sha256(transcript).slice(0, 24)}.json`);
}

/** A fresh state. */
function freshState(transcript: string, sessionId: string | null): TranscriptState {
  return { v: 1, transcript, sessionId, offset: 0, humans: 0, queuedAt: 0, updatedAt: new Date().toISOString() };
}

const nat = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;

/** The state of `transcript`, or a fresh one (missing, unreadable, corrupt, other transcript). */
export function loadState(
  home: string,
  transcript: string,
  sessionId: string | null,
): { state: TranscriptState; existed: boolean } {
  let j: unknown;
  try {
    j = JSON.parse(readFileSync(statePath(home, transcript), 'utf8'));
  } catch {
    return { state: freshState(transcript, sessionId), existed: false };
  }
  const o = (j && typeof j === 'object' ? j : {}) as Record<string, unknown>;
  if (o['v'] !== 1 || o['transcript'] !== transcript || !nat(o['offset']) || !nat(o['humans']) || !nat(o['queuedAt'])) {
    return { state: freshState(transcript, sessionId), existed: false };
  }
  return {
    state: {
      v: 1,
      transcript,
      sessionId: typeof o['sessionId'] === 'string' ? o['sessionId'] : sessionId,
      offset: o['offset'],
      humans: o['humans'],
      queuedAt: Math.min(o['queuedAt'], o['humans']),
      updatedAt: typeof o['updatedAt'] === 'string' ? o['updatedAt'] : new Date(0).toISOString(),
    },
    existed: true,
  };
}

/** Writes the state atomically (0600); prunes old state files when `pruneOld`. */
export function saveState(home: string, state: TranscriptState, pruneOld = false): void {
  state.updatedAt = new Date().toISOString();
  writeFileAtomic(statePath(home, state.transcript), `${JSON.stringify(state)}\n`, 0o600);
  if (pruneOld) pruneStates(home);
}

/** Deletes state files (and stray temp files) untouched for {@link STATE_TTL_DAYS}. Never throws. */
function pruneStates(home: string, now = Date.now()): number {
  const dir = stateDir(home);
  let removed = 0;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  for (const n of names) {
    const p = join(dir, n);
    try {
      if (now - statSync(p).mtimeMs > STATE_TTL_DAYS * 86_400_000) {
        rmSync(p, { force: true });
        removed++;
      }
    } catch {
      // vanished
    }
  }
  return removed;
}
