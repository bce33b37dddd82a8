import yauzl from 'yauzl';
import path from 'node:path';
import { ModelFileError } from './model-file-error.js';

/** Limits for untrusted archives (after Sonar RSPEC-5042). */
export interface SafeUnzipOptions {
  /** Entries in the archive, directories included. Default 1,000. */
  maxEntries: number;
  /** Uncompressed bytes of one entry. Default 50 MB. */
  maxEntryBytes: number;
  /** Uncompressed bytes of all entries together. Default 150 MB. */
  maxTotalBytes: number;
  /** Largest uncompressed/compressed ratio allowed for entries over 1 MB. Default 100. */
  maxRatio: number;
}

export const SAFE_UNZIP_DEFAULTS: SafeUnzipOptions = {
  maxEntries: 1000,
  maxEntryBytes: 50 * 1024 * 1024,
  maxTotalBytes: 150 * 1024 * 1024,
  maxRatio: 100,
};

const NAME = 'safe-unzip';
const NESTED_ARCHIVE = /\.(zip|7z|rar|tar|gz|tgz|bz2|xz)$/i;
const invalid = (message: string) => new ModelFileError('invalid_file', `${NAME}: ${message}`);

/** Skipped, not refused: macOS resource forks and hidden files that zip tools add. */
function isJunk(name: string): boolean {
  return name.startsWith('__MACOSX/') || name.split('/').some((part) => part.startsWith('.'));
}

/**
 * Reads a zip held in memory into a map of normalised entry path → bytes. Nothing touches the
 * disk. Sizes are budgeted from the central directory and enforced again while inflating
 * (yauzl's validateEntrySizes), so an archive that lies about its sizes is stopped.
 */
export async function safeUnzip(buffer: Buffer, options: Partial<SafeUnzipOptions> = {}): Promise<Map<string, Uint8Array>> {
  const limits = { ...SAFE_UNZIP_DEFAULTS, ...options };
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.fromBufferPromise(buffer, { lazyEntries: true, strictFileNames: true, validateEntrySizes: true });
  } catch (error) {
    throw invalid(`not a readable zip archive (${(error as Error).message})`);
  }
  if (zip.entryCount > limits.maxEntries) throw invalid(`too many entries (${zip.entryCount}, at most ${limits.maxEntries})`);

  const files = new Map<string, Uint8Array>();
  let total = 0;
  try {
    for await (const entry of zip.eachEntry()) {
      const name = entry.fileName;
      if (name.endsWith('/')) continue;
      if (isJunk(name)) continue;
      const normalized = path.posix.normalize(name);
      if (normalized.startsWith('../') || path.posix.isAbsolute(normalized)) throw invalid(`entry "${name}" escapes the archive`);
      if (entry.isEncrypted()) throw invalid(`entry "${name}" is encrypted`);
      if (NESTED_ARCHIVE.test(name)) throw invalid(`entry "${name}" is a nested archive`);
      const size = entry.uncompressedSize;
      if (size > limits.maxEntryBytes) throw new ModelFileError('too_large', `${NAME}: entry "${name}" is larger than ${limits.maxEntryBytes} bytes`);
      total += size;
      if (total > limits.maxTotalBytes) throw new ModelFileError('too_large', `${NAME}: archive expands past ${limits.maxTotalBytes} bytes`);
      if (size > 1024 * 1024 && size / Math.max(entry.compressedSize, 1) > limits.maxRatio) {
        throw invalid(`entry "${name}" has a suspicious compression ratio`);
      }
      files.set(normalized, await readEntry(zip, entry));
    }
  } catch (error) {
    if (error instanceof ModelFileError) throw error;
    // yauzl reports bad names ("invalid relative path") and lying sizes while iterating.
    throw invalid((error as Error).message);
  } finally {
    zip.close();
  }
  return files;
}

async function readEntry(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Uint8Array> {
  const stream = await zip.openReadStreamPromise(entry);
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
