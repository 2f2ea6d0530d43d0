/** @module extract/derivable.test — the derivable-from-code-or-git rule set. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { derivableReason, sessionFiles, type FactFields } from './derivable.js';

const f = (type: FactFields['type'], body: string, name = 'n', description = ''): FactFields => ({
  type,
  name,
  description,
  body,
});
const rule = (x: FactFields, files: string[] = [], claudeMd: string[] = []) =>
  derivableReason(x, { files, claudeMd })?.rule;

test('derivable: code locations, commands, dependencies, git history, session files, CLAUDE.md', () => {
  assert.equal(rule(f('project', 'Session handling lives in src/auth/session.ts.')), 'code-location');
  assert.equal(rule(f('project', 'The `parseConfig()` function returns the merged settings.')), 'code-location');
  assert.equal(rule(f('reference', 'Routes are defined in app/router.tsx')), 'code-location');
  assert.equal(rule(f('project', 'Tests are run with `npm test`.')), 'repo-command');
  assert.equal(rule(f('project', 'To build the app run `cargo build --release`.')), 'repo-command');
  assert.equal(rule(f('project', 'The backend uses Phoenix LiveView.')), 'dependency');
  assert.equal(rule(f('project', 'Commit a1b2c3d fixed the login redirect.')), 'git-history');
  assert.equal(rule(f('project', 'The auth refactor was merged into main.')), 'git-history');
  assert.equal(rule(f('feedback', 'Reverted 4f5e6a7b in the release branch.')), 'git-history');
  assert.equal(rule(f('project', 'notes.md holds the release checklist'), ['docs/notes.md']), 'session-file');
  assert.equal(
    rule(
      f('project', 'Use two spaces for indentation in every file'),
      [],
      ['# Style\nUse two spaces for indentation in every source file.'],
    ),
    'claude-md',
  );
});

test('not derivable: preferences, plans, decisions, incidents, external pointers', () => {
  assert.equal(rule(f('feedback', 'Never edit files in src/generated/ by hand; regenerate them.')), undefined);
  assert.equal(rule(f('feedback', 'Always run `npm test` before saying a change is done.')), undefined);
  assert.equal(rule(f('user', 'Prefers Python examples; new to TypeScript.')), undefined);
  assert.equal(
    rule(f('project', 'We will move src/legacy/ to the new API by 2026-04-01 because v1 is retired.')),
    undefined,
  );
  assert.equal(rule(f('project', 'The staging database is wiped every Monday night.')), undefined);
  assert.equal(rule(f('reference', 'Incidents are tracked at https://linear.app/acme/team/OPS.')), undefined);
  assert.equal(rule(f('project', 'Legal asked us to keep EU data in Frankfurt.')), undefined);
  assert.equal(rule(f('feedback', 'Squash commits before merging pull requests.')), undefined, 'a rule, not history');
  // Regressions found on real prompts: hex inside a path, tool names used as English words.
  assert.equal(rule(f('project', 'The nightly export lands in /tmp/tasks/ac27727.output for QA.')), undefined);
  assert.equal(rule(f('project', 'We may move to a docker server to test the whole thing on Linux.')), undefined);
  assert.equal(rule(f('project', 'Make it so a script has already run when you run a shell command.')), undefined);
});

test('sessionFiles reads the paths of read and edit tool lines', () => {
  assert.deepEqual(sessionFiles(['[Read src/a.ts]', '[Edit src/b.ts]', '[Read src/a.ts:10-20]', '[Bash] ls', '→ ok']), [
    'src/a.ts',
    'src/b.ts',
  ]);
});
