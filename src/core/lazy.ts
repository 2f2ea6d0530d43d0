/**
 * @module core/lazy
 * Loads a CommonJS-compatible dependency on first use, so that importing the library (and
 * starting the CLI, hooks and the MCP server) does not pay for parsers it may never need.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** Returns a getter that `require`s `id` once, on first call. */
export function lazyRequire<T>(id: string): () => T {
  let mod: T | undefined;
  return () => (mod ??= require(id) as T);
}
