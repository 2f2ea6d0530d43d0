/**
 * @module ingest/convos-miner/auto
 * `palace.mine` in auto mode: one walk, split by content — files `detectFormat` recognises as
 * conversations go to the conversation miner, everything else to the project miner (which applies its
 * size limit) — and one merged summary.
 */
import type { MemoryStore } from '../../store/ports.js';
import { mineProject, type MineProjectOptions } from '../mine-project.js';
import { accountWalk, discoverConversations, mineConvoUnits } from '../mine-convos.js';
import { mergeSkips } from '../skips.js';
import { monotonicMs } from '../../core/clock.js';
import type { MineConvosOptions, MineConvosSummary } from './types.js';

/** Options of {@link mineAuto}: those of both miners. */
export type MineAutoOptions = MineProjectOptions & MineConvosOptions;

/** Mines `path`, sending each file to the miner its content calls for (see the module comment). */
export async function mineAuto(
  store: MemoryStore,
  path: string,
  opts: MineAutoOptions = {},
): Promise<MineConvosSummary> {
  const t0 = monotonicMs();
  const d = await discoverConversations(store, path, opts);
  const { files: _files, ...convoOpts } = opts;
  const convo = await mineConvoUnits(store, d.root, d.units, d.known, convoOpts);
  const project = await mineProject(store, d.root, { ...opts, items: d.others, known: d.known });
  const projectSeen = project.filesScanned > 0;
  const out: MineConvosSummary = {
    path: d.root,
    wing: projectSeen || convo.filesScanned === 0 ? project.wing : convo.wing,
    filesScanned: project.filesScanned + convo.filesScanned,
    filesSkipped: project.filesSkipped,
    filesUnchanged: project.filesUnchanged + convo.filesUnchanged,
    filesMined: project.filesMined + convo.filesMined,
    drawersAdded: project.drawersAdded + convo.drawersAdded,
    drawersUpdated: project.drawersUpdated + convo.drawersUpdated,
    drawersRemoved: project.drawersRemoved + convo.drawersRemoved,
    bytesRead: project.bytesRead + convo.bytesRead,
    seconds: (monotonicMs() - t0) / 1000,
    warnings: [...convo.warnings, ...project.warnings],
    redactions: convo.redactions + project.redactions,
    conversations: convo.conversations,
    skipped: project.skipped,
    skippedFiles: project.skippedFiles,
  };
  mergeSkips(out, convo);
  accountWalk(out, d, false);
  return out;
}
