/**
 * @module redact
 * Secret redaction applied to text before it is stored: mined files and transcripts (`--no-redact`
 * opts out there) and text written directly (drawers, diary entries, facts, memory files). A
 * capability of its own, below ingest, memdir and palace, which all use it; it imports nothing.
 */
export { redactSecrets, findSecrets, REDACT_RULES_VERSION } from './redact.js';
export { isSecretKey } from './assignments.js';
export { isSecretValue, entropy } from './values.js';
export { TOKEN_KINDS, type SecretHit } from './tokens.js';
