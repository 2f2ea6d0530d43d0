/**
 * @module providers/create
 * Builds an {@link LlmProvider} from a {@link ProviderConfig} or from environment variables.
 */
import { createError } from '../core/errors.js';
import { processEnv, readSettings, type Env, type LociSettings } from '../core/env.js';
import { anthropicProvider } from './anthropic.js';
import { DEFAULT_TIMEOUT_MS, checkRange, type ProviderRuntime } from './common.js';
import { DEFAULT_RETRY, httpEffects } from './http.js';
import { ollamaProvider } from './ollama.js';
import { openaiProvider } from './openai.js';
import type { ProviderConfig, ProviderDeps, ProviderName, StreamingLlmProvider } from './types.js';

/** Per-protocol defaults: model, server root and the provider's own key variable. */
export const PROVIDER_DEFAULTS: Readonly<Record<ProviderName, { model: string; baseUrl: string; keyEnv?: string }>> = {
  anthropic: { model: 'claude-haiku-4-5', baseUrl: 'https://api.anthropic.com', keyEnv: 'ANTHROPIC_API_KEY' },
  openai: { model: 'gpt-4o-mini', baseUrl: 'https://api.openai.com', keyEnv: 'OPENAI_API_KEY' },
  ollama: { model: 'llama3.2', baseUrl: 'http://127.0.0.1:11434' },
};

const NAMES = Object.keys(PROVIDER_DEFAULTS) as ProviderName[];

function isProviderName(v: unknown): v is ProviderName {
  return typeof v === 'string' && (NAMES as string[]).includes(v);
}

function nonEmpty(v: string | undefined): string | undefined {
  const t = v?.trim();
  return t ? t : undefined;
}

/**
 * Creates a provider. The API key comes from `cfg.apiKey`, else `LOCI_LLM_API_KEY`, else the
 * provider's own variable (`ANTHROPIC_API_KEY`, `OPENAI_API_KEY`) in `deps.env`.
 *
 * Throws PROVIDER_KEY_MISSING when anthropic, or openai at `api.openai.com`, has no key;
 * INVALID_ARGUMENT for an unknown provider, a bad URL or an out-of-range number.
 */
export function createLlmProvider(cfg: ProviderConfig, deps: ProviderDeps = {}): StreamingLlmProvider {
  if (!isProviderName(cfg.provider)) {
    throw createError('INVALID_ARGUMENT', { name: 'provider', value: cfg.provider, expected: NAMES.join(', ') });
  }
  const defaults = PROVIDER_DEFAULTS[cfg.provider];
  const vars = readSettings(deps.env ?? processEnv());
  const baseUrl = nonEmpty(cfg.baseUrl) ?? defaults.baseUrl;
  const apiKey =
    nonEmpty(cfg.apiKey) ??
    nonEmpty(vars.llmApiKey) ??
    (defaults.keyEnv ? nonEmpty(PROVIDER_KEYS[defaults.keyEnv]?.(vars)) : undefined);
  const timeoutMs = cfg.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const retry = {
    maxRetries: cfg.maxRetries ?? DEFAULT_RETRY.maxRetries,
    baseMs: cfg.retryBaseMs ?? DEFAULT_RETRY.baseMs,
    maxMs: cfg.retryMaxMs ?? DEFAULT_RETRY.maxMs,
  };
  checkRange('timeoutMs', timeoutMs, 1, 600_000, true);
  checkRange('maxRetries', retry.maxRetries, 0, 10, true);
  checkRange('retryBaseMs', retry.baseMs, 0, 60_000, true);
  checkRange('retryMaxMs', retry.maxMs, 0, 600_000, true);

  if (!apiKey && keyRequired(cfg.provider, baseUrl)) {
    throw createError('PROVIDER_KEY_MISSING', {
      provider: cfg.provider,
      envVar: `${defaults.keyEnv ?? 'LOCI_LLM_API_KEY'} (or LOCI_LLM_API_KEY)`,
    });
  }
  const rt: ProviderRuntime = {
    model: nonEmpty(cfg.model) ?? defaults.model,
    baseUrl,
    apiKey,
    headers: { ...cfg.headers },
    timeoutMs,
    retry,
    fx: httpEffects(deps),
  };
  switch (cfg.provider) {
    case 'anthropic':
      return anthropicProvider(rt);
    case 'openai':
      return openaiProvider(rt);
    case 'ollama':
      return ollamaProvider(rt);
  }
}

/** anthropic always needs a key; openai only at api.openai.com; ollama never. */
function keyRequired(provider: ProviderName, baseUrl: string): boolean {
  if (provider === 'anthropic') return true;
  if (provider === 'ollama') return false;
  try {
    return new URL(baseUrl).hostname === 'api.openai.com';
  } catch {
    return true;
  }
}

/** The settings holding each provider's own key variable. */
const PROVIDER_KEYS: Readonly<Record<string, (s: LociSettings) => string | undefined>> = {
  ANTHROPIC_API_KEY: (s) => s.anthropicApiKey,
  OPENAI_API_KEY: (s) => s.openaiApiKey,
};

/**
 * The provider configured by environment variables, or `undefined` when none is configured.
 * Loci never sends text to a model unless asked: a key alone (e.g. `ANTHROPIC_API_KEY` set for
 * another tool) does not enable a provider; `LOCI_LLM_PROVIDER` must name one.
 *
 * - `LOCI_LLM_PROVIDER` — `anthropic` | `openai` | `ollama` (unset, empty or `none`: no provider)
 * - `LOCI_LLM_MODEL` — model name (default per provider, see {@link PROVIDER_DEFAULTS})
 * - `LOCI_LLM_BASE_URL` — server root (default per provider)
 * - `LOCI_LLM_API_KEY`, `ANTHROPIC_API_KEY`, `OPENAI_API_KEY` — keys
 * - `LOCI_LLM_TIMEOUT_MS` — default total timeout per call (default 20000)
 *
 * Throws INVALID_ARGUMENT for an unknown provider name or a bad timeout, PROVIDER_KEY_MISSING
 * when the named provider needs a key that is not set.
 */
export function providerFromEnv(
  env: Env = processEnv(),
  deps: Omit<ProviderDeps, 'env'> = {},
): StreamingLlmProvider | undefined {
  const vars = readSettings(env);
  const name = nonEmpty(vars.llmProvider)?.toLowerCase();
  if (name === undefined || name === 'none') return undefined;
  if (!isProviderName(name)) {
    throw createError('INVALID_ARGUMENT', {
      name: 'LOCI_LLM_PROVIDER',
      value: vars.llmProvider,
      expected: `${NAMES.join(', ')} or none`,
    });
  }
  const timeout = nonEmpty(vars.llmTimeoutMs);
  const cfg: ProviderConfig = { provider: name };
  const model = nonEmpty(vars.llmModel);
  const baseUrl = nonEmpty(vars.llmBaseUrl);
  if (model) cfg.model = model;
  if (baseUrl) cfg.baseUrl = baseUrl;
  if (timeout !== undefined) {
    const ms = Number(timeout);
    if (!Number.isInteger(ms) || ms < 1 || ms > 600_000) {
      throw createError('INVALID_ARGUMENT', {
        name: 'LOCI_LLM_TIMEOUT_MS',
        value: timeout,
        expected: 'an integer from 1 to 600000',
      });
    }
    cfg.timeoutMs = ms;
  }
  return createLlmProvider(cfg, { ...deps, env });
}
