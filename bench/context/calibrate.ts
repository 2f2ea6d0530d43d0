/**
 * Calibration of `loci/context`'s Claude estimate against real usage: in the Claude Code transcripts
 * of `../shared/data/transcripts/claude-code/`, each API call logs its prompt size (input + cache
 * read + cache creation). Between two consecutive calls of one conversation the prompt grows by
 * exactly what was appended (the first call's answer, then tool results and prompts), so
 * `growth ÷ estimate(appended messages)` measures the estimator on real traffic. Pairs are skipped
 * when the prompt shrank (a compaction), when the appended part holds thinking blocks (whether they
 * are sent back depends on the model), or when it is under 50 estimated tokens (noise of injected
 * reminders dominates). Growth over five times the estimate is counted apart: content the
 * transcript does not hold (attachments, images). Used by bench/context.ts; returns undefined when
 * the folder is absent.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  estimateMessageTokens,
  type AgentMessage,
  type ContentBlock,
  type ModelFamily,
} from '../../dist/context/index.js';

interface Pair {
  actual: number;
  estimate: number;
  toolResults: boolean;
}

function blocksOf(content: unknown): { blocks: ContentBlock[]; thinking: boolean } {
  if (typeof content === 'string') return { blocks: [{ type: 'text', text: content }], thinking: false };
  const blocks: ContentBlock[] = [];
  let thinking = false;
  for (const b of Array.isArray(content) ? (content as Record<string, unknown>[]) : []) {
    if (b['type'] === 'text') blocks.push({ type: 'text', text: String(b['text'] ?? '') });
    else if (b['type'] === 'tool_use')
      blocks.push({
        type: 'tool_use',
        id: String(b['id']),
        name: String(b['name']),
        input: (b['input'] as Record<string, unknown>) ?? {},
      });
    else if (b['type'] === 'tool_result') {
      const c = b['content'];
      const text = Array.isArray(c)
        ? c.map((x: Record<string, unknown>) => (x['type'] === 'text' ? String(x['text']) : '')).join('\n')
        : String(c ?? '');
      blocks.push({ type: 'tool_result', toolUseId: String(b['tool_use_id']), content: text });
    } else if (b['type'] === 'thinking' || b['type'] === 'redacted_thinking') thinking = true;
  }
  return { blocks, thinking };
}

function pairsOf(file: string, family: ModelFamily): Pair[] {
  const pairs: Pair[] = [];
  let prev: number | undefined;
  let lastId: string | undefined;
  let appended: AgentMessage[] = [];
  let thinking = false;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    let d: Record<string, unknown>;
    try {
      d = JSON.parse(line) as Record<string, unknown>;
    } catch {
      continue;
    }
    if ((d['type'] !== 'user' && d['type'] !== 'assistant') || d['isSidechain']) continue;
    const m = d['message'] as { id?: string; role?: string; content?: unknown; usage?: Record<string, number> };
    if (!m) continue;
    if (d['type'] === 'assistant' && m.id && m.id !== lastId && m.usage) {
      const u = m.usage;
      const prompt =
        (u['input_tokens'] ?? 0) + (u['cache_read_input_tokens'] ?? 0) + (u['cache_creation_input_tokens'] ?? 0);
      if (prev !== undefined && !thinking) {
        const estimate = appended.reduce((s, x) => s + estimateMessageTokens(x, family), 0);
        const growth = prompt - prev;
        const toolResults = appended.some(
          (x) => typeof x.content !== 'string' && x.content.some((b) => b.type === 'tool_result'),
        );
        if (growth > 0 && estimate >= 50) pairs.push({ actual: growth, estimate, toolResults });
      }
      prev = prompt;
      lastId = m.id;
      appended = [];
      thinking = false;
    }
    const { blocks, thinking: t } = blocksOf(m.content);
    thinking ||= t;
    if (blocks.length) appended.push({ role: d['type'] === 'assistant' ? 'assistant' : 'user', content: blocks });
  }
  return pairs;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)]! : NaN;
};

/** Ratios real ÷ estimated over the Claude Code transcripts (undefined without the data). */
export function calibrateOnTranscripts(root: string) {
  const dir = join(root, '..', 'shared', 'data', 'transcripts', 'claude-code');
  if (!existsSync(dir)) return undefined;
  const pairs = readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl'))
    .flatMap((f) => pairsOf(join(dir, f), 'claude'));
  const ratio = (ps: Pair[]) =>
    +(
      ps.reduce((s, p) => s + p.actual, 0) /
      Math.max(
        1,
        ps.reduce((s, p) => s + p.estimate, 0),
      )
    ).toFixed(3);
  // Growth over 5× the estimate is content the transcript does not hold (attachments, images).
  const summary = (ps: Pair[]) => ({
    pairs: ps.length,
    median: +median(ps.map((p) => p.actual / p.estimate)).toFixed(3),
    aggregate: ratio(ps),
    over_5x: ps.filter((p) => p.actual > 5 * p.estimate).length,
    aggregate_without_over_5x: ratio(ps.filter((p) => p.actual <= 5 * p.estimate)),
  });
  return {
    what: 'real prompt growth ÷ Loci claude estimate of the appended messages, Claude Code transcripts',
    all: summary(pairs),
    with_tool_results: summary(pairs.filter((p) => p.toolResults)),
    text_only: summary(pairs.filter((p) => !p.toolResults)),
  };
}
