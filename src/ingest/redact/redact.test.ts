/** @module ingest/redact/redact.test */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chunkExchanges, parseConversations, parseSlackChannel } from '../convos/index.js';
import { isSecretKey, redactSecrets } from './index.js';

// Fake credentials in the providers' formats, assembled at run time.
const A = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789';
const FAKE = {
  anthropic: `sk-ant-api03-${A}_${A}-x9`,
  openai: `sk-proj-${A}${A}`,
  openaiLegacy: `sk-${A}0123456789ab`,
  github: `ghp_${A}`,
  githubPat: `github_pat_11ABCDEFG0${A}_${A}`,
  aws: 'AKIAIOSFODNN7EXAMPLE',
  google: `AIza${A.slice(0, 35)}`,
  slack: 'xoxb-2048-4096-FAKEfakeFAKEfake01',
  stripe: `sk_live_${A.slice(0, 24)}`,
  gitlab: `glpat-${A.slice(0, 20)}`,
  npm: `npm_${A}`,
  hf: `hf_${A.slice(0, 34)}`,
  jwt: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkFkYSJ9.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c',
};

const one = (text: string) => redactSecrets(text);

describe('redactSecrets: provider keys', () => {
  const cases: [string, string, string][] = [
    ['anthropic', `key: ${FAKE.anthropic} ok`, 'key: [REDACTED:anthropic] ok'],
    ['openai', `use ${FAKE.openai}.`, 'use [REDACTED:openai].'],
    ['openai legacy', `(${FAKE.openaiLegacy})`, '([REDACTED:openai])'],
    ['github', `token ${FAKE.github}`, 'token [REDACTED:github]'],
    ['github pat', FAKE.githubPat, '[REDACTED:github]'],
    ['aws', `id=${FAKE.aws} region`, 'id=[REDACTED:aws-access-key] region'],
    ['google', `maps ${FAKE.google}`, 'maps [REDACTED:google]'],
    ['slack', `bot ${FAKE.slack}`, 'bot [REDACTED:slack]'],
    ['slack webhook', 'post to https://hooks.slack.com/services/T000/B000/XXXXXXXXXXXXXXXXXXXXXXXX now', 'post to [REDACTED:slack] now'],
    ['stripe', `stripe ${FAKE.stripe}`, 'stripe [REDACTED:stripe]'],
    ['gitlab', `glab ${FAKE.gitlab}`, 'glab [REDACTED:gitlab]'],
    ['npm', `//registry.npmjs.org/:_authToken=${FAKE.npm}`, '//registry.npmjs.org/:_authToken=[REDACTED:npm]'],
    ['huggingface', `hf ${FAKE.hf}`, 'hf [REDACTED:huggingface]'],
    ['jwt', `cookie=${FAKE.jwt};`, 'cookie=[REDACTED:jwt];'],
  ];
  for (const [name, input, out] of cases) it(name, () => assert.equal(one(input).text, out));
});

describe('redactSecrets: headers, keys, URLs, assignments', () => {
  it('redacts bearer tokens and Authorization headers', () => {
    assert.equal(one('Authorization: Bearer abc123def456ghi789jkl').text, 'Authorization: Bearer [REDACTED:bearer]');
    assert.equal(one('-H "authorization: Basic dXNlcjpwYXNzd29yZA=="').text, '-H "authorization: Basic [REDACTED:bearer]"');
    assert.equal(one('curl -H "Bearer 9f8e7d6c5b4a39281706f5e4"').text, 'curl -H "Bearer [REDACTED:bearer]"');
  });

  it('redacts a whole PEM private key block, also when its end is cut off', () => {
    const pem = '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7bq9\nq2Xz+/abc=\n-----END RSA PRIVATE KEY-----';
    assert.equal(one(`key:\n${pem}\ndone`).text, 'key:\n[REDACTED:private-key]\ndone');
    const cut = '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ';
    assert.equal(one(`→ ${cut}`).text, '→ [REDACTED:private-key]');
    assert.equal(one('-----BEGIN PUBLIC KEY-----\nMIIBIjAN\n-----END PUBLIC KEY-----').count, 0);
  });

  it('redacts the password of a URL and keeps the user', () => {
    assert.equal(one('redis://app:S3cretPass42@cache.internal:6379/0').text, 'redis://app:[REDACTED:url-password]@cache.internal:6379/0');
    assert.equal(one('postgresql://svc:p%40ss@db:5432/x').text, 'postgresql://svc:[REDACTED:url-password]@db:5432/x');
    for (const fine of ['https://example.com/a:b', 'postgres://localhost:5432/db', 'git@github.com:org/repo.git', 'https://user@host.com', 'ssh://git@host:22/x']) {
      assert.equal(one(fine).count, 0, fine);
    }
  });

  it('redacts values of secret-looking assignments and keeps the keys', () => {
    const env = [
      'OPENAI_API_KEY=abc123def456',
      'export DB_PASSWORD="hunter2!"',
      "AWS_SECRET_ACCESS_KEY = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY'",
      'SECRET_KEY_BASE=3f9a0c',
      'GITHUB_PAT=xyz987',
      'NODE_ENV=production',
      'PUBLIC_KEY=abcdef123',
      'STRIPE_PUBLISHABLE_KEY=pk_live_123',
    ].join('\n');
    assert.equal(
      one(env).text,
      [
        'OPENAI_API_KEY=[REDACTED:secret]',
        'export DB_PASSWORD="[REDACTED:password]"',
        "AWS_SECRET_ACCESS_KEY = '[REDACTED:aws-secret-key]'",
        'SECRET_KEY_BASE=[REDACTED:secret]',
        'GITHUB_PAT=[REDACTED:secret]',
        'NODE_ENV=production',
        'PUBLIC_KEY=abcdef123',
        'STRIPE_PUBLISHABLE_KEY=pk_live_123',
      ].join('\n'),
    );
    assert.equal(one('{"password": "hunter2", "apiKey": "k-1234"}').text, '{"password": "[REDACTED:password]", "apiKey": "[REDACTED:secret]"}');
    assert.equal(one('db:\n  password: s3cr3tpw\n  user: app').text, 'db:\n  password: [REDACTED:password]\n  user: app');
    assert.equal(one('GET /cb?code=1&access_token=ya29abc123&x=1').text, 'GET /cb?code=1&access_token=[REDACTED:secret]&x=1');
    assert.equal(one(`OPENAI_API_KEY=${FAKE.openai}`).text, 'OPENAI_API_KEY=[REDACTED:openai]');
  });

  it('counts per kind and is idempotent', () => {
    const text = `a ${FAKE.github} b ${FAKE.aws} c redis://u:pw123456@h/ d PASSWORD=x1`;
    const r = one(text);
    assert.equal(r.count, 4);
    assert.deepEqual(r.kinds, { github: 1, 'aws-access-key': 1, 'url-password': 1, password: 1 });
    const again = one(r.text);
    assert.equal(again.count, 0);
    assert.equal(again.text, r.text);
  });
});

describe('redactSecrets: no false positives', () => {
  const clean = [
    'The quick brown fox jumps over the lazy dog. Start the server and restart it.',
    'commit 4f2a9c1e8b7d6a5f4e3d2c1b0a9f8e7d6c5b4a39 fixed the tokenizer',
    'session 5f0c2e1a-8b7d-4c3e-9a21-3f6d0b9e4c10 and request 0196f2a1-7c3e-7d10-9b2a-5e8f4c1d2a3b',
    `<img src="data:image/png;base64,${'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='.repeat(20)}">`,
    'max_tokens: 4096, tokens: 12, tokenizer: "porter", token_count=5',
    'const token = getToken(); const password = form.password; if (secret == other) {}',
    'Password: reset it from the settings page. Token: expired.',
    'primary_key=id, sort_key=created_at, keyboard: "us"',
    'We use sk-learn and scikit-learn; the task-list is in docs; ghp is not a token.',
    'Authorization: required for all endpoints',
    'The Bearer token must be refreshed hourly.',
    'password: null\nAPI_KEY=${OPENAI_API_KEY}\nTOKEN=<your-token>\nSECRET=***',
  ];
  for (const text of clean) it(text.slice(0, 50), () => assert.deepEqual(one(text), { text, count: 0, kinds: {} }));

  it('isSecretKey follows the documented rule', () => {
    for (const k of ['password', 'DB_PASSWORD', 'apiKey', 'api_key', 'X-Api-Key', 'client_secret', 'accessToken', '_authToken', 'aws_secret_access_key', 'SECRET_KEY_BASE', 'private_key', 'passphrase']) {
      assert.equal(isSecretKey(k), true, k);
    }
    for (const k of ['tokens', 'max_tokens', 'tokenizer', 'primary_key', 'keyboard', 'public_key', 'publishableKey', 'monkey', 'passport', 'author']) {
      assert.equal(isSecretKey(k), false, k);
    }
  });
});

describe('redactSecrets on the fixtures', () => {
  const FIX = fileURLToPath(new URL('../../../test/fixtures/convos/', import.meta.url));
  const chunksOf = (p: string) =>
    parseConversations(join(FIX, p), readFileSync(join(FIX, p), 'utf8')).conversations.flatMap((c) => chunkExchanges(c)).map((c) => c.text).join('\n');

  it('finds every planted secret and nothing else', () => {
    const session = redactSecrets(chunksOf('claude-code/projects/-home-dev-acme-api/5f0c2e1a-8b7d-4c3e-9a21-3f6d0b9e4c10.jsonl'));
    assert.deepEqual(session.kinds, { 'url-password': 1 });
    assert.ok(!session.text.includes('S3cretPass42'));
    assert.deepEqual(redactSecrets(chunksOf('claude-code/history.jsonl')).kinds, { openai: 1 });
    assert.deepEqual(redactSecrets(chunksOf('chatgpt/conversations.json')).kinds, { 'aws-access-key': 1 });
    assert.deepEqual(redactSecrets(chunksOf('chat-text/team-chat.txt')).kinds, { password: 1 });
    const dir = join(FIX, 'slack/eng-backend');
    const slack = parseSlackChannel(dir, readdirSync(dir).map((name) => ({ name, content: readFileSync(join(dir, name), 'utf8') })));
    const slackText = slack.conversations.flatMap((c) => chunkExchanges(c)).map((c) => c.text).join('\n');
    assert.deepEqual(redactSecrets(slackText).kinds, { slack: 1 });
    for (const p of ['claude-ai/conversations.json', 'codex/sessions/2025/05/20/rollout-2025-05-20T09-14-03-0196f2a1-7c3e-7d10-9b2a-5e8f4c1d2a3b.jsonl', 'gemini/tmp/8c1f0e2d/chats/session-2025-07-01T10-00-9f8e7d6c.json', 'chat-text/meeting-notes.md']) {
      assert.equal(redactSecrets(chunksOf(p)).count, 0, p);
    }
  });
});
