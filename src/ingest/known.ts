/**
 * @module ingest/known
 * The stored sources under a mined root, as re-mining compares them: every file's stamp (size, mtime,
 * kind, wing, settings) without its hash or state, and the full state of the few sources whose miner
 * continues from it (conversations). Listing 10K full states (state JSON, hashes, dates) was a large
 * part of re-mining an unchanged tree.
 */
import { sep } from 'node:path';
import type { MemoryStore, SourceStamp, SourceState } from '../store/ports.js';

/** A stored source: its full state, or only its stamp (project files). */
export type KnownSource = SourceState | SourceStamp;

/** True when `s` holds the full state (hash, cursor, miner state). */
export function isFullSource(s: KnownSource): s is SourceState {
  return 'state' in s;
}

/**
 * The stored sources at `root` or below it, by path: stamps for project files, full states for every other
 * kind (listed by kind, only when the tree holds one).
 */
export async function knownSources(store: MemoryStore, root: string): Promise<Map<string, KnownSource>> {
  const known = new Map<string, KnownSource>();
  const under = root.endsWith(sep) ? root : root + sep;
  const kinds = new Set<string>();
  for (const s of await store.listSourceStamps(root)) {
    if (s.source !== root && !s.source.startsWith(under)) continue;
    known.set(s.source, s);
    if (s.kind !== 'project') kinds.add(s.kind);
  }
  for (const kind of kinds) {
    for (const s of await store.listSources({ kind })) if (known.has(s.source)) known.set(s.source, s);
  }
  return known;
}
