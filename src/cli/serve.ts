/**
 * @module cli/serve
 * Keeps a long-running server command (`loci mcp --http`, `loci ui`) alive until it is stopped.
 */

/** Waits until a server stops, closing it on SIGINT or SIGTERM. */
export async function untilStopped(serving: { closed: Promise<void>; close(): Promise<void> }): Promise<void> {
  const stop = () => void serving.close();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  await serving.closed;
  process.off('SIGINT', stop);
  process.off('SIGTERM', stop);
}
