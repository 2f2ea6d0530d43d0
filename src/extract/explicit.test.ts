/** @module extract/explicit.test — the explicit cases found without a model. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { explicitCandidates, MAX_PROMPT_CHARS } from './explicit.js';
import type { SessionTurn } from './types.js';

const turns = (...texts: string[]): SessionTurn[] =>
  texts.map((text, index) => ({ index, role: 'user', text, at: '2026-03-04T09:00:00Z' }));
const found = (...texts: string[]) => explicitCandidates(turns(...texts)).map((c) => [c.type, c.body]);

test('explicit: the usual ways of asking for something to be kept', () => {
  assert.deepEqual(found('remember that the API key rotates monthly'), [['project', 'The API key rotates monthly']]);
  assert.deepEqual(found('Please remember: I review PRs only in the morning.'), [
    ['user', 'I review PRs only in the morning.'],
  ]);
  assert.deepEqual(found('ok, from now on use pnpm instead of npm'), [['feedback', 'Use pnpm instead of npm']]);
  assert.deepEqual(found("Going forward, don't add emojis to commit messages."), [
    ['feedback', "Don't add emojis to commit messages."],
  ]);
  assert.deepEqual(found("Thanks. Don't rename public functions again without asking."), [
    ['feedback', "Don't rename public functions again without asking."],
  ]);
  assert.deepEqual(found('NEVER use the bash tool.'), [['feedback', 'NEVER use the bash tool.']]);
  assert.deepEqual(found('Stop adding comments to every line please'), [
    ['feedback', 'Stop adding comments to every line please'],
  ]);
  assert.deepEqual(found('Keep in mind that the Grafana dashboard is the source of truth for latency.'), [
    ['reference', 'The Grafana dashboard is the source of truth for latency.'],
  ]);
  assert.deepEqual(found('Remember that docs live at https://wiki.example/acme'), [
    ['reference', 'Docs live at https://wiki.example/acme'],
  ]);
});

test('explicit: "remember this" and its variants point at the sentence before', () => {
  assert.deepEqual(found("We can't deploy on Fridays. Make sure you know about it next time!"), [
    ['feedback', "We can't deploy on Fridays."],
  ]);
  assert.deepEqual(found('The staging VPN drops every hour. Remember this.'), [
    ['project', 'The staging VPN drops every hour.'],
  ]);
  assert.deepEqual(found('Remember this.'), [], 'nothing before it');
});

test('explicit: feedback carries Why and How to apply; the reason says no model was used', () => {
  const [c] = explicitCandidates(turns('From now on, reply in French.'));
  assert.match(c!.why!, /^The user asked for it explicitly on 2026-03-04: "From now on, reply in French\."$/);
  assert.ok(c!.how);
  assert.match(c!.reason, /^explicit request \(no model\): "From now on, reply in French\."$/);
});

test('explicit: no request, no memory', () => {
  assert.deepEqual(found('Do you remember when this test started failing?'), []);
  assert.deepEqual(found("Don't do that again"), [], 'nothing but a pronoun');
  assert.deepEqual(found('Fix the bug in the parser'), []);
  assert.deepEqual(found('```\n// remember that x is global\n```'), [], 'code');
  assert.deepEqual(found('> from now on use tabs'), [], 'a quote');
  assert.deepEqual(
    found(`Remember that the build is slow. ${'log line\n'.repeat(MAX_PROMPT_CHARS / 9)}`),
    [],
    'pasted',
  );
  assert.deepEqual(
    explicitCandidates([{ index: 0, role: 'assistant', text: 'From now on I will use pnpm.', at: null }]),
    [],
    'the agent speaking',
  );
});
