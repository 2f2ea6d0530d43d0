/**
 * @module ingest/project/binary
 * Binary and generated-file detection: by path (no I/O, used by the walker) and by content
 * (first 8 KiB, used by the miner after reading a file).
 */
import { baseName } from './language.js';

/**
 * Extensions never mined. Grouped for review; all lower-case, compared case-insensitively.
 * SVG is listed: it is XML, but almost always generated path data with no searchable words.
 */
const BINARY_EXTENSIONS = new Set(
  [
    // images
    'png jpg jpeg gif bmp ico icns webp tif tiff psd ai eps heic heif avif jxl raw cr2 nef dng xcf sketch fig svg svgz',
    // archives and packages
    'zip tar gz tgz bz2 tbz2 xz txz 7z rar zst lz lz4 lzma z jar war ear aar apk aab ipa deb rpm dmg iso img msi ' +
      'msix cab whl egg nupkg gem crate vsix xpi',
    // fonts
    'ttf otf woff woff2 eot fon pfb',
    // audio and video
    'mp3 mp4 m4a m4v wav flac ogg oga ogv opus aac wma avi mov mkv webm wmv flv mpg mpeg 3gp mid midi aif aiff',
    // compiled objects and executables
    'o obj a lib so dylib dll exe bin class pyc pyo pyd wasm elc beam dex ko node pdb ilk exp idb lo gch pch rlib ' +
      'rmeta dSYM',
    // office documents
    'pdf doc docx xls xlsx ppt pptx odt ods odp odg key pages numbers epub mobi rtf',
    // databases, data and model files
    'sqlite sqlite3 db db3 mdb accdb dbf parquet arrow feather avro orc h5 hdf5 npy npz pkl pickle joblib pt pth ' +
      'ckpt safetensors onnx tflite pb gguf ggml lmdb rdb realm mat sav',
    // 3D, design, misc binary
    'blend fbx 3ds max stl glb swf fla lnk jks keystore p12 pfx der crx',
    // generated text that only adds noise to search
    'map lock lockb',
  ]
    .join(' ')
    .toLowerCase()
    .split(' '),
);

/** Lockfiles and other generated files known by name (lower-case). */
const GENERATED_NAMES = new Set([
  'package-lock.json',
  'npm-shrinkwrap.json',
  'yarn.lock',
  'pnpm-lock.yaml',
  'bun.lock',
  'bun.lockb',
  'cargo.lock',
  'gemfile.lock',
  'poetry.lock',
  'pipfile.lock',
  'composer.lock',
  'go.sum',
  'mix.lock',
  'pubspec.lock',
  'podfile.lock',
  'packages.lock.json',
  'flake.lock',
  'uv.lock',
  'pdm.lock',
  'deno.lock',
  'gradle.lockfile',
  'paket.lock',
  'shrinkwrap.yaml',
  '.ds_store',
  'thumbs.db',
  'ehthumbs.db',
  'icon\r',
]);

/** The extensions of {@link GENERATED_NAMES} ('' for none): only names with one of them are looked up whole. */
const GENERATED_EXTS = new Set(
  [...GENERATED_NAMES].map((n) => (n.includes('.') ? n.slice(n.lastIndexOf('.') + 1) : '')),
);

/**
 * Why a path is never mined, judged by its name alone, or null when it may be text.
 * Returns 'lockfile', 'minified', 'source-map', 'os-metadata' or `extension .png` (etc.).
 * Asked of every walked file: the extension alone is lower-cased and looked up unless it can be a generated name's.
 */
export function binaryPathReason(rel: string): string | null {
  const base = baseName(rel);
  const dot = base.lastIndexOf('.');
  // Every listed extension is ASCII: lower-casing the extension alone gives the whole name's lower-cased extension.
  const ext = dot < 0 ? '' : base.slice(dot + 1).toLowerCase();
  if (GENERATED_EXTS.has(ext)) {
    const name = base.toLowerCase();
    if (GENERATED_NAMES.has(name)) {
      if (name === '.ds_store' || name.endsWith('thumbs.db') || name === 'icon\r') return 'os-metadata';
      return 'lockfile';
    }
  }
  if (dot < 0) return null;
  if (ext === 'lock' || ext === 'lockb') return 'lockfile';
  if (ext === 'map') return 'source-map';
  if ((ext === 'js' || ext === 'css' || ext === 'mjs' || ext === 'cjs') && /[.-]min\.[a-z]+$/.test(base.toLowerCase()))
    return 'minified';
  return BINARY_EXTENSIONS.has(ext) ? `extension .${ext}` : null;
}

/**
 * True when a file is not worth reading, judged by its path alone:
 * - binary formats by extension: images (incl. SVG), archives and packages, fonts, audio/video,
 *   compiled objects and executables, office documents, databases and data/model files (`.sqlite`,
 *   `.db`, `.parquet`, `.onnx`, `.safetensors`, …);
 * - generated text: lockfiles (`package-lock.json`, `yarn.lock`, `pnpm-lock.yaml`, `Cargo.lock`,
 *   `go.sum`, any `*.lock`, …), minified bundles (`*.min.js`, `*.min.css`), source maps (`*.map`);
 * - OS metadata (`.DS_Store`, `Thumbs.db`).
 *
 * Lockfiles are skipped on purpose: they are large, machine-written, and full of hashes and version
 * strings that drown real matches in search. Unknown extensions are NOT binary here: the miner
 * checks their content with {@link looksBinary}, so `.c`, `.vue`, `.ipynb`, `Makefile`… are mined
 * (MemPalace reads only 21 extensions).
 */
export function isBinaryPath(rel: string): boolean {
  return binaryPathReason(rel) !== null;
}

/** Bytes that count as "control characters" in {@link looksBinary} (tab, LF, VT, FF, CR, ESC excluded). */
function isControl(b: number): boolean {
  return (b < 32 && b !== 9 && b !== 10 && b !== 11 && b !== 12 && b !== 13 && b !== 27) || b === 127;
}

/** How many bytes {@link looksBinary} inspects. */
const SNIFF_BYTES = 8192;

/**
 * True when content looks binary: a NUL byte in the first 8 KiB, or more than 10 % control
 * characters there (tab, newlines, form feed and ESC are not counted). A UTF-16 byte-order mark makes
 * the test run on 16-bit units instead, so UTF-16 text with a BOM is not binary.
 */
export function looksBinary(buf: Uint8Array): boolean {
  const n = Math.min(buf.length, SNIFF_BYTES);
  if (n === 0) return false;
  const b0 = buf[0]!;
  const b1 = n > 1 ? buf[1]! : -1;
  if ((b0 === 0xff && b1 === 0xfe) || (b0 === 0xfe && b1 === 0xff)) {
    const le = b0 === 0xff;
    let ctrl = 0;
    let units = 0;
    for (let i = 2; i + 1 < n; i += 2) {
      const u = le ? buf[i]! | (buf[i + 1]! << 8) : (buf[i]! << 8) | buf[i + 1]!;
      if (u === 0) return true;
      if (u < 128 && isControl(u)) ctrl++;
      units++;
    }
    return units > 0 && ctrl * 10 > units;
  }
  let ctrl = 0;
  for (let i = 0; i < n; i++) {
    const b = buf[i]!;
    if (b === 0) return true;
    if (isControl(b)) ctrl++;
  }
  return ctrl * 10 > n;
}
