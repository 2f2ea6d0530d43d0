/**
 * @module mcp/stdio
 * `loci mcp`: the server over stdio. Stdout belongs to the protocol, so while serving every
 * `console.log/info/debug/warn` is routed to stderr; logs go to stderr. The palace is opened once
 * and closed when the client closes stdin, on SIGINT/SIGTERM, or when the transport closes —
 * after the calls in flight have answered.
 */
import { format } from 'node:util';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Readable, Writable } from 'node:stream';
import { createLociMcpServer, type LociMcpServerOptions } from './server.js';

/** Options of {@link serveStdio}. */
export interface ServeStdioOptions extends LociMcpServerOptions {
  /** Default `process.stdin`. */
  stdin?: Readable;
  /** Default `process.stdout`. */
  stdout?: Writable;
  /** Handle SIGINT/SIGTERM by closing cleanly. Default true. */
  handleSignals?: boolean;
}

/** A running stdio server. */
export interface StdioServing {
  /** Resolves once the server has shut down and the palace is closed. */
  readonly closed: Promise<void>;
  /** Shuts down (idempotent). */
  close(): Promise<void>;
}

const CONSOLE_METHODS = ['log', 'info', 'debug', 'warn'] as const;

/** Routes console output meant for stdout to stderr; returns the undo. */
export function guardConsole(): () => void {
  const saved = CONSOLE_METHODS.map((m) => [m, console[m]] as const);
  for (const m of CONSOLE_METHODS) console[m] = (...args: unknown[]) => void process.stderr.write(`${format(...args)}\n`);
  return () => {
    for (const [m, fn] of saved) console[m] = fn;
  };
}

/** Serves the Loci tools over stdio until the client goes away. */
export async function serveStdio(opts: ServeStdioOptions = {}): Promise<StdioServing> {
  const unguard = guardConsole();
  const t0 = performance.now();
  const stdin = opts.stdin ?? process.stdin;
  const stdout = opts.stdout ?? process.stdout;
  let lociServer;
  try {
    lociServer = await createLociMcpServer(opts);
  } catch (e) {
    unguard();
    throw e;
  }
  const built = lociServer;
  const logger = opts.logger;
  logger?.log('debug', `SDK, tools and palace loaded in ${Math.round(performance.now() - t0)} ms`);
  const transport = new StdioServerTransport(stdin, stdout);

  // Count requests in flight so that a closed stdin still lets them answer.
  let inFlight = 0;
  let draining = false;
  let resolveClosed!: () => void;
  const closed = new Promise<void>((r) => (resolveClosed = r));
  let closing: Promise<void> | undefined;

  const onSignal = (sig: NodeJS.Signals) => {
    logger?.log('info', `received ${sig}, closing`);
    void close();
  };
  const onEnd = () => {
    if (!draining) logger?.log('info', `stdin closed; shutting down after ${inFlight} call(s) in flight`);
    draining = true;
    if (inFlight === 0) void close();
  };
  function close(): Promise<void> {
    return (closing ??= (async () => {
      stdin.off('end', onEnd);
      stdin.off('close', onEnd);
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      try {
        await built.close();
        logger?.log('info', 'stopped; palace closed');
      } finally {
        unguard();
        resolveClosed();
      }
    })());
  }

  stdin.on('end', onEnd);
  stdin.on('close', onEnd);
  if (opts.handleSignals ?? true) {
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  }
  await built.server.connect(transport);
  // Wrap after connect: the protocol has installed its handler.
  const onmessage = transport.onmessage;
  transport.onmessage = (message) => {
    if ('id' in message && 'method' in message) inFlight++;
    onmessage?.(message);
  };
  const send = transport.send.bind(transport);
  transport.send = async (message) => {
    await send(message);
    if (('result' in message || 'error' in message) && 'id' in message) {
      inFlight = Math.max(0, inFlight - 1);
      if (draining && inFlight === 0) void close();
    }
  };
  const onclose = transport.onclose;
  transport.onclose = () => {
    onclose?.();
    void close();
  };
  logger?.log('info', `loci mcp serving ${built.tools.length} tools over stdio (palace ${built.palace.home}), ready ${Math.round(performance.now())} ms after process start`);
  return { closed, close };
}
