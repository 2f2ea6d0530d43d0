/**
 * @module recall/build
 * {@link buildRecall}: selection plus budgets plus rendering — the exact text to inject for one
 * prompt. Each memory block ≤ 4 KB (content cut at a line boundary, with a note pointing at the
 * file), the whole injection ≤ 20 KB, the session ≤ 60 KB; memories older than a day carry a
 * freshness warning; everything sits in one `<system-reminder>` with the content escaped.
 */
import { systemClock } from '../core/clock.js';
import { groupThousands } from '../core/collate.js';
import { NOT_RECORDED, readMemoryFile, type Memory } from '../memdir/index.js';
import { escapeReminderContent, utf8Bytes } from './escape.js';
import {
  ageDays,
  attrs,
  escapedContent,
  freshnessWarning,
  isStale,
  Packer,
  preamble,
  type BlockDraft,
} from './render.js';
import { selectRelevantMemories } from './select.js';
import { sessionBytesLeft } from './session.js';
import {
  RECALL_LIMITS,
  type RecallBudgets,
  type RecalledMemory,
  type RecallOptions,
  type RecallResult,
  type RecallSelector,
} from './types.js';

/** Budgets with defaults applied and ranges enforced (see {@link RecallBudgets}). */
export function resolveBudgets(b: Partial<RecallBudgets> = {}): RecallBudgets {
  const pick = (v: number | undefined, def: number, min: number, max: number) =>
    v === undefined || !Number.isFinite(v) ? def : Math.min(max, Math.max(min, Math.floor(v)));
  return {
    fileBytes: pick(b.fileBytes, RECALL_LIMITS.fileBytes, 256, 1_048_576),
    turnBytes: pick(b.turnBytes, RECALL_LIMITS.turnBytes, 256, 10_485_760),
    sessionBytes: pick(b.sessionBytes, RECALL_LIMITS.sessionBytes, 0, 104_857_600),
  };
}

/** A `**Why:**` / `**How to apply:**` line left at its placeholder: it tells the agent nothing. */
const EMPTY_LABEL = new RegExp(
  String.raw`^\*\*(?:Why|How to apply):\*\*\s*${NOT_RECORDED.replace(/[()]/g, '\\$&')}\s*$\n?`,
  'gm',
);

/** The draft of one memory's block: attributes, freshness warning, escaped body, truncation note. */
function memoryDraft(m: Memory, now: number, fileBytes: number): BlockDraft {
  const days = ageDays(m.modified, now);
  const stale = isStale(m.modified, now, RECALL_LIMITS.freshDays);
  const head =
    `<memory${attrs({
      file: m.file,
      type: m.type ?? 'untyped',
      name: m.name,
      modified: m.modified.slice(0, 10),
      age_days: days,
      description: m.description,
    })}>\n` + (stale ? `${freshnessWarning(days)}\n\n` : '');
  const body = escapedContent(m.body.replace(EMPTY_LABEL, '').trimEnd());
  return {
    head,
    content: body === '' ? escapedContent(m.description) || '(empty memory)' : body,
    tail: '\n</memory>',
    capBytes: fileBytes,
    note: escapeReminderContent(
      `[… truncated to fit the recall budget; the full memory (${groupThousands(m.bytes)} bytes) is in ` + `${m.path}]`,
    ),
  };
}

/** What {@link packMemories} reports. */
interface PackedMemories {
  memories: RecalledMemory[];
  omitted: string[];
}

/**
 * Adds the selected memory files to `packer` in order, each within `fileBytes` and whatever the
 * packer has left (optionally also within `shareBytes` in total). Files that vanished or no longer
 * fit are listed in `omitted`.
 */
export function packMemories(
  packer: Packer,
  dir: string,
  files: readonly string[],
  o: { now: number; fileBytes: number; shareBytes?: number },
): PackedMemories {
  const memories: RecalledMemory[] = [];
  const omitted: string[] = [];
  let used = 0;
  for (const file of files) {
    const m = readMemoryFile(dir, file);
    if (!m) {
      omitted.push(file);
      continue;
    }
    const fitted = packer.add(memoryDraft(m, o.now, o.fileBytes), (o.shareBytes ?? Infinity) - used);
    if (!fitted) {
      omitted.push(file);
      continue;
    }
    used += fitted.bytes;
    memories.push({
      file: m.file,
      path: m.path,
      type: m.type,
      name: m.name,
      description: m.description,
      modified: m.modified,
      age_days: ageDays(m.modified, o.now),
      bytes: fitted.bytes,
      truncated: fitted.truncated,
    });
  }
  return { memories, omitted };
}

/** An empty result (nothing to inject). */
export function emptyRecall(
  selector: RecallSelector,
  reason: string | undefined,
  omitted: string[] = [],
): RecallResult {
  return { memories: [], text: '', selector, bytes: 0, omitted, ...(reason ? { reason } : {}) };
}

/** Smallest injection worth making: the frame, the preamble and one minimal block. */
export function minimumInjectionBytes(drawers = false): number {
  return utf8Bytes(preamble({ memories: true, drawers })) + 64 + RECALL_LIMITS.minBlockBytes;
}

/**
 * Selects memories for `query` (see `selectRelevantMemories`) and renders the text to inject,
 * within the budgets (defaults: 4 KB per memory block, 20 KB per injection, 60 KB per session
 * counted from `session.bytes`). Files in `session.surfaced` are never selected again. Does not
 * record anything: after injecting, call `recordSurfaced(home, id, { files, bytes })`.
 * Never throws; `reason` says why fewer memories than selected (or none) were injected.
 */
export async function buildRecall(query: string, opts: RecallOptions): Promise<RecallResult> {
  try {
    const now = (opts.clock ?? systemClock).now();
    const budgets = resolveBudgets(opts.budgets);
    const left = sessionBytesLeft(opts.session, budgets);
    if (left < minimumInjectionBytes()) {
      return emptyRecall(
        'search',
        `the session recall budget is spent (${opts.session?.bytes ?? 0} of ${budgets.sessionBytes} bytes)`,
      );
    }
    const sel = await selectRelevantMemories(query, { ...opts, alreadySurfaced: opts.session?.surfaced });
    if (sel.files.length === 0) return emptyRecall(sel.selector, sel.reason);
    const packer = new Packer(
      preamble({ memories: true, drawers: false }),
      Math.min(budgets.turnBytes, left),
      Infinity,
    );
    const packed = packMemories(packer, opts.dir, sel.files, { now, fileBytes: budgets.fileBytes });
    const { text, kept } = packer.finish();
    const memories = packed.memories.slice(0, kept);
    const omitted = [...packed.omitted, ...packed.memories.slice(kept).map((m) => m.file)];
    const reason = [
      sel.reason,
      omitted.length
        ? `${omitted.length} selected ${omitted.length === 1 ? 'memory' : 'memories'} left out (budget or missing file)`
        : undefined,
    ]
      .filter(Boolean)
      .join('; ');
    return { memories, text, selector: sel.selector, bytes: utf8Bytes(text), omitted, ...(reason ? { reason } : {}) };
  } catch (e) {
    opts.logger?.log('error', 'recall: building the injection failed', { error: (e as Error)?.message ?? String(e) });
    return emptyRecall('search', `recall failed: ${(e as Error)?.message ?? String(e)}`);
  }
}
