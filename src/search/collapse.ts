/**
 * @module search/collapse
 * One hit per exchange. A long prompt-and-reply is stored in several drawers that share
 * `metadata.exchangeId` (see `ingest/convos-miner/drawers`); when several parts match, they
 * otherwise crowd the top of the list with one answer. Collapsing keeps the best part of each
 * exchange as its representative, optionally lifted by the evidence of its other parts, so that
 * the top k shows k different exchanges.
 */
import type { Drawer, MemoryStore } from '../store/ports.js';

/** A ranked candidate as collapsing sees it. */
interface Collapsible {
  id: string;
  /** Fused score; rewritten for representatives that gain their other parts' evidence. */
  fused: number;
}

/** The key of the unit a drawer belongs to: its exchange in its source, else the drawer itself. */
export function exchangeKey(id: string, source: string | null, metadata: Record<string, unknown> | undefined): string {
  const ex = metadata?.['exchangeId'];
  return typeof ex === 'string' ? `x\0${source ?? ''}\0${ex}` : `d\0${id}`;
}

/** Characters of folded text that identify a copy (a compaction summary, a re-sent prompt). */
const COPY_PREFIX = 160;
/** Not letters or digits (built on first use: V8 parses a pattern literal when its module loads). */
let notWord: RegExp | undefined;
const NOT_WORD = () => (notWord ??= new RegExp(String.raw`[^\p{L}\p{N}]+`, 'gu'));
/** {@link NOT_WORD} on ASCII text (the same matches, without compiling Unicode classes in a one-shot process). */
const NOT_ASCII_WORD = /[^A-Za-z0-9]+/g;
const NON_ASCII = /[^\x00-\x7f]/;

/**
 * A fingerprint of a drawer's opening text, folded (case, punctuation, speaker labels), or
 * undefined when the opening is too short to say that two drawers are copies of each other.
 * Drawers that open with the same 160 characters — a request pasted again in another session, a
 * subagent's echo of its parent's prompt, a compaction summary's copy — say the same thing.
 */
export function copyKey(text: string): string | undefined {
  const lower = text
    .slice(0, COPY_PREFIX * 3)
    .replace(/^(?:User|Assistant|Human|AI|Model|Gemini|Codex|Claude): /gm, '')
    .toLowerCase();
  const folded = lower
    .replace(NON_ASCII.test(lower) ? NOT_WORD() : NOT_ASCII_WORD, ' ')
    .trim()
    .slice(0, COPY_PREFIX);
  return folded.length < COPY_PREFIX ? undefined : `c\0${folded}`;
}

/**
 * Collapses `ranked` (best first) to one candidate per exchange: the best-ranked part, whose
 * fused score gains `share` × the fused scores of the other parts found among the candidates
 * (0: the best part alone). Hydrates candidates in windows (their metadata names the exchange)
 * until `limit` exchanges are found, reusing and extending `known`. Returns the representatives,
 * best first, at most `limit` of them, and the drawers loaded. `sourceOf` names a candidate's
 * source (exchanges are keyed within their source). With `copies`, drawers whose openings are
 * the same ({@link copyKey}) count as one unit too, wherever they were stored.
 */
export async function collapseExchanges<C extends Collapsible>(
  store: MemoryStore,
  ranked: readonly C[],
  limit: number,
  share: number,
  known: ReadonlyMap<string, Drawer> | undefined,
  sourceOf: (c: C) => string | null,
  copies = false,
): Promise<{ top: C[]; drawers: Map<string, Drawer> }> {
  const drawers = new Map(known);
  const groups = new Map<string, { rep: C; others: number }>();
  let units = 0;
  // Parts of one exchange usually sit close together in the ranking: a window of 4 × limit
  // (at least 40) gives every representative its parts; more windows only when too few exchanges.
  const step = Math.max(40, 4 * limit);
  for (let at = 0; at < ranked.length && units < limit; at += step) {
    const window = ranked.slice(at, at + step);
    const missing = window.filter((c) => !drawers.has(c.id)).map((c) => c.id);
    for (const d of missing.length ? await store.getMany(missing) : []) drawers.set(d.id, d);
    for (const c of window) {
      const d = drawers.get(c.id);
      const keys = [exchangeKey(c.id, sourceOf(c), d?.metadata)];
      const copy = copies && d ? copyKey(d.text) : undefined;
      if (copy !== undefined) keys.push(copy);
      const g = keys.map((k) => groups.get(k)).find((x) => x !== undefined);
      if (g) g.others += c.fused;
      else units++;
      const unit = g ?? { rep: c, others: 0 };
      for (const k of keys) if (!groups.has(k)) groups.set(k, unit);
    }
  }
  const top = [...new Set(groups.values())].map((g) => {
    if (share > 0 && g.others > 0) g.rep.fused += share * g.others;
    return g.rep;
  });
  // Stable: equal scores keep their order in `ranked`.
  top.sort((a, b) => b.fused - a.fused);
  return { top: top.slice(0, limit), drawers };
}
