/** @module redact/redact.test */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { CLEAN_LINES, SECRET_LINES } from '../../test/helpers/secrets-corpus.js';
import { chunkExchanges, parseConversations, parseSlackChannel } from '../ingest/convos/index.js';
import { TOKEN_KINDS, entropy, findSecrets, isSecretKey, isSecretValue, redactSecrets } from './index.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const j = (...parts: string[]) => parts.join('');

describe('redactSecrets: the secrets corpus', () => {
  it('covers at least 30 formats', () => {
    const kinds = new Set(SECRET_LINES.map((l) => l.kind));
    assert.ok(kinds.size >= 30, `${kinds.size} kinds`);
    assert.ok(SECRET_LINES.length >= 50);
    for (const k of ['sendgrid', 'mailgun', 'discord', 'shopify', 'pypi']) assert.ok(kinds.has(k), k);
    for (const k of kinds)
      assert.ok(
        TOKEN_KINDS.includes(k) || ['secret', 'password', 'aws-secret-key', 'url-password', 'bearer'].includes(k),
        k,
      );
  });

  for (const l of SECRET_LINES) {
    it(`redacts ${l.name}, and nothing else`, () => {
      assert.ok(l.text.includes(l.secret));
      const r = redactSecrets(l.text);
      assert.equal(r.text, l.text.replace(l.secret, `[REDACTED:${l.kind}]`));
      assert.deepEqual(r.kinds, { [l.kind]: 1 });
    });
  }

  for (const text of CLEAN_LINES) {
    it(`leaves alone: ${text.slice(0, 60)}`, () =>
      assert.deepEqual(redactSecrets(text), { text, count: 0, kinds: {} }));
  }

  it('finds every secret of the corpus in one text, and is idempotent', () => {
    const all = [...SECRET_LINES.map((l) => l.text), ...CLEAN_LINES].join('\n');
    const r = redactSecrets(all);
    assert.equal(r.count, SECRET_LINES.length);
    for (const l of SECRET_LINES) assert.ok(!r.text.includes(l.secret), l.name);
    assert.deepEqual(redactSecrets(r.text), { text: r.text, count: 0, kinds: {} });
  });
});

describe('redactSecrets: rules', () => {
  it('gives the same answers when keys repeat (the secret-key memo), over the whole corpus in both orders', () => {
    const texts = [...SECRET_LINES.map((l) => l.text), ...CLEAN_LINES];
    const first = texts.map((t) => redactSecrets(t));
    const again = [...texts]
      .reverse()
      .map((t) => redactSecrets(t))
      .reverse();
    assert.deepEqual(again, first);
    for (const l of SECRET_LINES) assert.equal(redactSecrets(l.text).count, 1, l.name);
  });

  it('a token glued to a word, or cut short, is not a token', () => {
    const body = 'Zq8Lm2Xc9Vb4Nn7Aa1Ss5Dd3Ff6Gg0Hh2Jj4Kk';
    assert.equal(redactSecrets(j('x', 'gh', 'p_', body.slice(0, 36))).count, 0);
    assert.equal(
      redactSecrets(j('gh', 'p_', body.slice(0, 36), 'QQQQQ')).count,
      0,
      'fixed length: 36 to 40 characters',
    );
    assert.equal(redactSecrets(j('gh', 'p_', body.slice(0, 20))).count, 0);
    assert.equal(redactSecrets(j('"', 'gh', 'p_', body.slice(0, 36), '"')).count, 1);
    assert.equal(redactSecrets(j('echo a\\n', 'gh', 'p_', body.slice(0, 36))).count, 1, 'after an escaped newline');
  });

  it('a Discord-shaped token whose first part is not a numeric id is not a token', () => {
    const id = Buffer.from('not-a-number-at-all!').toString('base64url');
    const fake = `${id}.Gh3kLm.${'aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z5'}`;
    assert.equal(redactSecrets(fake).count, 0);
  });

  it('a PEM block is redacted whole, also when its END line is cut off; public keys are kept', () => {
    const body = 'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW';
    const cut = j('-----BEGIN OPENSSH ', 'PRIVATE KEY-----\n', body);
    assert.equal(redactSecrets(`→ ${cut}`).text, '→ [REDACTED:private-key]');
    assert.equal(redactSecrets(`"${cut.replace(/\n/g, '\\n')}\\n"`).text, '"[REDACTED:private-key]"');
  });

  it('URL passwords: the password only; defaults, placeholders and the user name are kept', () => {
    const pw = j('Wq7rT2', 'vLp9');
    assert.equal(
      redactSecrets(`redis://app:${pw}@cache.internal:6379/0`).text,
      'redis://app:[REDACTED:url-password]@cache.internal:6379/0',
    );
    assert.equal(
      redactSecrets(`mongodb+srv://svc:p%40${pw}@db.example.net/x`).text,
      'mongodb+srv://svc:[REDACTED:url-password]@db.example.net/x',
    );
    for (const fine of [
      'mysql://root:root@127.0.0.1/x',
      'amqp://guest:guest@rabbit:5672',
      'postgres://app:${DB_PASS}@db/x',
      'postgres://app:<password>@db/x',
    ]) {
      assert.equal(redactSecrets(fine).count, 0, fine);
    }
  });

  it('assignments: the key stays, the provider named by the key gives the kind', () => {
    const v = 'Lk3mQ9zX7wV2bN8cR4tY6uP1';
    assert.equal(redactSecrets(`export TWILIO_AUTH_TOKEN="${v}"`).text, 'export TWILIO_AUTH_TOKEN="[REDACTED:twilio]"');
    assert.equal(
      redactSecrets(`db:\n  password: ${v}\n  user: app`).text,
      'db:\n  password: [REDACTED:password]\n  user: app',
    );
    assert.equal(redactSecrets(`SECRET_KEY := ${v}`).text, 'SECRET_KEY := [REDACTED:secret]');
    assert.equal(
      redactSecrets(`"apiKey": "${v}", "publicKey": "${v}"`).text,
      `"apiKey": "[REDACTED:secret]", "publicKey": "${v}"`,
    );
  });

  it('isSecretKey follows the documented rule', () => {
    for (const k of [
      'password',
      'DB_PASSWORD',
      'apiKey',
      'api_key',
      'X-Api-Key',
      'client_secret',
      'accessToken',
      '_authToken',
      'aws_secret_access_key',
      'SECRET_KEY_BASE',
      'private_key',
      'passphrase',
      'db_pwd',
      'refresh_token',
    ]) {
      assert.equal(isSecretKey(k), true, k);
    }
    for (const k of [
      'tokens',
      'max_tokens',
      'tokenizer',
      'primary_key',
      'keyboard',
      'public_key',
      'publishableKey',
      'monkey',
      'passport',
      'author',
      'PWD',
      'OLDPWD',
      'pad_token',
      'next_token',
      'unk_token',
    ]) {
      assert.equal(isSecretKey(k), false, k);
    }
  });

  it('isSecretValue: random values yes; placeholders, code, paths and words no', () => {
    for (const v of ['Lk3mQ9zX7wV2bN8c', 'a8f5f167f44f4964e6c998dee827110c', 'W4x!pq7Z-rT9'])
      assert.equal(isSecretValue(v, false), true, v);
    assert.equal(isSecretValue('Tr0ub4dor&3', true), true);
    for (const v of [
      'your_key',
      'xxxxxxxxxxxx',
      '<token>',
      '${VAR}',
      'process.env.X',
      '[PAD]',
      'new',
      'getToken()',
      'form.password1',
      '/usr/local/bin',
      'https://x.y/z',
      'MY_SECRET_TOKEN',
      'hashedPassword',
      '1.2.3',
      '12345678',
      'changeme123',
      'example-key-1234',
    ]) {
      assert.equal(isSecretValue(v, false), false, v);
    }
    assert.ok(entropy('aaaa') === 0 && entropy('abcd') === 2);
  });

  it('findSecrets returns the positions it replaces', () => {
    const text = `a ${SECRET_LINES[4]!.text} b`;
    const [h] = findSecrets(text);
    assert.equal(text.slice(h!.start, h!.end), SECRET_LINES[4]!.secret);
  });
});

describe('redactSecrets on the fixtures', () => {
  const FIX = join(ROOT, 'test', 'fixtures', 'convos');
  const chunksOf = (p: string) =>
    parseConversations(join(FIX, p), readFileSync(join(FIX, p), 'utf8'))
      .conversations.flatMap((c) => chunkExchanges(c))
      .map((c) => c.text)
      .join('\n');

  it('finds every planted secret and nothing else', () => {
    const session = redactSecrets(
      chunksOf('claude-code/projects/-home-dev-acme-api/5f0c2e1a-8b7d-4c3e-9a21-3f6d0b9e4c10.jsonl'),
    );
    assert.deepEqual(session.kinds, { 'url-password': 1 });
    assert.deepEqual(redactSecrets(chunksOf('claude-code/history.jsonl')).kinds, { openai: 1 });
    assert.deepEqual(redactSecrets(chunksOf('chatgpt/conversations.json')).kinds, { 'aws-access-key': 1 });
    assert.deepEqual(redactSecrets(chunksOf('chat-text/team-chat.txt')).kinds, { password: 1 });
    const dir = join(FIX, 'slack/eng-backend');
    const slack = parseSlackChannel(
      dir,
      readdirSync(dir).map((name) => ({ name, content: readFileSync(join(dir, name), 'utf8') })),
    );
    const slackText = slack.conversations
      .flatMap((c) => chunkExchanges(c))
      .map((c) => c.text)
      .join('\n');
    assert.deepEqual(redactSecrets(slackText).kinds, { slack: 1 });
    for (const p of [
      'claude-ai/conversations.json',
      'codex/sessions/2025/05/20/rollout-2025-05-20T09-14-03-0196f2a1-7c3e-7d10-9b2a-5e8f4c1d2a3b.jsonl',
      'gemini/tmp/8c1f0e2d/chats/session-2025-07-01T10-00-9f8e7d6c.json',
      'chat-text/meeting-notes.md',
    ]) {
      assert.equal(redactSecrets(chunksOf(p)).count, 0, p);
    }
  });
});

describe('no false redactions in Loci itself', () => {
  it('src/ and docs/ redact to themselves', () => {
    const files: string[] = [];
    const walk = (d: string) => {
      for (const e of readdirSync(d, { withFileTypes: true })) {
        if (e.isDirectory()) walk(join(d, e.name));
        else if (/\.(?:ts|md|json)$/.test(e.name)) files.push(join(d, e.name));
      }
    };
    for (const d of ['src', 'docs']) if (existsSync(join(ROOT, d))) walk(join(ROOT, d));
    for (const f of readdirSync(ROOT)) if (f.endsWith('.md')) files.push(join(ROOT, f));
    assert.ok(files.length > 50);
    const found = files.flatMap((f) => {
      const text = readFileSync(f, 'utf8');
      return findSecrets(text).map((h) => `${f.slice(ROOT.length)}: ${text.slice(h.start, h.end)}`);
    });
    // src/ingest/convos/parse-exports.test.ts plants two fake keys on purpose.
    assert.deepEqual(
      found.filter((x) => !x.startsWith('src/ingest/convos/parse-exports.test.ts')),
      [],
    );
  });
});
