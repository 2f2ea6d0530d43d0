/**
 * @module dream/consolidate
 * The consolidate phase on a working copy of the memory directory: nothing is written here. Each
 * step reads the current text of a file (pending change, else what is on disk) and records its
 * change with the reason; the run then writes everything at once (`snapshot.ts`).
 *
 * Rules the model cannot override:
 * - Team memories (`isTeamMemory`) are never merged, updated or deleted on the model's word; such
 *   proposals are refused and listed for the user. The rules touch them only for exact duplicates
 *   and date rewrites.
 * - A memory that contradicts CLAUDE.md loses (is deleted) unless the model says it clearly
 *   post-dates and corrects CLAUDE.md **and** it was written after that CLAUDE.md file last
 *   changed; either way the conflict is reported. CLAUDE.md is never written.
 * - The model may only name files of the batch it was shown, and only files not already merged or
 *   deleted in this run.
 */
import { rewriteRelativeDates } from '../core/dates.js';
import { applyTopicPatch, isTeamMemory, parseTopicFile, type Memory } from '../memdir/index.js';
import type { DuplicateMerge } from './duplicates.js';
import type { ModelAction } from './model.js';
import type { ClaudeMdConflict, ClaudeMdText, DreamChange } from './types.js';

/** A memory as it stands in the working copy. */
export interface WorkingMemory {
  file: string;
  text: string;
  body: string;
  description: string;
  type: Memory['type'];
  modified: string;
  team: boolean;
  pinned: boolean;
  hasFrontmatter: boolean;
}

/** The working copy of one run. */
export class WorkingCopy {
  /** Pending texts by file; `null` deletes. */
  readonly writes = new Map<string, string | null>();
  readonly changes: DreamChange[] = [];
  readonly refused: { file: string; reason: string }[] = [];
  readonly conflicts: ClaudeMdConflict[] = [];
  private readonly original: Map<string, Memory>;
  private readonly team: Set<string>;

  constructor(
    memories: readonly Memory[],
    private readonly nowIso: string,
  ) {
    this.original = new Map(memories.map((m) => [m.file, m]));
    this.team = new Set(memories.filter((m) => isTeamMemory(parseTopicFile(m.text, m.file))).map((m) => m.file));
  }

  /** True for a team memory (see `isTeamMemory`). */
  isTeam(file: string): boolean {
    return this.team.has(file);
  }

  /** The memory as it stands now, or undefined when deleted (or unknown). */
  get(file: string): WorkingMemory | undefined {
    const m = this.original.get(file);
    if (!m) return undefined;
    const pending = this.writes.get(file);
    if (pending === null) return undefined;
    const text = pending ?? m.text;
    const t = pending === undefined ? m : parseTopicFile(text, file);
    return {
      file,
      text,
      body: t.body,
      description: t.description,
      type: t.type,
      modified: pending === undefined ? m.modified : this.nowIso,
      team: this.team.has(file),
      pinned: t.pinned,
      hasFrontmatter: t.hasFrontmatter,
    };
  }

  /** Every memory still alive, in file order. */
  alive(): WorkingMemory[] {
    return [...this.original.keys()]
      .sort()
      .map((f) => this.get(f))
      .filter((m): m is WorkingMemory => m !== undefined);
  }

  private patch(m: WorkingMemory, body: string | undefined, description: string | undefined): boolean {
    const p = {
      ...(body !== undefined ? { body } : {}),
      ...(description !== undefined && m.hasFrontmatter ? { description } : {}),
    };
    const next = applyTopicPatch(m.text, m.file, p, this.nowIso);
    if (next === m.text) return false;
    this.writes.set(m.file, next);
    return true;
  }

  private remove(file: string): void {
    this.writes.set(file, null);
  }

  /** Applies the rules' duplicate merges. */
  applyDuplicates(merges: readonly DuplicateMerge[]): void {
    for (const d of merges) {
      const keep = this.get(d.keep);
      if (!keep) continue;
      if (d.body !== undefined) this.patch(keep, d.body, undefined);
      for (const f of d.drop) this.remove(f);
      this.changes.push({ action: 'merge', file: d.keep, from: [...d.drop], reason: d.reason, by: 'rules' });
    }
  }

  /** Rewrites relative dates in every memory, reckoned from when it was written (`modified`). */
  applyDates(): void {
    for (const m of this.alive()) {
      const body = rewriteRelativeDates(m.body, m.modified);
      const description = rewriteRelativeDates(m.description, m.modified);
      if (body === m.body && description === m.description) continue;
      const day = m.modified.slice(0, 10);
      if (this.patch(m, body === m.body ? undefined : body, description === m.description ? undefined : description))
        this.changes.push({
          action: 'rewrite-dates',
          file: m.file,
          reason: `relative dates written as absolute ones, reckoned from ${day} (when the memory was written)`,
          by: 'rules',
        });
    }
  }

  private usable(file: string, batch: ReadonlySet<string>, what: string): WorkingMemory | undefined {
    if (!batch.has(file)) {
      this.refused.push({ file, reason: `the model named a file it was not shown (${what})` });
      return undefined;
    }
    const m = this.get(file);
    if (!m) this.refused.push({ file, reason: `already merged or deleted in this run (${what})` });
    return m;
  }

  private teamRefusal(m: WorkingMemory, what: string, reason: string): boolean {
    if (!m.team) return false;
    this.refused.push({
      file: m.file,
      reason: `team memory, changed conservatively: the model proposed to ${what} it (${reason}); review it by hand`,
    });
    return true;
  }

  /** Applies the model's actions for one batch under the rules of the module comment. */
  applyModel(actions: readonly ModelAction[], batch: ReadonlySet<string>, claudeMd: readonly ClaudeMdText[]): void {
    for (const a of actions) {
      switch (a.action) {
        case 'merge': {
          const into = this.usable(a.into, batch, 'merge');
          const from = a.from.filter((f) => f !== a.into).map((f) => this.usable(f, batch, 'merge'));
          if (!into || from.some((f) => !f) || !from.length) break;
          const all = [into, ...(from as WorkingMemory[])];
          if (all.some((m) => this.teamRefusal(m, 'merge', a.reason))) break;
          const body = a.body === undefined ? undefined : rewriteRelativeDates(a.body, this.nowIso);
          this.patch(into, body, a.description);
          for (const f of from as WorkingMemory[]) this.remove(f.file);
          this.changes.push({
            action: 'merge',
            file: into.file,
            from: (from as WorkingMemory[]).map((f) => f.file),
            reason: a.reason,
            by: 'model',
          });
          break;
        }
        case 'update': {
          const m = this.usable(a.file, batch, 'update');
          if (!m || this.teamRefusal(m, 'rewrite', a.reason)) break;
          const body = a.body === undefined ? undefined : rewriteRelativeDates(a.body, this.nowIso);
          if (this.patch(m, body, a.description))
            this.changes.push({ action: 'update', file: m.file, reason: a.reason, by: 'model' });
          break;
        }
        case 'delete': {
          const m = this.usable(a.file, batch, 'delete');
          if (!m || this.teamRefusal(m, 'delete', a.reason)) break;
          this.remove(m.file);
          const why = a.contradictedBy ? `contradicted by ${a.contradictedBy}: ${a.reason}` : a.reason;
          this.changes.push({ action: 'delete', file: m.file, reason: why, by: 'model' });
          break;
        }
        case 'claude-md-conflict':
          this.conflict(a, batch, claudeMd);
          break;
      }
    }
  }

  private conflict(
    a: Extract<ModelAction, { action: 'claude-md-conflict' }>,
    batch: ReadonlySet<string>,
    claudeMd: readonly ClaudeMdText[],
  ): void {
    const m = this.usable(a.file, batch, 'CLAUDE.md conflict');
    if (!m) return;
    const named = claudeMd.find((c) => c.path === a.claudeMd || c.path.endsWith(`/${a.claudeMd}`));
    const cmdTime = named ? named.mtimeMs : Math.max(0, ...claudeMd.map((c) => c.mtimeMs));
    const postDates = Date.parse(m.modified) > cmdTime;
    const claudeMdPath = named?.path ?? a.claudeMd;
    if (a.postDatesAndCorrects && postDates) {
      this.conflicts.push({
        file: m.file,
        claudeMd: claudeMdPath,
        outcome: 'memory-kept',
        reason: `${a.reason} (the memory was written after CLAUDE.md last changed and corrects it)`,
      });
      return;
    }
    const why = a.postDatesAndCorrects
      ? 'the model judged it a correction, but CLAUDE.md changed after the memory was written'
      : 'CLAUDE.md wins';
    this.conflicts.push({
      file: m.file,
      claudeMd: claudeMdPath,
      outcome: 'memory-loses',
      reason: `${a.reason} (${why})`,
    });
    if (this.teamRefusal(m, 'delete', `contradicts ${claudeMdPath}`)) return;
    this.remove(m.file);
    this.changes.push({
      action: 'delete',
      file: m.file,
      reason: `contradicts ${claudeMdPath}: ${a.reason} (${why})`,
      by: 'model',
    });
  }
}
