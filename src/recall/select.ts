/**
 * @module recall/select
 * {@link selectRelevantMemories}: which memory files to attach to a prompt. An LLM side query
 * when a provider is given; Loci's hybrid search over the memory files otherwise, and whenever the
 * model fails, times out or answers garbage. Never throws into the agent loop.
 */
import { loadMemories, type Memory } from '../memdir/index.js';
import { selectWithLlm } from './select-llm.js';
import { searchMemoryFiles } from './select-search.js';
import { RECALL_LIMITS, type Selection, type SelectMemoriesOptions } from './types.js';

function clampInt(v: number | undefined, def: number, min: number, max: number): number {
  if (v === undefined || !Number.isFinite(v)) return def;
  return Math.min(max, Math.max(min, Math.round(v)));
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** The candidates of a selection: the directory's memories minus those already surfaced. */
function candidateMemories(
  dir: string,
  alreadySurfaced?: ReadonlySet<string>,
): { all: Memory[]; candidates: Memory[] } {
  const all = loadMemories(dir);
  return { all, candidates: alreadySurfaced?.size ? all.filter((m) => !alreadySurfaced.has(m.file)) : all };
}

/**
 * Selects the memory files (relative paths, best first, at most `max`, default 5) that are clearly
 * useful for `query`.
 *
 * - With `provider`: a side query over the manifest (filename, type, date, description; newest
 *   first; already surfaced files excluded) asks for a strict JSON array; `[]` is a valid answer.
 * - Without one, or when the model fails, times out (`timeoutMs`, default 8,000), answers
 *   garbage or names only unknown files: hybrid search over the files (`selector: 'search'`,
 *   with the model's failure in `reason`).
 * - Cancellation through `signal` returns no files (`reason: 'aborted'`).
 * - Never throws: an unexpected failure (even search failing) returns
 *   `{ files: [], selector: 'search', reason }`.
 */
export async function selectRelevantMemories(query: string, opts: SelectMemoriesOptions): Promise<Selection> {
  const log = opts.logger;
  try {
    const max = clampInt(opts.max, RECALL_LIMITS.maxFiles, 1, 20);
    const timeoutMs = clampInt(opts.timeoutMs, RECALL_LIMITS.timeoutMs, 1, 600_000);
    if (opts.signal?.aborted) return { files: [], selector: 'search', reason: 'aborted' };
    const q = query.trim();
    if (q === '') return { files: [], selector: 'search', reason: 'empty query' };
    const { all, candidates } = candidateMemories(opts.dir, opts.alreadySurfaced);
    if (candidates.length === 0) {
      const reason = all.length
        ? 'every memory file was already surfaced in this session'
        : `no memory files in ${opts.dir}`;
      return { files: [], selector: 'search', reason };
    }
    let fallback: string | undefined;
    if (opts.provider) {
      const r = await selectWithLlm(opts.provider, q, candidates, { max, timeoutMs, signal: opts.signal });
      if (r.ok)
        return r.files.length
          ? { files: r.files, selector: 'llm' }
          : { files: [], selector: 'llm', reason: 'the model found no clearly useful memory' };
      if (r.aborted) return { files: [], selector: 'llm', reason: 'aborted' };
      fallback = `llm selector failed (${r.reason}); used search`;
      log?.log('warn', 'recall: LLM selector failed, falling back to search', {
        provider: opts.provider.name,
        reason: r.reason,
      });
    }
    try {
      const hits = await searchMemoryFiles(q, candidates, max);
      if (opts.signal?.aborted) return { files: [], selector: 'search', reason: 'aborted' };
      const files = hits.map((h) => h.file);
      const skipped = all.length - candidates.length;
      const reason =
        fallback ??
        (files.length
          ? undefined
          : `no memory matched the query${skipped ? ` (${skipped} already surfaced in this session)` : ''}`);
      return reason === undefined ? { files, selector: 'search' } : { files, selector: 'search', reason };
    } catch (e) {
      log?.log('error', 'recall: search over memory files failed', { error: message(e) });
      return {
        files: [],
        selector: 'search',
        reason: `${fallback ? `${fallback}; ` : ''}search failed: ${message(e)}`,
      };
    }
  } catch (e) {
    log?.log('error', 'recall: selection failed', { error: message(e) });
    return { files: [], selector: 'search', reason: `recall failed: ${message(e)}` };
  }
}
