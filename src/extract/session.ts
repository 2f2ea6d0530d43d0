/**
 * @module extract/session
 * Reading a session for extraction and session notes: the transcript (any format the conversation
 * parsers read) turned into turns with the time each was said, the transcript of a Claude Code
 * session found by its id, and a per-session cursor under the Loci home (`sessions/<id>/<name>.json`)
 * that remembers how far a reader got, so that each run reads only the new part.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { createError, fsError } from '../core/errors.js';
import { homePaths } from '../core/env.js';
import { sha256 } from '../core/hash.js';
import { isJsonObject } from '../core/json-file.js';
import { writeFileAtomic } from '../core/fs-safe.js';
import { parseConversations, type Conversation } from '../ingest/index.js';
import { sanitizeProjectPath } from '../memdir/index.js';
import type { SessionRead, SessionTurn } from './types.js';

function mainConversation(list: Conversation[]): Conversation | undefined {
  const main = list.filter((c) => !c.id.includes('~branch') && c.meta['isSidechain'] !== true);
  return (main.length ? main : list).reduce<Conversation | undefined>(
    (best, c) => (!best || c.messages.length > best.messages.length ? c : best),
    undefined,
  );
}

/**
 * Reads a transcript into turns (the main thread; abandoned branches and subagent side chains
 * left out; tool results kept up to 20,000 characters, so that sizes count what the model saw).
 * Throws PATH_NOT_FOUND / FILE_UNREADABLE when the file cannot be read; a file in no known format
 * gives no turns.
 */
export async function readSession(transcript: string): Promise<SessionRead> {
  let text: string;
  try {
    text = readFileSync(transcript, 'utf8');
  } catch (e) {
    throw fsError(e, transcript);
  }
  const c = mainConversation((await parseConversations(transcript, text, { toolResultChars: 20_000 })).conversations);
  const turns: SessionTurn[] = [];
  for (const m of c?.messages ?? []) {
    if (m.kind === 'summary' || m.kind === 'title' || m.role === 'system') continue;
    const role = m.kind === 'tool' || m.role === 'tool' ? 'tool' : m.role === 'user' ? 'user' : 'assistant';
    turns.push({ index: turns.length, role, text: m.text, at: m.timestamp, ...(m.uuid ? { uuid: m.uuid } : {}) });
  }
  const sid = c?.meta['sessionId'];
  return {
    transcript,
    sessionId: typeof sid === 'string' && sid ? sid : (c?.id ?? basename(transcript).replace(/\.[^.]+$/, '')),
    cwd: c?.cwd ?? null,
    turns,
  };
}

/**
 * The transcript of Claude Code session `sessionId`: `<configDir>/projects/<project>/<id>.jsonl`.
 * Throws EXTRACT_SESSION_NOT_FOUND when no project folder holds it.
 */
export function findSessionTranscript(sessionId: string, configDir: string): string {
  const projects = join(configDir, 'projects');
  const name = `${sessionId}.jsonl`;
  if (!/[/\\]/.test(sessionId) && existsSync(projects)) {
    for (const p of readdirSync(projects).sort()) {
      const f = join(projects, p, name);
      if (existsSync(f)) return f;
    }
  }
  throw createError('EXTRACT_SESSION_NOT_FOUND', { session: sessionId, configDir });
}

/**
 * The newest Claude Code transcript of the project run in `cwd`
 * (`<configDir>/projects/<cwd with every non-alphanumeric character as ->/*.jsonl`), or undefined.
 */
export function latestSessionTranscript(cwd: string, configDir: string): string | undefined {
  const dir = join(configDir, 'projects', sanitizeProjectPath(cwd));
  let best: { f: string; t: number } | undefined;
  try {
    for (const n of readdirSync(dir)) {
      if (!n.endsWith('.jsonl')) continue;
      const t = statSync(join(dir, n)).mtimeMs;
      if (!best || t > best.t) best = { f: join(dir, n), t };
    }
  } catch {
    return undefined;
  }
  return best?.f;
}

/** The folder of one session under the Loci home: `<home>/sessions/<id>` (unsafe ids hashed). */
export function sessionDir(home: string, sessionId: string): string {
  const safe = /^[A-Za-z0-9_-]{1,100}$/.test(sessionId) ? sessionId : `s-${sha256(sessionId).slice(0, 16)}`;
  return join(homePaths(home).home, 'sessions', safe);
}

/** How far a reader (extraction, notes) got in one session. */
interface SessionCursor {
  /** Turns already read. */
  turns: number;
  /** The uuid of the last turn read, when the format has ids (a rewritten transcript is then detected). */
  lastUuid?: string;
  /** The transcript the cursor belongs to. */
  transcript: string;
  /** Reader-specific state (notes: tokens and tool calls at the last update). */
  extra?: Record<string, number>;
}

/** Reads the cursor `name` of a session; a fresh one when absent or unreadable. */
export function loadCursor(home: string, sessionId: string, name: string, transcript: string): SessionCursor {
  try {
    const j = JSON.parse(readFileSync(join(sessionDir(home, sessionId), `${name}.json`), 'utf8')) as unknown;
    if (isJsonObject(j) && typeof j['turns'] === 'number' && j['turns'] >= 0) {
      return {
        turns: j['turns'],
        transcript: typeof j['transcript'] === 'string' ? j['transcript'] : transcript,
        ...(typeof j['lastUuid'] === 'string' ? { lastUuid: j['lastUuid'] } : {}),
        ...(isJsonObject(j['extra']) ? { extra: j['extra'] as Record<string, number> } : {}),
      };
    }
  } catch {
    // absent or unreadable: start from the beginning
  }
  return { turns: 0, transcript };
}

/** Saves the cursor `name` of a session (atomic write). */
export function saveCursor(home: string, sessionId: string, name: string, cursor: SessionCursor): void {
  writeFileAtomic(join(sessionDir(home, sessionId), `${name}.json`), `${JSON.stringify(cursor)}\n`, 0o600);
}

/**
 * Where the new part of `s` starts for `cursor`: after the last turn read. When the transcript was
 * rewritten (the turn at the cursor no longer has the uuid recorded) the uuid is looked up; when it
 * is gone, everything is new again.
 */
export function newPartStart(s: SessionRead, cursor: SessionCursor): number {
  if (cursor.turns === 0) return 0;
  if (cursor.lastUuid === undefined) return Math.min(cursor.turns, s.turns.length);
  if (s.turns[cursor.turns - 1]?.uuid === cursor.lastUuid) return cursor.turns;
  const at = s.turns.findIndex((t) => t.uuid === cursor.lastUuid);
  return at >= 0 ? at + 1 : 0;
}

/** The cursor after reading all of `s`. */
export function cursorAtEnd(s: SessionRead, extra?: Record<string, number>): SessionCursor {
  const last = s.turns[s.turns.length - 1];
  return {
    turns: s.turns.length,
    transcript: s.transcript,
    ...(last?.uuid ? { lastUuid: last.uuid } : {}),
    ...(extra ? { extra } : {}),
  };
}
