/**
 * @module core/project-identity.test
 * `projectWing` — the one rule front ends used to spell out as `wingForCwd(cwd) ?? defaultWing(cwd)`
 * (recall, the hooks, the wake-up, compaction summaries; issue 12).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultWing, projectWing, wingForCwd } from './project-identity.js';

describe('projectWing', () => {
  it('is the conversation wing of the cwd, else the default wing of the path', () => {
    for (const cwd of ['/gone/Acme App', '/tmp/beam_4f2a9c1d/app', '/Users/someone', process.cwd()])
      assert.equal(projectWing(cwd), wingForCwd(cwd));
    assert.equal(projectWing('/gone/Acme App'), 'acme-app');
    assert.equal(projectWing(''), defaultWing(''), 'an empty cwd falls back to the default wing');
  });
});
