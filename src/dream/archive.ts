/**
 * @module dream/archive
 * The palace as the archive of the gather phase: narrow hybrid searches scoped to the project's
 * wing (`projectWing` of the working directory), so a memory can be checked against what was
 * actually said before.
 */
import { projectWing } from '../core/project-identity.js';
import type { Palace } from '../palace/index.js';
import type { ArchiveSearch } from './types.js';

/** An {@link ArchiveSearch} over `palace`, scoped to the wing of `cwd`. */
export function palaceArchive(palace: Palace, cwd: string): ArchiveSearch {
  const wing = projectWing(cwd);
  return {
    async search(query, limit) {
      const r = await palace.search(query, { wing, limit });
      return r.hits.map((h) => ({
        text: h.text,
        ...(h.contentDate ? { date: h.contentDate } : {}),
        ...(h.source ? { source: h.source } : {}),
      }));
    },
  };
}
