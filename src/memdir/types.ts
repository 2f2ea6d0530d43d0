/**
 * @module memdir/types
 * Vocabulary shared by the memory-file modules: memory types, privacy, limits and the manifest
 * entry that recall reads.
 */

/** The four memory types of Claude Code's auto memory. */
export const MEMORY_TYPES = ['user', 'feedback', 'project', 'reference'] as const;

/**
 * A memory type: `user` (role, expertise, preferences), `feedback` (corrections and confirmed
 * approaches, with the reason), `project` (ongoing work, goals, decisions not derivable from code or
 * git), `reference` (pointers to external resources).
 */
export type MemoryType = (typeof MEMORY_TYPES)[number];

/** True when `v` is one of {@link MEMORY_TYPES}. */
export function isMemoryType(v: unknown): v is MemoryType {
  return typeof v === 'string' && (MEMORY_TYPES as readonly string[]).includes(v);
}

/** Who may see a memory: only its owner (`private`) or the whole team (`team`). */
export type Privacy = 'private' | 'team';

/** True when `v` is a {@link Privacy}. */
export function isPrivacy(v: unknown): v is Privacy {
  return v === 'private' || v === 'team';
}

/** The index file of a memory directory. */
export const INDEX_FILE = 'MEMORY.md';

/** Limits Claude Code applies to MEMORY.md and to scans (docs /en/memory, A3). */
export const MEMORY_LIMITS = {
  /** Lines of MEMORY.md injected at session start. */
  indexLines: 200,
  /** Bytes of MEMORY.md injected at session start (Claude Code counts 25,000). */
  indexBytes: 25_000,
  /** Target length of one index line, in characters. */
  indexLineChars: 150,
  /** Topic files scanned, newest first. */
  scanFiles: 200,
} as const;

/**
 * One memory as listed in the manifest (cheap: no body). This is what recall reads.
 */
export interface MemoryEntry {
  /** The `name` from frontmatter, else the file stem. */
  name: string;
  /** Display title: `metadata.title` when present, else `name`. */
  title: string;
  /** The type from `metadata.type`, top-level `type`, or the `{type}_` filename prefix; null if none. */
  type: MemoryType | null;
  /** One-line description from frontmatter ('' when absent). */
  description: string;
  /** Path relative to the memory directory, with `/` separators (e.g. `team/reference_ci.md`). */
  file: string;
  /** Absolute path. */
  path: string;
  /** ISO-8601: the frontmatter `modified` when valid, else the file's mtime. */
  modified: string;
  /** Effective privacy (see `privacy.ts`). */
  privacy: Privacy;
  /** `metadata.pinned: true`. */
  pinned: boolean;
  /** File size in bytes. */
  bytes: number;
  /** The file lives under `team/`. */
  team: boolean;
  /** The file has a frontmatter block. */
  hasFrontmatter: boolean;
  /** `[[links]]` found in the body (targets, deduplicated, in order). */
  links: string[];
}

/** A memory with its body and raw text. */
export interface Memory extends MemoryEntry {
  /** The body (text after the frontmatter; the whole file when there is none), LF line ends. */
  body: string;
  /** The exact file content. */
  text: string;
}
