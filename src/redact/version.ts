/**
 * @module redact/version
 * The version of the redaction rules, in a leaf of its own: mining fingerprints include it on every run,
 * and a re-mine of unchanged files must not load (and compile the patterns of) the rules themselves.
 */

/**
 * Version of the rules. Mining fingerprints include it, so that text mined under other rules is
 * read again (and a value wrongly redacted before is stored verbatim) on the next run.
 */
export const REDACT_RULES_VERSION = 2;
