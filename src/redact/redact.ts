/**
 * @module redact/redact
 * Secret redaction before storage: every secret becomes `[REDACTED:<kind>]`; every other character
 * is left exactly as it was (verbatim is the product's promise, so precision comes first).
 *
 * Three detectors, in the spirit of gitleaks' rules (format + keyword context + entropy):
 * 1. provider formats (`tokens.ts`): 110+ prefixes over 50 kinds — anthropic, openai, github,
 *    gitlab, slack, stripe, google, aws-access-key, npm, pypi, sendgrid, mailgun, twilio, discord,
 *    shopify, huggingface, heroku, digitalocean, square, databricks, doppler, linear, postman,
 *    groq, xai, perplexity, replicate, grafana, sentry, newrelic, atlassian, vault, docker, notion,
 *    supabase, planetscale, pulumi, rubygems, clojars, age, langsmith, figma, flyio, mapbox,
 *    buildkite, netlify, jwt — plus formats without a prefix: PEM private-key blocks, Discord bot
 *    tokens (their first part must decode to a numeric id), Telegram bot tokens, Azure client
 *    secrets / storage keys / SAS signatures, Mailchimp keys, Terraform Cloud tokens. A token must
 *    stand alone (no letter, digit, `_` or `-` glued to either side) and its variable part must
 *    not be filler (`xxxx`, `****`, `<…>`, `${…}`) or too regular (Shannon entropy per rule);
 * 2. context (`assignments.ts`): values assigned to secret-named keys (`password=`, `api_key:`,
 *    `"client_secret": "…"`, `?access_token=…`) when the value is a secret (`values.ts`): never a
 *    placeholder (`your_key`, `xxx`, `<token>`, `${VAR}`, `$VAR`, env lookups in code, `[PAD]`,
 *    words such as example/changeme/test), reference, path, URL, number, version, call, regex,
 *    dotted or plain identifier, or env-var name; tokens and keys need entropy near random for
 *    their length and two character classes; passwords at least 6 characters and two classes;
 *    passwords in `scheme://user:password@host` (not defaults such as `postgres`, not the user
 *    name); `Authorization:` headers and `Bearer` tokens with a random-looking credential;
 * 3. overlaps: the earliest hit wins, and at equal starts the provider format.
 *
 * Cost: prefixes are found by one regex pass, formats without a prefix run only when their
 * literal occurs, assignments are found by jumping between `=`/`:` characters.
 */
import { scanAssignments, scanAuth, scanUrlPasswords } from './assignments.js';
import { scanFree, scanPrefixed, type SecretHit } from './tokens.js';

export { REDACT_RULES_VERSION } from './version.js';

/** Result of {@link redactSecrets}. */
interface RedactResult {
  /** The text with every secret replaced by `[REDACTED:<kind>]`. */
  text: string;
  /** Number of redactions. */
  count: number;
  /** Redactions per kind. */
  kinds: Record<string, number>;
}

/** Finds the secrets in `text`: non-overlapping, in order of position. */
export function findSecrets(text: string): SecretHit[] {
  const hits: SecretHit[] = [];
  scanPrefixed(text, hits);
  scanFree(text, hits);
  scanUrlPasswords(text, hits);
  scanAuth(text, hits);
  scanAssignments(text, hits);
  if (hits.length === 0) return hits;
  hits.sort((a, b) => a.start - b.start);
  const out: SecretHit[] = [];
  let pos = 0;
  for (const h of hits) {
    if (h.start < pos) continue;
    if (text.startsWith('[REDACTED', h.start)) continue;
    out.push(h);
    pos = h.end;
  }
  return out;
}

/**
 * Replaces secrets in `text` with `[REDACTED:<kind>]` (kinds and rules in the module comment).
 * Idempotent: redacting redacted text changes nothing.
 */
export function redactSecrets(text: string): RedactResult {
  const hits = findSecrets(text);
  if (hits.length === 0) return { text, count: 0, kinds: {} };
  const kinds: Record<string, number> = {};
  const parts: string[] = [];
  let pos = 0;
  for (const h of hits) {
    parts.push(text.slice(pos, h.start), `[REDACTED:${h.kind}]`);
    pos = h.end;
    kinds[h.kind] = (kinds[h.kind] ?? 0) + 1;
  }
  parts.push(text.slice(pos));
  return { text: parts.join(''), count: hits.length, kinds };
}
