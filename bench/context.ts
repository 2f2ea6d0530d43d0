/**
 * Context-management bench (issue 13): a scripted 200-turn agent session with large tool outputs,
 * run through `loci/context` twice — a Claude-sized window (200k tokens) summarised over the
 * Anthropic Messages wire protocol, and a small local-model window (32k) summarised over the
 * OpenAI chat-completions protocol — both against the loopback server of `test/helpers/loopback.ts`.
 *
 * Each turn: a prompt with ≤ 5 injected memories, 1–3 tool calls whose outputs range from 200
 * characters to 200 KB (grep- and file-like, seeded), and an answer. The model is simulated in
 * process: it "counts" each request with its own tokenizer stand-in (characters ÷ 3.4, unlike
 * Loci's estimator, so the usage correction has something to learn) and reports that as usage.
 * Compaction archives into a real SQLite palace and summarises through the loopback server.
 *
 * Reported per run: the peak context (Loci's corrected estimate and the simulated provider's
 * count) against the usable window, compactions and tokens saved, tool-result characters kept out
 * of the context, the final correction ratio, and Loci's overhead per turn (every manager call of
 * the turn, archive included, the summariser's wait on the server excluded): p50, p95, max.
 * Target: p50 ≤ 15 ms. In-run baseline: what any agent loop pays per turn anyway to serialise the
 * requests it sends (JSON.stringify of system + messages of each call), measured on the same turns.
 * The archive's share (palace writes) is reported apart as well.
 *
 * The simulated model takes `--model-ms` per call (default 40 ms, far below a real model's
 * seconds); the background archive of new messages runs meanwhile and is reported apart.
 *
 * Also reports how Loci's Claude estimate compares with real usage in the Claude Code transcripts
 * of ../shared/data/transcripts (bench/context/calibrate.ts), when they are present.
 *
 * Usage: npm run build && node --import tsx bench/context.ts [--turns 200] [--seed 13] [--model-ms 40] [--keep DIR]
 * Prints one JSON document.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { rng, prose } from '../test/helpers/corpus.js';
import { startLoopback, type RecordedRequest, type Reply } from '../test/helpers/loopback.js';
import { createLlmProvider, openPalace } from '../dist/index.js';
import { createContextManager, llmSummariser, palaceArchiver, type Summariser } from '../dist/context/index.js';
import { calibrateOnTranscripts } from './context/calibrate.js';

const arg = (name: string, def: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : def;
};
const TURNS = Number(arg('turns', '200'));
/** Simulated model time per call, in ms: the background archive runs meanwhile, as it would in a session. */
const MODEL_MS = Number(arg('model-ms', '40'));
const SEED = Number(arg('seed', '13'));
const keep = arg('keep', '');
const work = keep || mkdtempSync(join(tmpdir(), 'loci-bench-context-'));

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
const ms = (x: number) => +x.toFixed(2);
/** The simulated provider's tokenizer: characters ÷ 3.4 (code-heavy traffic). */
const providerCount = (chars: number) => Math.ceil(chars / 3.4);

/** A summary the loopback "model" writes: the user prompts it saw, clipped, about 1,500 tokens at most. */
function summaryFrom(text: string): string {
  const asks = [...text.matchAll(/^User: (.{0,120})/gm)].map((m) => `- asked: ${m[1]}`);
  const prev = /<previous-summary>\n([\s\S]*?)\n<\/previous-summary>/.exec(text)?.[1] ?? '';
  return `${prev.split('\n').slice(-60).join('\n')}\n${asks.slice(-40).join('\n')}`.trim().slice(0, 6_000);
}

function anthropicReply(req: RecordedRequest): Reply {
  const text = String(req.body?.messages?.[0]?.content ?? '');
  const out = summaryFrom(text);
  return {
    body: {
      id: 'msg_bench',
      type: 'message',
      role: 'assistant',
      model: req.body?.model,
      content: [{ type: 'text', text: out }],
      stop_reason: 'end_turn',
      usage: { input_tokens: providerCount(req.raw.length), output_tokens: providerCount(out.length) },
    },
  };
}

function openaiReply(req: RecordedRequest): Reply {
  const text = String(req.body?.messages?.at(-1)?.content ?? '');
  const out = summaryFrom(text);
  return {
    body: {
      id: 'chatcmpl-bench',
      object: 'chat.completion',
      model: req.body?.model,
      choices: [{ index: 0, message: { role: 'assistant', content: out }, finish_reason: 'stop' }],
      usage: { prompt_tokens: providerCount(req.raw.length), completion_tokens: providerCount(out.length) },
    },
  };
}

/** A grep- or file-like tool output of about `chars` characters. */
function toolOutput(r: () => number, chars: number): string {
  const lines: string[] = [];
  let n = 0;
  for (let i = 0; n < chars; i++) {
    const line =
      r() < 0.5
        ? `src/mod${Math.floor(r() * 40)}/file${Math.floor(r() * 90)}.ts:${i + 1}: export const v${i} = ` +
          `compute(${Math.floor(r() * 1000)}, '${prose(r, 2).trim()}');`
        : `  ${prose(r, 6 + Math.floor(r() * 10)).trim()} // line ${i}`;
    lines.push(line);
    n += line.length + 1;
  }
  return lines.join('\n');
}

function outputSize(r: () => number): number {
  const x = r();
  if (x < 0.3) return 200 + Math.floor(r() * 1_800);
  if (x < 0.8) return 2_000 + Math.floor(r() * 13_000);
  return 20_000 + Math.floor(r() * 180_000);
}

interface RunConfig {
  name: string;
  model: string;
  provider: 'anthropic' | 'openai';
  contextWindow: number;
}

async function run(cfg: RunConfig, serverUrl: string) {
  const home = join(work, cfg.name);
  const palace = await openPalace({ home, embedder: null });
  const llm = createLlmProvider({ provider: cfg.provider, baseUrl: serverUrl, apiKey: 'bench', model: cfg.model });
  let modelMs = 0;
  const inner = llmSummariser(llm);
  const summariser: Summariser = async (req) => {
    const t = performance.now();
    try {
      return await inner(req);
    } finally {
      modelMs += performance.now() - t;
    }
  };
  const archiver = palaceArchiver(palace, { wing: 'bench' });
  let archiveMs = 0;
  const ctx = createContextManager({
    model: cfg.model,
    provider: cfg.provider,
    contextWindow: cfg.contextWindow,
    home,
    summariser,
    archive: async (batch) => {
      const t = performance.now();
      await archiver(batch);
      archiveMs += performance.now() - t;
    },
    systemContext: { capturedAt: '2026-01-15T09:00:00.000Z', date: '2026-01-15', cwd: '/work/project' },
    userContext: () => ({ claudeMd: 'Run the tests with npm test.', claudeMdFiles: [], memory: '' }),
  });
  const r = rng(SEED);
  const overhead: number[] = [];
  const baseline: number[] = [];
  let peakProvider = 0;
  let rawTotalChars = 0;
  let serialiseMs = 0;

  /** One model call: Loci prepares (timed), the simulated model counts the request (not timed). */
  const call = async () => {
    const t = performance.now();
    const before = modelMs;
    const { request } = await ctx.prepare();
    const spent = performance.now() - t - (modelMs - before);
    const t1 = performance.now();
    const sent = JSON.stringify(request.messages).length + JSON.stringify(request.system).length;
    serialiseMs += performance.now() - t1;
    const count = providerCount(sent);
    await new Promise((resolve) => setTimeout(resolve, MODEL_MS)); // the model works
    peakProvider = Math.max(peakProvider, count);
    return { spent, usage: { inputTokens: count, outputTokens: 200, cacheReadTokens: 0, cacheCreationTokens: 0 } };
  };

  for (let turn = 0; turn < TURNS; turn++) {
    let spent = 0;
    serialiseMs = 0;
    const timed = (f: () => void) => {
      const t = performance.now();
      f();
      spent += performance.now() - t;
    };
    const injected = Array.from({ length: 1 + Math.floor(r() * 5) }, () => prose(r, 25)).join('\n');
    const memories = `<system-reminder>\n${injected}\n</system-reminder>`;
    const prompt = `Turn ${turn}: ${prose(r, 20 + Math.floor(r() * 200))}`;
    timed(() => ctx.appendUser(prompt, { memories }));
    rawTotalChars += prompt.length + memories.length;
    const tools = 1 + Math.floor(r() * 3);
    for (let k = 0; k < tools; k++) {
      const c = await call();
      spent += c.spent;
      const id = `t${turn}_${k}`;
      const use = {
        role: 'assistant' as const,
        content: [{ type: 'tool_use' as const, id, name: 'grep', input: { q: prose(r, 2) } }],
      };
      const out = toolOutput(r, outputSize(r));
      rawTotalChars += out.length;
      timed(() => {
        ctx.appendAssistant(use);
        ctx.recordUsage(c.usage);
        ctx.appendToolResults([{ toolUseId: id, toolName: 'grep', content: out }]);
      });
    }
    const c = await call();
    spent += c.spent;
    const answer = prose(r, 30 + Math.floor(r() * 300));
    rawTotalChars += answer.length;
    timed(() => {
      ctx.appendAssistant({ role: 'assistant', content: answer });
      ctx.recordUsage(c.usage);
    });
    overhead.push(spent);
    baseline.push(serialiseMs);
  }
  await ctx.flushArchive();
  const compactions = ctx.compactions();
  const results = ctx.toolResults.totals();
  const book = ctx.bookkeeping();
  const listed = (await palace.listDrawers({ wing: 'bench' }, { limit: 100_000 })).drawers;
  const drawers = listed.length;
  const archivedMessages = listed.reduce(
    (n, d) => n + Number(d.metadata['seqTo']) - Number(d.metadata['seqFrom']) + 1,
    0,
  );
  await palace.close();
  return {
    name: cfg.name,
    model: cfg.model,
    protocol: cfg.provider,
    turns: TURNS,
    messages: book.appended,
    window: ctx.budget.window,
    peak_context_estimate: ctx.budget.peakContextTokens,
    peak_context_provider: peakProvider,
    peak_under_window: Math.max(peakProvider, ctx.budget.peakContextTokens) < ctx.budget.window,
    unmanaged_tokens_provider: providerCount(rawTotalChars),
    compactions: compactions.length,
    compaction_modes: compactions.map((c) => c.mode).join(',') || 'none',
    summarisers: [...new Set(compactions.map((c) => c.by))].join(','),
    tokens_saved: compactions.reduce((s, c) => s + (c.tokensBefore - c.tokensAfter), 0),
    tool_results: results.results,
    tool_results_persisted: results.persisted,
    tool_result_chars_kept_out: results.charsKeptOut,
    archived_drawers: drawers,
    nothing_lost: archivedMessages === book.appended,
    correction_ratio: +ctx.counter.ratio.toFixed(3),
    overhead_ms: { p50: ms(pct(overhead, 50)), p95: ms(pct(overhead, 95)), max: ms(Math.max(...overhead)) },
    baseline_serialise_ms: { p50: ms(pct(baseline, 50)), p95: ms(pct(baseline, 95)), max: ms(Math.max(...baseline)) },
    summariser_model_ms_total: ms(modelMs),
    archive_ms_total_background_and_compaction: ms(archiveMs),
    model_ms_per_call_simulated: MODEL_MS,
    archive_drawers_per_message: +(drawers / book.appended).toFixed(3),
  };
}

const server = await startLoopback();
server.handle('anthropic.messages', anthropicReply).handle('openai.chat', openaiReply);
try {
  const runs = [];
  runs.push(
    await run(
      { name: 'claude-200k', model: 'claude-sonnet-4-5', provider: 'anthropic', contextWindow: 200_000 },
      server.url,
    ),
  );
  runs.push(
    await run({ name: 'local-32k', model: 'qwen2.5-coder:7b', provider: 'openai', contextWindow: 32_768 }, server.url),
  );
  const doc = {
    bench: 'context',
    machine: { nproc: cpus().length, node: process.version },
    seed: SEED,
    target: 'overhead p50 <= 15 ms per turn; peak context under the usable window',
    summarisation_requests: server.requests.length,
    runs,
    estimate_calibration:
      calibrateOnTranscripts(join(import.meta.dirname, '..')) ?? 'skipped: no ../shared/data/transcripts',
  };
  console.log(JSON.stringify(doc, null, 2));
} finally {
  await server.close();
  if (!keep) rmSync(work, { recursive: true, force: true });
}
