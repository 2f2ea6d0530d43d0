/** @module ingest/convos/hall-room.test */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  classifyHall,
  expandPhrase,
  hallScores,
  roomForConversation,
  roomForText,
  wordTokens,
  type Conversation,
} from './index.js';

describe('classifyHall', () => {
  const cases: [string, ReturnType<typeof classifyHall>][] = [
    ['We decided to use Postgres for the ledger; SQLite was too limited for concurrent writers.', 'facts'],
    ['JWT stands for JSON Web Token.', 'facts'],
    ['Yesterday I went to the conference in Lisbon and met with the payments team.', 'events'],
    ['The release shipped on 2024-03-05 after the Friday meeting.', 'events'],
    ['Turns out the bug was a race in the cache warmer — I realised it only fails under load.', 'discoveries'],
    ['I prefer tabs over spaces and I always use pnpm in my own projects.', 'preferences'],
    ["You should pin the version, and make sure the lockfile is committed. I'd recommend Renovate.", 'advice'],
    ['ok', 'general'],
    ['[Bash] npm test\n→ 3 passing', 'general'],
  ];
  for (const [text, hall] of cases) it(`${hall}: ${text.slice(0, 40)}`, () => assert.equal(classifyHall(text), hall));

  it('matches whole words only', () => {
    // "start" contains "art", "tries" is not "try", "tipping" is not "tip", "recommended" is a word of its own
    assert.equal(hallScores('start restart tries tipping meetings decidedly').advice, 0);
    assert.equal(hallScores('start restart tries tipping meetings decidedly').facts, 0);
    assert.equal(hallScores('todays agoraphobia').events, 0);
  });

  it('gives general on a tie', () => {
    // one advice rule (1.5) against one preference rule (1.5)
    const s = hallScores("consider it; don't use it");
    assert.equal(s.advice, s.preferences);
    assert.equal(classifyHall("consider it; don't use it"), 'general');
  });
});

describe('phrases', () => {
  it('expands choices and optional words', () => {
    assert.deepEqual(expandPhrase('{we|the team} [have] decided'), [
      ['we', 'have', 'decided'],
      ['we', 'decided'],
      ['the', 'team', 'have', 'decided'],
      ['the', 'team', 'decided'],
    ]);
  });

  it('tokenises whole words in any script, keeping contractions and ISO dates', () => {
    assert.deepEqual(wordTokens('I’d rather ship on 2024-03-05 — tripé, naïve日本語 x→y'), [
      "i'd",
      'rather',
      'ship',
      'on',
      '2024-03-05',
      'tripé',
      'naïve日本語',
      'x',
      'y',
    ]);
    assert.equal(hallScores('un tripé ancien').events, 0);
  });
});

describe('rooms', () => {
  it('maps text to a topic with whole-word matching, else general', () => {
    assert.equal(roomForText('The login endpoint needs OAuth and a password reset flow'), 'auth');
    assert.equal(roomForText('Add a migration for the new index on the orders table (Postgres)'), 'database');
    assert.equal(roomForText('The vitest fixtures are flaky'), 'testing');
    assert.equal(roomForText('latency doubled after the cache change'), 'performance');
    assert.equal(roomForText('What should we cook tonight?'), 'general');
    // "author" contains "auth", "testament" contains "test", "uint" contains "ui"
    assert.equal(roomForText('The author wrote a testament about uint overflow'), 'general');
  });

  it('breaks ties by vocabulary order', () => {
    assert.equal(roomForText('login and database'), 'auth');
  });

  it('uses the title, the first user message and the cwd folder for a conversation', () => {
    const base: Conversation = {
      format: 'claude-code',
      id: 's',
      title: null,
      source: '/s',
      file: '/s',
      cwd: '/home/dev/billing-service',
      gitBranch: null,
      startedAt: null,
      exchangeMode: 'user-turns',
      meta: {},
      messages: [
        {
          role: 'user',
          speaker: 'user',
          kind: 'message',
          text: 'Why is the nightly docker deploy failing?',
          timestamp: null,
        },
      ],
    };
    assert.equal(roomForConversation(base), 'deploy');
    assert.equal(roomForConversation({ ...base, messages: [], cwd: '/home/dev/auth-service' }), 'auth');
    assert.equal(
      roomForConversation({ ...base, messages: [], cwd: null, title: 'Dark mode for the settings page' }),
      'ui',
    );
    assert.equal(roomForConversation({ ...base, messages: [], cwd: null }), 'general');
  });
});
