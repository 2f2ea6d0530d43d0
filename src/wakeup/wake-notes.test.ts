/** @module wakeup/wake-notes.test — session notes (markdown headings) condensed for "where we left off". */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { condenseSummary } from './wake-sessions.js';

test('condenseSummary reads the sections of session notes from their headings', () => {
  const notes =
    '_Built without a model (extractive)…_\n\n# Session Title\nRate limiting\n\n# Current State\n' +
    'Limiter wired into the API gateway; tests pending.\n\n# Task specification\n- Add rate limiting per API key\n\n' +
    `# Worklog\n${'- 2026-03-04 10:00 step\n'.repeat(80)}`;
  const c = condenseSummary(notes, 300);
  assert.equal(c.whole, false);
  assert.match(
    c.text,
    /^Current State: Limiter wired into the API gateway; tests pending\.\nTask specification: - Add/,
  );
});
