/**
 * @module context/tool-results
 * Large tool results kept out of the context window: a result longer than `maxResultSizeChars` is
 * written once to `<home>/tool-results/<sha256>.txt` (atomic write by rename, without fsync: a file
 * of the wrong size is rewritten; the same output twice is one file), and the model receives a
 * preview plus the path, which it can read back with a file tool.
 * A per-session ledger records every result: its size, whether it is on disk, and whether its
 * text (or preview) is still in the live messages or was replaced by a compaction summary.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { createError, isLociError } from '../core/errors.js';
import { writeFileAtomic } from '../core/fs-safe.js';
import { sha256 } from '../core/hash.js';
import type { ToolResultBlock } from '../providers/index.js';

/** Default size above which a result is persisted: 20,000 characters. */
export const DEFAULT_MAX_RESULT_SIZE_CHARS = 20_000;
/** Default preview length: 2,000 characters. */
const DEFAULT_PREVIEW_CHARS = 2_000;

/** Options of {@link createToolResultStore}. */
export interface ToolResultStoreOptions {
  /** The Loci home; files go to `<home>/tool-results/`. Required. */
  home: string;
  /** Results longer than this many characters are persisted. Default 20,000; 1 … 10,000,000. */
  maxResultSizeChars?: number;
  /** Characters of a persisted result shown to the model. Default 2,000; 0 … maxResultSizeChars. */
  previewChars?: number;
}

/** One tool result seen in this session. */
export interface LedgerEntry {
  /** The tool call it answers. */
  toolUseId: string;
  /** The tool's name, when the caller gave it. */
  toolName?: string;
  /** Length of the full result, in characters. */
  chars: number;
  /** Length of what the model received (the full text, or the preview message). */
  inContextChars: number;
  /** The file holding the full result, when it was persisted. */
  path?: string;
  /** SHA-256 of the full result, when it was persisted. */
  sha256?: string;
  /**
   * `messages`: its text (or preview) is in the live messages; `summary`: a compaction replaced
   * it (the path, if any, is listed in the summary message; the text is in the palace archive).
   */
  where: 'messages' | 'summary';
}

/** Totals of the ledger. */
export interface LedgerTotals {
  /** Results seen. */
  results: number;
  /** Results written to disk (deduplicated files may be counted more than once). */
  persisted: number;
  /** Characters that never entered the context because they were persisted (full − preview). */
  charsKeptOut: number;
  /** Characters of tool results currently in the live messages. */
  charsInMessages: number;
}

/** Persists large tool results and keeps the session's ledger. */
export interface ToolResultStore {
  /** The folder holding persisted results (`<home>/tool-results`). */
  readonly dir: string;
  /** The persistence threshold in characters. */
  readonly maxResultSizeChars: number;
  /**
   * Turns one tool output into the block sent to the model: unchanged when short, else persisted
   * and replaced by a preview plus the path. Throws `CONTEXT_RESULT_UNWRITABLE` when the file
   * cannot be written.
   */
  add(input: { toolUseId: string; content: string; isError?: boolean; toolName?: string }): ToolResultBlock;
  /** Marks results as replaced by a compaction summary. */
  markSummarised(toolUseIds: Iterable<string>): void;
  /** Every entry, in the order seen. */
  entries(): readonly LedgerEntry[];
  /** Entry of one tool call. */
  get(toolUseId: string): LedgerEntry | undefined;
  /** Totals over the ledger. */
  totals(): LedgerTotals;
  /** Forgets the ledger (files stay on disk). */
  reset(): void;
}

/** The text the model receives in place of a persisted result. */
function persistedPreview(content: string, path: string, previewChars: number): string {
  const lines = content.split('\n').length;
  let preview = content.slice(0, previewChars);
  const nl = preview.lastIndexOf('\n');
  if (nl > previewChars / 2) preview = preview.slice(0, nl); // end the preview on a whole line
  return (
    `<persisted-output>\nOutput too large for the context (${content.length} characters, ${lines} lines). ` +
    `Full output saved to: ${path}\nRead that file for the rest.\n\nPreview (first ${preview.length} characters):\n` +
    `${preview}\n…\n</persisted-output>`
  );
}

/** True when `path` holds a file of `content`'s size (its name is the hash of the content). */
function intact(path: string, content: string): boolean {
  try {
    return statSync(path).size === Buffer.byteLength(content, 'utf8');
  } catch {
    return false;
  }
}

/** Creates a {@link ToolResultStore}. */
export function createToolResultStore(options: ToolResultStoreOptions): ToolResultStore {
  const dir = join(options.home, 'tool-results');
  const max = Math.max(1, Math.floor(options.maxResultSizeChars ?? DEFAULT_MAX_RESULT_SIZE_CHARS));
  const previewChars = Math.min(max, Math.max(0, Math.floor(options.previewChars ?? DEFAULT_PREVIEW_CHARS)));
  const ledger = new Map<string, LedgerEntry>();
  const written = new Set<string>();
  return {
    dir,
    maxResultSizeChars: max,
    add({ toolUseId, content, isError, toolName }) {
      const base = { toolUseId, ...(toolName ? { toolName } : {}), chars: content.length, where: 'messages' as const };
      const block = (text: string): ToolResultBlock => ({
        type: 'tool_result',
        toolUseId,
        content: text,
        ...(isError ? { isError: true } : {}),
      });
      if (content.length <= max) {
        ledger.set(toolUseId, { ...base, inContextChars: content.length });
        return block(content);
      }
      const hash = sha256(content);
      const path = join(dir, `${hash}.txt`);
      if (!written.has(hash) && !intact(path, content)) {
        try {
          // No fsync: the file is a content-addressed cache; a torn file is detected by size and rewritten.
          writeFileAtomic(path, content, 0o600, { fsync: false });
        } catch (e) {
          const reason = isLociError(e) ? e.message : String(e);
          throw createError('CONTEXT_RESULT_UNWRITABLE', { path, reason }, e);
        }
      }
      written.add(hash);
      const text = persistedPreview(content, path, previewChars);
      ledger.set(toolUseId, { ...base, inContextChars: text.length, path, sha256: hash });
      return block(text);
    },
    markSummarised(ids) {
      for (const id of ids) {
        const e = ledger.get(id);
        if (e) e.where = 'summary';
      }
    },
    entries: () => [...ledger.values()],
    get: (id) => ledger.get(id),
    totals() {
      const t: LedgerTotals = { results: 0, persisted: 0, charsKeptOut: 0, charsInMessages: 0 };
      for (const e of ledger.values()) {
        t.results++;
        if (e.path) {
          t.persisted++;
          t.charsKeptOut += Math.max(0, e.chars - e.inContextChars);
        }
        if (e.where === 'messages') t.charsInMessages += e.inContextChars;
      }
      return t;
    },
    reset: () => ledger.clear(),
  };
}
