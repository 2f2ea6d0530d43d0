/**
 * @module dream/report
 * The readable report of one run (Markdown), written to `runs/<runId>/report.md` under the Loci
 * home and returned as `reportText`: what ran and why, every change with its reason, conflicts with
 * CLAUDE.md, refused proposals, drifted memories and how to undo.
 */
import type { Drift } from './drift.js';
import type { DreamResult } from './types.js';

/** What the report needs beyond the result. */
interface ReportInput {
  dir: string;
  at: string;
  result: Omit<DreamResult, 'report' | 'reportText'>;
  drift: readonly Drift[];
  modelName?: string;
}

function cell(s: string): string {
  return s.replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();
}

/** Renders the report. */
export function renderReport(r: ReportInput): string {
  const res = r.result;
  const out: string[] = [
    `# Memory consolidation, ${r.at}`,
    '',
    `- Folder: \`${r.dir}\``,
    `- Result: ${res.ran ? (res.dryRun ? 'dry run (nothing written)' : 'ran') : 'did not run'}: ${res.reason}`,
    `- Model: ${
      res.model === 'used'
        ? `${r.modelName ?? 'used'}, about ${res.tokensSent.toLocaleString('en-US')} tokens sent`
        : res.model === 'failed'
          ? `failed (see below); only the deterministic steps stand`
          : 'none configured; only the deterministic steps ran (duplicates, dates, index)'
    }`,
    '',
    '## What ran',
    '',
    ...res.notes.map((n) => `- ${n}`),
    '',
    '## Changes',
    '',
  ];
  if (!res.changes.length) out.push('None.');
  else {
    out.push('| action | file | by | reason |', '| --- | --- | --- | --- |');
    for (const c of res.changes) {
      const file = c.from?.length ? `${c.file} ← ${c.from.join(', ')}` : c.file;
      out.push(`| ${c.action} | ${cell(file)} | ${c.by} | ${cell(c.reason)} |`);
    }
  }
  if (res.conflicts.length) {
    out.push('', '## Conflicts with CLAUDE.md', '', 'CLAUDE.md was not changed.', '');
    for (const c of res.conflicts) {
      const outcome = c.outcome === 'memory-kept' ? 'memory kept' : 'memory loses';
      out.push(`- \`${c.file}\` vs \`${c.claudeMd}\`: ${outcome}; ${c.reason}`);
    }
  }
  if (res.refused.length) {
    out.push('', '## Proposals refused (left for you)', '');
    for (const x of res.refused) out.push(`- \`${x.file}\`: ${x.reason}`);
  }
  if (r.drift.length) {
    out.push('', '## Memories naming things no longer in the repository', '');
    for (const d of r.drift) {
      const parts = [
        ...d.missingFiles.map((f) => `file \`${f}\``),
        ...d.missingFunctions.map((f) => `function \`${f}()\``),
      ];
      out.push(`- \`${d.file}\`: ${parts.join(', ')}`);
    }
  }
  if (res.ran && !res.dryRun && res.changes.length) {
    out.push(
      '',
      '## Undo',
      '',
      `\`loci dream --undo --dir "${r.dir}"\` puts the files back as they were before this run.`,
    );
  }
  return out.join('\n') + '\n';
}
