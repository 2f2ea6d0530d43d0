/**
 * @module test/helpers/convos
 * What the conversation e2e tests share: the fixture tree (test/fixtures/convos), its planted fake
 * secrets, one search case per format, and readers of the palace database (`loci search` runs
 * in-process through `lociIn`).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { ROOT } from './cli.js';
import { lociIn } from './cli-in-process.js';

/** The conversation fixtures (see their README). */
export const FIXTURES = join(ROOT, 'test', 'fixtures', 'convos');
/** The session id of the main Claude Code fixture. */
export const SESSION = '5f0c2e1a-8b7d-4c3e-9a21-3f6d0b9e4c10';

/** Fake secrets planted in the fixtures (see test/fixtures/convos/README.md). */
export const SECRETS = [
  'S3cretPass42',
  'sk-proj-Zx8fake0TESTKEY1234567890abcdefGHIJ',
  'AKIAIOSFODNN7EXAMPLE',
  'xoxb-2048-4096-FAKEfakeFAKEfake01',
  'Wr3nchT!me-2024',
];

/** A hit of `loci search --json`, the fields these tests read. */
export interface Hit {
  id: string;
  wing: string;
  room: string;
  source: string;
  content_date: string | null;
  text: string;
  context?: { id: string; chunk_index: number; text: string }[];
}

/** A fixture conversation and the search that must find it. */
export interface Case {
  /** Fixture path (relative to the fixture root) the hit must come from. */
  file: string;
  query: string;
  text: RegExp;
  /** Expected content date (prefix), or null when the format has none. */
  date: string | null;
  /** Expected `metadata.sessionId`. */
  session: string | RegExp;
  /** Texts the ±1 neighbours must match (same conversation), in chunk order. */
  neighbours?: RegExp[];
}

/** One search per fixture format (and per notable file of a format). */
export const CASES: Case[] = [
  {
    file: `claude-code/projects/-home-dev-acme-api/${SESSION}.jsonl`,
    query: 'exempt the health-check range',
    text: /Keep 5 per minute, but exempt the health-check range 10\.0\.0\.0\/8/,
    date: '2025-06-12',
    session: SESSION,
    // a title sits before the exchange it was written during
    neighbours: [/^Title: Login rate limiting/, /^Summary: This session is being continued/],
  },
  {
    file: `claude-code/projects/-home-dev-acme-api/${SESSION}/subagents/agent-a1b2c3d.jsonl`,
    query: 'review the rate limiter configuration for mistakes',
    text: /Review the rate limiter configuration/,
    date: '2025-06-12',
    session: SESSION,
  },
  {
    file: 'claude-code/projects/-home-dev-acme-api/agent-9e8d7c6b.jsonl',
    query: 'every place that reads REDIS_URL',
    text: /Find every place/,
    date: '2025-06-12',
    session: '3c2b1a09-1111-4222-8333-444455556666',
  },
  {
    file: 'claude-code/projects/-home-dev-weird/9d8c7b6a-5555-4666-8777-888899990000.jsonl',
    query: 'CSV import choke characters',
    text: /Latin-1/,
    date: '2025-06-12',
    session: '9d8c7b6a-5555-4666-8777-888899990000',
    neighbours: [/^User: Thanks, that worked/],
  },
  {
    file: 'claude-code/history.jsonl',
    query: 'webkit line clamp property',
    text: /-webkit-line-clamp/,
    date: '2025-05-02',
    session: 'history:/home/dev/notes-site',
    neighbours: [/screenshot of the broken layout/],
  },
  {
    file: 'chatgpt/conversations.json',
    query: 'GIN BTREE jsonb containment',
    text: /containment queries/,
    date: '2024-05-02',
    session: '6633b2e1-2e3f-4d6c-8b9a-1f2e3d4c5b61',
    neighbours: [/^User: And for equality on one key/],
  },
  {
    file: 'chatgpt/single-conversation.json',
    query: 'starter doubles feed bake',
    text: /starter doubles in 4 hours/,
    date: '2024-05-01',
    session: '6633a1f0-1d2e-4c5b-9a8f-0e1d2c3b4a50',
  },
  {
    file: 'claude-ai/conversations.json',
    query: 'euros nights Lisbon October',
    text: /900 euros/,
    date: '2024-09-03',
    session: '0f9e8d7c-6b5a-4938-8271-605f4e3d2c1b',
    neighbours: [/draft itinerary/],
  },
  {
    file: 'claude-ai/flat.json',
    query: 'mutex semaphore difference',
    text: /mutex and a semaphore/,
    date: null,
    session: /^claude-ai-/,
  },
  {
    file: 'slack/eng-backend',
    query: 'nightly export job timeout warehouse',
    text: /nightly export job failed again/,
    date: '2024-03-04',
    session: 'slack:eng-backend:1709542860.000200',
    neighbours: [/port 5439 was missing/],
  },
  {
    file: 'codex/sessions/2025/05/20/rollout-2025-05-20T09-14-03-0196f2a1-7c3e-7d10-9b2a-5e8f4c1d2a3b.jsonl',
    query: 'monthly balance report off by one cent',
    text: /off by one cent in March/,
    date: '2025-05-20',
    session: '0196f2a1-7c3e-7d10-9b2a-5e8f4c1d2a3b',
    neighbours: [/^User: Do it\./],
  },
  {
    file: 'codex/sessions/2025/01/08/rollout-2025-01-08-legacy.jsonl',
    query: 'rename usr variables',
    text: /Rename the `usr` variables/,
    date: null,
    session: '5e1d2c3b-4a59-4876-9a5b-4c3d2e1f0a9b',
  },
  {
    file: 'gemini/chat-2025-07-02.jsonl',
    query: 'set euo pipefail',
    text: /pipefail/,
    date: '2025-07-02',
    session: '2b3c4d5e-6f70-4819-a2b3-c4d5e6f70819',
  },
  {
    file: 'gemini/checkpoint-auth-refactor.json',
    query: 'split auth.ts into token.ts and session.ts',
    text: /Split auth\.ts/,
    date: null,
    session: /^gemini-/,
  },
  {
    file: 'gemini/tmp/8c1f0e2d/chats/session-2025-07-01T10-00-9f8e7d6c.json',
    query: 'compress hero.png losslessly oxipng',
    text: /oxipng/,
    date: '2025-07-01',
    session: '9f8e7d6c-1a2b-4c3d-8e9f-0a1b2c3d4e5f',
    neighbours: [/three biggest files/],
  },
  {
    file: 'gemini/tmp/8c1f0e2d/logs.json',
    query: 'quit',
    text: /^User: \/quit$/,
    date: '2025-07-03',
    session: 'aa11bb22-cc33-4d44-8e55-ff6677889900',
  },
  {
    file: 'chat-text/quoted-transcript.md',
    query: 'undo the last commit keep my changes',
    text: /git reset --soft/,
    date: null,
    session: /^chat-/,
    neighbours: [/already pushed/],
  },
  {
    file: 'chat-text/human-assistant.txt',
    query: 'EADDRINUSE address already in use',
    text: /lsof -i :3000/,
    date: null,
    session: /^chat-/,
    neighbours: [/pick a free port/],
  },
  {
    file: 'chat-text/user-ai.txt',
    query: 'name for a cat that likes boxes',
    text: /Cardboard Cassius/,
    date: null,
    session: /^chat-/,
    neighbours: [/Flap/],
  },
  {
    file: 'chat-text/team-chat.txt',
    query: 'standup moved planning review',
    text: /Standup moved to 10:00/,
    date: '2024-03-04',
    session: /^chat-/,
    neighbours: [/review my PR for the retry logic/],
  },
  {
    file: 'chat-text/meeting-notes.md',
    query: 'Left Hand of Darkness ice crossing',
    text: /ice crossing chapter/,
    date: '2023-05-08',
    session: /^chat-/,
    neighbours: [/novellas in summer/],
  },
];

/** `loci search …args --json` in-process against the palace at `home`. */
export async function search(home: string, args: string[]): Promise<{ results: Hit[] }> {
  const r = await lociIn(['search', ...args, '--json'], { home });
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout) as { results: Hit[] };
}

/** The parsed `metadata` column of drawer `id`. */
export function metadata(home: string, id: string): Record<string, unknown> {
  const db = new Database(join(home, 'palace.db'), { readonly: true });
  try {
    return JSON.parse(db.prepare('SELECT metadata FROM drawers WHERE id = ?').pluck().get(id) as string) as Record<
      string,
      unknown
    >;
  } finally {
    db.close();
  }
}

/** The ids of the drawers that match the SQL condition `where`, sorted. */
export function drawerIds(home: string, where = '1'): string[] {
  const db = new Database(join(home, 'palace.db'), { readonly: true });
  try {
    return db.prepare(`SELECT id FROM drawers WHERE ${where} ORDER BY id`).pluck().all() as string[];
  } finally {
    db.close();
  }
}

/** The bytes of the palace database and its WAL (to look for leaked secrets). */
export function dbBytes(home: string): Buffer {
  const parts: Buffer[] = [];
  for (const s of ['', '-wal']) {
    try {
      parts.push(readFileSync(join(home, `palace.db${s}`)));
    } catch {
      /* absent */
    }
  }
  return Buffer.concat(parts);
}
