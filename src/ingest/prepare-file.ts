/**
 * @module ingest/prepare-file
 * The pure, CPU-heavy half of project mining for one file: read, detect binary, hash, decode,
 * chunk, and pre-tokenise every drawer. Runs inline or in a worker thread; the store writes
 * happen elsewhere.
 */
import { readFileSync } from 'node:fs';
import { fsError } from '../core/errors.js';
import { sha256, stableId } from '../core/hash.js';
import type { DrawerInput, SourceState } from '../store/ports.js';
import { searchColumn } from '../text/index.js';
import { redactSecrets } from '../redact/index.js';
import { extractFromDrawer, type GraphBatch } from '../kg/index.js';
import {
  chunkDocument,
  contentDateFor,
  decodeText,
  languageFor,
  looksBinary,
  roomForPath,
  type ChunkOptions,
} from './project/index.js';

/** What the miner asks about one file. */
export interface PrepareJob {
  path: string;
  rel: string;
  size: number;
  mtimeMs: number;
  /** Hash of the content mined last time (to detect a touched but unchanged file). */
  prevHash: string | null;
}

/** Settings shared by every job of one mining run. */
export interface PrepareContext {
  root: string;
  wing: string;
  room: string | undefined;
  chunk: Required<ChunkOptions>;
  config: string;
  addedBy: string;
  /** Replace secrets (API keys, tokens, passwords) with `[REDACTED:kind]` before storing. */
  redact: boolean;
  /**
   * Also run the knowledge-graph extractor on every drawer (here, in the worker, in parallel with
   * the writes), so the palace only has to apply the results. Default false.
   */
  extract?: { userName: string | null } | false;
}

/** The outcome for one file. */
export type Prepared =
  | { kind: 'unreadable'; path: string; message: string }
  | { kind: 'binary'; path: string; bytes: number }
  | { kind: 'same'; path: string; bytes: number; state: SourceState }
  | {
      kind: 'file';
      path: string;
      bytes: number;
      state: SourceState;
      drawers: DrawerInput[];
      redactions: number;
      /** Per drawer (same order), the extracted graph batch or null; present when `extract` is on. */
      extractions?: (GraphBatch | null)[];
      warning?: string;
    };

/** Prepares one file (never throws: failures become `unreadable`). */
export function prepareFile(job: PrepareJob, ctx: PrepareContext): Prepared {
  let buf: Buffer;
  try {
    buf = readFileSync(job.path);
  } catch (e) {
    return { kind: 'unreadable', path: job.path, message: fsError(e, job.path).message };
  }
  if (looksBinary(buf)) return { kind: 'binary', path: job.path, bytes: buf.length };
  const hash = sha256(buf);
  const state: SourceState = {
    source: job.path,
    wing: ctx.wing,
    kind: 'project',
    root: ctx.root,
    size: job.size,
    mtimeMs: job.mtimeMs,
    hash,
    offset: buf.length,
    prefixHash: null,
    config: ctx.config,
    state: { rel: job.rel },
    minedAt: new Date().toISOString(),
  };
  if (job.prevHash === hash) return { kind: 'same', path: job.path, bytes: buf.length, state };
  const { text, invalidUtf8 } = decodeText(buf);
  const { drawers, redactions } = toDrawers(text, job, hash, ctx);
  const extractions = ctx.extract
    ? drawers.map((d) => extractOne(d, ctx.extract as { userName: string | null }))
    : undefined;
  return {
    kind: 'file',
    path: job.path,
    bytes: buf.length,
    state,
    drawers,
    redactions,
    ...(extractions ? { extractions } : {}),
    ...(invalidUtf8
      ? {
          warning:
            `${job.path}: not valid UTF-8; stored with replacement characters — convert it to UTF-8 to keep ` +
            'it exactly',
        }
      : {}),
  };
}

function extractOne(d: DrawerInput, o: { userName: string | null }): GraphBatch | null {
  const r = extractFromDrawer(
    {
      id: d.id!,
      text: d.text,
      contentDate: d.contentDate ?? null,
      wing: d.wing,
      room: d.room,
      source: d.source ?? null,
      metadata: d.metadata ?? {},
    },
    { userName: o.userName },
  );
  return r.entities.length || r.facts.length || r.invalidations.length ? r : null;
}

function toDrawers(
  text: string,
  job: PrepareJob,
  hash: string,
  ctx: PrepareContext,
): { drawers: DrawerInput[]; redactions: number } {
  const chunks = chunkDocument(job.rel, text, ctx.chunk);
  let redactions = 0;
  if (ctx.redact) {
    for (const c of chunks) {
      const r = redactSecrets(c.text);
      if (r.count) {
        c.text = r.text;
        redactions += r.count;
      }
      // The heading repeats a line of the file (counted with its text); it goes into metadata and the index.
      if (c.heading) c.heading = redactSecrets(c.heading).text;
    }
  }
  const language = languageFor(job.rel);
  const date = contentDateFor(job.rel, text, job.mtimeMs);
  const room = ctx.room ?? roomForPath(job.rel);
  const occurrences = new Map<string, number>();
  const drawers = chunks.map((c): DrawerInput => {
    const ch = sha256(c.text);
    const n = occurrences.get(ch) ?? 0;
    occurrences.set(ch, n + 1);
    const indexExtra = c.heading ? `${job.rel} ${c.heading}` : job.rel;
    return {
      // Content-addressed within the file: an unchanged chunk keeps its id when others change.
      id: stableId('d', job.path, ch, n),
      wing: ctx.wing,
      room,
      hall: null,
      source: job.path,
      sourceHash: hash,
      sourceMtime: job.mtimeMs,
      chunkIndex: c.index,
      lineStart: c.lineStart,
      lineEnd: c.lineEnd,
      contentDate: date,
      addedBy: ctx.addedBy,
      metadata: {
        rel: job.rel,
        kind: c.kind,
        ...(language ? { language } : {}),
        ...(c.heading ? { heading: c.heading } : {}),
      },
      text: c.text,
      indexExtra,
      prepared: { contentHash: ch, search: searchColumn(`${c.text}\n${indexExtra}`) },
    };
  });
  return { drawers, redactions };
}
