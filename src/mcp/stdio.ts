/**
 * @module mcp/stdio
 * `loci mcp`: the server over stdio. Stdout belongs to the protocol, so while serving every
 * `console.log/info/debug/warn` is routed to stderr; logs go to stderr. The palace is opened once
 * and closed when the client closes stdin, on SIGINT/SIGTERM, or when the transport closes —
 * after the calls in flight have answered. A request line over 4 MiB is dropped unread and
 * answered with MCP_MESSAGE_TOO_LARGE; the session goes on.
 */
import { format } from 'node:util';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Readable, Writable } from 'node:stream';
import { createError } from '../core/errors.js';
import { createLociMcpServer, type LociMcpServerOptions } from './server.js';
import { MAX_MESSAGE_BYTES } from './args.js';
import { errorResult, failureOf } from './failure.js';
import { guardLines, requestOf, type OversizedLine } from './line-guard.js';

/** Options of {@link serveStdio}. */
export interface ServeStdioOptions extends LociMcpServerOptions {
  /** Default `process.stdin`. */
  stdin?: Readable;
  /** Default `process.stdout`. */
  stdout?: Writable;
  /** Handle SIGINT/SIGTERM by closing cleanly. Default true. */
  handleSignals?: boolean;
  /** Largest request line in bytes; longer ones are answered with MCP_MESSAGE_TOO_LARGE. Default 4 MiB. */
  maxMessageBytes?: number;
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
  for (const m of CONSOLE_METHODS)
    console[m] = (...args: unknown[]) => void process.stderr.write(`${format(...args)}\n`);
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
  // A line over the limit is dropped before the SDK sees it (past 10 MiB the SDK would close the
  // session) and answered here: an isError result for a tool call, a JSON-RPC error otherwise.
  const maxBytes = opts.maxMessageBytes ?? MAX_MESSAGE_BYTES;
  const onOversized = (line: OversizedLine) => {
    const { id, method } = requestOf(line);
    const failure = failureOf(createError('MCP_MESSAGE_TOO_LARGE', { bytes: line.bytes, max: maxBytes }));
    logger?.log(
      'warn',
      `dropped a ${line.bytes}-byte message (${method ?? 'unknown method'}): over the ${maxBytes}-byte limit`,
    );
    if (id === undefined) return;
    const reply =
      method === 'tools/call'
        ? { jsonrpc: '2.0', id, result: errorResult(failure) }
        : { jsonrpc: '2.0', id, error: { code: -32600, message: `loci: ${failure.message} [${failure.code}]` } };
    stdout.write(`${JSON.stringify(reply)}\n`);
  };
  const guarded = guardLines(stdin, maxBytes, onOversized);
  const transport = new StdioServerTransport(guarded, stdout);

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
      // Stop reading (as the SDK transport does when it reads stdin itself), so the process can exit.
      stdin.unpipe(guarded);
      stdin.pause();
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
  logger?.log(
    'info',
    `loci mcp serving ${built.tools.length} tools over stdio (palace ${built.palace.home}), ready ` +
      `${Math.round(performance.now())} ms after process start`,
  );
  return { closed, close };
}
