/**
 * @module context/tokens
 * Fast local token estimates per model family, corrected by what the provider reports.
 *
 * No tokenizer is loaded: one pass over the text counts word runs, digit runs, punctuation,
 * whitespace runs, CJK characters and other non-ASCII characters, and each class is weighted per
 * family (calibrated on typical BPE behaviour: an English word of up to six letters is one token,
 * longer words split every ~3.5 letters, numbers split in groups of three digits, punctuation is
 * about one token per mark in code, a CJK character is about one token with OpenAI's o200k vocab and
 * more with Claude's and Llama/SentencePiece vocabs). Estimates are then multiplied by a running
 * correction ratio learnt from the provider's reported `usage` (input + cache read + cache creation
 * against the estimate of the same request), so systematic error shrinks after the first turn.
 */
import type { AgentMessage, ContentBlock, ProviderName, ToolSpec } from '../providers/index.js';

/** Tokenizer families with distinct estimate weights. */
export type ModelFamily = 'claude' | 'openai' | 'llama';

interface FamilyWeights {
  /** Scale applied to the whole estimate. */
  scale: number;
  /** Tokens per CJK character. */
  cjk: number;
  /** Tokens per other non-ASCII character (accents, emoji…). */
  otherNonAscii: number;
  /** Tokens of overhead per message (role markers). */
  perMessage: number;
}

const WEIGHTS: Record<ModelFamily, FamilyWeights> = {
  claude: { scale: 1.12, cjk: 1.25, otherNonAscii: 0.8, perMessage: 4 },
  openai: { scale: 1.0, cjk: 0.9, otherNonAscii: 0.6, perMessage: 4 },
  llama: { scale: 1.05, cjk: 1.4, otherNonAscii: 0.8, perMessage: 5 },
};

/** Default context windows per family, in tokens (used when the caller gives none). */
export const DEFAULT_CONTEXT_WINDOW: Readonly<Record<ModelFamily, number>> = {
  claude: 200_000,
  openai: 128_000,
  llama: 8_192,
};

/**
 * The tokenizer family of a model: `claude…` (or the anthropic provider) is claude; `gpt…`, `o1…`,
 * `o3…`, `o4…` (or the openai provider with such a name) is openai; anything else, Ollama models
 * included, is llama.
 */
export function modelFamily(model: string, provider?: ProviderName): ModelFamily {
  const m = model.toLowerCase();
  if (m.includes('claude') || provider === 'anthropic') return 'claude';
  if (/(^|[/:])(gpt|o\d|text-embedding|chatgpt)/.test(m)) return 'openai';
  if (provider === 'openai' && !/(llama|mistral|qwen|gemma|phi|deepseek)/.test(m)) return 'openai';
  return 'llama';
}

function isCjk(c: number): boolean {
  return (
    (c >= 0x3040 && c <= 0x30ff) || // kana
    (c >= 0x3400 && c <= 0x4dbf) ||
    (c >= 0x4e00 && c <= 0x9fff) ||
    (c >= 0xac00 && c <= 0xd7af) || // hangul
    (c >= 0xf900 && c <= 0xfaff) ||
    (c >= 0xff00 && c <= 0xffef) // full width forms
  );
}

// ASCII classes: 1 letter or underscore, 2 digit, 3 space or tab, 4 line break, 0 punctuation/symbol.
const CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++)
  CLASS[c] =
    (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95
      ? 1
      : c >= 48 && c <= 57
        ? 2
        : c === 32 || c === 9 || c === 13
          ? 3
          : c === 10
            ? 4
            : 0;

/**
 * Raw (uncorrected) token estimate of a text for a family. Linear in the text's length (tens of
 * MB per second on one core). `''` is 0.
 */
export function estimateTextTokens(text: string, family: ModelFamily = 'claude'): number {
  const w = WEIGHTS[family];
  let tokens = 0;
  let run = 0; // length of the current run
  let kind = -1; // class of the current run: 1 word, 2 digits, 3 whitespace (4 = whitespace with a break)
  const n = text.length;
  for (let i = 0; i <= n; i++) {
    const c = i < n ? text.charCodeAt(i) : -1;
    const k = c < 0 ? -1 : c < 128 ? CLASS[c]! : 5;
    if ((k === 3 || k === 4) && (kind === 3 || kind === 4)) {
      if (k === 4) kind = 4;
      run++;
      continue;
    }
    if (k === kind && (k === 1 || k === 2)) {
      run++;
      continue;
    }
    // close the run
    if (kind === 1) tokens += run <= 6 ? 1 : 1 + (run - 6) / 3.5;
    else if (kind === 2) tokens += Math.ceil(run / 3);
    else if (kind === 3) {
      // A single space merges into the next word; runs (indentation) cost a little.
      if (run > 1) tokens += 0.5 + run / 16;
    } else if (kind === 4) tokens += 0.6 + (run - 1) / 8;
    kind = k;
    run = 1;
    if (k === 0) {
      tokens += 0.75;
      kind = -1;
    } else if (k === 5) {
      if (c >= 0xd800 && c <= 0xdbff) {
        tokens += w.otherNonAscii * 1.5; // an astral character (emoji) is usually 2–3 byte tokens
        i++;
      } else tokens += isCjk(c) ? w.cjk : w.otherNonAscii;
      kind = -1;
    }
  }
  return Math.ceil(tokens * w.scale);
}

/** Raw estimate of one content block (tool calls count their name and JSON input). */
export function estimateBlockTokens(block: ContentBlock, family: ModelFamily = 'claude'): number {
  if (block.type === 'text') return estimateTextTokens(block.text, family);
  if (block.type === 'tool_use') return 8 + estimateTextTokens(block.name + JSON.stringify(block.input), family);
  return 6 + estimateTextTokens(block.content, family);
}

/** Raw estimate of one message, role overhead included. */
export function estimateMessageTokens(message: AgentMessage, family: ModelFamily = 'claude'): number {
  const w = WEIGHTS[family];
  if (typeof message.content === 'string') return w.perMessage + estimateTextTokens(message.content, family);
  let n = w.perMessage;
  for (const b of message.content) n += estimateBlockTokens(b, family);
  return n;
}

/** Raw estimate of tool definitions as sent with a request. */
export function estimateToolsTokens(tools: readonly ToolSpec[], family: ModelFamily = 'claude'): number {
  let n = 0;
  for (const t of tools)
    n += 10 + estimateTextTokens(`${t.name} ${t.description} ${JSON.stringify(t.inputSchema)}`, family);
  return n;
}

/** Options of {@link createTokenCounter}. */
export interface TokenCounterOptions {
  /** The tokenizer family. Default `'claude'`. */
  family?: ModelFamily;
  /**
   * Weight of a new observation in the running correction ratio (exponential moving average).
   * Default 0.3; 0 < x ≤ 1 (1 keeps only the last observation).
   */
  smoothing?: number;
  /** Starting correction ratio. Default 1; 0.25 … 4. */
  initialRatio?: number;
}

/** Reported usage, as far as it concerns the prompt (all figures ≥ 0; absent ones count 0). */
export interface PromptUsage {
  inputTokens: number;
  cacheReadTokens?: number;
  cacheCreationTokens?: number;
}

/** A family-aware estimator that learns a correction ratio from reported usage. */
export interface TokenCounter {
  /** The family estimates are made for. */
  readonly family: ModelFamily;
  /** The current correction ratio (actual ÷ raw estimate); 1 until the first observation. */
  readonly ratio: number;
  /** Number of usage reports learnt from. */
  readonly observations: number;
  /** Raw estimate of a text (not corrected). */
  raw(text: string): number;
  /** Raw estimate of a message (not corrected). */
  rawMessage(message: AgentMessage): number;
  /** Corrected estimate: `ceil(raw × ratio)`. */
  correct(raw: number): number;
  /** Corrected estimate of a text. */
  estimate(text: string): number;
  /**
   * Learns from one request: `rawEstimate` is the raw estimate of the whole prompt that was sent,
   * `usage` what the provider reported for it. The prompt's real size is `inputTokens +
   * cacheReadTokens + cacheCreationTokens` (Anthropic counts cached tokens apart). Reports of 0
   * tokens or estimates of 0 are ignored. Returns the new ratio.
   */
  observe(rawEstimate: number, usage: PromptUsage): number;
}

/** Creates a {@link TokenCounter}. */
export function createTokenCounter(options: TokenCounterOptions = {}): TokenCounter {
  const family = options.family ?? 'claude';
  const alpha = Math.min(1, Math.max(0.01, options.smoothing ?? 0.3));
  let ratio = clampRatio(options.initialRatio ?? 1);
  let observations = 0;
  return {
    family,
    get ratio() {
      return ratio;
    },
    get observations() {
      return observations;
    },
    raw: (text) => estimateTextTokens(text, family),
    rawMessage: (m) => estimateMessageTokens(m, family),
    correct: (raw) => Math.ceil(raw * ratio),
    estimate: (text) => Math.ceil(estimateTextTokens(text, family) * ratio),
    observe(rawEstimate, usage) {
      const actual = usage.inputTokens + (usage.cacheReadTokens ?? 0) + (usage.cacheCreationTokens ?? 0);
      if (!(rawEstimate > 0) || !(actual > 0)) return ratio;
      const seen = clampRatio(actual / rawEstimate);
      // The first observation replaces the prior outright; later ones are smoothed.
      ratio = observations === 0 ? seen : ratio + alpha * (seen - ratio);
      observations++;
      return ratio;
    },
  };
}

function clampRatio(r: number): number {
  return Number.isFinite(r) ? Math.min(4, Math.max(0.25, r)) : 1;
}
