/**
 * @module ingest/convos/parse-chat-text
 * Plain-text and markdown chat logs and meeting notes (line rules and detection in chat-lines).
 *
 * Parsing:
 * - labels style: a speaker line starts a message; every following line that is not a speaker line
 *   (blank lines, lists, code fences, `>` quotes) continues it, newlines preserved (trailing blank
 *   lines trimmed);
 * - quote style (MemPalace transcripts): a run of `>` lines is one user message (the `> ` removed),
 *   the text after it up to the next `>` run is the assistant's reply;
 * - date headers set the date of the following messages and are not message text; a `[timestamp]`
 *   or `HH:MM` prefix sets the time (the prefix is removed from the text when it became the
 *   message's timestamp, kept when no date is known; a full date-time prefix also sets the date for
 *   later time-only prefixes); separators (`---`) end a message;
 * - a `#` heading before the first message is the title; text before the first speaker is kept as a
 *   `note` message (role system);
 * - role labels (`Human:`/`Assistant:`, `User:`/`AI:`, AI names) give agent logs (`user-turns`);
 *   logs between people (any other names) are human chats (`turn-pairs`).
 * id = `chat-` + hash of the path.
 */
import { isoOf, type DateTimeParts } from './chat-dates.js';
import { classifyLines, looksLikeChat, type Stamp } from './chat-lines.js';
import { splitLines } from './jsonl.js';
import type { Conversation, ConvoMessage } from './types.js';
import { shortHash, stem, type Resolved, type Warnings } from './util.js';

interface Building {
  role: ConvoMessage['role'];
  speaker: string;
  lines: string[];
  timestamp: string | null;
  line: number;
}

function stampIso(stamp: Stamp, date: DateTimeParts | null): string | null {
  if (stamp?.full) return isoOf(stamp.full);
  if (stamp?.time && date)
    return isoOf({
      ...date,
      h: stamp.time.h,
      mi: stamp.time.mi,
      ...(stamp.time.s !== undefined ? { s: stamp.time.s } : {}),
    });
  return date ? isoOf(date) : null;
}

/** Parses a chat log (one conversation per file). */
export function parseChatText(path: string, content: string, o: Resolved, w: Warnings): Conversation[] {
  const lines = splitLines(content);
  const verdict = looksLikeChat(lines.slice(0, 4000));
  if (!verdict.chat)
    w.add('no dialogue structure found (fewer than 2 speakers or speaker lines are a minority); read as one note');
  const cls = classifyLines(lines);
  const messages: ConvoMessage[] = [];
  let cur: Building | null = null;
  let date: DateTimeParts | null = null;
  let title: string | null = null;
  const close = () => {
    if (!cur) return;
    while (cur.lines.length && cur.lines[cur.lines.length - 1]!.trim() === '') cur.lines.pop();
    const text = cur.lines.join('\n').replace(/^\s*\n/, '');
    if (text.trim()) {
      messages.push({
        role: cur.role,
        speaker: cur.speaker,
        text,
        timestamp: cur.timestamp,
        kind: 'message',
        line: cur.line,
      });
    }
    cur = null;
  };
  const start = (role: Building['role'], speaker: string, first: string, timestamp: string | null, line: number) => {
    close();
    cur = { role, speaker, lines: [first], timestamp, line };
  };
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    const c = cls[i]!;
    const lineNo = o.firstLine + i;
    if (c.t === 'date') {
      close();
      date = c.parts;
      continue;
    }
    if (c.t === 'separator') {
      close();
      continue;
    }
    if (c.t === 'heading' && !cur && messages.length === 0 && title === null) {
      title = c.text;
      continue;
    }
    const ts = 'stamp' in c ? c.stamp : null;
    if (ts?.full) date = { y: ts.full.y, mo: ts.full.mo, d: ts.full.d };
    const stampUsable = ts !== null && (ts.full !== undefined || date !== null);
    if (verdict.style === 'quote' && verdict.chat) {
      if (c.t === 'quote') {
        const b = cur as Building | null;
        if (b && b.role === 'user') b.lines.push(c.text);
        else start('user', 'user', c.text, stampIso(ts, date), lineNo);
        continue;
      }
      const b = cur as Building | null;
      if (b && b.role === 'user') {
        if (c.t === 'blank') continue;
        start('assistant', 'assistant', raw, date ? isoOf(date) : null, lineNo);
        continue;
      }
      if (b) b.lines.push(raw);
      else if (c.t !== 'blank') start('system', 'note', raw, date ? isoOf(date) : null, lineNo);
      continue;
    }
    if (c.t === 'speaker') {
      const timestamp = stampIso(stampUsable ? ts : null, date);
      const first = stampUsable || !ts?.raw ? c.text : `${ts.raw}${c.text}`;
      start(c.role, c.speaker, first, timestamp, lineNo);
      continue;
    }
    if (cur) (cur as Building).lines.push(raw);
    else if (c.t !== 'blank') start('system', 'note', raw, date ? isoOf(date) : null, lineNo);
  }
  close();
  const agent = messages.some((m) => m.role === 'assistant');
  return [
    {
      format: 'chat-text',
      id: `chat-${shortHash(path)}`,
      title: title ?? stem(path),
      source: path,
      file: path,
      cwd: null,
      gitBranch: null,
      startedAt: messages.find((m) => m.timestamp)?.timestamp ?? null,
      messages,
      exchangeMode: agent ? 'user-turns' : 'turn-pairs',
      meta: {
        style: verdict.style,
        speakers: [...new Set(messages.filter((m) => m.role !== 'system').map((m) => m.speaker))],
      },
    },
  ];
}
