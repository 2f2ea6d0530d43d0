/**
 * @module core/worker
 * Starts a worker thread from a module URL, both from the built `dist/` (plain `.js`) and from
 * sources run through tsx (`.ts`, tests and benches), where the worker needs tsx's loader.
 */
import { Worker } from 'node:worker_threads';

/** Starts `url` (a `.js` or `.ts` module) as a worker thread. */
export function startModuleWorker(url: URL, workerData?: unknown): Worker {
  if (url.pathname.endsWith('.ts')) {
    const boot =
      `const { tsImport } = await import('tsx/esm/api');\n` +
      `await tsImport(${JSON.stringify(url.href)}, ${JSON.stringify(url.href)});`;
    return new Worker(boot, { eval: true, workerData });
  }
  return new Worker(url, { workerData });
}

/** The sibling module `name` (without extension) of `base`, with the same extension. */
export function siblingModule(base: string, name: string): URL {
  return new URL(`./${name}${base.endsWith('.ts') ? '.ts' : '.js'}`, base);
}
