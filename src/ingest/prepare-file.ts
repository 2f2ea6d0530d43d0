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
    const metadata = {
      rel: job.rel,
      kind: c.kind,
      ...(language ? { language } : {}),
      ...(c.heading ? { heading: c.heading } : {}),
    };
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
      metadata,
      text: c.text,
      indexExtra,
      prepared: {
        contentHash: ch,
        search: searchColumn([c.text, indexExtra]),
        metadata: JSON.stringify(metadata),
      },
    };
  });
  return { drawers, redactions };
}

/**
 * A prepared file as it crosses from a worker thread: the fields every drawer of a file shares
 * once, and per drawer a flat run of {@link ROW_FIELDS} values with its metadata as JSON (the
 * structured clone of one object per drawer, keys and nested metadata included, cost more than the
 * preparing itself saved).
 */
export type WirePrepared =
  | Exclude<Prepared, { kind: 'file' }>
  | (Omit<Extract<Prepared, { kind: 'file' }>, 'drawers'> & { shared: Shared | null; rows: unknown[] });

type Shared = Pick<DrawerInput, 'wing' | 'room' | 'hall' | 'source' | 'sourceHash' | 'sourceMtime' | 'contentDate'> & {
  addedBy: string | undefined;
};

/** Values per drawer in `rows`: id, chunkIndex, lineStart, lineEnd, text, indexExtra, contentHash, search, metadata. */
const ROW_FIELDS = 9;

/** Packs a prepared file for `postMessage` (see {@link WirePrepared}). */
export function toWire(p: Prepared): WirePrepared {
  if (p.kind !== 'file') return p;
  const { drawers, ...rest } = p;
  const d0 = drawers[0];
  const shared: Shared | null = d0
    ? {
        wing: d0.wing,
        room: d0.room,
        hall: d0.hall ?? null,
        source: d0.source ?? null,
        sourceHash: d0.sourceHash ?? null,
        sourceMtime: d0.sourceMtime ?? null,
        contentDate: d0.contentDate ?? null,
        addedBy: d0.addedBy,
      }
    : null;
  const rows: unknown[] = [];
  for (const d of drawers) {
    rows.push(
      d.id,
      d.chunkIndex,
      d.lineStart,
      d.lineEnd,
      d.text,
      d.indexExtra,
      d.prepared!.contentHash,
      d.prepared!.search,
      d.prepared!.metadata ?? JSON.stringify(d.metadata ?? {}),
    );
  }
  return { ...rest, shared, rows };
}

/**
 * Unpacks {@link toWire}'s output into drawer inputs. `metadata` is parsed from its JSON only when
 * read (a SQL store writes the JSON as it is).
 */
export function fromWire(w: WirePrepared): Prepared {
  if (w.kind !== 'file') return w;
  const { shared, rows, ...rest } = w;
  const drawers: DrawerInput[] = [];
  for (let i = 0; i < rows.length; i += ROW_FIELDS) {
    const json = rows[i + 8] as string;
    let parsed: Record<string, unknown> | undefined;
    drawers.push({
      ...shared!,
      id: rows[i] as string,
      chunkIndex: rows[i + 1] as number,
      lineStart: rows[i + 2] as number | null,
      lineEnd: rows[i + 3] as number | null,
      text: rows[i + 4] as string,
      indexExtra: rows[i + 5] as string,
      prepared: { contentHash: rows[i + 6] as string, search: rows[i + 7] as string, metadata: json },
      get metadata() {
        return (parsed ??= JSON.parse(json) as Record<string, unknown>);
      },
    } as DrawerInput);
  }
  return { ...rest, drawers };
}
