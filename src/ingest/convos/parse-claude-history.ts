/**
 * @module ingest/convos/parse-claude-history
 * `~/.claude/history.jsonl`, Claude Code's prompt log (`display`, `pastedContents`, `timestamp` in
 * ms, `project`, newer builds `sessionId`). It survives the 30-day transcript cleanup, so it
 * recovers the user half of deleted sessions.
 *
 * One conversation per session (`history:<sessionId>`) when the record names one, else per project
 * (`history:<project path>`); user messages only, in file order, each its own exchange
 * (`exchangeMode: 'messages'`). Pasted texts replace their
 * `[Pasted text #N …]` placeholder in `display` (or are appended when the placeholder is missing);
 * pasted images become `[image]`. `cwd` is the project path.
 */
import { parseJsonLines, splitLines } from './jsonl.js';
import type { Conversation, ConvoMessage } from './types.js';
import { isObj, normIso, str, type Resolved, type Warnings } from './util.js';

function expandPastes(display: string, pasted: unknown): string {
  if (!isObj(pasted)) return display;
  let text = display;
  for (const [k, v] of Object.entries(pasted)) {
    if (!isObj(v)) continue;
    const body = v.type === 'image' ? '[image]' : (str(v.content) ?? '');
    if (!body) continue;
    const ph = new RegExp(`\\[(?:Pasted text|Image) #${k.replace(/\D/g, '')}[^\\]]*\\]`);
    if (ph.test(text)) text = text.replace(ph, () => body);
    else text += `\n${body}`;
  }
  return text;
}

/** Parses a Claude Code prompt log into one user-only conversation per session or project. */
export function parseClaudeHistory(path: string, content: string, o: Resolved, w: Warnings): Conversation[] {
  const byKey = new Map<string, Conversation>();
  for (const { line, rec } of parseJsonLines(splitLines(content), o.firstLine, w)) {
    const display = typeof rec.display === 'string' ? rec.display : undefined;
    if (display === undefined) {
      w.count('history record without `display` skipped');
      continue;
    }
    const text = expandPastes(display, rec.pastedContents).trim();
    if (!text) continue;
    const project = str(rec.project) ?? null;
    const session = str(rec.sessionId);
    const id = session ? `history:${session}` : `history:${project ?? 'unknown'}`;
    let conv = byKey.get(id);
    const timestamp = normIso(rec.timestamp);
    if (!conv) {
      conv = {
        format: 'claude-history',
        id,
        title: null,
        source: `${path}#${id}`,
        file: path,
        cwd: project,
        gitBranch: null,
        startedAt: timestamp,
        messages: [],
        exchangeMode: 'messages',
        meta: session ? { sessionId: session, project } : { project },
      };
      byKey.set(id, conv);
    }
    const m: ConvoMessage = { role: 'user', speaker: 'user', kind: 'message', text, timestamp, line };
    conv.messages.push(m);
  }
  return [...byKey.values()];
}
