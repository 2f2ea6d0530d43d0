/**
 * @module text
 * Tokenisation shared by the index, queries and in-memory scorers, and the shared vocabulary of
 * written dates (`dates.ts`: month and weekday names, ordinals, 12-hour times, calendar days).
 */
export { tokenize, searchColumn, queryTokens, isStopword } from './tokenize.js';
export { porterStem } from './porter.js';
export { STOPWORDS } from './stopwords.js';
export {
  DAY_MS,
  MONTH_NAME,
  ORDINAL_SUFFIX,
  WEEKDAY_NAME,
  monthIndex,
  monthOfPrefix,
  weekdayIndex,
  hour24,
  daysInMonth,
  isCalendarDay,
  isoDay,
} from './dates.js';
