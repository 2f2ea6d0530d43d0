/** @module core/env.test — every variable's parsing and default, read from a given environment only. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { homedir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { HOOK_SAVE_EVERY_DEFAULT, readSettings, resolveHome } from './env.js';

test('readSettings: an empty environment gives the documented defaults', () => {
  const s = readSettings({});
  assert.equal(s.home, undefined);
  assert.equal(s.debug, false);
  assert.equal(s.busyTimeoutMs, undefined);
  assert.equal(s.extractGraph, true);
  assert.equal(s.userName, undefined);
  assert.deepEqual(s.mineRoots, []);
  assert.deepEqual(s.mcpAllowedOrigins, []);
  assert.equal(s.token, '');
  assert.equal(s.hookSaveEvery, HOOK_SAVE_EVERY_DEFAULT);
  assert.equal(s.hookWorker, true);
  assert.equal(s.hookServer, true);
  assert.equal(s.hookDebug, false);
  assert.equal(s.noColor, false);
  assert.equal(s.claudeAutoMemoryDisabled, false);
  assert.equal(s.path, '');
});

test('readSettings: flags, numbers and lists are parsed; invalid numbers fall back', () => {
  const s = readSettings({
    LOCI_DEBUG: '1',
    LOCI_BUSY_TIMEOUT_MS: '2500',
    LOCI_KG_EXTRACT: '0',
    LOCI_USER_NAME: 'Ana',
    LOCI_MINE_ROOTS: ` /a ${delimiter}${delimiter} /b `,
    LOCI_MCP_ALLOWED_ORIGINS: 'https://x.test, ,https://y.test',
    LOCI_HOOK_SAVE_EVERY: '3',
    LOCI_HOOK_WORKER: '0',
    LOCI_HOOK_SERVER: '0',
    LOCI_HOOK_DEBUG: '1',
    NO_COLOR: '1',
    CLAUDE_CODE_DISABLE_AUTO_MEMORY: 'TRUE',
  });
  assert.equal(s.debug, true);
  assert.equal(s.busyTimeoutMs, 2500);
  assert.equal(s.extractGraph, false);
  assert.equal(s.userName, 'Ana');
  assert.deepEqual(s.mineRoots, ['/a', '/b']);
  assert.deepEqual(s.mcpAllowedOrigins, ['https://x.test', 'https://y.test']);
  assert.equal(s.hookSaveEvery, 3);
  assert.equal(s.hookWorker, false);
  assert.equal(s.hookServer, false);
  assert.equal(s.hookDebug, true);
  assert.equal(s.noColor, true);
  assert.equal(s.claudeAutoMemoryDisabled, true);
  for (const bad of ['0', '-1', '1.5', '10001', 'x'])
    assert.equal(readSettings({ LOCI_HOOK_SAVE_EVERY: bad }).hookSaveEvery, 15);
  assert.equal(readSettings({ LOCI_BUSY_TIMEOUT_MS: '-5' }).busyTimeoutMs, undefined);
  for (const off of ['0', 'false', 'False', '']) {
    assert.equal(readSettings({ CLAUDE_CODE_DISABLE_AUTO_MEMORY: off }).claudeAutoMemoryDisabled, false, off);
  }
});

test('resolveHome: --home > LOCI_HOME > ~/.loci, with ~/ expanded', () => {
  assert.equal(resolveHome('/x', { LOCI_HOME: '/y' }), resolve('/x'));
  assert.equal(resolveHome(undefined, { LOCI_HOME: '/y' }), resolve('/y'));
  assert.equal(resolveHome(undefined, {}), join(homedir(), '.loci'));
  assert.equal(resolveHome('~/p', {}), join(homedir(), 'p'));
});
