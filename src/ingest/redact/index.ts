/**
 * @module ingest/redact
 * Secret redaction applied to mined text before it is stored (`--no-redact` opts out).
 */
export { redactSecrets, isSecretKey, type RedactResult } from './redact.js';
