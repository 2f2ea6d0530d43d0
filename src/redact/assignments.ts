/**
 * @module redact/assignments
 * Secrets recognised by their context rather than their format:
 *
 * - assignments `KEY=value`, `KEY: value`, `"key": "value"`, `key = 'value'`, `?token=…` whose key
 *   names a secret ({@link isSecretKey}) and whose value is one ({@link isSecretValue}): the key is
 *   kept, the value redacted. A key naming a provider (`HEROKU_API_KEY`) gives the provider's kind;
 * - `scheme://user:password@host` → the password only, unless it is a placeholder or the user name;
 * - `Authorization: Bearer|Basic|Token|Bot <credential>` and `Bearer <token>`.
 */
import type { SecretHit } from './tokens.js';
import { charClasses, classCount, entropy, isEncodedPlaceholder, isFillerToken, isSecretValue } from './values.js';

/** Quick test on a candidate key before the full rule. */
const KEYWORD = /pass|pwd|secret|token|key|auth|credential|pat/i;

function isKeyChar(c: number): boolean {
  // A-Z a-z 0-9 _ . -
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 95 || c === 46 || c === 45;
}

const PASSWORD_WORDS = new Set(['password', 'passwd', 'pwd', 'pass', 'passphrase', 'passcode']);
const SECRET_LAST = new Set([
  ...PASSWORD_WORDS,
  'secret',
  'token',
  'apikey',
  'credentials',
  'credential',
  'pat',
  'auth',
  'authtoken',
  'privatekey',
  'secretkey',
  'accesskey',
]);
const KEY_QUALIFIERS = new Set([
  'api',
  'access',
  'private',
  'secret',
  'signing',
  'encryption',
  'master',
  'client',
  'app',
  'service',
  'account',
  'license',
  'auth',
  'admin',
  'deploy',
  'storage',
  'subscription',
  'session',
  'shared',
  'webhook',
]);
/** `<word>_token` names that are not credentials: tokenizer specials, pagination, counters. */
const NOT_SECRET_TOKENS = new Set([
  'pad',
  'unk',
  'bos',
  'eos',
  'cls',
  'sep',
  'mask',
  'start',
  'end',
  'special',
  'page',
  'next',
  'continuation',
  'cancellation',
  'cancel',
  'sync',
  'max',
  'min',
  'num',
  'total',
  'count',
  'input',
  'output',
  'prompt',
  'completion',
  'cached',
  'cache',
  'reasoning',
  'stop',
  'eot',
  'image',
  'audio',
  'default',
  'word',
  'last',
  'first',
  'prev',
  'previous',
  'lexer',
  'parser',
]);
const PROVIDERS = new Set([
  'aws',
  'heroku',
  'twilio',
  'mailgun',
  'sendgrid',
  'discord',
  'telegram',
  'azure',
  'square',
  'databricks',
  'doppler',
  'linear',
  'postman',
  'slack',
  'stripe',
  'github',
  'gitlab',
  'openai',
  'anthropic',
  'shopify',
  'pypi',
  'npm',
  'digitalocean',
  'google',
  'huggingface',
]);

function keyWords(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[_.-]+/)
    .filter(Boolean);
}

/**
 * Whether an assignment key names a secret: its last word (split at `_ - .` and camelCase) is
 * password/passwd/pwd/pass/passphrase/passcode/secret/token/apikey/credential(s)/pat/auth, or it
 * ends in `key` after api/access/private/secret/signing/encryption/master/client/app/service/
 * account/license/auth/admin/deploy/storage/subscription/session/shared/webhook, or it is
 * `secret_key_base`. Never secret: keys naming public/publishable, the shell's `PWD`/`OLDPWD`,
 * and `<x>_token` names of tokenizers, paging and counting (`pad_token`, `next_token`, `max_tokens`).
 */
export function isSecretKey(key: string): boolean {
  const w = keyWords(key);
  if (w.length === 0 || w.some((x) => x === 'public' || x === 'publishable')) return false;
  if (w.length === 1 && w[0] === 'pwd') return false;
  if (w.length === 2 && w[0] === 'oldpwd') return false;
  const last = w[w.length - 1]!;
  const prev = w[w.length - 2];
  if (last === 'token' && prev !== undefined && NOT_SECRET_TOKENS.has(prev)) return false;
  if (SECRET_LAST.has(last)) return true;
  if (last === 'key' && prev !== undefined && KEY_QUALIFIERS.has(prev)) return true;
  return last === 'base' && w.includes('secret');
}

function assignmentKind(key: string): string {
  const w = keyWords(key);
  if (w.includes('aws') && w.includes('secret')) return 'aws-secret-key';
  const provider = w.find((x) => PROVIDERS.has(x));
  if (provider && provider !== 'aws') return provider;
  return PASSWORD_WORDS.has(w[w.length - 1] ?? '') ? 'password' : 'secret';
}

/**
 * {@link isSecretKey} of keys seen before: identifiers repeat (`tokenCache:` in every chunk of a file),
 * and splitting a key into words (a regex replace, lower-casing, a split) cost more than the scan
 * around it. The answer depends on the key alone; the memo is bounded.
 */
const SECRET_KEYS = new Map<string, boolean>();
function secretKeyMemo(key: string): boolean {
  let yes = SECRET_KEYS.get(key);
  if (yes === undefined) {
    yes = isSecretKey(key);
    if (SECRET_KEYS.size >= 20_000) SECRET_KEYS.clear();
    SECRET_KEYS.set(key, yes);
  }
  return yes;
}

/** Where a bare value ends. */
function isValueEnd(c: number): boolean {
  // whitespace " ' ` , ; & ) } ] >
  return (
    c <= 32 ||
    c === 34 ||
    c === 39 ||
    c === 96 ||
    c === 44 ||
    c === 59 ||
    c === 38 ||
    c === 41 ||
    c === 125 ||
    c === 93 ||
    c === 62
  );
}

/**
 * Finds `key = value` / `key: value` assignments by jumping from one `=` or `:` to the next
 * (indexOf, so text without them costs almost nothing) and reading the key backwards.
 */
export function scanAssignments(text: string, hits: SecretHit[]): void {
  let nextEq = text.indexOf('=');
  let nextCo = text.indexOf(':');
  let done = 0;
  while (nextEq >= 0 || nextCo >= 0) {
    let j: number;
    if (nextCo < 0 || (nextEq >= 0 && nextEq < nextCo)) {
      j = nextEq;
      nextEq = text.indexOf('=', j + 1);
    } else {
      j = nextCo;
      nextCo = text.indexOf(':', j + 1);
    }
    if (j < done) continue;
    const op = text[j];
    if (
      op === ':' &&
      (text[j + 1] === '/' || text[j + 1] === ':' || text[j + 1] === '=' || (j > 0 && text[j - 1] === ':'))
    )
      continue;
    if (op === '=' && (text[j + 1] === '=' || text[j + 1] === '>' || (j > 0 && '=!<>+-*/|&?'.includes(text[j - 1]!))))
      continue;
    let ke = j;
    if (op === '=' && ke > 0 && text[ke - 1] === ':') ke--; // `KEY := value`
    while (ke > 0 && (text[ke - 1] === ' ' || text[ke - 1] === '\t')) ke--;
    if (ke > 0 && (text[ke - 1] === '"' || text[ke - 1] === "'")) ke--;
    let ks = ke;
    while (ks > 0 && ke - ks <= 80 && isKeyChar(text.charCodeAt(ks - 1))) ks--;
    if (ks === ke || ke - ks > 80) continue;
    const key = text.slice(ks, ke);
    if (!KEYWORD.test(key) || !secretKeyMemo(key)) continue;
    let v = j + 1;
    while (text[v] === ' ' || text[v] === '\t') v++;
    const q = text[v];
    const quoted = q === '"' || q === "'" || q === '`';
    let vs: number;
    let ve: number;
    if (quoted) {
      vs = v + 1;
      ve = text.indexOf(q, vs);
      const nl = text.indexOf('\n', vs);
      if (ve < 0 || (nl >= 0 && nl < ve)) continue;
      if (text[ve - 1] === '\\') continue; // an escaped quote: a string inside a string
    } else {
      vs = v;
      ve = vs;
      while (ve < text.length && !isValueEnd(text.charCodeAt(ve))) ve++;
      // Code, not a value: a call, or a chained assignment / operator after it (`a = B = {}`).
      if (/^\s*(?:\(|=[^=]|[{?]|&&|\|\|)/.test(text.slice(ve, ve + 4))) continue;
    }
    const value = text.slice(vs, ve);
    done = ve;
    const kind = assignmentKind(key);
    if (!isSecretValue(value, kind === 'password')) continue;
    // A lower-case key with a bare value in prose or code (`password: see the vault`, `token =
    // getToken()`) needs a digit as well: env files and configs use upper-case keys or quotes.
    if (!quoted && !/^[A-Z0-9_.-]+$/.test(key) && !/\d/.test(value)) continue;
    hits.push({ start: vs, end: ve, kind });
  }
}

/** Passwords in URLs that are examples or defaults, not secrets (checked lower-cased). */
const URL_PLACEHOLDERS = new RegExp(
  String.raw`^(?:pass(?:word|wd)?\d?|secret|token|pw|pwd|changeme|admin|root|guest|test|postgres|mysql|redis|` +
    String.raw`mongo|user|example|xxx+|\*+|\.\.\.|…)$`,
);

/** `scheme://user:password@host` → the password. */
export function scanUrlPasswords(text: string, hits: SecretHit[]): void {
  let at = text.indexOf('://');
  while (at >= 0) {
    let u = at + 3;
    while (u < text.length && !/[\s:@/?#"'<>]/.test(text[u]!)) u++;
    if (text[u] === ':' && u > at + 3) {
      let p = u + 1;
      while (p < text.length && !/[\s@/?#"'<>]/.test(text[p]!)) p++;
      const host = text.charCodeAt(p + 1);
      if (
        text[p] === '@' &&
        p > u + 1 &&
        ((host >= 48 && host <= 57) || (host >= 65 && host <= 90) || (host >= 97 && host <= 122) || host === 91)
      ) {
        const user = text.slice(at + 3, u);
        const pw = text.slice(u + 1, p);
        if (urlPasswordIsSecret(user, pw)) hits.push({ start: u + 1, end: p, kind: 'url-password' });
      }
    }
    at = text.indexOf('://', at + 3);
  }
}

/** Digits and symbols read as the letters they stand for (`s3cret`, `p4ssw0rd`), lower-cased. */
function unLeet(s: string): string {
  const map: Record<string, string> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', $: 's', '@': 'a' };
  return s.toLowerCase().replace(/[013457$@]/g, (c) => map[c] ?? c);
}

function urlPasswordIsSecret(user: string, pw: string): boolean {
  if (pw.length < 6 || pw === user || pw.startsWith('[REDACTED')) return false;
  // `user[:password]@host`: the optional-part brackets of a usage line, around a placeholder.
  const bare = pw.replace(/^\[|\]$/g, '');
  if (/^(?:\$|%[A-Z_]|<|\{|\*)/.test(pw) || URL_PLACEHOLDERS.test(bare.toLowerCase())) return false;
  if (URL_PLACEHOLDERS.test(unLeet(bare))) return false;
  if (/your|example|placeholder|changeme/i.test(pw) || isFillerToken(pw, 0)) return false;
  return true;
}

/** The credential after `Authorization: <scheme>` or `Bearer`. */
const AUTH_HEADER =
  /\bauthorization["']?\s*[:=]\s*["']?(?:(?:Bearer|Basic|Token|Bot|Digest)\s+)?([A-Za-z0-9._~+/=:-]{8,})/dgi;
const BEARER = /\b[Bb]earer\s+([A-Za-z0-9._~+/-]{16,}=*)/dg;

function credentialIsSecret(s: string): boolean {
  if (s.startsWith('[REDACTED') || /^(?:Bearer|Basic|Token|Bot|Digest)$/i.test(s)) return false;
  if (/your|example|placeholder|token|<|\$/i.test(s) || isFillerToken(s, 3) || isEncodedPlaceholder(s)) return false;
  const classes = classCount(charClasses(s));
  return classes >= 2 && (/\d/.test(s) || /[=+/]/.test(s) || (s.length >= 24 && entropy(s) >= 3.5));
}

/** Authorization headers and bearer tokens. */
export function scanAuth(text: string, hits: SecretHit[]): void {
  const lower = text.includes('uthorization') || text.includes('UTHORIZATION');
  for (const re of lower ? [AUTH_HEADER, BEARER] : text.includes('earer') ? [BEARER] : []) {
    re.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = re.exec(text)) !== null) {
      const s = m[1]!;
      const start = m.indices![1]![0];
      if (
        text[start + s.length] === '(' ||
        /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(s) ||
        !credentialIsSecret(s)
      )
        continue;
      hits.push({ start, end: start + s.length, kind: 'bearer' });
    }
  }
}
