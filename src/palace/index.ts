/**
 * @module palace
 * The palace facade used by every front end.
 */
export { openPalace, type OpenPalaceOptions, type MineOptions, type Palace, type PalaceStatus } from './palace.js';
export { diaryWrite, diaryRead, DIARY_WING, type DiaryEntryInput } from './diary.js';
export { checkName, assertUnderRoots, NAME_MAX_CHARS } from './names.js';
