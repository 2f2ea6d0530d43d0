/**
 * @module ingest/project/language
 * Maps a file path to a language name, and a language to the light tokenizer profile the code
 * chunker uses (comment and string syntax, brace or indentation structure). No parser per language:
 * a profile is a handful of flags.
 */

/** How the code chunker finds structure in a language. */
export interface CodeProfile {
  /** 'brace': depth of `{[(` at the line start; 'indent': indentation width. */
  readonly mode: 'brace' | 'indent';
  /** `//` starts a line comment. */
  readonly slashSlash?: boolean;
  /** `/* … *\/` block comments. */
  readonly slashStar?: boolean;
  /** `#` starts a line comment (at a word start). */
  readonly hash?: boolean;
  /** `--` starts a line comment. */
  readonly dashDash?: boolean;
  /** `;` starts a line comment (ini, lisp). */
  readonly semi?: boolean;
  /** `<!-- … -->` block comments. */
  readonly htmlComment?: boolean;
  /** Quote characters of strings (each ends at its line end unless listed in `multiQuotes`). */
  readonly quotes: string;
  /** Quote characters whose strings may span lines. */
  readonly multiQuotes?: string;
  /** `"""` / `'''` strings span lines. */
  readonly triple?: boolean;
  /** `'` starts a character literal only when it closes within 3 chars (Rust lifetimes, C chars). */
  readonly charQuote?: boolean;
  /** JS-style regex literals `/…/` after an operator. */
  readonly regex?: boolean;
  /** Indent mode: lines inside `([{` are continuations (Python). */
  readonly brackets?: boolean;
  /** Line prefixes that attach a line to the declaration below it (decorators, attributes). */
  readonly attach?: readonly string[];
  /** Indent mode: first words that close or continue the previous unit (`end`, `else`, `fi` …). */
  readonly closers?: readonly string[];
}

const C_LIKE: CodeProfile = {
  mode: 'brace',
  slashSlash: true,
  slashStar: true,
  quotes: '"\'',
  charQuote: true,
  attach: ['@'],
};
const JS: CodeProfile = {
  mode: 'brace',
  slashSlash: true,
  slashStar: true,
  quotes: '"\'`',
  multiQuotes: '`',
  regex: true,
  attach: ['@'],
};
const HASH_BRACE: CodeProfile = { mode: 'brace', hash: true, quotes: '"\'' };
const SH_END = ['fi', 'done', 'esac', 'else', 'elif', 'then', 'do', ';;', '}', ')'];

const PROFILES: Readonly<Record<string, CodeProfile>> = {
  typescript: JS,
  javascript: JS,
  java: { ...C_LIKE, triple: true },
  kotlin: { ...C_LIKE, triple: true },
  scala: { ...C_LIKE, triple: true },
  groovy: { ...C_LIKE, charQuote: false, triple: true },
  swift: { ...C_LIKE, charQuote: false, triple: true },
  csharp: { ...C_LIKE, attach: ['[', '@'] },
  c: C_LIKE,
  cpp: C_LIKE,
  objc: C_LIKE,
  go: { ...C_LIKE, quotes: '"\'`', multiQuotes: '`' },
  rust: { ...C_LIKE, multiQuotes: '"', attach: ['#[', '#!['] },
  dart: { ...C_LIKE, charQuote: false, triple: true },
  php: {
    mode: 'brace',
    slashSlash: true,
    slashStar: true,
    hash: true,
    quotes: '"\'',
    multiQuotes: '"\'',
    attach: ['#[', '@'],
  },
  css: { mode: 'brace', slashStar: true, quotes: '"\'' },
  scss: { mode: 'brace', slashSlash: true, slashStar: true, quotes: '"\'' },
  less: { mode: 'brace', slashSlash: true, slashStar: true, quotes: '"\'' },
  json: { mode: 'brace', slashSlash: true, slashStar: true, quotes: '"' },
  hcl: { mode: 'brace', slashSlash: true, slashStar: true, hash: true, quotes: '"' },
  protobuf: { mode: 'brace', slashSlash: true, slashStar: true, quotes: '"\'' },
  graphql: { ...HASH_BRACE, triple: true, attach: ['@'] },
  r: HASH_BRACE,
  perl: HASH_BRACE,
  powershell: { mode: 'brace', hash: true, quotes: '"\'', attach: ['['] },
  zig: { mode: 'brace', slashSlash: true, quotes: '"\'', charQuote: true },
  python: {
    mode: 'indent',
    hash: true,
    quotes: '"\'',
    triple: true,
    brackets: true,
    attach: ['@'],
    closers: ['else', 'elif', 'except', 'finally', ')', ']', '}'],
  },
  ruby: {
    mode: 'indent',
    hash: true,
    quotes: '"\'',
    brackets: true,
    closers: ['end', 'else', 'elsif', 'when', 'rescue', 'ensure', 'in', ')', ']', '}'],
  },
  elixir: {
    mode: 'indent',
    hash: true,
    quotes: '"\'',
    triple: true,
    brackets: true,
    attach: ['@'],
    closers: ['end', 'else', 'rescue', 'after', 'catch', ')', ']', '}'],
  },
  lua: {
    mode: 'indent',
    dashDash: true,
    quotes: '"\'',
    brackets: true,
    closers: ['end', 'else', 'elseif', 'until', ')', ']', '}'],
  },
  julia: {
    mode: 'indent',
    hash: true,
    quotes: '"\'',
    triple: true,
    brackets: true,
    attach: ['@'],
    closers: ['end', 'else', 'elseif', 'catch', 'finally', ')', ']', '}'],
  },
  nim: {
    mode: 'indent',
    hash: true,
    quotes: '"\'',
    triple: true,
    brackets: true,
    closers: ['else', 'elif', 'except', 'finally'],
  },
  haskell: { mode: 'indent', dashDash: true, quotes: '"', brackets: true },
  shell: { mode: 'indent', hash: true, quotes: '"\'', closers: SH_END },
  makefile: { mode: 'indent', hash: true, quotes: '', closers: ['endif', 'else', 'endef'] },
  dockerfile: { mode: 'indent', hash: true, quotes: '' },
  yaml: { mode: 'indent', hash: true, quotes: '"\'' },
  toml: { mode: 'indent', hash: true, quotes: '"\'', triple: true, brackets: true },
  ini: { mode: 'indent', hash: true, semi: true, quotes: '' },
  sql: { mode: 'indent', dashDash: true, slashStar: true, quotes: '"\'', closers: [')'] },
  html: { mode: 'indent', htmlComment: true, quotes: '', closers: ['</'] },
  xml: { mode: 'indent', htmlComment: true, quotes: '', closers: ['</'] },
  vue: { mode: 'indent', htmlComment: true, quotes: '', closers: ['</'] },
  svelte: { mode: 'indent', htmlComment: true, quotes: '', closers: ['</'] },
};

const EXT: Readonly<Record<string, string>> = {
  ts: 'typescript',
  tsx: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  js: 'javascript',
  jsx: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  py: 'python',
  pyi: 'python',
  pyw: 'python',
  rb: 'ruby',
  rake: 'ruby',
  gemspec: 'ruby',
  go: 'go',
  rs: 'rust',
  java: 'java',
  kt: 'kotlin',
  kts: 'kotlin',
  scala: 'scala',
  sc: 'scala',
  groovy: 'groovy',
  gradle: 'groovy',
  swift: 'swift',
  cs: 'csharp',
  dart: 'dart',
  c: 'c',
  h: 'c',
  cc: 'cpp',
  cpp: 'cpp',
  cxx: 'cpp',
  hpp: 'cpp',
  hh: 'cpp',
  hxx: 'cpp',
  ino: 'cpp',
  m: 'objc',
  mm: 'objc',
  php: 'php',
  zig: 'zig',
  r: 'r',
  pl: 'perl',
  pm: 'perl',
  ps1: 'powershell',
  psm1: 'powershell',
  ex: 'elixir',
  exs: 'elixir',
  lua: 'lua',
  jl: 'julia',
  nim: 'nim',
  hs: 'haskell',
  sh: 'shell',
  bash: 'shell',
  zsh: 'shell',
  fish: 'shell',
  ksh: 'shell',
  css: 'css',
  scss: 'scss',
  sass: 'scss',
  less: 'less',
  json: 'json',
  jsonc: 'json',
  json5: 'json',
  ipynb: 'json',
  tf: 'hcl',
  hcl: 'hcl',
  tfvars: 'hcl',
  proto: 'protobuf',
  graphql: 'graphql',
  gql: 'graphql',
  yaml: 'yaml',
  yml: 'yaml',
  toml: 'toml',
  ini: 'ini',
  cfg: 'ini',
  conf: 'ini',
  properties: 'ini',
  env: 'ini',
  editorconfig: 'ini',
  sql: 'sql',
  mk: 'makefile',
  html: 'html',
  htm: 'html',
  xhtml: 'html',
  xml: 'xml',
  xsd: 'xml',
  xsl: 'xml',
  plist: 'xml',
  csproj: 'xml',
  vue: 'vue',
  svelte: 'svelte',
  md: 'markdown',
  markdown: 'markdown',
  mdown: 'markdown',
  mkd: 'markdown',
  mdx: 'mdx',
  rst: 'restructuredtext',
  txt: 'text',
  text: 'text',
  adoc: 'asciidoc',
  org: 'org',
  tex: 'latex',
  csv: 'csv',
  tsv: 'csv',
  log: 'log',
  jsonl: 'jsonl',
  ndjson: 'jsonl',
};

const NAMES: Readonly<Record<string, string>> = {
  dockerfile: 'dockerfile',
  containerfile: 'dockerfile',
  makefile: 'makefile',
  gnumakefile: 'makefile',
  'cmakelists.txt': 'cmake',
  rakefile: 'ruby',
  gemfile: 'ruby',
  vagrantfile: 'ruby',
  podfile: 'ruby',
  brewfile: 'ruby',
  jenkinsfile: 'groovy',
  procfile: 'yaml',
  justfile: 'makefile',
  '.bashrc': 'shell',
  '.bash_profile': 'shell',
  '.zshrc': 'shell',
  '.profile': 'shell',
  '.gitignore': 'ignore',
  '.lociignore': 'ignore',
  '.dockerignore': 'ignore',
  '.npmignore': 'ignore',
  '.gitattributes': 'ignore',
  '.npmrc': 'ini',
  '.env': 'ini',
  readme: 'text',
  changelog: 'text',
  changes: 'text',
  license: 'text',
  copying: 'text',
  authors: 'text',
  contributing: 'text',
  notice: 'text',
  todo: 'text',
  history: 'text',
  news: 'text',
};

/** The file name of a `/`- or `\`-separated relative path. */
export function baseName(rel: string): string {
  let i = rel.length - 1;
  while (i >= 0 && rel.charCodeAt(i) !== 47 && rel.charCodeAt(i) !== 92) i--;
  return rel.slice(i + 1);
}

/**
 * The language of a file, from its extension or a well-known name (`Dockerfile`, `Makefile`,
 * `Dockerfile.dev`, `README`), lower-case: 'typescript', 'python', 'markdown', 'text', 'yaml', ….
 * Returns null when unknown (the chunker then treats the file as plain text).
 */
export function languageFor(rel: string): string | null {
  const name = baseName(rel).toLowerCase();
  const known = NAMES[name];
  if (known !== undefined) return known;
  const dot = name.lastIndexOf('.');
  if (dot > 0) {
    const byExt = EXT[name.slice(dot + 1)];
    if (byExt !== undefined) return byExt;
    const stem = NAMES[name.slice(0, dot)]; // Dockerfile.dev, Makefile.am, README.old
    if (stem === 'dockerfile' || stem === 'makefile' || stem === 'text') return stem;
    return null;
  }
  if (dot === 0) return EXT[name.slice(1)] ?? null; // .env, .editorconfig
  return null;
}

/** The tokenizer profile for a language, or undefined when it is chunked as prose. */
export function codeProfile(language: string | null): CodeProfile | undefined {
  return language === null ? undefined : PROFILES[language];
}

/** Languages chunked with the markdown segmenter and always reported as kind 'markdown'. */
export function isMarkdownLanguage(language: string | null): boolean {
  return language === 'markdown' || language === 'mdx' || language === 'restructuredtext';
}
