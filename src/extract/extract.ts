/**
 * @module extract/extract
 * `extractMemories`: reads the new part of a session, gets candidate memories (from the model, or
 * without one the explicit cases only), rewrites their relative dates from when the words were
 * said, drops what the code, git or CLAUDE.md already records (`derivable.ts`), turns each into an
 * `add` or an `update` of the memory folder (an existing memory on the same subject is updated
 * instead of adding a near-duplicate), and writes them through memdir — in the folder's own format,
 * `MEMORY.md` rebuilt within its limits — unless it is a dry run. Every proposal and every skipped
 * candidate carries its reason.
 */
import { rewriteRelativeDates } from '../core/dates.js';
import { unifiedDiff } from '../core/diff.js';
import { isLociError } from '../core/errors.js';
import type { Clock } from '../core/clock.js';
import {
  addMemory,
  editMemory,
  getMemory,
  listMemories,
  planAdd,
  planEdit,
  slugify,
  type IndexStats,
  type MemoryEntry,
} from '../memdir/index.js';
import type { LlmProvider } from '../providers/index.js';
import { claudeConfigDir } from '../ingest/index.js';
import { derivableReason, sessionFiles } from './derivable.js';
import { explicitCandidates } from './explicit.js';
import { chunkTurns, modelCandidates, type ModelCandidate } from './llm.js';
import { cursorAtEnd, findSessionTranscript, loadCursor, newPartStart, readSession, saveCursor } from './session.js';
import type { Proposal, SessionTurn, Skipped } from './types.js';

/** Options of {@link extractMemories}. */
export interface ExtractOptions {
  /** The memory folder to write (e.g. `selectMemoryDir(...).dir`). */
  dir: string;
  /** Loci home: where the per-session cursor is kept (`sessions/<id>/extract.json`). */
  home: string;
  /** The transcript to read. One of `transcript` and `session` is required. */
  transcript?: string;
  /** A Claude Code session id, looked up under `claudeConfigDir`/projects. */
  session?: string;
  /** Claude Code's configuration folder (for `session`). Default `~/.claude`. */
  claudeConfigDir?: string;
  /** The model. Absent: the explicit cases only ("remember that…", "from now on…"), labelled as such. */
  provider?: LlmProvider;
  /** Propose only: nothing is written and the cursor does not move. Default false. */
  dryRun?: boolean;
  /** Read the whole session again, ignoring how far earlier runs got. Default false. */
  all?: boolean;
  /** The text of the project's CLAUDE.md files (what they say is not saved again). Default none. */
  claudeMd?: readonly string[];
  /**
   * Model calls at most per run (each reads up to 24,000 characters); the rest of the session waits
   * for the next run. Default 12; 1 … 1000.
   */
  maxCalls?: number;
  /** Total time per model call, retries included, in ms. Default: the provider's. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Time source for `modified`. Default the system clock. */
  clock?: Clock;
}

/** What {@link extractMemories} did. */
export interface ExtractResult {
  /** `model`: a model proposed; `explicit`: no model, the explicit cases only. */
  mode: 'model' | 'explicit';
  sessionId: string;
  transcript: string;
  dir: string;
  /** The turns read this run: `[from, to)` of `total`. */
  turns: { from: number; to: number; total: number };
  proposals: Proposal[];
  skipped: Skipped[];
  /** Unified diff of every topic file changed (or that would be, in a dry run). */
  diff: string;
  /** False for a dry run (and when there was nothing to write). */
  written: boolean;
  /** MEMORY.md after the writes (absent when nothing was written). */
  index?: IndexStats;
  /** Model calls made. */
  calls: number;
}

const WORD = /[a-z0-9]{3,}/g;
const words = (s: string): Set<string> => new Set(s.toLowerCase().match(WORD) ?? []);
function jaccard(a: Set<string>, b: Set<string>): number {
  let inter = 0;
  for (const x of a) if (b.has(x)) inter++;
  return inter === 0 ? 0 : inter / (a.size + b.size - inter);
}
const factOf = (body: string): string =>
  body
    .split('\n')
    .filter((l) => !/^\s*\*\*(?:Why|How to apply):\*\*/.test(l))
    .join('\n')
    .trim();
const norm = (s: string): string => s.toLowerCase().replace(/\s+/g, ' ').trim();

/** The existing memory a candidate is about, when any: named by the model, same slug, or same subject. */
function matchExisting(c: ModelCandidate, existing: readonly MemoryEntry[]): MemoryEntry | undefined {
  const own = existing.filter((m) => !m.team);
  if (c.updates) return own.find((m) => m.file === c.updates);
  const slug = slugify(c.name);
  const bySlug = own.find((m) => slugify(m.name) === slug || m.file.replace(/\.md$/, '').endsWith(`_${slug}`));
  if (bySlug) return bySlug;
  const key = words(`${c.name} ${c.description}`);
  let best: { m: MemoryEntry; s: number } | undefined;
  for (const m of own) {
    if (m.type !== c.type) continue;
    const s = jaccard(key, words(`${m.name} ${m.description}`));
    if (s >= 0.5 && (!best || s > best.s)) best = { m, s };
  }
  return best?.m;
}

function dated(c: ModelCandidate, at: string | null): ModelCandidate {
  if (!at) return c;
  const r = (s: string) => rewriteRelativeDates(s, at);
  return {
    ...c,
    name: r(c.name),
    description: r(c.description),
    body: r(c.body),
    ...(c.why !== undefined ? { why: r(c.why) } : {}),
    ...(c.how !== undefined ? { how: r(c.how) } : {}),
  };
}

async function candidatesFor(
  turns: readonly SessionTurn[],
  o: ExtractOptions,
  existing: readonly MemoryEntry[],
): Promise<{ candidates: ModelCandidate[]; calls: number; readTo: number | undefined }> {
  if (!o.provider) return { candidates: explicitCandidates(turns), calls: 0, readTo: undefined };
  const chunks = chunkTurns(turns.filter((t) => t.text.trim() !== ''));
  const max = Math.min(1000, Math.max(1, o.maxCalls ?? 12));
  const out: ModelCandidate[] = [];
  let calls = 0;
  for (const chunk of chunks.slice(0, max)) {
    out.push(...(await modelCandidates(o.provider, chunk, existing, o)));
    calls++;
  }
  const last = chunks.length > max ? chunks[max - 1]![chunks[max - 1]!.length - 1]!.index + 1 : undefined;
  return { candidates: out, calls, readTo: last };
}

interface Planned {
  proposal: Proposal;
  candidate: ModelCandidate;
  target?: MemoryEntry;
  input: { description: string; body: string; why?: string; how?: string };
}

/**
 * Extracts memories from the new part of a session into `o.dir` (see the module comment). A
 * second run with nothing new in the session proposes nothing and changes nothing. Throws
 * EXTRACT_SESSION_NOT_FOUND, PATH_NOT_FOUND for a missing transcript, EXTRACT_ANSWER_INVALID when the
 * model does not answer in the required format (nothing written), and the provider's errors.
 * Never touches CLAUDE.md or anything outside `o.dir` and the session's cursor.
 */
export async function extractMemories(o: ExtractOptions): Promise<ExtractResult> {
  const transcript = o.transcript ?? findSessionTranscript(o.session ?? '', claudeConfigDir(o.claudeConfigDir));
  const s = await readSession(transcript);
  const cursor = loadCursor(o.home, s.sessionId, 'extract', transcript);
  const from = o.all ? 0 : newPartStart(s, cursor);
  const fresh = s.turns.slice(from);
  const existing = listMemories(o.dir, { limit: Infinity });
  const { candidates, calls, readTo } = await candidatesFor(fresh, o, existing);
  const to = readTo ?? s.turns.length;
  const files = sessionFiles(s.turns.filter((t) => t.role === 'tool').map((t) => t.text));
  const skipped: Skipped[] = [];
  const planned: Planned[] = [];
  const taken = new Set<string>();
  for (const raw of candidates) {
    const turn = s.turns[raw.turn];
    const c = dated(raw, turn?.at ?? null);
    const fact = { type: c.type, name: c.name, description: c.description, body: c.body };
    const derivable = derivableReason(fact, { files, ...(o.claudeMd ? { claudeMd: o.claudeMd } : {}) });
    if (derivable) {
      skipped.push({ name: c.name, type: c.type, rule: derivable.rule, reason: derivable.reason });
      continue;
    }
    const target = matchExisting(c, existing);
    if (c.updates && !target) {
      skipped.push({ name: c.name, type: c.type, rule: 'privacy', reason: `${c.updates} is a team memory` });
      continue;
    }
    const key = target?.file ?? slugify(c.name);
    if (taken.has(key)) {
      skipped.push({ name: c.name, type: c.type, rule: 'duplicate', reason: 'another proposal of this run covers it' });
      continue;
    }
    let body = c.body;
    if (target && !c.updates) {
      const old = factOf(getMemory(o.dir, target.file)?.body ?? '');
      if (norm(old).includes(norm(factOf(c.body)))) {
        skipped.push({ name: c.name, type: c.type, rule: 'duplicate', reason: `${target.file} already records it` });
        continue;
      }
      body = `${old}\n\n${c.body}`;
    }
    taken.add(key);
    const when = turn?.at ? ` (said ${turn.at.slice(0, 10)}, turn ${c.turn})` : ` (turn ${c.turn})`;
    planned.push({
      candidate: c,
      ...(target ? { target } : {}),
      input: {
        description: c.description,
        body,
        ...(c.why !== undefined ? { why: c.why } : {}),
        ...(c.how !== undefined ? { how: c.how } : {}),
      },
      proposal: {
        action: target ? 'update' : 'add',
        type: target?.type ?? c.type,
        name: target?.name ?? c.name,
        description: c.description,
        file: target?.file ?? '',
        reason: `${c.reason}${when}`,
      },
    });
  }
  const clock = o.clock ? { clock: o.clock } : {};
  const diffs: string[] = [];
  const proposals: Proposal[] = [];
  for (const p of planned) {
    try {
      if (p.target) {
        const e = planEdit(o.dir, p.target.file, p.input, clock);
        if (e.before === e.after) {
          skipped.push({ name: p.proposal.name, type: p.proposal.type, rule: 'duplicate', reason: 'no change' });
          continue;
        }
        diffs.push(unifiedDiff(e.file, e.before, e.after));
      } else {
        const a = planAdd(o.dir, { type: p.candidate.type, name: p.candidate.name, ...p.input }, clock);
        p.proposal.file = a.file;
        diffs.push(unifiedDiff(a.file, undefined, a.text));
      }
      proposals.push(p.proposal);
    } catch (e) {
      if (!isLociError(e)) throw e;
      skipped.push({ name: p.proposal.name, type: p.proposal.type, rule: 'invalid', reason: e.message });
    }
  }
  const result: ExtractResult = {
    mode: o.provider ? 'model' : 'explicit',
    sessionId: s.sessionId,
    transcript,
    dir: o.dir,
    turns: { from, to, total: s.turns.length },
    proposals,
    skipped,
    diff: diffs.join(''),
    written: false,
    calls,
  };
  if (o.dryRun) return result;
  for (const p of planned.filter((x) => proposals.includes(x.proposal))) {
    const w = p.target
      ? editMemory(o.dir, p.target.file, p.input, clock)
      : addMemory(o.dir, { type: p.candidate.type, name: p.candidate.name, ...p.input }, clock);
    result.index = w.index;
    result.written = true;
  }
  const end = cursorAtEnd({ ...s, turns: s.turns.slice(0, to) });
  saveCursor(o.home, s.sessionId, 'extract', { ...end, transcript });
  return result;
}
