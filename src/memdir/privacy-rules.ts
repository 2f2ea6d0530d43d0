/**
 * @module memdir/privacy-rules
 * The pure privacy policy (see `privacy.ts` for the table); kept apart so the scanner can apply it
 * without importing the export path.
 */
import { createError } from '../core/errors.js';
import type { MemoryType, Privacy } from './types.js';

/** The privacy a new memory of `type` gets when none is given. */
export function defaultPrivacy(type: MemoryType | null): Privacy {
  return type === 'reference' ? 'team' : 'private';
}

/** Throws MEMORY_PRIVACY_INVALID when `privacy` is not allowed for `type` (user memories are always private). */
export function checkPrivacy(type: MemoryType, privacy: string): Privacy {
  if (privacy !== 'private' && privacy !== 'team') {
    throw createError('MEMORY_PRIVACY_INVALID', { type, privacy, reason: 'use private or team' });
  }
  if (type === 'user' && privacy === 'team') {
    throw createError('MEMORY_PRIVACY_INVALID', {
      type,
      privacy,
      reason: 'user memories describe one person and are always private',
    });
  }
  return privacy;
}

/**
 * The privacy a memory actually has: `user` → private; under `team/` → team; else the declared
 * `metadata.privacy`; else the type's default.
 */
export function effectivePrivacy(type: MemoryType | null, declared: Privacy | undefined, team: boolean): Privacy {
  if (type === 'user') return 'private';
  if (team) return 'team';
  return declared ?? defaultPrivacy(type);
}
