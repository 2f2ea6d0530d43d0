/**
 * @module bench/transcripts-show
 * `loci bench transcripts --show`: for the three projects most questions are about, the wake-up
 * text and two recalls (the first and the middle question of the project), for a human to judge.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Palace } from '../palace/index.js';
import { buildPromptContext } from '../recall/index.js';
import { wakeUp } from '../wakeup/index.js';
import type { TranscriptQuestion } from './transcripts.js';

/** The wake-up and two recalls of the three projects most `questions` are about, as text. */
export async function showTranscriptProjects(
  palace: Palace,
  questions: readonly TranscriptQuestion[],
  data: string,
): Promise<string> {
  const { drawers } = await palace.listDrawers(undefined, { limit: 1_000_000 });
  const wingOf = new Map<string, string>();
  for (const d of drawers) if (d.source) wingOf.set(d.source, d.wing);
  const wingOfQuestion = (q: TranscriptQuestion) => {
    const path = join(data, q.file);
    for (const [s, w] of wingOf) if (path === s || path.startsWith(`${s}/`)) return w;
    return undefined;
  };
  const byWing = new Map<string, TranscriptQuestion[]>();
  for (const q of questions) {
    const w = wingOfQuestion(q);
    if (w) byWing.set(w, [...(byWing.get(w) ?? []), q]);
  }
  const wings = [...byWing.entries()].sort((a, b) => b[1].length - a[1].length).slice(0, 3);
  const empty = mkdtempSync(join(tmpdir(), 'loci-bench-memory-'));
  const out: string[] = [];
  try {
    for (const [wing, qs] of wings) {
      const w = await wakeUp({ palace, wing, memoryDir: null, cwd: empty, env: {} });
      out.push(`\n=== project ${wing}: wake-up (${w.text.length} chars) ===\n${w.text || '(nothing)'}`);
      for (const q of [qs[0], qs[Math.floor(qs.length / 2)]].filter((x): x is TranscriptQuestion => !!x)) {
        const r = await buildPromptContext({ query: q.question, memoryDir: empty, palace, drawers: 3 });
        out.push(`\n--- recall for "${q.question}" (${q.id}; ${r.chars} chars) ---\n${r.text || '(nothing)'}`);
      }
    }
  } finally {
    rmSync(empty, { recursive: true, force: true });
  }
  return out.join('\n') + '\n';
}
