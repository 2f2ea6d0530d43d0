/**
 * @module ingest/convos-miner/jsonl-file
 * Append-only JSONL logs other than Claude Code transcripts: Codex CLI rollouts, Gemini CLI JSONL
 * chats (one conversation per file) and Claude Code's `history.jsonl` (one conversation per
 * session). The complete lines after the committed offset are parsed on their own (these formats
 * need no tree: every record stands alone) and fed to one exchange cursor per conversation id.
 *
 * Continuity rules: a single-conversation file keeps the id, cwd and branch of its first read (an
 * appended slice has no `session_meta` header); a Codex file that has shown `event_msg` records
 * keeps taking said text from them even in a slice without one (see parse-codex); the open last
 * exchange is stored at once and replaced when it grows (see drawers); prompts of
 * `history.jsonl` are complete when written (no open exchange).
 * Shrunk or rewritten files, and other settings, are read again from the start and replaced.
 */
import type { DrawerInput, SourceState } from '../../store/ports.js';
import { parseConversations, type Conversation } from '../convos/index.js';
import { readWarnings } from './claude-file.js';
import { readLines } from './read-lines.js';
import { advanceCursor, newCursor, redactConversation, redactor, type Redactor } from './drawers.js';
import { appendAnswer, canContinue, prefixHash, sourceState, withFile, type OpenFile } from './file-io.js';
import type { ConvoContext, ConvoJob, JsonlSourceState, PreparedUnit } from './types.js';

/** A record that marks a Codex file as holding event messages, without producing any message. */
const CODEX_EVENT_MARK = '{"type":"event_msg","payload":{"type":"token_count"}}';

const hasEvents = (lines: readonly string[]) => lines.some((l) => l.includes('"event_msg"'));

interface Step {
  drawers: DrawerInput[];
  remove: string[];
  conversations: number;
}

/** Feeds parsed conversations to their cursors (the open exchange of each is stored too); mutates `st`. */
function feed(
  path: string,
  job: ConvoJob,
  convs: readonly Conversation[],
  st: JsonlSourceState,
  ctx: ConvoContext,
  red: Redactor,
): Step {
  const single = job.unit.format !== 'claude-history';
  const out: Step = { drawers: [], remove: [], conversations: 0 };
  for (const c of convs) {
    let conv = redactConversation(c, red);
    if (single) {
      st.primary ??= conv.id;
      const known = st.convs[st.primary];
      conv = { ...conv, id: st.primary, meta: known ? { ...conv.meta, ...known.head.meta } : conv.meta };
    }
    const cur = (st.convs[conv.id] ??= newCursor(conv, st.slots++));
    // history.jsonl prompts are complete when written: nothing stays open
    const d = advanceCursor(path, cur, conv, ctx, { close: !single, whole: false });
    if (d.drawers.length) out.conversations++;
    out.drawers.push(...d.drawers);
    out.remove.push(...d.remove);
  }
  return out;
}

function parse(
  path: string,
  ctx: ConvoContext,
  job: ConvoJob,
  lines: readonly string[],
  firstLine: number,
  events: boolean,
  warnings: string[],
): Conversation[] {
  const mark = job.unit.format === 'codex' && events && !hasEvents(lines) && firstLine > 1;
  const text = (mark ? [CODEX_EVENT_MARK, ...lines] : lines).join('\n');
  const r = parseConversations(path, text, {
    format: job.unit.format,
    toolResultChars: ctx.toolResultChars,
    toolInputChars: ctx.toolInputChars,
    firstLine: mark ? firstLine - 1 : firstLine,
  });
  warnings.push(...r.warnings.map((w) => `${path}: ${w}`));
  return r.conversations;
}

function full(path: string, f: OpenFile, job: ConvoJob, ctx: ConvoContext, warnings: string[]): PreparedUnit {
  const read = readLines(f, 0);
  const { lines, consumed: nextOffset } = read;
  readWarnings(path, read, 1, warnings);
  const red = redactor(ctx);
  const st: JsonlSourceState = {
    v: 1,
    kind: 'jsonl',
    format: job.unit.format,
    nextLine: 1 + lines.length,
    primary: null,
    events: hasEvents(lines),
    convs: {},
    slots: 0,
  };
  const step = feed(path, job, parse(path, ctx, job, lines, 1, false, warnings), st, ctx, red);
  const hash = read.hash;
  const wing = Object.values(st.convs)[0]?.wing ?? ctx.wing ?? ctx.fallbackWing;
  return {
    kind: 'replace',
    path,
    state: sourceState(path, ctx, wing, f, {
      hash,
      offset: nextOffset,
      prefixHash: prefixHash(f, nextOffset),
      state: st,
    }),
    drawers: step.drawers,
    skipIfHash: hash,
    bytesRead: read.read,
    redactions: red.count,
    conversations: step.conversations,
    warnings,
  };
}

function append(
  path: string,
  f: OpenFile,
  job: ConvoJob,
  prev: SourceState,
  st: JsonlSourceState,
  ctx: ConvoContext,
  warnings: string[],
): PreparedUnit {
  const read = readLines(f, prev.offset, { chain: prev.hash });
  const { lines, consumed: nextOffset } = read;
  readWarnings(path, read, st.nextLine, warnings);
  if (lines.length === 0 && f.size === prev.size && f.mtimeMs === prev.mtimeMs) {
    return { kind: 'unchanged', path, bytesRead: read.read, redactions: 0, conversations: 0, warnings };
  }
  const red = redactor(ctx);
  const convs = lines.length ? parse(path, ctx, job, lines, st.nextLine, st.events, warnings) : [];
  const next: JsonlSourceState = { ...st, nextLine: st.nextLine + lines.length, events: st.events || hasEvents(lines) };
  const step = feed(path, job, convs, next, ctx, red);
  return appendAnswer(path, f, prev, ctx, { read: read.read, consumed: nextOffset, hash: read.hash }, prev.wing, next, {
    drawers: step.drawers,
    remove: step.remove,
    redactions: red.count,
    conversations: step.conversations,
    warnings,
  });
}

/** Mines one append-only JSONL log (see the module comment). Throws only for an unreadable file. */
export function prepareJsonl(job: ConvoJob, ctx: ConvoContext, st: JsonlSourceState | null): PreparedUnit {
  const { path } = job.unit;
  const warnings: string[] = [];
  return withFile(path, (f) =>
    st && job.prev && canContinue(f, job.prev)
      ? append(path, f, job, job.prev, st, ctx, warnings)
      : full(path, f, job, ctx, warnings),
  );
}
