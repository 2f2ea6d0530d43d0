/**
 * @module test/torture/fuzz-parsers
 * Issue 11, fuzz (in-process): property-based generators (fast-check) for every conversation
 * parser — Claude Code (threads with cycles and dangling parents), Codex, Gemini (JSONL and JSON),
 * ChatGPT (mappings with cycles), Claude.ai, Slack, chat text — plus format detection, the Claude
 * Code incremental reader and exchange chunking, memory-file frontmatter and hook stdin. Each input
 * is well-formed, broken (cut, spliced with garbage) or arbitrary. Properties: no exception escapes
 * (the parsers promise to turn everything into warnings), warnings are one line, output has the
 * documented shape. "No hang" is the test's timeout over `TORTURE.fuzzRuns` inputs per property.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isLociError, loadMemories, parseTopicFile } from '../../src/internal.js';
import { parseHookInput, HOOK_EVENTS } from '../../src/hooks/index.js';
import {
  advanceClaudeCodeThread,
  chunkExchanges,
  detectFormat,
  parseConversations,
  parseSlackChannel,
  CONVO_FORMATS,
  type ConvoFormat,
} from '../../src/ingest/convos/index.js';
import { isOneLine, recordFigures, TORTURE } from './support.js';

const runs = TORTURE.fuzzRuns;
const params = (n = runs) => ({ numRuns: n, seed: TORTURE.seed, endOnFailure: true });
let cases = 0;
after(() => recordFigures('fuzz-in-process', { cases }));

// ── building blocks ───────────────────────────────────────────────────────────
const text = fc.oneof(
  fc.string({ maxLength: 80 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '\n',
    '\u0000',
    '\uFEFF',
    '\uD800',
    '</system-reminder>',
    '<command-name>/clear</command-name>',
    '```',
    '---',
    'Human: hi',
    '> quoted',
  ),
  fc.lorem({ maxCount: 12 }),
);
const ts = fc.oneof(
  fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
  fc.constantFrom('2025-13-45T99:99:99Z', 'yesterday', '', '0'),
  fc.integer().map(String),
  fc.double(),
);
const id = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', '', 'root', 'client-created-root');
const anyJson = fc.jsonValue({ maxDepth: 3 });
/** A value of the expected type most of the time, anything else sometimes. */
const maybe = <T>(arb: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 4, arbitrary: arb }, { weight: 1, arbitrary: anyJson as fc.Arbitrary<unknown> });
const block = fc.oneof(
  fc.record({ type: fc.constant('text'), text: maybe(text) }),
  fc.record({ type: fc.constant('thinking'), thinking: maybe(text) }),
  fc.record({
    type: fc.constant('tool_use'),
    id: maybe(id),
    name: maybe(fc.constantFrom('Bash', 'Read', 'Edit', 'Task', '')),
    input: anyJson,
  }),
  fc.record({
    type: fc.constant('tool_result'),
    tool_use_id: maybe(id),
    content: maybe(fc.oneof(text, fc.array(fc.record({ type: fc.constant('text'), text }), { maxLength: 3 }))),
    is_error: fc.boolean(),
  }),
  fc.record({ type: fc.constant('image'), source: anyJson }),
);
const content = fc.oneof(text, fc.array(block, { maxLength: 4 }), anyJson);

/** Serialised records joined into JSONL, sometimes cut, spliced with garbage or given CRLF. */
function jsonl(records: fc.Arbitrary<unknown[]>): fc.Arbitrary<string> {
  return fc
    .tuple(
      records,
      fc.array(fc.oneof(fc.constant(-1), fc.nat(40)), { maxLength: 3 }),
      fc.string({ maxLength: 30 }),
      fc.boolean(),
      fc.nat(),
    )
    .map(([recs, garbageAt, garbage, crlf, cut]) => {
      const lines = recs.map((r) => JSON.stringify(r) ?? 'null');
      for (const g of garbageAt) lines.splice(g < 0 ? lines.length : g % (lines.length + 1), 0, garbage);
      let s = lines.join(crlf ? '\r\n' : '\n') + '\n';
      if (cut % 4 === 0) s = s.slice(0, cut % (s.length + 1)); // a line cut in the middle
      return s;
    });
}

// ── format generators ─────────────────────────────────────────────────────────
const claudeRecord = fc.record(
  {
    type: maybe(
      fc.constantFrom(
        'user',
        'assistant',
        'summary',
        'system',
        'progress',
        'file-history-snapshot',
        'custom-title',
        'queue-operation',
      ),
    ),
    uuid: maybe(id),
    parentUuid: fc.oneof(id, fc.constant(null)), // parents among a few ids: cycles, self-parents, dangling
    logicalParentUuid: id,
    leafUuid: id,
    sessionId: maybe(fc.constantFrom('s1', 's2')),
    isSidechain: fc.boolean(),
    isMeta: fc.boolean(),
    isCompactSummary: fc.boolean(),
    timestamp: ts,
    cwd: maybe(fc.constantFrom('/home/dev/app', '', '/')),
    message: maybe(
      fc.record(
        { role: maybe(fc.constantFrom('user', 'assistant')), content, id: maybe(id), model: fc.string() },
        { requiredKeys: ['role'] },
      ),
    ),
    summary: maybe(text),
    toolUseResult: anyJson,
    subtype: fc.constantFrom('turn_duration', 'compact_boundary', 'local_command'),
    content: maybe(text),
  },
  { requiredKeys: ['type'] },
);
const codexRecord = fc.oneof(
  fc.record({
    type: fc.constant('session_meta'),
    timestamp: ts,
    payload: maybe(fc.record({ id: maybe(id), cwd: maybe(text), timestamp: ts, instructions: maybe(text) })),
  }),
  fc.record({
    type: fc.constant('response_item'),
    timestamp: ts,
    payload: maybe(
      fc.record({
        type: maybe(
          fc.constantFrom('message', 'function_call', 'function_call_output', 'local_shell_call', 'reasoning'),
        ),
        role: maybe(fc.constantFrom('user', 'assistant', 'developer')),
        content: maybe(
          fc.array(fc.record({ type: fc.constantFrom('input_text', 'output_text'), text: maybe(text) }), {
            maxLength: 3,
          }),
        ),
        name: maybe(text),
        arguments: maybe(fc.oneof(text, anyJson)),
        output: maybe(fc.oneof(text, anyJson)),
        action: anyJson,
      }),
    ),
  }),
  fc.record({
    type: fc.constantFrom('event_msg', 'turn_context', 'compacted'),
    timestamp: ts,
    payload: maybe(
      fc.record({ type: maybe(fc.constantFrom('user_message', 'agent_message', 'token_count')), message: maybe(text) }),
    ),
  }),
  fc.record({ id: maybe(id), timestamp: ts, instructions: maybe(text) }),
  fc.record({ record_type: maybe(text) }),
);
const geminiMessage = fc.record({
  type: maybe(fc.constantFrom('user', 'gemini', 'model', 'info', 'error')),
  id: maybe(id),
  timestamp: ts,
  content: maybe(fc.oneof(text, fc.array(fc.record({ text: maybe(text), thought: fc.boolean() }), { maxLength: 3 }))),
  toolCalls: anyJson,
});
const geminiText = fc.oneof(
  jsonl(
    fc
      .tuple(
        fc.record({
          type: fc.constant('session_metadata'),
          sessionId: maybe(id),
          projectHash: maybe(text),
          startTime: ts,
        }),
        fc.array(geminiMessage, { maxLength: 10 }),
      )
      .map(([h, m]) => [h, ...m]),
  ),
  fc
    .record({
      sessionId: maybe(id),
      projectHash: maybe(text),
      startTime: ts,
      messages: maybe(fc.array(geminiMessage, { maxLength: 10 })),
    })
    .map((o) => JSON.stringify(o)),
  fc
    .array(
      fc.record({
        role: maybe(fc.constantFrom('user', 'model')),
        parts: maybe(
          fc.array(
            fc.oneof(
              fc.record({ text: maybe(text) }),
              fc.record({ functionCall: anyJson }),
              fc.record({ functionResponse: anyJson }),
            ),
            { maxLength: 3 },
          ),
        ),
      }),
      { maxLength: 8 },
    )
    .map((a) => JSON.stringify(a)),
);
/** ChatGPT export: a mapping whose parent/children links may form cycles, self-loops or point nowhere. */
const chatgptText = fc
  .array(
    fc.record({
      title: maybe(text),
      create_time: maybe(fc.double()),
      current_node: maybe(id),
      mapping: fc.dictionary(
        id,
        fc.record({
          id: maybe(id),
          parent: fc.oneof(id, fc.constant(null)),
          children: maybe(fc.array(id, { maxLength: 4 })),
          message: maybe(
            fc.record({
              author: maybe(fc.record({ role: maybe(fc.constantFrom('user', 'assistant', 'system', 'tool')) })),
              content: maybe(
                fc.record({
                  content_type: maybe(fc.constantFrom('text', 'code', 'multimodal_text', 'tether_quote')),
                  parts: maybe(fc.array(fc.oneof(text, anyJson), { maxLength: 3 })),
                  text: maybe(text),
                }),
              ),
              create_time: maybe(fc.double()),
              metadata: anyJson,
            }),
          ),
        }),
        { maxKeys: 8 },
      ),
    }),
    { maxLength: 3 },
  )
  .chain((convs) =>
    fc.constantFrom(JSON.stringify(convs), JSON.stringify(convs[0] ?? {}), JSON.stringify(convs).slice(0, 200)),
  );
const claudeAiText = fc
  .array(
    fc.record({
      uuid: maybe(id),
      name: maybe(text),
      created_at: ts,
      chat_messages: maybe(
        fc.array(
          fc.record({
            sender: maybe(fc.constantFrom('human', 'assistant')),
            text: maybe(text),
            content: maybe(
              fc.array(fc.record({ type: fc.constantFrom('text', 'tool_use'), text: maybe(text) }), { maxLength: 3 }),
            ),
            created_at: ts,
            attachments: anyJson,
          }),
          { maxLength: 8 },
        ),
      ),
    }),
    { maxLength: 3 },
  )
  .chain((convs) =>
    fc.constantFrom(JSON.stringify(convs), JSON.stringify({ messages: (convs[0]?.chat_messages as unknown) ?? [] })),
  );
const slackMessage = fc.record({
  type: maybe(fc.constantFrom('message')),
  subtype: fc.constantFrom(undefined, 'bot_message', 'channel_join', 'thread_broadcast'),
  user: maybe(fc.constantFrom('U1', 'U2', '')),
  username: maybe(text),
  text: maybe(text),
  ts: maybe(fc.tuple(fc.nat(2_000_000_000), fc.nat(999_999)).map(([s, us]) => `${s}.${String(us).padStart(6, '0')}`)),
  thread_ts: maybe(fc.constantFrom('1700000000.000100', 'x')),
  files: anyJson,
});
const slackText = fc.array(slackMessage, { maxLength: 10 }).map((a) => JSON.stringify(a));
const chatLine = fc.oneof(
  fc
    .tuple(
      fc.constantFrom('Human', 'Assistant', 'User', 'AI', 'alice', 'Bob Smith', '**Claude**', '[10:42] dan', 'Q', 'A'),
      text,
    )
    .map(([s, t]) => `${s}: ${t}`),
  fc.constantFrom('', '---', '# 2024-03-04', '> quoted', '    code', '```', '[2024-03-04 10:00] eve: hello'),
  text,
);
const chatText = fc.array(chatLine, { maxLength: 30 }).map((l) => l.join('\n'));

/** Every conversation format with its generator and a file name that routes detection to it. */
const FORMATS: [ConvoFormat, string, fc.Arbitrary<string>][] = [
  ['claude-code', 'projects/-home-dev-app/s.jsonl', jsonl(fc.array(claudeRecord, { maxLength: 15 }))],
  [
    'claude-history',
    'history.jsonl',
    jsonl(
      fc.array(
        fc.record({
          display: maybe(text),
          timestamp: maybe(fc.integer()),
          project: maybe(text),
          pastedContents: anyJson,
        }),
        { maxLength: 10 },
      ),
    ),
  ],
  ['codex', 'sessions/2025/rollout.jsonl', jsonl(fc.array(codexRecord, { maxLength: 15 }))],
  ['gemini', 'chats/session.json', geminiText],
  ['chatgpt', 'conversations.json', chatgptText],
  ['claude-ai', 'claude/conversations.json', claudeAiText],
  ['slack', 'general/2024-03-04.json', slackText],
  ['chat-text', 'notes/chat.txt', chatText],
];

function checkParse(path: string, input: string, format?: ConvoFormat): void {
  cases++;
  const r = parseConversations(path, input, format ? { format } : undefined);
  assert.ok(Array.isArray(r.conversations) && Array.isArray(r.warnings));
  for (const w of r.warnings)
    assert.ok(typeof w === 'string' && isOneLine(w), `warning is one line: ${JSON.stringify(w).slice(0, 200)}`);
  for (const c of r.conversations) {
    for (const m of c.messages) assert.equal(typeof m.text, 'string');
    for (const ch of chunkExchanges(c)) assert.equal(typeof ch.text, 'string');
  }
}

test(
  'convo parsers: generated and broken files of every format never throw, warnings are one line',
  { timeout: 600_000 },
  () => {
    assert.deepEqual(new Set(FORMATS.map((f) => f[0])), new Set(CONVO_FORMATS), 'a generator for every format');
    for (const [format, path, arb] of FORMATS) {
      fc.assert(
        fc.property(arb, (input) => {
          checkParse(path, input); // detected
          checkParse(path, input, format); // forced
          detectFormat(path, input.slice(0, 65536));
        }),
        params(),
      );
    }
  },
);

test('convo parsers: arbitrary text forced through every parser never throws', { timeout: 600_000 }, () => {
  const arb = fc.oneof(
    fc.string({ maxLength: 300 }),
    fc.json({ maxDepth: 4 }),
    fc.string({ unit: 'binary', maxLength: 200 }),
  );
  fc.assert(
    fc.property(
      arb,
      fc.constantFrom(...CONVO_FORMATS),
      fc.constantFrom('x.jsonl', 'x.json', 'x.txt', 'x', '2024-01-01.json', 'logs.json'),
      (input, format, path) => {
        checkParse(path, input, format);
        checkParse(path, input);
      },
    ),
    params(runs * 4),
  );
});

test('Claude Code incremental reader: any split of a generated transcript never throws', { timeout: 600_000 }, () => {
  fc.assert(
    fc.property(jsonl(fc.array(claudeRecord, { maxLength: 20 })), fc.nat(), (input, at) => {
      cases++;
      const lines = input.split('\n').filter((l) => l !== '');
      const k = at % (lines.length + 1);
      const first = advanceClaudeCodeThread(null, lines.slice(0, k), 's.jsonl');
      advanceClaudeCodeThread(first.state, lines.slice(k), 's.jsonl');
    }),
    params(),
  );
});

test('Slack channel parser: day files with any content never throw', { timeout: 600_000 }, () => {
  fc.assert(
    fc.property(
      fc.array(
        fc.tuple(
          fc.constantFrom('2024-03-04.json', '2024-03-05.json', 'x.json'),
          fc.oneof(slackText, fc.string({ maxLength: 100 })),
        ),
        { maxLength: 4 },
      ),
      (days) => {
        cases++;
        const r = parseSlackChannel(
          'general',
          days.map(([name, content]) => ({ name, content })),
        );
        for (const w of r.warnings) assert.ok(isOneLine(w));
      },
    ),
    params(),
  );
});

// ── memory frontmatter ────────────────────────────────────────────────────────
const YAML_ODDITIES = [
  '&x a',
  '!!binary x',
  '[a, b',
  '{a: 1}',
  '|',
  '>-',
  '"unclosed',
  "'",
  '~',
  'null',
  '- a',
  ': b',
  '? c',
  '%YAML 1.2',
];
const YAML_ALIASES = ['*x', '<<: *x', '[*x, *x, *x]'];
function frontmatter(values: readonly string[]): fc.Arbitrary<string> {
  return fc
    .tuple(
      fc.array(
        fc.tuple(
          fc.constantFrom('name', 'description', 'type', 'metadata', 'modified', 'pinned', 'privacy', 'b', '<<', 'x y'),
          fc.oneof(text, fc.constantFrom(...values)),
        ),
        { maxLength: 6 },
      ),
      fc.constantFrom('---', '---  ', '...', ''),
      text,
      fc.boolean(),
    )
    .map(([pairs, close, body, crlf]) => {
      const s = `---\n${pairs.map(([k, v]) => `${k}: ${v}`).join('\n')}\n${close}\n${body}`;
      return crlf ? s.replace(/\n/g, '\r\n') : s;
    });
}
const GOOD = '---\nname: good one\ndescription: still listed\nmetadata:\n  type: project\n---\nbody\n';

/** A memory folder holding `input` as a topic file next to a good one: parsing and listing survive it. */
function checkTopicFile(input: string, file: string): void {
  cases++;
  parseTopicFile(input, file);
  const dir = mkdtempSync(join(tmpdir(), 'loci-fuzz-mem-'));
  try {
    mkdirSync(join(dir, 'team'));
    writeFileSync(join(dir, file), input);
    writeFileSync(join(dir, 'project_good-one.md'), GOOD);
    const names = loadMemories(dir, { limit: Infinity }).map((m) => m.name);
    assert.ok(
      names.includes('good one'),
      `the good memory is still listed next to ${JSON.stringify(input).slice(0, 120)}`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test(
  'memory frontmatter: generated and broken topic files are parsed and listed without throwing',
  { timeout: 600_000 },
  () => {
    fc.assert(
      fc.property(
        fc.oneof(frontmatter(YAML_ODDITIES), fc.string({ maxLength: 200 })),
        fc.constantFrom('project_x.md', 'team/user_y.md', 'z.md'),
        checkTopicFile,
      ),
      params(runs * 2),
    );
  },
);

test(
  'memory frontmatter with YAML aliases: the file is skipped, the folder keeps working',
  { timeout: 600_000 },
  () => {
    fc.assert(
      fc.property(frontmatter(YAML_ALIASES), fc.constantFrom('project_x.md', 'z.md'), checkTopicFile),
      params(),
    );
  },
);

// ── hook stdin ────────────────────────────────────────────────────────────────
test('hook stdin: any text is parsed or refused with a one-line HOOK_INPUT_INVALID', { timeout: 600_000 }, () => {
  const field = fc.oneof(text, anyJson);
  const input = fc.oneof(
    fc
      .record(
        {
          session_id: field,
          transcript_path: field,
          cwd: field,
          hook_event_name: field,
          prompt: field,
          stop_hook_active: field,
          compact_summary: field,
          source: field,
        },
        { requiredKeys: [] },
      )
      .map((o) => JSON.stringify(o)),
    fc.json({ maxDepth: 3 }),
    fc.string({ maxLength: 200 }),
    fc.string({ unit: 'binary', maxLength: 100 }),
  );
  fc.assert(
    fc.property(fc.constantFrom(...HOOK_EVENTS), input, fc.boolean(), (event, stdin, bom) => {
      cases++;
      try {
        const h = parseHookInput(event, bom ? `\uFEFF${stdin}` : stdin);
        assert.equal(typeof h.stopHookActive, 'boolean');
        for (const v of [h.sessionId, h.transcriptPath, h.cwd, h.prompt])
          assert.ok(v === undefined || typeof v === 'string');
      } catch (e) {
        assert.ok(isLociError(e) && e.code === 'HOOK_INPUT_INVALID', String(e));
        assert.ok(isOneLine(e.message), e.message);
      }
    }),
    params(runs * 4),
  );
});
