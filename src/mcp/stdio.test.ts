/**
 * @module mcp/stdio.test
 * While serving over stdio, console output meant for stdout goes to stderr, and the guard undoes
 * itself.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { guardConsole } from './stdio.js';

test('guardConsole routes console.log/info/debug/warn to stderr and restores them', () => {
  const original = { log: console.log, info: console.info, debug: console.debug, warn: console.warn };
  const out: string[] = [];
  const err: string[] = [];
  const stdoutWrite = process.stdout.write;
  const stderrWrite = process.stderr.write;
  process.stdout.write = ((s: string) => (out.push(String(s)), true)) as typeof process.stdout.write;
  process.stderr.write = ((s: string) => (err.push(String(s)), true)) as typeof process.stderr.write;
  let undo: () => void = () => {};
  try {
    undo = guardConsole();
    console.log('a %d', 1);
    console.info('b');
    console.debug('c');
    console.warn('d', { e: 1 });
  } finally {
    undo();
    process.stdout.write = stdoutWrite;
    process.stderr.write = stderrWrite;
  }
  assert.deepEqual(out, []);
  assert.deepEqual(err, ['a 1\n', 'b\n', 'c\n', 'd { e: 1 }\n']);
  assert.equal(console.log, original.log);
  assert.equal(console.warn, original.warn);
});
