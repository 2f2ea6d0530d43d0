/**
 * @module mcp/failure.test
 * Error results: catalogue errors keep their code and details, argument errors name the argument,
 * unexpected errors become INTERNAL with the stack logged and never returned.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import * as z from 'zod';
import { createError, type Logger } from '../internal.js';
import { errorResult, invalidArguments, resultOfThrown } from './failure.js';

const memoryLogger = () => {
  const lines: { level: string; message: string; fields?: Record<string, unknown> }[] = [];
  const logger: Logger = {
    log: (level, message, fields) => void lines.push({ level, message, ...(fields ? { fields } : {}) }),
  };
  return { logger, lines };
};

describe('MCP error results', () => {
  test('a LociError keeps its code, message and details', () => {
    const r = resultOfThrown(createError('DRAWER_NOT_FOUND', { id: 'd1' }), 'loci_get_drawer', memoryLogger().logger);
    assert.equal(r.isError, true);
    assert.equal(r.structuredContent.error.code, 'DRAWER_NOT_FOUND');
    assert.deepEqual(r.structuredContent.error.details, { id: 'd1' });
    assert.equal(r.content[0]!.text, `loci: ${r.structuredContent.error.message} [DRAWER_NOT_FOUND]`);
  });

  test('an unexpected error is INTERNAL; its stack goes to the log, not the client', () => {
    const { logger, lines } = memoryLogger();
    const r = resultOfThrown(new TypeError('secret /home/me/path leaked'), 'loci_search', logger);
    assert.equal(r.structuredContent.error.code, 'INTERNAL');
    assert.doesNotMatch(JSON.stringify(r), /secret|TypeError|at /);
    assert.equal(lines[0]?.level, 'error');
    assert.match(String(lines[0]?.fields?.['error']), /TypeError: secret/);
  });

  test('argument errors name the argument and the expectation', () => {
    const schema = z.strictObject({ query: z.string().min(1), limit: z.number().int().max(100).optional() });
    const unknown = schema.safeParse({ query: 'x', wing_name: 'a' });
    assert.ok(!unknown.success);
    const u = invalidArguments(unknown.error, { query: 'x', wing_name: 'a' }, ['query', 'limit']);
    assert.equal(u.code, 'INVALID_ARGUMENT');
    assert.deepEqual(u.details, { name: 'argument name', value: 'wing_name', expected: 'one of query, limit' });
    const range = schema.safeParse({ query: '', limit: 500 });
    assert.ok(!range.success);
    const r = invalidArguments(range.error, { query: '', limit: 500 }, ['query', 'limit']);
    assert.equal(r.details['name'], 'query');
    assert.match(String(r.details['expected']), /and 1 more: limit/);
  });

  test('numbers, missing or mistyped arguments and enums are explained in words, not zod messages', () => {
    const schema = z.strictObject({
      drawer_id: z.string(),
      limit: z.number().int().min(1).max(100).optional(),
      mode: z.enum(['hybrid', 'bm25']).optional(),
    });
    const expected = (args: Record<string, unknown>) => {
      const r = schema.safeParse(args);
      assert.ok(!r.success);
      return invalidArguments(r.error, args, ['drawer_id', 'limit', 'mode']).message;
    };
    assert.equal(expected({}), 'invalid drawer_id: null — expected a string (the argument is required)');
    assert.equal(expected({ drawer_id: 7 }), 'invalid drawer_id: 7 — expected a string, not a number');
    assert.equal(expected({ drawer_id: 'd', limit: 1000 }), 'invalid limit: 1000 — expected a number of at most 100');
    assert.equal(expected({ drawer_id: 'd', limit: 0 }), 'invalid limit: 0 — expected a number of at least 1');
    assert.equal(
      expected({ drawer_id: 'd', mode: 'fuzzy' }),
      'invalid mode: "fuzzy" — expected one of "hybrid", "bm25"',
    );
    const text = z.strictObject({ query: z.string().trim().min(1) });
    const blank = text.safeParse({ query: '   ' });
    assert.ok(!blank.success);
    assert.equal(
      invalidArguments(blank.error, { query: '   ' }, ['query']).message,
      'invalid query: "   " — expected a non-blank text',
    );
    for (const m of [expected({}), expected({ drawer_id: 'd', limit: 1000 })])
      assert.doesNotMatch(m, /Too big|Invalid input|received|<=|\n/);
  });

  test('details are made JSON-safe', () => {
    const e = createError('INVALID_ARGUMENT', { name: 'x', value: { when: new Date(0), fn: () => 1 }, expected: 'y' });
    const r = resultOfThrown(e, 't', memoryLogger().logger);
    assert.deepEqual(r.structuredContent.error.details, {
      name: 'x',
      value: { when: '1970-01-01T00:00:00.000Z' },
      expected: 'y',
    });
    assert.deepEqual(errorResult({ code: 'X', message: 'm', details: {} }).content, [
      { type: 'text', text: 'loci: m [X]' },
    ]);
  });
});
