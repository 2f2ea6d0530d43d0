/**
 * @module wakeup/usage
 * Usage statistics for the wake-up's `use` factor: how often each drawer or memory file was
 * recalled. Stored by the palace's drawer store (`recordUsage` / `readUsage` / `topUsage` of the
 * store port; SQLite table `usage`, schema migration 4; in memory for an in-memory store).
 *
 * `item` is `drawer:<drawer id>` or `memory:<absolute path of the memory file>`. Usage is
 * bookkeeping: it never enters the searchable space. Callers: the user-prompt-submit hook (every
 * injected memory and drawer, through the journal), and any front end that reads an item on
 * purpose (the MCP server may call {@link recordUsage}).
 *
 * **The usage journal** (`<home>/usage/pending.jsonl`): recall records its uses with
 * {@link journalUsage}, one appended line per prompt (`{"at", "items"}`), never a palace write. A
 * palace write would change `palace.db`, whose signature keys the session-start cache
 * (`wake-cache.ts`): every prompt would make the next `session-start` compute its wake-up in the
 * hook process. {@link readUsage} and {@link topUsage} add the journal's uses to the store's, so
 * counts read the same as when written to the store; the hook worker, which writes the palace
 * anyway, folds the journal into the store ({@link foldUsageJournal}) before it refreshes the
 * cache. A cached wake-up therefore counts the uses recorded up to its computation. Each line is
 * one `write` in append mode (whole, between concurrent writers); a torn last line (a crash
 * mid-write) is skipped when read. Usage is best-effort, as a store write that meets a busy lock is.
 */
import { appendFileSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { fsError } from '../core/errors.js';
import { pidAlive } from '../core/process.js';
import type { Palace } from '../palace/index.js';
import type { UsageRecord } from '../store/ports.js';

export type { UsageRecord };

/** What was used: a drawer id, or a memory file's absolute path. */
export type UsageItem = { kind: 'drawer'; id: string } | { kind: 'memory'; path: string };

/** How long a usage write waits for another writer before it is skipped, in ms. */
const USAGE_WAIT_MS = 250;

/** The usage key of an item. */
export function usageKey(item: UsageItem): string {
  return item.kind === 'drawer' ? `drawer:${item.id}` : `memory:${item.path}`;
}

/**
 * Adds one use to each item (duplicates in one call count once). Returns how many items were
 * recorded; 0 when the palace has no usage table (an older schema) or another process holds the
 * write lock for longer than `waitMs` (default 250 ms: usage is best-effort and must never make a
 * hook wait for a long write) — never throws for those.
 */
export async function recordUsage(
  palace: Pick<Palace, 'store'>,
  items: readonly UsageItem[],
  now = Date.now(),
  waitMs = USAGE_WAIT_MS,
): Promise<number> {
  return palace.store.recordUsage(items.map(usageKey), new Date(now).toISOString(), { waitMs });
}

/**
 * Usage of the given keys (missing keys: never used): the store's counts plus the uses waiting in
 * the home's usage journal.
 */
export async function readUsage(
  palace: Pick<Palace, 'store' | 'home'>,
  keys: readonly string[],
): Promise<Map<string, UsageRecord>> {
  const out = new Map((await palace.store.readUsage(keys)).map((r) => [r.item, r]));
  const pending = pendingUsage(palace.home);
  for (const k of keys) {
    const p = pending.get(k);
    if (p) out.set(k, addPending(k, out.get(k), p));
  }
  return out;
}

/**
 * The most used items whose key starts with `prefix` (`drawer:` or `memory:`), most used first
 * (then most recently used): the store's counts plus the journal's.
 */
export async function topUsage(
  palace: Pick<Palace, 'store' | 'home'>,
  prefix: 'drawer:' | 'memory:',
  limit: number,
): Promise<UsageRecord[]> {
  const top = await palace.store.topUsage(prefix, limit);
  const pending = [...pendingUsage(palace.home)].filter(([k]) => k.startsWith(prefix));
  if (pending.length === 0) return top;
  // An item outside the store's top `limit` and not in the journal cannot outrank any of them.
  const all = new Map(top.map((r) => [r.item, r]));
  const missing = pending.map(([k]) => k).filter((k) => !all.has(k));
  if (missing.length) for (const r of await palace.store.readUsage(missing)) all.set(r.item, r);
  for (const [k, p] of pending) all.set(k, addPending(k, all.get(k), p));
  return [...all.values()]
    .sort((a, b) => b.uses - a.uses || cmp(b.lastUsed, a.lastUsed) || cmp(a.item, b.item))
    .slice(0, limit);
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

// ── the usage journal (see the module comment) ─────────────────────────────────────────────

/** The journal folder of a home. */
const journalDir = (home: string) => join(home, 'usage');
/** Uses appended by recall, waiting to be folded into the store. */
const PENDING = 'pending.jsonl';
/** A journal taken by a fold (`folding-<pid>-<hex>.jsonl`), read as pending until it is folded. */
const CLAIMED = /^folding-(\d+)-[0-9a-f]+\.jsonl$/;

interface JournalLine {
  at: string;
  items: string[];
}

/**
 * Records one use of each item (duplicates in one call count once) in the usage journal of
 * `home`, without writing the palace (see the module comment). Returns how many items were
 * recorded. Throws PERMISSION_DENIED or FILE_UNREADABLE when the journal cannot be written.
 */
export function journalUsage(home: string, items: readonly UsageItem[], now = Date.now()): number {
  const keys = [...new Set(items.map(usageKey))];
  if (keys.length === 0) return 0;
  const dir = journalDir(home);
  const line = `${JSON.stringify({ at: new Date(now).toISOString(), items: keys } satisfies JournalLine)}\n`;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    appendFileSync(join(dir, PENDING), line, { mode: 0o600 });
  } catch (e) {
    throw fsError(e, join(dir, PENDING), 'write');
  }
  return keys.length;
}

function readLines(path: string): JournalLine[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return [];
  }
  const out: JournalLine[] = [];
  for (const raw of text.split('\n')) {
    if (!raw) continue;
    try {
      const l = JSON.parse(raw) as Partial<JournalLine>;
      if (typeof l.at === 'string' && Array.isArray(l.items) && l.items.every((i) => typeof i === 'string'))
        out.push({ at: l.at, items: l.items });
    } catch {
      // a torn line (crash mid-append): skipped
    }
  }
  return out;
}

/** Journal files of `home`: taken by a fold first (older), then the pending one. */
function journalFiles(home: string): string[] {
  let names: string[];
  try {
    names = readdirSync(journalDir(home));
  } catch {
    return [];
  }
  const claimed = names.filter((n) => CLAIMED.test(n)).sort();
  return [...claimed, ...(names.includes(PENDING) ? [PENDING] : [])].map((n) => join(journalDir(home), n));
}

/** Uses waiting in the journal, per key: how many, and the time of the last. */
function pendingUsage(home: string): Map<string, { uses: number; last: string }> {
  const out = new Map<string, { uses: number; last: string }>();
  for (const file of journalFiles(home))
    for (const l of readLines(file))
      for (const k of new Set(l.items)) {
        const p = out.get(k);
        if (p) {
          p.uses++;
          p.last = l.at;
        } else out.set(k, { uses: 1, last: l.at });
      }
  return out;
}

/** A store record plus pending uses (a recorded use sets `lastUsed`, as a store write does). */
function addPending(item: string, r: UsageRecord | undefined, p: { uses: number; last: string }): UsageRecord {
  return { item, uses: (r?.uses ?? 0) + p.uses, lastUsed: p.last };
}

/**
 * Folds the usage journal of `palace.home` into the palace's store, line by line in the order
 * written (so counts and last-use times end as if each had been written to the store), and
 * returns the lines folded. The journal is first taken by a rename, so concurrent folds never
 * fold a line twice and new uses go to a new journal; a journal taken by a process that died
 * is folded too. Lines a busy store refused (another writer held the lock for `waitMs`) go back
 * to the journal. Called by the hook worker, which writes the palace anyway.
 */
export async function foldUsageJournal(
  palace: Pick<Palace, 'store' | 'home'>,
  waitMs = USAGE_WAIT_MS,
): Promise<number> {
  const dir = journalDir(palace.home);
  const take = (from: string): string | undefined => {
    const to = join(dir, `folding-${process.pid}-${randomBytes(6).toString('hex')}.jsonl`);
    try {
      renameSync(join(dir, from), to);
      return to;
    } catch {
      return undefined; // absent, or taken by another fold
    }
  };
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  const taken: string[] = [];
  for (const n of names.sort()) {
    const pid = CLAIMED.exec(n)?.[1];
    if (pid !== undefined && Number(pid) !== process.pid && !pidAlive(Number(pid))) {
      const t = take(n);
      if (t) taken.push(t);
    }
  }
  const pending = names.includes(PENDING) ? take(PENDING) : undefined;
  if (pending) taken.push(pending);
  let folded = 0;
  for (const file of taken) {
    const lines = readLines(file);
    let i = 0;
    for (; i < lines.length; i++) {
      const l = lines[i]!;
      if ((await palace.store.recordUsage(l.items, l.at, { waitMs })) === 0 && l.items.length > 0) break;
      folded++;
    }
    if (i < lines.length)
      appendFileSync(
        join(dir, PENDING),
        lines
          .slice(i)
          .map((l) => `${JSON.stringify(l)}\n`)
          .join(''),
        { mode: 0o600 },
      );
    rmSync(file, { force: true });
  }
  return folded;
}
