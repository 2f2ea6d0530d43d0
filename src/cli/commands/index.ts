/**
 * @module cli/commands
 * The list of command modules. Add one import and one array entry per command file.
 */
import type { RegisterCommand } from '../context.js';

export const COMMANDS: RegisterCommand[] = [];
