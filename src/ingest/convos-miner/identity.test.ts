/** @module ingest/convos-miner/identity.test */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { conversationWing, isTempName, wingForClaudeProjectDir, wingForCwd } from './identity.js';

describe('conversation wings mean projects (issue 10)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'loci-wing-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('a cwd that no longer exists names its project by its last folder', () => {
    assert.equal(wingForCwd('/Users/someone/Code/shop-api'), 'shop-api');
    assert.equal(wingForCwd('/home/someone/work/ledger/'), 'ledger');
  });

  it('never a home folder or a temp name', () => {
    assert.equal(wingForCwd('/home/someone'), 'home');
    assert.equal(wingForCwd('/Users/someone'), 'home');
    assert.equal(wingForCwd('/root'), 'home');
    assert.equal(wingForCwd('/tmp/beam_4f2a9c1d'), 'tmp');
    assert.equal(wingForCwd('/tmp/beam_4f2a9c1d/app'), 'app');
    assert.equal(wingForCwd('/Users/someone/tmp'), 'home');
    assert.equal(wingForCwd('/var/folders/xy/abc123/T/tmp.Xy12'), 'tmp');
    assert.ok(isTempName('beam_x1') && isTempName('0f3a9c1d2b4e5f60') && !isTempName('beam'));
  });

  it('an existing folder inside a git repository names the repository', () => {
    const repo = join(dir, 'garden-app');
    mkdirSync(join(repo, '.git'), { recursive: true });
    mkdirSync(join(repo, 'assets'), { recursive: true });
    assert.equal(wingForCwd(join(repo, 'assets')), 'garden-app');
  });

  it('a Claude Code project folder is decoded sensibly when the log has no cwd', () => {
    assert.equal(wingForClaudeProjectDir('-Users-someone-Code-shop-api'), 'shop-api');
    assert.equal(wingForClaudeProjectDir('-home-someone-projects-ledger'), 'ledger');
    assert.equal(wingForClaudeProjectDir('-Users-someone'), 'home');
    assert.equal(wingForClaudeProjectDir('not-a-project-dir'), null);
    const repo = join(dir, 'my-app');
    mkdirSync(join(repo, '.git'), { recursive: true });
    assert.equal(
      wingForClaudeProjectDir(repo.replace(/[/.]/g, '-')),
      'my-app',
      'an existing folder is found despite the lossy name',
    );
  });

  it('conversations without a project get the mined repository, else the application — never the export folder', () => {
    const file = join(dir, 'export', 'conversations.json');
    assert.equal(conversationWing({ cwd: null, format: 'chatgpt', file, rootProject: null }), 'chatgpt');
    assert.equal(conversationWing({ cwd: null, format: 'slack', file, rootProject: 'team-repo' }), 'team-repo');
    assert.equal(
      conversationWing({ cwd: null, format: 'claude-code', file: '/x/-Users-me-Code-zoo/s.jsonl', rootProject: null }),
      'zoo',
    );
    assert.equal(
      conversationWing({
        cwd: null,
        format: 'claude-code',
        file: '/x/-Users-me-Code-zoo/s/subagents/agent-a1.jsonl',
        rootProject: null,
      }),
      'zoo',
    );
    assert.equal(conversationWing({ cwd: '/srv/build/api', format: 'codex', file, rootProject: 'other' }), 'api');
  });
});
