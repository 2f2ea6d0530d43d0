/**
 * @module cli/commands
 * The list of command modules. Add one import and one array entry per command file.
 */
import type { RegisterCommand } from '../context.js';
import { register as bench } from './bench.js';
import { register as diary } from './diary.js';
import { register as embed } from './embed.js';
import { register as hook } from './hook.js';
import { register as hooks } from './hooks.js';
import { register as init } from './init.js';
import { register as kg } from './kg.js';
import { register as mcp } from './mcp.js';
import { register as memory } from './memory.js';
import { register as mine } from './mine.js';
import { register as recall } from './recall.js';
import { register as search } from './search.js';
import { register as status } from './status.js';
import { register as wakeUpCmd } from './wake-up.js';

/** In the order `loci --help` lists them: everyday verbs first. */
export const COMMANDS: RegisterCommand[] = [
  init,
  mine,
  search,
  status,
  memory,
  recall,
  kg,
  diary,
  wakeUpCmd,
  mcp,
  hooks,
  hook,
  embed,
  bench,
];
