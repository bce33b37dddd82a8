import yauzl from 'yauzl';
import path from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { ModelFileError, invalidModelFile } from './model-file-error.js';

/** Limits for untrusted archives (after Sonar RSPEC-5042). */
export interface SafeUnzipOptions {
  /** Entries in the archive, directories included. Default 1,000. */
  maxEntries: number;
  /** Uncompressed bytes of one entry. Default 50 MB. */
  maxEntryBytes: number;
  /** Uncompressed bytes of all entries together. Default 150 MB. */
  maxTotalBytes: number;
  /** Largest uncompressed/compressed ratio allowed for entries over `ratioThresholdBytes`. Default 100. */
  maxRatio: number;
  /** Entries smaller than this are not ratio-checked (tiny files compress well). Default 1 MB. */
  ratioThresholdBytes: number;
  /** Each entry's bytes in a SharedArrayBuffer, so that several threads can read them without a copy. Default false. */
  shared: boolean;
}

const SAFE_UNZIP_DEFAULTS: SafeUnzipOptions = {
  maxEntries: 1000,
  maxEntryBytes: 50_000_000,
  maxTotalBytes: 150_000_000,
  maxRatio: 100,
  ratioThresholdBytes: 1024 * 1024,
  shared: false,
};

const NAME = 'safe-unzip';
const DEFLATE = 8;
const NESTED_ARCHIVE = /\.(zip|7z|rar|tar|gz|tgz|bz2|xz|zst)$/i;
const tooLarge = (message: string) => new ModelFileError('too_large', `${NAME}: ${message}`);
const invalid = (issueCode: string, message: string) => invalidModelFile(issueCode, `${NAME}: ${message}`);

/** Skipped, not refused: macOS resource forks and hidden files that zip tools add. */
function isJunk(name: string): boolean {
  return name.startsWith('__MACOSX/') || name.split('/').some((part) => part.startsWith('.'));
}

/** Opens an archive kept elsewhere (a file) with the options `safeUnzip` needs. */
export type ZipOpener = (options: yauzl.Options) => Promise<yauzl.ZipFile>;

/**
 * Reads a zip in memory into normalised path → bytes, never touching disk. Exceeded limits give
 * `too_large`; a malformed or hostile archive (including lying sizes) gives `invalid_file`.
 */
export async function safeUnzip(
  source: Buffer | ZipOpener,
  options: Partial<SafeUnzipOptions> = {},
): Promise<Map<string, Uint8Array>> {
  const limits = { ...SAFE_UNZIP_DEFAULTS, ...options };
  let zip: yauzl.ZipFile;
  try {
    // strictFileNames off: backslashes become slashes *before* yauzl's own name validation.
    const zipOptions = { lazyEntries: true, strictFileNames: false, validateEntrySizes: true };
    // An opened file is read as entries are inflated: an 80 MB archive is never held whole.
    zip = Buffer.isBuffer(source) ? await yauzl.fromBufferPromise(source, zipOptions) : await source(zipOptions);
  } catch (error) {
    throw invalid('ZIP_UNREADABLE', `not a readable zip archive (${(error as Error).message})`);
  }
  if (zip.entryCount > limits.maxEntries) {
    zip.close();
    throw tooLarge(`the archive has too many entries (${zip.entryCount}, at most ${limits.maxEntries})`);
  }

  const files = new Map<string, Uint8Array>();
  let total = 0;
  try {
    for await (const entry of zip.eachEntry()) {
      const name = entry.fileName;
      const normalized = path.posix.normalize(name);
      // yauzl already refuses these while iterating; checked again so the rule does not hang on a library default.
      if (
        normalized.startsWith('../') ||
        normalized === '..' ||
        path.posix.isAbsolute(normalized) ||
        /^[a-z]:/i.test(normalized)
      ) {
        throw invalid('ZIP_PATH_ESCAPE', `entry "${name}" escapes the archive`);
      }
      if (name.endsWith('/') || isJunk(normalized)) continue;
      if (entry.isEncrypted()) throw invalid('ZIP_ENCRYPTED', `entry "${name}" is encrypted`);
      if (NESTED_ARCHIVE.test(name)) throw invalid('ZIP_NESTED_ARCHIVE', `entry "${name}" is a nested archive`);
      const size = entry.uncompressedSize;
      if (size > limits.maxEntryBytes)
        throw tooLarge(`entry "${name}" expands to ${size} bytes (at most ${limits.maxEntryBytes})`);
      total += size;
      if (total > limits.maxTotalBytes) throw tooLarge(`the archive expands past ${limits.maxTotalBytes} bytes`);
      if (size > limits.ratioThresholdBytes && size / Math.max(entry.compressedSize, 1) > limits.maxRatio) {
        throw tooLarge(`entry "${name}" expands more than ${limits.maxRatio} times its compressed size`);
      }
      if (files.has(normalized)) throw invalid('ZIP_DUPLICATE_ENTRY', `entry "${name}" appears twice`);
      files.set(normalized, await readEntry(zip, entry, limits.shared));
    }
  } catch (error) {
    if (error instanceof ModelFileError) throw error;
    // yauzl reports bad names ("invalid relative path"), lying sizes and corrupt data while iterating.
    const message = (error as Error).message;
    const code = /relative path|absolute path|invalid characters/i.test(message) ? 'ZIP_PATH_ESCAPE' : 'ZIP_CORRUPT';
    throw invalid(code, message);
  } finally {
    zip.close();
  }
  return files;
}

/**
 * The entry's bytes in an ArrayBuffer (or SharedArrayBuffer) of their own (Buffer.concat may
 * hand out a slice of Node's shared pool).
 */
async function readEntry(zip: yauzl.ZipFile, entry: yauzl.Entry, shared: boolean): Promise<Uint8Array> {
  const size = entry.uncompressedSize;
  const out = new Uint8Array(shared ? new SharedArrayBuffer(size) : new ArrayBuffer(size));
  if (entry.compressionMethod === DEFLATE && size > 0) {
    // One inflate bounded by the declared size (many small chunks cost several times the CPU). Deflate adds only
    // a few bytes per 16 KB block, so more compressed bytes than that is a lie, refused before reading.
    if (entry.compressedSize > size + (size >>> 10) + 64)
      throw new Error(
        `entry "${entry.fileName}": too many bytes in the stream, ` +
          `${entry.compressedSize} compressed for ${size} declared`,
      );
    const compressed = Buffer.allocUnsafe(entry.compressedSize);
    let read = 0;
    for await (const chunk of await zip.openReadStreamPromise(entry, { decompress: false } as yauzl.ZipFileOptions)) {
      const bytes = chunk as Buffer;
      if (read + bytes.length > compressed.length)
        throw new Error(`entry "${entry.fileName}" is larger than it declares`);
      compressed.set(bytes, read);
      read += bytes.length;
    }
    let inflated: Buffer;
    try {
      inflated = inflateRawSync(compressed.subarray(0, read), { maxOutputLength: size });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE')
        throw new Error(`entry "${entry.fileName}": too many bytes in the stream. expected ${size}`, {
          cause: error,
        });
      throw error;
    }
    if (inflated.length !== size) throw new Error(`entry "${entry.fileName}" is shorter than it declares`);
    out.set(inflated);
    return out;
  }
  const stream = await zip.openReadStreamPromise(entry);
  let offset = 0;
  for await (const chunk of stream) {
    const bytes = chunk as Buffer;
    // validateEntrySizes errors first; this guards the copy all the same.
    if (offset + bytes.length > out.length) throw new Error(`entry "${entry.fileName}" is larger than it declares`);
    out.set(bytes, offset);
    offset += bytes.length;
  }
  if (offset !== out.length) throw new Error(`entry "${entry.fileName}" is shorter than it declares`);
  return out;
}
