/** @module providers/http.test — the shared transport: retries, back-off, deadline, abort, error mapping. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { isLociError } from '../core/errors.js';
import { recording, recordingSleep, startLoopback, type Loopback } from '../../test/helpers/loopback.js';
import {
  DEFAULT_RETRY,
  backoffMs,
  endpoint,
  errorReason,
  httpEffects,
  postJson,
  retryAfterMs,
  type JsonCall,
} from './http.js';

let server: Loopback;
before(async () => {
  server = await startLoopback();
});
after(() => server.close());

function call(over: Partial<JsonCall> = {}): JsonCall {
  return {
    provider: 'anthropic',
    operation: 'test call',
    url: endpoint(server.url, '/v1/messages'),
    body: { hello: 'world' },
    timeoutMs: 10_000,
    retry: { ...DEFAULT_RETRY },
    ...over,
  };
}

describe('postJson', () => {
  it('posts JSON with content-type and accept headers and returns the parsed body', async () => {
    const before = server.requests.length;
    const json = await postJson(call({ headers: { 'x-extra': '1' } }), httpEffects());
    assert.equal((json as { type: string }).type, 'message');
    const req = server.requests[before]!;
    assert.equal(req.method, 'POST');
    assert.equal(req.headers['content-type'], 'application/json');
    assert.equal(req.headers['accept'], 'application/json');
    assert.equal(req.headers['x-extra'], '1');
    assert.deepEqual(req.body, { hello: 'world' });
  });

  it('retries a 429 after the retry-after seconds, then succeeds', async () => {
    const { sleep, waits } = recordingSleep();
    const before = server.requests.length;
    server.reply('anthropic.messages', recording('anthropic', 'error.rate_limited'));
    await postJson(call(), httpEffects({ sleep }));
    assert.deepEqual(waits, [2000]);
    assert.equal(server.requests.length - before, 2);
  });

  it('caps retry-after at retry.maxMs', async () => {
    const { sleep, waits } = recordingSleep();
    server.reply('anthropic.messages', { status: 429, headers: { 'retry-after': '3600' }, body: {} });
    await postJson(call({ retry: { maxRetries: 2, baseMs: 10, maxMs: 1500 } }), httpEffects({ sleep }));
    assert.deepEqual(waits, [1500]);
  });

  it('prefers retry-after-ms over retry-after', async () => {
    const { sleep, waits } = recordingSleep();
    server.reply('anthropic.messages', {
      status: 429,
      headers: { 'retry-after-ms': '250', 'retry-after': '5' },
      body: {},
    });
    await postJson(call(), httpEffects({ sleep }));
    assert.deepEqual(waits, [250]);
  });

  it('gives up at once with the 429 when retry-after would pass the deadline', async () => {
    const { sleep, waits } = recordingSleep();
    const before = server.requests.length;
    server.reply('anthropic.messages', recording('anthropic', 'error.rate_limited'));
    await assert.rejects(postJson(call({ timeoutMs: 1000 }), httpEffects({ sleep })), (e) => {
      assert.ok(isLociError(e, 'PROVIDER_FAILED'));
      assert.equal(e.details.status, 429);
      return true;
    });
    assert.deepEqual(waits, []);
    assert.equal(server.requests.length - before, 1);
  });

  it('backs off exponentially with jitter on 5xx and reports the last error after maxRetries', async () => {
    const { sleep, waits } = recordingSleep();
    const before = server.requests.length;
    const overloaded = recording('anthropic', 'error.overloaded');
    server.reply('anthropic.messages', overloaded, overloaded, overloaded);
    await assert.rejects(postJson(call(), httpEffects({ sleep, random: () => 0.5 })), (e) => {
      assert.ok(isLociError(e, 'PROVIDER_FAILED'));
      assert.equal(e.details.status, 529);
      assert.equal(e.details.reason, 'overloaded_error: Overloaded');
      assert.match(e.message, /HTTP 529/);
      return true;
    });
    assert.equal(server.requests.length - before, 3);
    assert.deepEqual(waits, [375, 750]); // 500·2^n, equal jitter at random 0.5
  });

  it('never retries other 4xx', async () => {
    const { sleep, waits } = recordingSleep();
    const before = server.requests.length;
    server.reply('anthropic.messages', recording('anthropic', 'error.invalid_request'));
    await assert.rejects(postJson(call(), httpEffects({ sleep })), (e) => {
      assert.ok(isLociError(e, 'PROVIDER_FAILED'));
      assert.equal(e.details.status, 400);
      assert.match(e.details.reason, /^invalid_request_error: max_tokens/);
      return true;
    });
    assert.deepEqual(waits, []);
    assert.equal(server.requests.length - before, 1);
  });

  it('retries a dropped connection as a network error', async () => {
    const { sleep, waits } = recordingSleep();
    server.reply('anthropic.messages', { fail: 'reset' });
    const json = await postJson(call(), httpEffects({ sleep }));
    assert.equal((json as { type: string }).type, 'message');
    assert.equal(waits.length, 1);
  });

  it('reports an unreachable server as PROVIDER_FAILED after its retries', async () => {
    const closed = await startLoopback();
    const url = endpoint(closed.url, '/v1/messages');
    await closed.close();
    const { sleep, waits } = recordingSleep();
    await assert.rejects(postJson(call({ url }), httpEffects({ sleep })), (e) => {
      assert.ok(isLociError(e, 'PROVIDER_FAILED'));
      assert.equal(e.details.status, undefined);
      assert.match(e.details.reason, /ECONNREFUSED/);
      return true;
    });
    assert.equal(waits.length, 2);
  });

  it('does not retry a 2xx with malformed JSON', async () => {
    const before = server.requests.length;
    server.reply('anthropic.messages', { fail: 'malformed' });
    await assert.rejects(postJson(call(), httpEffects({ sleep: recordingSleep().sleep })), (e) => {
      assert.ok(isLociError(e, 'PROVIDER_FAILED'));
      assert.match(e.details.reason, /not valid JSON/);
      return true;
    });
    assert.equal(server.requests.length - before, 1);
  });

  it('raises TIMEOUT when the server hangs past the deadline, without retrying', async () => {
    const before = server.requests.length;
    server.reply('anthropic.messages', { fail: 'hang' });
    await assert.rejects(postJson(call({ timeoutMs: 150 }), httpEffects()), (e) => {
      assert.ok(isLociError(e, 'TIMEOUT'));
      assert.equal(e.details.ms, 150);
      assert.equal(e.details.operation, 'test call');
      return true;
    });
    assert.equal(server.requests.length - before, 1);
  });

  it('raises ABORTED when the caller cancels mid-request, without retrying', async () => {
    const before = server.requests.length;
    server.reply('anthropic.messages', { fail: 'hang' });
    const ctl = new AbortController();
    const p = postJson(call({ signal: ctl.signal }), httpEffects());
    await server.waitForRequests(before + 1);
    ctl.abort();
    await assert.rejects(p, (e) => isLociError(e, 'ABORTED'));
    assert.equal(server.requests.length - before, 1);
  });

  it('sends nothing when the signal is already aborted', async () => {
    const before = server.requests.length;
    await assert.rejects(postJson(call({ signal: AbortSignal.abort() }), httpEffects()), (e) =>
      isLociError(e, 'ABORTED'),
    );
    assert.equal(server.requests.length, before);
  });

  it('stops waiting between retries when the caller aborts during back-off', async () => {
    const ctl = new AbortController();
    server.reply('anthropic.messages', { status: 503, body: { error: 'busy' } });
    const sleep = async () => void ctl.abort();
    await assert.rejects(postJson(call({ signal: ctl.signal }), httpEffects({ sleep })), (e) =>
      isLociError(e, 'ABORTED'),
    );
  });
});

describe('transport helpers', () => {
  it('endpoint joins roots with and without a trailing /v1 or slash', () => {
    assert.equal(endpoint('http://h:1', '/v1/x'), 'http://h:1/v1/x');
    assert.equal(endpoint('http://h:1/', '/v1/x'), 'http://h:1/v1/x');
    assert.equal(endpoint('http://h:1/v1/', '/v1/x'), 'http://h:1/v1/x');
    assert.equal(endpoint('http://h:1/proxy', '/api/chat'), 'http://h:1/proxy/api/chat');
    assert.throws(
      () => endpoint('ftp://h', '/v1/x'),
      (e) => isLociError(e, 'INVALID_ARGUMENT'),
    );
    assert.throws(
      () => endpoint('not a url', '/v1/x'),
      (e) => isLociError(e, 'INVALID_ARGUMENT'),
    );
  });

  it('errorReason reads every provider error shape', () => {
    assert.equal(errorReason('{"type":"error","error":{"type":"t","message":"m"}}', 400), 't: m');
    assert.equal(errorReason('{"error":"model not found"}', 404), 'model not found');
    assert.equal(errorReason('{"detail":"bad field"}', 422), 'bad field');
    assert.equal(errorReason('404 page not found', 404), '404 page not found');
    assert.equal(errorReason('', 502), 'HTTP 502 with an empty body');
  });

  it('retryAfterMs reads seconds, milliseconds and HTTP dates', () => {
    assert.equal(retryAfterMs(new Headers({ 'retry-after': '1.5' })), 1500);
    assert.equal(retryAfterMs(new Headers({ 'retry-after-ms': '20' })), 20);
    assert.equal(retryAfterMs(new Headers({ 'retry-after': new Date(10_000).toUTCString() }), 4_000), 6_000);
    assert.equal(retryAfterMs(new Headers({ 'retry-after': 'soon' })), undefined);
    assert.equal(retryAfterMs(new Headers()), undefined);
  });

  it('backoffMs stays between half and all of the capped exponential', () => {
    const p = { maxRetries: 5, baseMs: 100, maxMs: 1000 };
    for (let a = 0; a < 6; a++) {
      const cap = Math.min(1000, 100 * 2 ** a);
      assert.equal(
        backoffMs(a, p, () => 0),
        cap / 2,
      );
      assert.equal(
        backoffMs(a, p, () => 0.999999),
        Math.round(cap / 2 + 0.999999 * (cap / 2)),
      );
    }
  });
});
