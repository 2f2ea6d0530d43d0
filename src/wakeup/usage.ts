/**
 * @module wakeup/usage
 * Usage statistics for the wake-up's `use` factor: how often each drawer or memory file was
 * recalled. Stored by the palace's drawer store (`recordUsage` / `readUsage` / `topUsage` of the
 * store port; SQLite table `usage`, schema migration 4; in memory for an in-memory store).
 *
 * `item` is `drawer:<drawer id>` or `memory:<absolute path of the memory file>`. Usage is
 * bookkeeping: it never enters the searchable space. Callers: the user-prompt-submit hook (every
 * injected memory and drawer), and any front end that reads an item on purpose (the MCP server may
 * call {@link recordUsage}).
 */
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

/** Usage of the given keys (missing keys: never used). */
export async function readUsage(
  palace: Pick<Palace, 'store'>,
  keys: readonly string[],
): Promise<Map<string, UsageRecord>> {
  return new Map((await palace.store.readUsage(keys)).map((r) => [r.item, r]));
}

/** The most used items whose key starts with `prefix` (`drawer:` or `memory:`), most used first. */
export async function topUsage(
  palace: Pick<Palace, 'store'>,
  prefix: 'drawer:' | 'memory:',
  limit: number,
): Promise<UsageRecord[]> {
  return palace.store.topUsage(prefix, limit);
}
