/**
 * @module embed/create
 * Builds an {@link Embedder} from a configuration object, or a configuration from environment
 * variables / a `kind:model` spec string (for CLI flags).
 */
import { createError } from '../core/errors.js';
import { processEnv, readSettings, type Env } from '../core/env.js';
import { ollamaEmbedder, openaiEmbedder } from './http-embedders.js';
import { onnxEmbedder } from './onnx-embedder.js';
import type { Embedder, EmbedderConfig, EmbedderDeps } from './types.js';

/**
 * Creates an embedder. Cheap and synchronous: no file is read, no module loaded and no request
 * sent until `init()` or the first `embed()`. Throws INVALID_ARGUMENT for a bad setting and
 * PROVIDER_KEY_MISSING for `openai` at api.openai.com without a key.
 */
export function createEmbedder(cfg: EmbedderConfig, deps: EmbedderDeps = {}): Embedder {
  switch (cfg.kind) {
    case 'ollama':
      return ollamaEmbedder(cfg, deps);
    case 'openai':
      return openaiEmbedder(cfg, deps);
    case 'onnx':
      return onnxEmbedder(cfg, deps);
    default:
      throw createError('INVALID_ARGUMENT', {
        name: 'embedder kind',
        value: (cfg as { kind?: unknown }).kind,
        expected: 'ollama, openai or onnx',
      });
  }
}

/**
 * Parses an embedder spec: `ollama:<model>`, `openai:<model>[@<dimensions>]` or `onnx:<model dir>`
 * (for `--embedder` flags). Settings not in the spec come from `env`:
 * `LOCI_EMBED_BASE_URL` (HTTP server root), `LOCI_EMBED_API_KEY` / `OPENAI_API_KEY` (openai),
 * `LOCI_EMBED_BATCH_SIZE`, `LOCI_EMBED_QUERY_PREFIX`, `LOCI_EMBED_DOCUMENT_PREFIX`.
 * Throws INVALID_ARGUMENT for a malformed spec.
 */
export function parseEmbedderSpec(spec: string, env: Env = processEnv()): EmbedderConfig {
  const m = /^(ollama|openai|onnx):(.+)$/.exec(spec.trim());
  if (!m) {
    throw createError('INVALID_ARGUMENT', {
      name: 'embedder',
      value: spec,
      expected: 'ollama:<model>, openai:<model>[@<dimensions>] or onnx:<model dir>',
    });
  }
  const kind = m[1] as EmbedderConfig['kind'];
  const rest = m[2]!.trim();
  const common: Partial<EmbedderConfig> = {};
  const s = readSettings(env);
  const batch = s.embedBatchSize?.trim();
  if (batch) common.batchSize = Number(batch);
  const query = s.embedQueryPrefix;
  const document = s.embedDocumentPrefix;
  if (query || document) common.prefixes = { ...(query ? { query } : {}), ...(document ? { document } : {}) };
  const baseUrl = s.embedBaseUrl?.trim();
  if (kind === 'onnx') return { ...common, kind, modelDir: rest };
  if (kind === 'ollama') return { ...common, kind, model: rest, ...(baseUrl ? { baseUrl } : {}) };
  const at = /^(.+)@(\d+)$/.exec(rest);
  return {
    ...common,
    kind,
    model: at ? at[1]! : rest,
    ...(at ? { dimensions: Number(at[2]) } : {}),
    ...(baseUrl ? { baseUrl } : {}),
  };
}

/**
 * The embedder configured by `LOCI_EMBEDDER` (a spec for {@link parseEmbedderSpec}), or
 * `undefined` when it is unset, empty or `none` (the caller then uses its weights-free default).
 */
export function embedderConfigFromEnv(env: Env = processEnv()): EmbedderConfig | undefined {
  const spec = readSettings(env).embedder?.trim();
  if (!spec || spec === 'none') return undefined;
  return parseEmbedderSpec(spec, env);
}
