/**
 * @module text
 * Tokenisation shared by the index, queries and in-memory scorers.
 */
export { tokenize, searchColumn, queryTokens, foldWord, isStopword, type TokenizeOptions } from './tokenize.js';
export { porterStem } from './porter.js';
export { STOPWORDS } from './stopwords.js';
