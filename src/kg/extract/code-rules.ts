/**
 * @module kg/extract/code-rules
 * Relation rules for what coding conversations state about a project: files moved, created or
 * holding something, settings, ports, versions, replaced tools and decisions. Each rule is one
 * regular expression over a turn's prose; a match counts only in a sentence that is not a question
 * and has no hedge (if, should, maybe, not…) before it. Objects are code-shaped (backticks, paths,
 * version numbers, port numbers) or vocabulary tools, so a plain word never becomes an entity.
 * Examples in ARCHITECTURE.md ("Extraction rules", coding rows).
 */
import { rel, type RawRelation } from './objects.js';
import { hedged, QUESTION, sentenceAround, type SentenceRelations } from './relations.js';
import { classifyToken, isFilePath, isTool } from './tokens.js';

const CODE = '`([^`\\n]{1,120})`';
const VER = 'v?(\\d+\\.\\d+(?:\\.\\d+)?(?:-[\\w.]+)?)';
const QVER = `\`?${VER}\`?`;
// A file named in backticks or bare ("CLAUDE.md", "docker-compose.yml", "js/main.js"); checked by isFilePath.
const FILE = '(?:`([^`\\n]{1,120})`|((?:[\\w.~-]+/)*[\\w-][\\w.-]*\\.[A-Za-z0-9]{1,8})(?![\\w/.-]))';
// A subject before a verb: a backticked token, or a capitalised name of one to three words.
const WORD = "[\\p{Lu}](?:[\\p{L}\\p{M}\\p{N}'’+#-]|\\.(?=[\\p{L}\\p{N}]))*";
const NAME = `${WORD}(?: ${WORD}){0,2}`;
const SUBJ = `(?:\`([^\`\\n]{1,80})\`|(${NAME}))`;
const TOOL_WORD = '([\\p{L}](?:[\\p{L}\\p{N}+#-]|\\.(?=[\\p{L}\\p{N}]))*)';

/** A path or a file: has a separator, a known extension or file name, or ends with `/`. */
function pathLike(tok: string): boolean {
  return /[\\/]/.test(tok) || isFilePath(tok);
}

/** A code token kept as an entity name, or null (keywords, prose in backticks, one letter). */
function codeName(raw: string | undefined): string | null {
  if (!raw) return null;
  const t = raw.trim();
  if (/\s/.test(t) || t.length < 2) return null;
  if (/^(?:~|\.{0,2}\/|[A-Za-z]:\\)[^<>|"]*$/.test(t) && /[\p{L}\d]/u.test(t)) return t;
  const c = classifyToken(t, true, true);
  return c ? c.name : null;
}

/** A bare file name, not a tool named like one ("D3.js", "Node.js"). */
function bareFile(raw: string | undefined): string | null {
  return raw && isFilePath(raw) && !/^[A-Z][\w]*\.js$/.test(raw) ? raw : null;
}

/** A subject from a `SUBJ` match: the backticked token, or a proper name that the text shows as one. */
function subjectOf(code: string | undefined, name: string | undefined, proper: (n: string) => boolean): string | null {
  if (code !== undefined) {
    const c = codeName(code);
    return c ? `\`${c}\`` : null;
  }
  return name !== undefined && proper(name) ? name : null;
}

// Plans and requests before a match: "Let me bump the version to 1.0.0", "I'll update `a.ts`".
const PLAN = new RegExp(
  String.raw`\b(?:let me|let['’]s|lets|I['’]ll|I will|we['’]ll|we will|will|need to|needs to|have to|has to|` +
    String.raw`try to|trying to|want to|wants to|going to|about to|please)\b`,
  'i',
);

interface CodeRule {
  /** A cheap test a line must pass before `re` runs on it (plain regex, no Unicode mode). */
  hint: RegExp;
  /** The rule, run on one line (global; `^` is the line start). */
  re: RegExp;
  make(m: RegExpExecArray, proper: (name: string) => boolean): RawRelation[];
}

const g = (s: string) => new RegExp(s, 'gu');
// Who did it: "I", "we" (with have/'ve), or nobody at the start of a sentence, line or list item
// ("Created `x`", "- Updated `y`"), the terse style of agents' reports.
const DONE =
  "(?:(?<![\\p{L}])(?:I|[Ww]e)(?:['’]ve| have)? (?:also |just |now |then |\\p{Ll}+ly )?|(?<=^|\\n[ \\t]*|[.!:;] " +
  '|[-*] |\\*\\*|\\d[.)] ))';

const RULES: readonly CodeRule[] = [
  {
    // "Moved `athena-ptz-connector` into `connectors/`" → located_in (functional: the old place closes)
    hint: /moved /i,
    re: g(`\\b[Mm]oved ${CODE} (?:in)?to (?:the )?${CODE}`),
    make: (m) => {
      const what = codeName(m[1]);
      const where = codeName(m[2]);
      return what && where && pathLike(where)
        ? [rel(`\`${what}\``, 'located_in', { name: where, type: 'file' }, 0.7)]
        : [];
    },
  },
  {
    // "`helium` is installed at `~/.local/bin/helium`", "The config lives in `config/app.yaml`"
    hint: / (?:at|in|under) `/,
    re: g(
      `${SUBJ} (?:is|are|was|lives|live|sits|now lives|is now|has been) ` +
        `(?:(?:located|stored|installed|saved|kept|defined|placed|moved) )?(?:at|in|under) ${CODE}`,
    ),
    make: (m, proper) => {
      const s = subjectOf(m[1], m[2], proper);
      const where = codeName(m[3]);
      return s && where && pathLike(where) ? [rel(s, 'located_in', { name: where, type: 'file' }, 0.6)] : [];
    },
  },
  {
    // "I created `scripts/run.sh`", "Created `connectors/` directory", "I've written the script `x.ps1`"
    hint: /created|wrote|added|written/i,
    re: g(`${DONE}(?:[Cc]reated|[Ww]rote|[Aa]dded|[Ww]ritten) (?:a |an |the )?(?:new )?(?:[\\p{Ll}-]+ ){0,2}${FILE}`),
    make: (m) => {
      const file = m[1] !== undefined ? codeName(m[1]) : bareFile(m[2]);
      return file && pathLike(file) ? [rel('we', 'created', { name: file, type: 'file' }, 0.7, { weOk: true })] : [];
    },
  },
  {
    // "Bastion is a Rust middleware", "spotter is an Elixir/Phoenix app" → uses
    hint: / (?:is|was) an? /,
    re: g(
      `${SUBJ} (?:is|was) (?:a|an) (?:[\\p{Ll}-]+ )?${TOOL_WORD}(?:\\/${TOOL_WORD})?(?: [\\p{Ll}-]+)? ` +
        '(?:middleware|proxy|app|application|library|service|server|CLI|cli|tool|project|framework|plugin|' +
        'extension|package|program|script|API|backend|frontend|module|binary|daemon|crate|gem|website|site)\\b',
    ),
    make: (m, proper) => {
      const s = subjectOf(m[1], m[2], proper);
      return s
        ? [m[3], m[4]]
            .filter((w): w is string => w !== undefined && isTool(w, true))
            .map((w) => rel(s, 'uses', { name: w, type: 'tool' }, 0.6))
        : [];
    },
  },
  {
    // "Updated `assets/js/app.js`", "I modified `refind.conf`", "wrote to `refind_linux.conf`" → modified
    hint: /updated|modified|edited|wrote to|changed|patched|rewrote/i,
    re: g(
      `${DONE}(?:[Uu]pdated|[Mm]odified|[Ee]dited|[Ww]rote to|[Cc]hanged|[Pp]atched|[Rr]ewrote) (?:the ` +
        `)?(?:[\\p{Ll}-]+ ){0,2}${FILE}`,
    ),
    make: (m) => {
      const file = m[1] !== undefined ? codeName(m[1]) : bareFile(m[2]);
      return file && isFilePath(file) ? [rel('we', 'modified', { name: file, type: 'file' }, 0.6, { weOk: true })] : [];
    },
  },
  {
    // "Installed `highlight.js`", "We installed pnpm" → uses
    hint: /installed/i,
    re: g(
      `${DONE}[Ii]nstalled (?:${CODE}|${TOOL_WORD})(?= *(?:$|[.,;:)]| (?:and|with|via|from|as|for|to|in)\\b| ` +
        '(?:(?:npm|pip|python|node|rust|ruby|elixir|hex) ' +
        ')?(?:package|library|module|crate|gem|dependency|plugin)\\b))',
    ),
    make: (m) => {
      const name =
        m[1] !== undefined
          ? codeName(m[1])
          : m[2] && (isTool(m[2], true) || /^[\p{Ll}\d][\w-]*[.-][\w.-]+$/u.test(m[2]))
            ? m[2]
            : null;
      return name && !/[\\/]/.test(name) ? [rel('we', 'uses', { name, type: 'tool' }, 0.6, { weOk: true })] : [];
    },
  },
  {
    // "Helium is Chromium-based", "The API is built with FastAPI", "Bastion is written in Rust" → uses
    hint: /built |written |implemented |powered by|based on|-based/i,
    re: g(
      `${SUBJ} (?:is|are|was) (?:(?:built|written|implemented) (?:with|in|on(?: top of)?)|powered by|based on) ` +
        `(?:${CODE}|${TOOL_WORD})(?![\\p{L}-])|${SUBJ} (?:is|are) (?:a |an )?(?:${CODE}|${TOOL_WORD})-based\\b`,
    ),
    make: (m, proper) => {
      const s =
        m[5] !== undefined || m[6] !== undefined ? subjectOf(m[5], m[6], proper) : subjectOf(m[1], m[2], proper);
      const rawTool = m[3] ?? m[7];
      const word = m[4] ?? m[8];
      const tool =
        rawTool !== undefined ? codeName(rawTool) : word && (isTool(word, true) || /^\p{Lu}/u.test(word)) ? word : null;
      return s && tool ? [rel(s, 'uses', { name: tool, type: 'tool' }, 0.6)] : [];
    },
  },
  {
    // "Added `sha2` to `Cargo.toml`" → Cargo.toml contains sha2; "`mix.exs` contains `emqtt`"
    hint: /added |contains|defines|declares|exports/i,
    re: g(
      `(?:\\b[Aa]dded ${CODE}(?: [\\p{Ll}]+)? to ${CODE}|${CODE} (?:contains|defines|declares|exports|now ` +
        `contains|now defines) (?:a |an |the )?(?:[\\p{Ll}]+ )?${CODE})`,
    ),
    make: (m) => {
      const [file, what] = m[1] !== undefined ? [codeName(m[2]), codeName(m[1])] : [codeName(m[3]), codeName(m[4])];
      return file && what && isFilePath(file) && !pathLike(what)
        ? [rel(`\`${file}\``, 'contains', { name: what, type: 'identifier' }, 0.6)]
        : [];
    },
  },
  {
    // "`big_icon_size` is set to `512`", "I set `timeout` to `30`", "Changed `Icon` to `gemini.svg`"
    hint: /set |changed|updated/i,
    re: g(
      `(?:${CODE} (?:is|was|is now|has been) (?:set|changed|updated) to|${DONE}(?:[Ss]et|[Cc]hanged|[Uu]pdated) ` +
        `(?:the )?${CODE}(?: (?:field|setting|option|key|value|variable))? to) ` +
        `(?:\`([^\`\\n]{1,80})\`|(\\d+(?:\\.\\d+)?)\\b)`,
    ),
    make: (m) => {
      const key = codeName(m[1] ?? m[2]);
      const value = (m[3] ?? m[4])?.trim();
      if (!key || !value || pathLike(key) || /\s/.test(key)) return [];
      return [rel(`\`${key}\``, 'set_to', { literal: value }, 0.6)];
    },
  },
  {
    // "The server runs on port 5000", "Bastion runs as a local HTTP server (default `http://localhost:3000`)"
    // (every match ends with `port 5000` or `localhost:5000`: "import", "support", "report" lines are not tried)
    hint: /port \d\d|(?:localhost|127\.0\.0\.1|0\.0\.0\.0):\d\d/,
    re: g(
      `(?:${SUBJ} )?(?:(?:is |are )?(?:now )?` +
        '(?:runs?|running|listens?|listening|serves?|serving|served|available|starts?|started|exposes?|' +
        'exposing|binds?|bound)\\b[^.\\n]{0,50}?|\\b[Dd]efault ' +
        `port (?:is |of |= |: )?)\`?(?:(?:https?:\\/\\/)?(?:localhost|127\\.0\\.0\\.1|0\\.0\\.0\\.0):|port ` +
        ')(\\d{2,5})\\b',
    ),
    make: (m, proper) => {
      const port = Number(m[3]);
      if (!(port >= 10 && port <= 65535)) return [];
      const s = subjectOf(m[1], m[2], proper) ?? 'we';
      return [rel(s, 'port', { literal: String(port) }, 0.6, { weOk: true })];
    },
  },
  {
    // "Bumped the version to 0.3.0", "Current version is 0.2.0", "Tagged v0.3.0", "Bastion v0.3.0 is live"
    hint: /version|tagged/i,
    re: g(
      `(?:\\b(?:[Bb]ump(?:ed)?|[Ss]et) (?:the )?version (?:from ${QVER} )?to ${QVER}|\\b(?:[Cc]urrent |[Pp]roject ` +
        `|[Pp]ackage )?[Vv]ersion (?:is|is now) ${QVER}|\\b[Tt]agged:? (?:and pushed )?(?:release ` +
        `)?\`?v(\\d+\\.\\d+(?:\\.\\d+)?)\`?|${SUBJ} ${QVER} (?:is|was) (?:live|released|out|published|tagged))`,
    ),
    make: (m, proper) => {
      const v = m[2] ?? m[3] ?? m[4] ?? m[7];
      if (!v) return [];
      const s = m[7] !== undefined ? subjectOf(m[5], m[6], proper) : 'we';
      return s ? [rel(s, 'version', { literal: v }, 0.6, { weOk: true })] : [];
    },
  },
  {
    // "Upgraded `axum` to 0.8", "Pinned `zod` to 3.22.4", "Bump rpassword from 7.4.0 to 7.5.2"
    hint: /upgraded|downgraded|pinned|bump|updated/i,
    re: g(
      `\\b(?:[Uu]pgraded|[Dd]owngraded|[Pp]inned|[Bb]umped|[Bb]ump|[Uu]pdated) (?:${CODE}|${TOOL_WORD})(?: ` +
        `(?:dependency|package|crate|gem|module|library))? (?:from ${QVER} )?to ${QVER}`,
    ),
    make: (m) => {
      const name =
        m[1] !== undefined ? codeName(m[1]) : m[2] && (isTool(m[2], true) || /[-_.]/.test(m[2])) ? m[2] : null;
      const v = m[4];
      return name && v && !pathLike(name) ? [rel(`\`${name}\``, 'version', { literal: v }, 0.6)] : [];
    },
  },
  {
    // "We replaced Webpack with Vite" → uses Vite from then, uses Webpack ended
    hint: /replaced|swapped/i,
    re: g(`${DONE}(?:[Rr]eplaced|[Ss]wapped(?: out)?) (?:${CODE}|${TOOL_WORD}) (?:with|for) (?:${CODE}|${TOOL_WORD})`),
    make: (m) => {
      const from = m[1] !== undefined ? codeName(m[1]) : m[2] && isTool(m[2], true) ? m[2] : null;
      const to = m[3] !== undefined ? codeName(m[3]) : m[4] && isTool(m[4], true) ? m[4] : null;
      if (!from || !to || !isTool(from, true) || !isTool(to, true)) return [];
      return [
        rel('we', 'uses', { name: to, type: 'tool' }, 0.7, { weOk: true }),
        rel('we', 'uses', { name: from, type: 'tool' }, 0.7, { weOk: true, ends: true, record: true }),
      ];
    },
  },
  {
    // "We decided to keep the PTZ code in athena-capture" → decided "keep the PTZ code in athena-capture"
    hint: /decided to/i,
    re: g(
      `(?<![\\p{L}])(I|[Ww]e)(?:['’]ve| have)? (?:just |finally )?decided to (?!use |go with |adopt ` +
        ')([^.;:!?\\n]{6,100})',
    ),
    make: (m) => {
      // the decision ends at a clause boundary ("…, which is awesome", "… - even though…")
      const what = m[2]!
        .split(/\s+[-–—]\s+|,|\s(?=(?:which|because|since|even though|although|though|but|so that|as)\b)/)[0]!
        .trim();
      return what.split(' ').length >= 2 ? [rel(m[1]!, 'decided', { literal: what }, 0.6, { weOk: true })] : [];
    },
  },
];

/** The union of the rules' hints, case-insensitive ones and case-sensitive ones (global, no Unicode mode). */
const HINT_UNIONS = [true, false].map(
  (ci) =>
    new RegExp(
      RULES.filter((r) => r.hint.flags.includes('i') === ci)
        .map((r) => `(?:${r.hint.source})`)
        .join('|'),
      ci ? 'gi' : 'g',
    ),
);

/**
 * Start offsets, ascending, of the lines of `text` that some rule's hint matches (hints never span a
 * line break): the others cannot match any rule, so they are not even sliced.
 */
function hintedLines(text: string): number[] {
  const starts = new Set<number>();
  for (const re of HINT_UNIONS) {
    re.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = re.exec(text)) !== null) {
      starts.add(text.lastIndexOf('\n', m.index) + 1);
      const le = text.indexOf('\n', m.index + m[0].length);
      if (le < 0) break;
      re.lastIndex = le + 1;
    }
  }
  return [...starts].sort((a, b) => a - b);
}

/**
 * Runs the coding rules over one turn's prose. `proper(name)` says whether a capitalised subject
 * is a proper name (see extract.ts). Returns relations grouped by sentence, spans relative to it.
 */
export function codeRelations(text: string, proper: (name: string) => boolean): SentenceRelations[] {
  if (text.length < 12) return [];
  const bySentence = new Map<number, SentenceRelations>();
  // Line by line, and a rule's regex only on the lines its hint finds: the Unicode regexes with
  // lookbehinds cost far more than a plain search, and most lines hold no trigger at all. The lines
  // that any hint finds come from one pass of the hints' union over the whole text.
  for (const ls of hintedLines(text)) {
    let le = text.indexOf('\n', ls);
    if (le < 0) le = text.length;
    const line = text.slice(ls, le);
    if (line.length >= 12) {
      for (const rule of RULES) {
        if (!rule.hint.test(line)) continue;
        rule.re.lastIndex = 0;
        let m: RegExpExecArray | null;
        while ((m = rule.re.exec(line)) !== null) {
          if (m[0].length === 0) {
            rule.re.lastIndex++;
            continue;
          }
          const index = ls + m.index;
          const [s, e] = sentenceAround(text, index);
          const sentence = text.slice(s, Math.max(e, index + m[0].length));
          const at = index - s;
          const prefix = sentence.slice(0, at);
          if (QUESTION.test(sentence) || hedged(prefix) || PLAN.test(prefix)) continue;
          const made = rule.make(m, proper);
          if (made.length === 0) continue;
          let group = bySentence.get(s);
          if (!group) bySentence.set(s, (group = { sentence, start: s, relations: [] }));
          for (const r of made) group.relations.push({ ...r, at, end: at + m[0].length });
        }
      }
    }
  }
  return [...bySentence.values()].sort((a, b) => a.start - b.start);
}
