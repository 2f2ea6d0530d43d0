/**
 * @module test/helpers/session
 * Synthetic Claude Code transcripts (written for these tests, never copied from real ones) and
 * the reply bodies of the providers' chat endpoints, for extraction and session-notes tests.
 */
import { appendFileSync, writeFileSync } from 'node:fs';

/** One turn of a synthetic session: a typed prompt, the agent's prose, or a tool call with its result. */
export type FakeTurn =
  | { user: string; at: string }
  | { assistant: string; at: string }
  | { tool: string; input: Record<string, unknown>; result: string; at: string; error?: boolean };

let seq = 0;
const uuid = (): string => `00000000-0000-4000-8000-${String(++seq).padStart(12, '0')}`;

function records(sessionId: string, cwd: string, turns: readonly FakeTurn[], parent: { id: string | null }): string[] {
  const out: string[] = [];
  const base = { sessionId, cwd, version: '2.1.0', userType: 'external', isSidechain: false, gitBranch: 'main' };
  for (const t of turns) {
    const push = (rec: Record<string, unknown>) => {
      const id = uuid();
      out.push(JSON.stringify({ ...base, ...rec, uuid: id, parentUuid: parent.id }));
      parent.id = id;
    };
    if ('user' in t) push({ type: 'user', timestamp: t.at, message: { role: 'user', content: t.user } });
    else if ('assistant' in t) {
      push({
        type: 'assistant',
        timestamp: t.at,
        message: { id: `msg_${seq}`, role: 'assistant', model: 'm', content: [{ type: 'text', text: t.assistant }] },
      });
    } else {
      const id = `toolu_${seq}`;
      push({
        type: 'assistant',
        timestamp: t.at,
        message: {
          id: `msg_${seq}`,
          role: 'assistant',
          model: 'm',
          content: [{ type: 'tool_use', id, name: t.tool, input: t.input }],
        },
      });
      push({
        type: 'user',
        timestamp: t.at,
        message: {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: id, content: t.result, is_error: t.error === true }],
        },
      });
    }
  }
  return out;
}

/** A growing synthetic transcript: `write` creates it, `append` adds turns as Claude Code would. */
export function fakeTranscript(path: string, sessionId: string, cwd: string) {
  const parent = { id: null as string | null };
  return {
    path,
    write(turns: readonly FakeTurn[]): void {
      writeFileSync(
        path,
        records(sessionId, cwd, turns, parent)
          .map((l) => `${l}\n`)
          .join(''),
      );
    },
    append(turns: readonly FakeTurn[]): void {
      appendFileSync(
        path,
        records(sessionId, cwd, turns, parent)
          .map((l) => `${l}\n`)
          .join(''),
      );
    },
  };
}

/** An Anthropic Messages response body whose text is `text`. */
export function anthropicText(text: string): { body: unknown } {
  return {
    body: {
      id: 'msg_test',
      type: 'message',
      role: 'assistant',
      model: 'claude-haiku-4-5',
      content: [{ type: 'text', text }],
      stop_reason: 'end_turn',
      usage: { input_tokens: 100, output_tokens: 50 },
    },
  };
}

/** An OpenAI chat completion body whose text is `text`. */
export function openaiText(text: string): { body: unknown } {
  return {
    body: {
      id: 'chatcmpl-test',
      object: 'chat.completion',
      model: 'gpt-4o-mini',
      choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 100, completion_tokens: 50, total_tokens: 150 },
    },
  };
}
