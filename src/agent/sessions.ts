/**
 * @module agent/sessions
 * Saved chat sessions, for `/resume`: each session's live messages and a title (its first prompt)
 * in `<home>/chat/<id>.json`, rewritten atomically after every turn. Unreadable files are skipped.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../core/fs-safe.js';
import type { AgentMessage } from '../providers/index.js';

/** One saved session. */
interface ChatSession {
  id: string;
  /** The first prompt, cut to 80 characters. */
  title: string;
  cwd: string;
  /** ISO-8601 times. */
  started: string;
  updated: string;
  /** The live messages (summary first when the session was compacted). */
  messages: AgentMessage[];
}

const dirOf = (home: string) => join(home, 'chat');
const SAFE_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** Writes `session` to `<home>/chat/<id>.json` (private file). */
export function saveChatSession(home: string, session: ChatSession): void {
  if (!SAFE_ID.test(session.id)) return;
  writeFileAtomic(join(dirOf(home), `${session.id}.json`), `${JSON.stringify(session)}\n`, 0o600);
}

/** A saved session by id, or undefined. */
export function loadChatSession(home: string, id: string): ChatSession | undefined {
  if (!SAFE_ID.test(id)) return undefined;
  const p = join(dirOf(home), `${id}.json`);
  if (!existsSync(p)) return undefined;
  try {
    const s = JSON.parse(readFileSync(p, 'utf8')) as ChatSession;
    return typeof s.id === 'string' && Array.isArray(s.messages) ? s : undefined;
  } catch {
    return undefined;
  }
}

/** Saved sessions, most recently updated first (without their messages' content checked). */
export function listChatSessions(home: string, cwd?: string): Omit<ChatSession, 'messages'>[] {
  const dir = dirOf(home);
  if (!existsSync(dir)) return [];
  const out: Omit<ChatSession, 'messages'>[] = [];
  for (const name of readdirSync(dir)) {
    if (!name.endsWith('.json')) continue;
    const s = loadChatSession(home, name.slice(0, -5));
    if (!s || (cwd !== undefined && s.cwd !== cwd)) continue;
    const { messages: _m, ...meta } = s;
    out.push(meta);
  }
  return out.sort((a, b) => b.updated.localeCompare(a.updated));
}
