/**
 * @module ingest/redact
 * Secret redaction applied to text before it is stored: mined files and transcripts (`--no-redact`
 * opts out there) and text written directly (drawers, diary entries, facts, memory files).
 * Small and dependency-free, so that the palace and memdir import it without loading the miners.
 */
export { redactSecrets, findSecrets, REDACT_RULES_VERSION, type RedactResult } from './redact.js';
export { isSecretKey } from './assignments.js';
export { isSecretValue, entropy } from './values.js';
export { TOKEN_KINDS, type SecretHit } from './tokens.js';
