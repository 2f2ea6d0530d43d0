/**
 * @module test/e2e/serve
 * `loci serve` as a real child process over real HTTP: tokens (401 without a live one, 403 without
 * the right on the wing), Origin/Host checks and 413, the audit log, MCP sessions per member, the
 * CLI's remote mode with its errors, `loci memory sync` between two members (privacy, convergence,
 * conflicts), and faults: SIGTERM drains requests in flight and a restart (graceful or SIGKILL)
 * loses no acknowledged write. No timing assertions. The server is the built `bin/loci.js`; the CLI
 * commands that talk to it or to its home (`serve token`, remote mode, `memory sync`) run in-process
 * (`lociIn`): the process boundary under test is the server's.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { BIN, tempDir, writeTree } from '../helpers/cli.js';
import { lociIn } from '../helpers/cli-in-process.js';

interface Server {
  url: string;
  child: ChildProcess;
  /** Sends `signal` and resolves with the exit code (or the signal name). */
  stop(signal?: NodeJS.Signals): Promise<number | string>;
  /** Resolves with the exit code (or the signal name) once the process exits. */
  exited: Promise<number | string>;
}

function startServer(home: string): Promise<Server> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0'], {
    env: { ...process.env, LOCI_HOME: home, LOCI_SERVER: '', LOCI_TOKEN: '', NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | string>((r) => child.once('exit', (code, sig) => r(code ?? sig ?? -1)));
  return new Promise((resolve, reject) => {
    let err = '';
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      const m = /team server at (http:\/\/\S+) /.exec(err);
      if (m) resolve({ url: m[1]!, child, exited, stop: (s = 'SIGTERM') => (child.kill(s), exited) });
    });
    child.once('exit', () => reject(new Error(`loci serve exited: ${err}`)));
  });
}

async function token(home: string, user: string, ...grants: string[]): Promise<string> {
  const r = await lociIn(
    ['serve', 'token', 'create', '--user', user, ...grants.flatMap((g) => ['--grant', g]), '--json'],
    {
      home,
      env: { LOCI_SERVER: '' },
    },
  );
  assert.equal(r.code, 0, r.stderr);
  return (JSON.parse(r.stdout) as { token: string }).token;
}

/**
 * `fetch`, sent again once when it fails on a kept-alive socket that the server closed while the
 * test process was busy (a race of the keep-alive timers, not a fault of the server). Only for
 * requests that may be repeated: every request here is idempotent or opens a new session.
 */
const fetchAgain: typeof fetch = (input, init) =>
  fetch(input, init).catch((e: { cause?: { code?: string } }) => {
    if (e.cause?.code === 'ECONNREFUSED') throw e;
    return fetch(input, init);
  });

async function api(url: string, op: string, body: unknown, tok?: string, headers: Record<string, string> = {}) {
  const res = await fetchAgain(`${url}/api/v1/${op}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(tok ? { authorization: `Bearer ${tok}` } : {}), ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

function rawStatus(url: string, host: string): Promise<number> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: u.hostname, port: u.port, path: '/api/v1/whoami', method: 'POST', headers: { host } },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end('{}');
  });
}

const memory = (type: string, name: string, body: string, extra = '') =>
  `---\nname: ${name}\ndescription: ${name} notes\nmetadata:\n  type: ${type}\n${extra}---\n${body}`;

describe('loci serve', () => {
  const tmp = tempDir('loci-serve-');
  const home = join(tmp.dir, 'server');
  let srv: Server;
  let alice: string;
  let bob: string;
  let admin: string;
  before(async () => {
    alice = await token(home, 'alice', 'proj:write');
    bob = await token(home, 'bob', 'other:read');
    admin = await token(home, 'root', '*:admin');
    srv = await startServer(home);
  });
  after(async () => {
    if (srv.child.exitCode === null) await srv.stop();
    tmp.cleanup();
  });

  test('401 without a live token, 403 without the right, 413, Origin and Host checks, audit', async () => {
    assert.equal((await api(srv.url, 'whoami', {})).status, 401);
    assert.equal((await api(srv.url, 'whoami', {}, 'loci_not-a-token')).status, 401);
    const denied = await api(srv.url, 'add', { input: { wing: 'proj', room: 'r', text: 'x' } }, bob);
    assert.equal(denied.status, 403);
    assert.equal((denied.json['error'] as { code: string }).code, 'TEAM_FORBIDDEN');
    const ok = await api(
      srv.url,
      'add',
      { input: { wing: 'proj', room: 'deploy', text: 'we deploy on Tuesdays' } },
      alice,
    );
    assert.equal(ok.status, 200);
    const id = ok.json['id'] as string;
    assert.equal((await api(srv.url, 'get', { id }, bob)).status, 403, 'bob cannot read wing proj');
    assert.equal((await api(srv.url, 'get', { id }, alice)).status, 200);
    const big = await api(srv.url, 'add', JSON.stringify({ input: { text: 'x'.repeat(5 * 1024 * 1024) } }), alice);
    assert.equal(big.status, 413);
    const evil = await api(srv.url, 'whoami', {}, alice, { origin: 'https://evil.example' });
    assert.equal(evil.status, 403);
    assert.equal(await rawStatus(srv.url, 'evil.example'), 403);
    const audit = await api(srv.url, 'audit', {}, admin);
    const entries = audit.json['entries'] as { user: string; action: string; wing: string; target: string }[];
    assert.deepEqual(
      entries.map((e) => [e.user, e.action, e.wing, e.target]),
      [['alice', 'drawer.add', 'proj', id]],
    );
    assert.equal((await api(srv.url, 'audit', {}, alice)).status, 403);
    const cli = await lociIn(['serve', 'audit', '--json'], { home });
    assert.equal((JSON.parse(cli.stdout) as { entries: unknown[] }).entries.length, 1);
  });

  test('revoked tokens get 401 on their next request', async () => {
    const t = await token(home, 'carol', 'proj:read');
    assert.equal((await api(srv.url, 'whoami', {}, t)).status, 200);
    const list = JSON.parse((await lociIn(['serve', 'token', 'list', '--json'], { home })).stdout) as {
      tokens: { id: string; user: string }[];
    };
    const id = list.tokens.find((x) => x.user === 'carol')!.id;
    assert.equal((await lociIn(['serve', 'token', 'revoke', id], { home })).code, 0);
    assert.equal((await api(srv.url, 'whoami', {}, t)).status, 401);
    assert.match((await lociIn(['serve', 'token', 'revoke', id], { home })).stderr, /TEAM_TOKEN_NOT_FOUND/);
  });

  test('MCP over HTTP: one session per member, rights enforced, memory-folder tools left out', async () => {
    const transport = new StreamableHTTPClientTransport(new URL(`${srv.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${alice}` } },
      fetch: fetchAgain,
    });
    const client = new Client({ name: 'serve-test', version: '1' });
    await client.connect(transport);
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      assert.ok(names.includes('loci_search') && !names.includes('loci_memory_write'));
      const add = await client.callTool({
        name: 'loci_add_drawer',
        arguments: { wing: 'proj', room: 'mcp', content: 'added over MCP by alice' },
      });
      assert.ok(!add.isError, JSON.stringify(add.structuredContent));
      const denied = await client.callTool({
        name: 'loci_add_drawer',
        arguments: { wing: 'other', room: 'mcp', content: 'not allowed' },
      });
      assert.equal((denied.structuredContent as { error: { code: string } }).error.code, 'TEAM_FORBIDDEN');
      const sid = transport.sessionId!;
      const stolen = await fetchAgain(`${srv.url}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${bob}`,
          'mcp-session-id': sid,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list', params: {} }),
      });
      assert.equal(stolen.status, 403, "bob cannot use alice's session");
    } finally {
      await client.close();
    }
  });

  test('one token cannot take every MCP session slot: its own oldest idle session yields', async () => {
    const init = (tok: string) =>
      fetchAgain(`${srv.url}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${tok}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
        }),
      }).then(async (r) => (await r.text(), { status: r.status, sid: r.headers.get('mcp-session-id') }));
    const ids: string[] = [];
    for (let i = 0; i < 9; i++) {
      const r = await init(alice);
      assert.equal(r.status, 200);
      ids.push(r.sid!);
    }
    const first = await fetchAgain(`${srv.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${alice}`,
        'mcp-session-id': ids[0]!,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }),
    });
    await first.text();
    assert.equal(first.status, 404, "alice's oldest session yielded to her ninth");
    assert.equal((await init(bob)).status, 200, 'another member still gets a session');
  });

  test('remote mode: search, get, add and kg through the server, with catalogue errors', async () => {
    const kg = await token(home, 'dana', '*:write');
    const env = { LOCI_SERVER: srv.url, LOCI_TOKEN: kg };
    const local = join(tmp.dir, 'member-home');
    const add = await lociIn(['add', '-w', 'team', '-r', 'ops', 'the pager rotation changes on Mondays', '--json'], {
      home: local,
      env,
    });
    assert.equal(add.code, 0, add.stderr);
    const id = (JSON.parse(add.stdout) as { id: string }).id;
    const search = await lociIn(['search', 'pager rotation', '--json'], { home: local, env });
    assert.equal((JSON.parse(search.stdout) as { results: { id: string }[] }).results[0]?.id, id);
    assert.match((await lociIn(['get', id], { home: local, env })).stdout, /pager rotation/);
    assert.equal((await lociIn(['kg', 'add', 'dana', 'works_at', 'Acme'], { home: local, env })).code, 0);
    const q = JSON.parse((await lociIn(['kg', 'query', 'dana', '--json'], { home: local, env })).stdout) as {
      facts: { object: string }[];
    };
    assert.equal(q.facts[0]?.object, 'Acme');
    const unauth = await lociIn(['search', 'x'], { home: local, env: { ...env, LOCI_TOKEN: 'nope' } });
    assert.equal(unauth.code, 2);
    assert.match(unauth.stderr, /\[TEAM_UNAUTHORISED\]/);
    const forbidden = await lociIn(['add', '-w', 'proj', '-r', 'x', 'hi'], {
      home: local,
      env: { ...env, LOCI_TOKEN: bob },
    });
    assert.match(forbidden.stderr, /\[TEAM_FORBIDDEN\]/);
    const down = await lociIn(['search', 'x'], { home: local, env: { ...env, LOCI_SERVER: 'http://127.0.0.1:9' } });
    assert.match(down.stderr, /\[TEAM_SERVER_UNREACHABLE\]/);
    assert.match((await lociIn(['sync'], { home: local, env })).stderr, /\[TEAM_REMOTE_UNSUPPORTED\]/);
    assert.match(
      (await lociIn(['memory', 'sync'], { home: local, env: { LOCI_SERVER: '' } })).stderr,
      /TEAM_SERVER_MISSING/,
    );
  });

  test('remote mine uploads a folder into a wing; uploads cannot escape their folder', async () => {
    const docs = join(tmp.dir, 'docs');
    writeTree(docs, { 'guide.md': '# Guide\n\nThe staging cluster is called heron.\n', 'a/b.txt': 'nested file\n' });
    const env = { LOCI_SERVER: srv.url, LOCI_TOKEN: alice };
    const local = join(tmp.dir, 'miner-home');
    const r = await lociIn(['mine', docs, '--wing', 'proj', '--json'], { home: local, env });
    assert.equal(r.code, 0, r.stderr);
    const s = JSON.parse(
      (await lociIn(['search', 'staging cluster heron', '--json'], { home: local, env })).stdout,
    ) as {
      results: { wing: string; text: string }[];
    };
    assert.equal(s.results[0]?.wing, 'proj');
    assert.match(s.results[0]?.text ?? '', /heron/);
    const up = (root: string, path: string, tok = alice, wing = 'proj') =>
      api(srv.url, 'mine-upload', { wing, root, files: [{ path, text: 'x' }] }, tok);
    assert.equal((await up('x', '../../evil.md')).status, 400);
    assert.equal((await up('..', 'evil.md')).status, 400);
    assert.equal((await up('x', '/etc/evil.md')).status, 400);
    assert.equal((await up('x', 'ok.md', alice, 'other')).status, 403);
  });

  test('memory sync: user and feedback memories stay home; two members converge; conflicts kept', async () => {
    const m = async (who: string) => {
      const dir = join(tmp.dir, who, 'memory');
      mkdirSync(dir, { recursive: true });
      const env = { LOCI_SERVER: srv.url, LOCI_TOKEN: await token(home, who, 'proj:write') };
      const sync = async (...extra: string[]) => {
        const r = await lociIn(['memory', 'sync', '--dir', dir, '--project', 'proj', '--json', ...extra], {
          home: join(tmp.dir, who, 'home'),
          env,
        });
        assert.equal(r.code, 0, r.stderr);
        return JSON.parse(r.stdout) as { pushed: string[]; written: string[]; conflicts: string[] };
      };
      return { dir, sync, put: (f: string, t: string) => writeFileSync(join(dir, f), t) };
    };
    const a = await m('ann');
    const b = await m('ben');
    a.put('user_me.md', memory('user', 'me', 'SECRET-USER-NOTE\n'));
    a.put('feedback_style.md', memory('feedback', 'style', 'SECRET-FEEDBACK\n', '  privacy: team\n'));
    a.put('reference_ci.md', memory('reference', 'ci', 'one\ntwo\nthree\n'));
    assert.deepEqual((await a.sync('--dry-run')).pushed, ['reference_ci.md']);
    assert.deepEqual((await a.sync()).pushed, ['reference_ci.md']);
    assert.deepEqual((await b.sync()).written, ['reference_ci.md']);
    const db = readFileSync(join(home, 'palace.db')).toString('latin1');
    assert.ok(!db.includes('SECRET-USER-NOTE') && !db.includes('SECRET-FEEDBACK'));

    a.put('reference_ci.md', memory('reference', 'ci', 'one by ann\ntwo\nthree\n'));
    b.put('reference_ci.md', memory('reference', 'ci', 'one\ntwo\nthree by ben\n'));
    await a.sync();
    await b.sync();
    await a.sync();
    const want = memory('reference', 'ci', 'one by ann\ntwo\nthree by ben\n');
    assert.equal(readFileSync(join(a.dir, 'reference_ci.md'), 'utf8'), want);
    assert.equal(readFileSync(join(b.dir, 'reference_ci.md'), 'utf8'), want);

    a.put('reference_ci.md', memory('reference', 'ci', 'one by ann\nTWO (ann)\nthree by ben\n'));
    b.put('reference_ci.md', memory('reference', 'ci', 'one by ann\nTWO (ben)\nthree by ben\n'));
    await a.sync();
    assert.deepEqual((await b.sync()).conflicts, ['reference_ci.md']);
    await a.sync();
    const merged = readFileSync(join(b.dir, 'reference_ci.md'), 'utf8');
    assert.match(merged, /<<<<<<< ben\nTWO \(ben\)\n=======\nTWO \(ann\)\n>>>>>>> ann/);
    assert.equal(readFileSync(join(a.dir, 'reference_ci.md'), 'utf8'), merged);
  });
});

describe('loci serve faults', () => {
  const tmp = tempDir('loci-serve-faults-');
  after(() => tmp.cleanup());

  /** Fires `n` adds at once; `kill` runs after the first acknowledgement. Returns the acknowledged ids. */
  async function burst(url: string, tok: string, n: number, tag: string, kill: () => void): Promise<string[]> {
    let killed = false;
    const acked: string[] = [];
    await Promise.all(
      Array.from({ length: n }, async (_, i) => {
        try {
          const r = await api(url, 'add', { input: { wing: 'w', room: 'r', text: `${tag} write number ${i}` } }, tok);
          if (r.status === 200) acked.push(r.json['id'] as string);
          else assert.equal(r.status, 503, JSON.stringify(r.json));
        } catch {
          // refused or reset after the shutdown began: never acknowledged
        }
        if (!killed && acked.length) {
          killed = true;
          kill();
        }
      }),
    );
    return acked;
  }

  async function present(home: string, tok: string, ids: string[]): Promise<number> {
    const srv = await startServer(home);
    try {
      let found = 0;
      for (const id of ids)
        if (((await api(srv.url, 'get', { id }, tok)).json['drawer'] as { id?: string } | null)?.id === id) found++;
      return found;
    } finally {
      await srv.stop();
    }
  }

  test('SIGTERM finishes requests in flight, exits 0, and no acknowledged write is lost', async () => {
    const home = join(tmp.dir, 'graceful');
    const tok = await token(home, 'w', 'w:write');
    const srv = await startServer(home);
    const acked = await burst(srv.url, tok, 40, 'graceful', () => srv.child.kill('SIGTERM'));
    assert.equal(await srv.exited, 0);
    assert.ok(acked.length >= 1);
    assert.equal(await present(home, tok, acked), acked.length);
  });

  test('a hard kill (SIGKILL) mid-burst loses no acknowledged write either', async () => {
    const home = join(tmp.dir, 'hard');
    const tok = await token(home, 'w', 'w:write');
    const srv = await startServer(home);
    const acked = await burst(srv.url, tok, 40, 'hard', () => srv.child.kill('SIGKILL'));
    await srv.stop('SIGKILL');
    assert.equal(await present(home, tok, acked), acked.length);
  });
});
