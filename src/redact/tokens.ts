/**
 * @module redact/tokens
 * Provider credentials recognised by their own format (the rule table below, in the spirit of
 * gitleaks' rules; written for Loci). Two kinds of rule:
 *
 * - prefixed: a literal prefix (`ghp_`, `sk-ant-`, `SG.`, `shpat_`, …) followed by a body of a
 *   known alphabet and length. One pass over the characters finds the places a token may start;
 *   a table of the prefixes' first two characters decides whether the rules' sticky body patterns
 *   run there. Discord bot tokens are checked in the same pass. A token must not continue a word on either
 *   side, and its body must not be filler (`xxxx`, `<…>`) nor too regular for its length (Shannon
 *   entropy below the rule's minimum, default 3 bits per character).
 * - free: formats without a prefix (PEM private keys, Telegram bot tokens,
 *   Azure secrets, Mailchimp keys, JWTs…), each gated by a literal that must occur in the text.
 */
import { isFillerToken } from './values.js';

/** One secret found in a text. */
export interface SecretHit {
  /** UTF-16 offset of the first character of the secret. */
  start: number;
  /** Offset after its last character. */
  end: number;
  /** The `<kind>` of `[REDACTED:<kind>]`, e.g. `github`, `password`. */
  kind: string;
}

interface PrefixRule {
  kind: string;
  prefixes: readonly string[];
  /** The token's body right after the prefix (compiled sticky). */
  body: string;
  /** Minimum Shannon entropy of the body (bits per character). Default 3. */
  minEntropy?: number;
  check?: (body: string) => boolean;
}

const hasDigit = (s: string) => /\d/.test(s);
const mixedCase = (s: string) => /[a-z]/.test(s) && /[A-Z]/.test(s);

const PREFIX_RULES: readonly PrefixRule[] = [
  { kind: 'anthropic', prefixes: ['sk-ant-'], body: '[A-Za-z0-9_-]{32,}', minEntropy: 3.5 },
  {
    kind: 'openai',
    prefixes: ['sk-proj-', 'sk-svcacct-', 'sk-admin-', 'sk-None-'],
    body: '[A-Za-z0-9_-]{20,}',
    minEntropy: 3.5,
    check: hasDigit,
  },
  { kind: 'openai', prefixes: ['sk-'], body: '[A-Za-z0-9]{32,}', minEntropy: 3.5, check: hasDigit },
  { kind: 'github', prefixes: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'], body: '[A-Za-z0-9]{36,40}', minEntropy: 3.5 },
  { kind: 'github', prefixes: ['github_pat_'], body: '[A-Za-z0-9_]{40,}', minEntropy: 3.5 },
  {
    kind: 'gitlab',
    prefixes: [
      'glpat-',
      'glptt-',
      'gldt-',
      'glrt-',
      'glsoat-',
      'glcbt-',
      'glffct-',
      'glimt-',
      'glagent-',
      'gloas-',
      'glft-',
    ],
    body: '[A-Za-z0-9_-]{20,}',
  },
  { kind: 'gitlab', prefixes: ['GR1348941'], body: '[A-Za-z0-9_-]{20}' },
  {
    kind: 'slack',
    prefixes: ['xoxb-', 'xoxp-', 'xoxa-', 'xoxr-', 'xoxs-', 'xoxo-', 'xoxe-', 'xoxe.xoxp-'],
    body: '[A-Za-z0-9-]{10,}',
    check: hasDigit,
  },
  { kind: 'slack', prefixes: ['xapp-'], body: '\\d-[A-Za-z0-9-]{20,}' },
  {
    kind: 'slack',
    prefixes: ['https://hooks.slack.com/'],
    body: '(?:services|workflows|triggers)/[A-Za-z0-9/_-]{20,}',
    minEntropy: 2.5,
  },
  {
    kind: 'stripe',
    prefixes: ['sk_live_', 'rk_live_', 'sk_test_', 'rk_test_', 'sk_prod_', 'rk_prod_'],
    body: '[A-Za-z0-9]{16,}',
  },
  { kind: 'stripe', prefixes: ['whsec_'], body: '[A-Za-z0-9+/=]{24,}' },
  { kind: 'google', prefixes: ['AIza'], body: '[A-Za-z0-9_-]{35}' },
  { kind: 'google', prefixes: ['GOCSPX-'], body: '[A-Za-z0-9_-]{28}' },
  { kind: 'google', prefixes: ['ya29.'], body: '[A-Za-z0-9_-]{30,}', minEntropy: 3.5 },
  { kind: 'aws-access-key', prefixes: ['AKIA', 'ASIA', 'ABIA', 'ACCA'], body: '[A-Z2-7]{16}' },
  { kind: 'npm', prefixes: ['npm_'], body: '[A-Za-z0-9]{36}', minEntropy: 3.5 },
  { kind: 'pypi', prefixes: ['pypi-AgEIcHlwaS5vcmc', 'pypi-AgENdGVzdC5weXBpLm9yZw'], body: '[A-Za-z0-9_-]{50,}' },
  { kind: 'sendgrid', prefixes: ['SG.'], body: '[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]{43}', minEntropy: 3.5 },
  { kind: 'mailgun', prefixes: ['key-'], body: '[0-9a-f]{32}' },
  { kind: 'twilio', prefixes: ['SK', 'AC'], body: '[0-9a-f]{32}' },
  {
    kind: 'discord',
    prefixes: [
      'https://discord.com/api/webhooks/',
      'https://discordapp.com/api/webhooks/',
      'https://canary.discord.com/api/webhooks/',
      'https://ptb.discord.com/api/webhooks/',
    ],
    body: '\\d{17,20}/[A-Za-z0-9_-]{60,68}',
  },
  { kind: 'shopify', prefixes: ['shpat_', 'shpca_', 'shppa_', 'shpss_'], body: '[a-fA-F0-9]{32}' },
  { kind: 'huggingface', prefixes: ['hf_'], body: '[A-Za-z0-9]{34}', minEntropy: 3.5, check: mixedCase },
  { kind: 'huggingface', prefixes: ['api_org_'], body: '[A-Za-z]{34}', minEntropy: 3.5, check: mixedCase },
  { kind: 'heroku', prefixes: ['HRKU-AA'], body: '[A-Za-z0-9_-]{58}', minEntropy: 3.5 },
  { kind: 'digitalocean', prefixes: ['dop_v1_', 'doo_v1_', 'dor_v1_'], body: '[a-f0-9]{64}' },
  { kind: 'square', prefixes: ['sq0atp-'], body: '[A-Za-z0-9_-]{22}' },
  { kind: 'square', prefixes: ['sq0csp-'], body: '[A-Za-z0-9_-]{43}' },
  { kind: 'square', prefixes: ['EAAA'], body: '[A-Za-z0-9_+-]{60}', minEntropy: 3.5 },
  { kind: 'databricks', prefixes: ['dapi'], body: '[a-f0-9]{32}(?:-\\d)?' },
  {
    kind: 'doppler',
    prefixes: ['dp.pt.', 'dp.st.', 'dp.ct.', 'dp.sa.', 'dp.scim.', 'dp.audit.'],
    body: '[A-Za-z0-9]{40,44}',
    minEntropy: 3.5,
  },
  { kind: 'linear', prefixes: ['lin_api_'], body: '[A-Za-z0-9]{40}', minEntropy: 3.5 },
  { kind: 'linear', prefixes: ['lin_oauth_'], body: '[a-f0-9]{64}' },
  { kind: 'postman', prefixes: ['PMAK-'], body: '[a-f0-9]{24}-[a-f0-9]{34}' },
  { kind: 'groq', prefixes: ['gsk_'], body: '[A-Za-z0-9]{52}', minEntropy: 3.5 },
  { kind: 'xai', prefixes: ['xai-'], body: '[A-Za-z0-9]{80}', minEntropy: 3.5 },
  { kind: 'perplexity', prefixes: ['pplx-'], body: '[A-Za-z0-9]{48}', minEntropy: 3.5 },
  { kind: 'replicate', prefixes: ['r8_'], body: '[A-Za-z0-9]{37}', minEntropy: 3.5 },
  { kind: 'grafana', prefixes: ['glc_'], body: '[A-Za-z0-9+/]{32,}={0,2}', minEntropy: 3.5 },
  { kind: 'grafana', prefixes: ['glsa_'], body: '[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}', minEntropy: 3.5 },
  { kind: 'sentry', prefixes: ['sntrys_', 'sntryu_'], body: '[A-Za-z0-9+/=_-]{40,}', minEntropy: 3.5 },
  { kind: 'newrelic', prefixes: ['NRAK-'], body: '[A-Z0-9]{27}' },
  { kind: 'atlassian', prefixes: ['ATATT3'], body: '[A-Za-z0-9_=-]{150,}', minEntropy: 3.5 },
  { kind: 'vault', prefixes: ['hvs.', 'hvb.'], body: '[A-Za-z0-9_-]{24,}', minEntropy: 3.5 },
  { kind: 'docker', prefixes: ['dckr_pat_'], body: '[A-Za-z0-9_-]{27}' },
  { kind: 'notion', prefixes: ['ntn_'], body: '\\d{11}[A-Za-z0-9]{35}', minEntropy: 3.5 },
  {
    kind: 'notion',
    prefixes: ['secret_'],
    body: '[A-Za-z0-9]{43}',
    minEntropy: 4,
    check: (b) => hasDigit(b) && mixedCase(b),
  },
  { kind: 'supabase', prefixes: ['sbp_'], body: '[a-f0-9]{40}' },
  { kind: 'supabase', prefixes: ['sb_secret_'], body: '[A-Za-z0-9_-]{20,}', minEntropy: 3.5 },
  {
    kind: 'planetscale',
    prefixes: ['pscale_tkn_', 'pscale_pw_', 'pscale_oauth_'],
    body: '[A-Za-z0-9_.-]{32,64}',
    minEntropy: 3.5,
  },
  { kind: 'pulumi', prefixes: ['pul-'], body: '[a-f0-9]{40}' },
  { kind: 'rubygems', prefixes: ['rubygems_'], body: '[a-f0-9]{48}' },
  { kind: 'clojars', prefixes: ['CLOJARS_'], body: '[a-z0-9]{60}' },
  { kind: 'age', prefixes: ['AGE-SECRET-KEY-1'], body: '[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}' },
  { kind: 'langsmith', prefixes: ['lsv2_pt_', 'lsv2_sk_'], body: '[a-f0-9]{32}_[a-f0-9]{10}' },
  { kind: 'figma', prefixes: ['figd_'], body: '[A-Za-z0-9_-]{40}', minEntropy: 3.5 },
  { kind: 'flyio', prefixes: ['fo1_'], body: '[A-Za-z0-9_-]{43}', minEntropy: 3.5 },
  { kind: 'mapbox', prefixes: ['sk.eyJ'], body: '[A-Za-z0-9_-]{50,}\\.[A-Za-z0-9_-]{20,}', minEntropy: 3.5 },
  { kind: 'buildkite', prefixes: ['bkua_'], body: '[a-f0-9]{40}' },
  { kind: 'netlify', prefixes: ['nfp_'], body: '[A-Za-z0-9]{36}', minEntropy: 3.5 },
  {
    kind: 'jwt',
    prefixes: ['eyJ'],
    body: '[A-Za-z0-9_-]{10,}\\.eyJ[A-Za-z0-9_-]{10,}\\.[A-Za-z0-9_-]{10,}',
    minEntropy: 3.5,
  },
];

interface CompiledRule extends PrefixRule {
  re: RegExp;
}

/** Rules per prefix, longest prefixes first within each two-character bucket. */
const BUCKETS = new Map<string, { prefix: string; rules: CompiledRule[] }[]>();
for (const r of PREFIX_RULES) {
  const c: CompiledRule = { ...r, re: new RegExp(r.body, 'y') };
  for (const p of r.prefixes) {
    const key = p.slice(0, 2);
    const list = BUCKETS.get(key) ?? [];
    const entry = list.find((e) => e.prefix === p);
    if (entry) entry.rules.push(c);
    else list.push({ prefix: p, rules: [c] });
    list.sort((a, b) => b.prefix.length - a.prefix.length);
    BUCKETS.set(key, list);
  }
}
/**
 * Places a token may start: after a character that cannot be part of one (or a `\n`-style escape),
 * a whole prefix (longest first), or the start of a Discord bot token. Group 1 is what follows the
 * boundary. Whole prefixes (not their first characters) keep the hits — and the work after each
 * hit — rare.
 */
const ESCAPE = (x: string) => x.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const ALL_PREFIXES = [...new Set(PREFIX_RULES.flatMap((r) => r.prefixes))].sort((a, b) => b.length - a.length);
const ANCHOR = new RegExp(
  `(?:^|[^A-Za-z0-9_-]|\\\\[nrt])(${ALL_PREFIXES.map(ESCAPE).join('|')}|[MNO](?=[A-Za-z0-9_-]{23,25}\\.))`,
  'g',
);

/** Discord bot tokens: the bot's id in base64 (starts with M, N or O), a timestamp, an HMAC. */
const DISCORD = /[MNO][A-Za-z0-9_-]{23,25}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,38}/y;

/** A token character: letters, digits, `_`, `-`. */
function isTokenChar(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 95 || c === 45;
}

/** A Discord bot token's first part is the bot's numeric id in base64. */
function discordId(token: string): boolean {
  const first = token.slice(0, token.indexOf('.'));
  const id = Buffer.from(first.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('latin1');
  return /^\d{17,20}$/.test(id) && !isFillerToken(token.slice(first.length + 8), 3.5);
}

/** The end of a prefixed token starting at `i` (0 when none), pushed onto `hits`. */
function prefixedAt(text: string, i: number, hits: SecretHit[]): number {
  const list = BUCKETS.get(text.slice(i, i + 2));
  if (!list) return 0;
  for (const { prefix, rules } of list) {
    if (!text.startsWith(prefix, i)) continue;
    const b = i + prefix.length;
    for (const r of rules) {
      r.re.lastIndex = b;
      const bm = r.re.exec(text);
      if (!bm) continue;
      const end = b + bm[0].length;
      if (end < text.length && isTokenChar(text.charCodeAt(end))) continue;
      if (isFillerToken(bm[0], r.minEntropy ?? 3) || (r.check && !r.check(bm[0]))) continue;
      hits.push({ start: i, end, kind: r.kind });
      return end;
    }
  }
  return 0;
}

function discordAt(text: string, i: number, hits: SecretHit[]): number {
  DISCORD.lastIndex = i;
  const m = DISCORD.exec(text);
  if (!m) return 0;
  const end = i + m[0].length;
  if ((end < text.length && isTokenChar(text.charCodeAt(end))) || !discordId(m[0])) return 0;
  hits.push({ start: i, end, kind: 'discord' });
  return end;
}

/**
 * Prefixed provider tokens and Discord bot tokens: one regex finds the places a token may start,
 * and only there the rules of the prefixes beginning with those two characters are tried.
 */
export function scanPrefixed(text: string, hits: SecretHit[]): void {
  ANCHOR.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = ANCHOR.exec(text)) !== null) {
    const i = m.index + m[0].length - m[1]!.length;
    const c = text.charCodeAt(i);
    let end = prefixedAt(text, i, hits);
    if (!end && (c === 77 || c === 78 || c === 79)) end = discordAt(text, i, hits);
    ANCHOR.lastIndex = end || i + 1;
  }
}

interface FreeRule {
  kind: string;
  /** Literals of which one must occur for the rule to run. */
  needles: readonly string[];
  re: RegExp;
  /** Capture group holding the secret (0 = whole match). */
  group?: number;
  /** The match must not continue a token on its left (checked here, not by a lookbehind, which is slow). */
  bounded?: boolean;
  check?: (secret: string) => boolean;
}

/** A PEM block body holds at least 32 base64 characters of a real key, not `...` or `<key>`. */
function pemBody(block: string): boolean {
  const body = block.replace(/-----[A-Z0-9 ]+-----/g, '').replace(/\\[nr]|[\s:,]/g, '');
  return body.length >= 32 && !isFillerToken(body, 3);
}

const FREE_RULES: readonly FreeRule[] = [
  {
    kind: 'private-key',
    needles: ['-----BEGIN'],
    re: new RegExp(
      String.raw`-----BEGIN ((?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?)-----(?:[\s\S]*?-----END \1-----|` +
        String.raw`(?:[A-Za-z0-9+/=\s:,-]|\\[nr])*)`,
      'g',
    ),
    check: pemBody,
  },
  {
    kind: 'telegram',
    needles: [':A'],
    re: /\d{5,16}:A[A-Za-z0-9_-]{34}(?![\w-])/g,
    bounded: true,
    check: (s) => !isFillerToken(s.slice(s.indexOf(':') + 1), 3.5),
  },
  {
    kind: 'azure',
    needles: ['Q~'],
    re: /[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![\w~.-])/g,
    bounded: true,
    check: (s) => !isFillerToken(s, 3.5),
  },
  {
    kind: 'azure',
    needles: ['AccountKey=', 'SharedAccessKey='],
    re: /(?:AccountKey|SharedAccessKey)=([A-Za-z0-9+/]{40,}={0,2})/dg,
    group: 1,
    check: (s) => !isFillerToken(s, 4),
  },
  {
    kind: 'azure',
    needles: ['sig='],
    re: /[?&;]sig=([A-Za-z0-9%+/=]{30,})/dg,
    group: 1,
    check: (s) => !isFillerToken(s, 3.5),
  },
  {
    kind: 'mailchimp',
    needles: ['-us'],
    re: /[0-9a-f]{32}-us\d{1,2}(?![\w-])/g,
    bounded: true,
    check: (s) => !isFillerToken(s.slice(0, 32), 3),
  },
  {
    kind: 'terraform',
    needles: ['.atlasv1.'],
    re: /[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,70}(?![\w-])/g,
    bounded: true,
    check: (s) => !isFillerToken(s, 3.5),
  },
];

/** Formats without a prefix. */
export function scanFree(text: string, hits: SecretHit[]): void {
  for (const r of FREE_RULES) {
    if (!r.needles.some((n) => text.includes(n))) continue;
    r.re.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = r.re.exec(text)) !== null) {
      const g = r.group ?? 0;
      const secret = m[g];
      if (r.bounded && m.index > 0) {
        const p = text.charCodeAt(m.index - 1);
        if (isTokenChar(p) || p === 58 /* : */ || p === 126 /* ~ */ || p === 46 /* . */) {
          r.re.lastIndex = m.index + 1;
          continue;
        }
      }
      if (!secret || (r.check && !r.check(secret))) continue;
      const start = g === 0 ? m.index : m.indices![g]![0];
      hits.push({ start, end: start + secret.length, kind: r.kind });
    }
  }
}

/** Every kind a prefixed or free rule can report (for documentation and tests). */
export const TOKEN_KINDS: readonly string[] = [
  ...new Set([...PREFIX_RULES.map((r) => r.kind), 'discord', ...FREE_RULES.map((r) => r.kind)]),
];
