/**
 * @module test/helpers/loopback
 * A `node:http` server on 127.0.0.1:0 that speaks the wire protocols of Anthropic Messages,
 * OpenAI-compatible chat + embeddings and Ollama chat + embed (+ legacy embeddings). It replays
 * recorded responses from `test/fixtures/providers/*.json`, records every request it receives,
 * and can be told to fail: any status with any body, a hang past the client's timeout, malformed
 * JSON, or a dropped connection.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { streamReply } from './stream-replies.js';

/** The API endpoints the server speaks, by name. */
export const ROUTES = {
  'anthropic.messages': '/v1/messages',
  'openai.chat': '/v1/chat/completions',
  'openai.embeddings': '/v1/embeddings',
  'ollama.chat': '/api/chat',
  'ollama.embed': '/api/embed',
  'ollama.embeddings': '/api/embeddings',
} as const;
/** A route name. */
export type Route = keyof typeof ROUTES;

/** What the server answers to one request. */
export type Reply =
  | { status?: number; headers?: Record<string, string>; body: unknown }
  | { status?: number; headers?: Record<string, string>; raw: string }
  /**
   * A streamed answer: each chunk written on its own (SSE or NDJSON, see `stream-replies.ts`), then
   * the response ends, or with `then` the connection hangs or is dropped after the last chunk.
   */
  | { status?: number; headers?: Record<string, string>; chunks: string[]; then?: 'hang' | 'reset' }
  /** `hang`: never answer; `malformed`: 200 with broken JSON; `reset`: drop the connection. */
  | { fail: 'hang' | 'malformed' | 'reset' };

/** A request the server received. */
export interface RecordedRequest {
  route: Route | undefined;
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON body (undefined when the body was not JSON). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON of any shape, read freely by tests
  body: any;
  raw: string;
}

/** A running loopback server. */
export interface Loopback {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** Every request received, in arrival order. */
  readonly requests: RecordedRequest[];
  /** Requests received on one route. */
  requestsTo(route: Route): RecordedRequest[];
  /** Queues one-shot replies for a route; used before the route's default handler. */
  reply(route: Route, ...replies: Reply[]): Loopback;
  /** Resolves once at least `n` requests have arrived. */
  waitForRequests(n: number): Promise<void>;
  /** Replaces a route's default handler (used when its queue is empty). */
  handle(route: Route, handler: (req: RecordedRequest) => Reply): Loopback;
  close(): Promise<void>;
}

const FIXTURES = new URL('../fixtures/providers/', import.meta.url);

/** A recorded response from `test/fixtures/providers/<file>.json`, e.g. `recording('anthropic', 'messages.ok')`. */
export function recording(file: 'anthropic' | 'openai' | 'ollama', name: string): Reply {
  const doc = JSON.parse(readFileSync(new URL(`${file}.json`, FIXTURES), 'utf8')) as {
    recordings: Record<
      string,
      { response: { status: number; headers?: Record<string, string>; body?: unknown; raw?: string } }
    >;
  };
  const rec = doc.recordings[name];
  if (!rec) throw new Error(`no recording ${name} in ${file}.json`);
  const { status, headers, body, raw } = rec.response;
  return raw !== undefined ? { status, headers: headers ?? {}, raw } : { status, headers: headers ?? {}, body };
}

/** The request a recording was made with (for documentation-style assertions). */
export function recordedRequest(file: 'anthropic' | 'openai' | 'ollama', name: string): unknown {
  const doc = JSON.parse(readFileSync(new URL(`${file}.json`, FIXTURES), 'utf8')) as {
    recordings: Record<string, { request?: unknown }>;
  };
  return doc.recordings[name]?.request;
}

/**
 * A deterministic, deliberately unnormalised vector for `text` (SHA-256 bytes mapped to −1 … 1,
 * scaled by 3), so tests can check both ordering and the client's L2 normalisation.
 */
export function fakeEmbedding(text: string, dims: number): number[] {
  const out: number[] = [];
  for (let block = 0; out.length < dims; block++) {
    const h = createHash('sha256').update(`${block}\0${text}`).digest();
    for (const byte of h) if (out.length < dims) out.push(((byte - 127.5) / 127.5) * 3);
  }
  return out;
}

/** Default handlers: chat routes replay their "ok" recording; embedding routes compute {@link fakeEmbedding}. */
function defaults(dims: number): Record<Route, (req: RecordedRequest) => Reply> {
  const inputs = (req: RecordedRequest): string[] => {
    const input: unknown = req.body?.input;
    return Array.isArray(input) ? input.map(String) : [String(input)];
  };
  return {
    // A streamed request (`stream: true`) gets a short streamed answer in the route's protocol.
    'anthropic.messages': (req) =>
      req.body?.stream ? streamReply('anthropic.messages', { text: 'ok' }) : recording('anthropic', 'messages.ok'),
    'openai.chat': (req) =>
      req.body?.stream ? streamReply('openai.chat', { text: 'ok' }) : recording('openai', 'chat.ok'),
    'ollama.chat': (req) =>
      req.body?.stream ? streamReply('ollama.chat', { text: 'ok' }) : recording('ollama', 'chat.ok'),
    'openai.embeddings': (req) => ({
      body: {
        object: 'list',
        data: inputs(req).map((t, index) => ({
          object: 'embedding',
          index,
          embedding: fakeEmbedding(t, req.body?.dimensions ?? dims),
        })),
        model: req.body?.model,
        usage: { prompt_tokens: 3, total_tokens: 3 },
      },
    }),
    'ollama.embed': (req) => ({
      body: {
        model: req.body?.model,
        embeddings: inputs(req).map((t) => fakeEmbedding(t, dims)),
        total_duration: 1,
        load_duration: 1,
        prompt_eval_count: 3,
      },
    }),
    'ollama.embeddings': (req) => ({ body: { embedding: fakeEmbedding(String(req.body?.prompt), dims) } }),
  };
}

/** Starts a server. `embedDims` sets the length of computed embeddings (default 8). */
export async function startLoopback(opts: { embedDims?: number } = {}): Promise<Loopback> {
  const requests: RecordedRequest[] = [];
  const queues = new Map<Route, Reply[]>();
  const handlers = defaults(opts.embedDims ?? 8);
  const waiters: { n: number; resolve: () => void }[] = [];
  const byPath = new Map<string, Route>(Object.entries(ROUTES).map(([k, v]) => [v, k as Route]));

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = JSON.parse(raw);
      } catch {
        body = undefined;
      }
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      const route = byPath.get(path);
      const rec: RecordedRequest = { route, method: req.method ?? '', path, headers: { ...req.headers }, body, raw };
      requests.push(rec);
      for (const w of waiters.splice(0)) {
        if (requests.length >= w.n) w.resolve();
        else waiters.push(w);
      }
      if (!route || req.method !== 'POST') {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('404 page not found');
        return;
      }
      const reply = queues.get(route)?.shift() ?? handlers[route](rec);
      send(res, reply);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const api: Loopback = {
    url: `http://127.0.0.1:${port}`,
    requests,
    requestsTo: (route) => requests.filter((r) => r.route === route),
    reply(route, ...replies) {
      queues.set(route, [...(queues.get(route) ?? []), ...replies]);
      return api;
    },
    waitForRequests: (n) =>
      new Promise<void>((resolve) => {
        if (requests.length >= n) resolve();
        else waiters.push({ n, resolve });
      }),
    handle(route, handler) {
      handlers[route] = handler;
      return api;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return api;
}

function send(res: ServerResponse, reply: Reply): void {
  if ('fail' in reply) {
    if (reply.fail === 'hang') return; // keep the socket open until close()
    if (reply.fail === 'reset') {
      res.socket?.destroy();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"id": "msg_01', 'utf8');
    return;
  }
  const status = reply.status ?? 200;
  if ('chunks' in reply) {
    void writeChunks(res, status, reply);
    return;
  }
  if ('raw' in reply) {
    res.writeHead(status, { 'content-type': 'text/plain', ...reply.headers }).end(reply.raw);
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json', ...reply.headers }).end(JSON.stringify(reply.body));
}

/** Writes a streamed reply chunk by chunk, letting the event loop turn between chunks. */
async function writeChunks(
  res: ServerResponse,
  status: number,
  reply: { headers?: Record<string, string>; chunks: string[]; then?: 'hang' | 'reset' },
): Promise<void> {
  res.writeHead(status, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...reply.headers });
  res.flushHeaders();
  for (const c of reply.chunks) {
    if (res.destroyed) return;
    res.write(c);
    await new Promise((r) => setImmediate(r));
  }
  if (reply.then === 'hang') return;
  if (reply.then === 'reset') res.socket?.destroy();
  else res.end();
}

/** A `sleep` for retry tests that returns at once and records each requested wait. */
export function recordingSleep(): { sleep: (ms: number) => Promise<void>; waits: number[] } {
  const waits: number[] = [];
  return { waits, sleep: async (ms) => void waits.push(ms) };
}
