/**
 * @module ingest
 * Getting text into the palace: project folders (and, later, conversations).
 */
export { mineProject, PROJECT_MINER_VERSION, type MineProjectOptions, type MineProgress, type MineSummary } from './mine-project.js';
export { findGitRoot, wingName, defaultWing } from './project-identity.js';
