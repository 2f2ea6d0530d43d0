/**
 * @module store/postgres/connect.test
 * The PostgreSQL URL checks and the tsvector form of a search column, without a server.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isLociError } from '../../core/errors.js';
import { mapPgError, parseDatabaseUrl } from './connect.js';
import { indexText, quoteLexeme } from './rows.js';

const codeOf = (fn: () => unknown): string => {
  try {
    fn();
    return 'ok';
  } catch (e) {
    return isLociError(e) ? e.code : 'other';
  }
};

test('a database URL: schema parameter taken out, password hidden in what is shown', () => {
  const t = parseDatabaseUrl('postgres://me:s3cret@db.example:5433/team?schema=loci_a&sslmode=disable');
  assert.equal(t.schema, 'loci_a');
  assert.equal(t.connectionString, 'postgres://me:s3cret@db.example:5433/team?sslmode=disable');
  assert.equal(t.display, 'postgres://me:***@db.example:5433/team?sslmode=disable (schema loci_a)');
  assert.equal(parseDatabaseUrl('postgresql://me@h/db').schema, 'public');
});

test('bad database URLs are PG_URL_INVALID and never echo the password', () => {
  for (const url of [
    'mysql://me:s3cret@h/db',
    'postgres://me:s3cret@h/',
    'postgres://me:s3cret@[bad/db',
    'postgres://me:s3cret@h/db?schema=Bad-Name',
    'postgres://me:s3cret@h/db?schema=x;drop',
  ]) {
    assert.equal(
      codeOf(() => parseDatabaseUrl(url)),
      'PG_URL_INVALID',
      url,
    );
    try {
      parseDatabaseUrl(url);
    } catch (e) {
      assert.doesNotMatch((e as Error).message, /s3cret/, url);
    }
  }
});

test('connection and login failures map to PG_UNREACHABLE; other errors pass through', () => {
  const target = { display: 'postgres://me:***@h/db' };
  for (const e of [
    Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }),
    Object.assign(new Error('password authentication failed for user "me"'), { code: '28P01' }),
    Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
    new Error('Connection terminated unexpectedly'),
  ]) {
    const m = mapPgError(e, target);
    assert.ok(isLociError(m) && m.code === 'PG_UNREACHABLE', e.message);
  }
  const other = Object.assign(new Error('syntax error'), { code: '42601' });
  assert.equal(mapPgError(other, target), other);
});

test('a search column becomes a tsvector literal: each token once, one position per occurrence', () => {
  const ix = indexText("jwt token jwt it's a\\b jwt");
  assert.equal(ix.dl, 6);
  assert.deepEqual(ix.terms, ['jwt', 'token', "it's", 'a\\b']);
  assert.equal(ix.vector, "'jwt':1,2,3 'token':1 'it''s':1 'a\\\\b':1");
  assert.equal(quoteLexeme("o'k"), "'o''k'");
  const many = indexText(Array.from({ length: 300 }, () => 'x').join(' '));
  assert.equal(many.dl, 300);
  assert.equal(many.vector.split(',').length, 255, 'PostgreSQL keeps at most 255 positions per lexeme');
  assert.equal(indexText('').dl, 0);
});
