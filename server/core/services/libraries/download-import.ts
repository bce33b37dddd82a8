import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import {
  DownloadTooLargeError,
  MAX_DOWNLOAD_BYTES,
  planSize,
  type DownloadPlan,
  type Libraries,
} from '../../platform/libraries/index.js';
import type { ProviderId } from '../../platform/db/schema/index.js';
import { withTimeout } from '../../platform/deadline.js';
import type { ImportSource } from '../model-checks/import-model-task.js';
import { ImportFailure } from './import-failure.js';
import type { ImportProgressReporter } from './import-progress.js';

/** The folder an import job downloads into, removed once the job ends. */
export function importTempDir(tmpRoot: string, jobId: string): string {
  return path.join(tmpRoot, 'config-share-imports', jobId);
}

/** A relative path from a library, checked to stay in the model's folder. */
function safeRelative(raw: string): string {
  const normalized = path.posix.normalize(raw.replace(/\\/g, '/'));
  if (
    normalized === '..' ||
    normalized.startsWith('../') ||
    path.posix.isAbsolute(normalized) ||
    normalized.includes('\0') ||
    /^[a-z]:/i.test(normalized)
  ) {
    throw new ImportFailure('invalid_file', `The library listed a file outside the model's folder ("${raw}").`);
  }
  return normalized;
}

async function md5Of(file: string): Promise<string> {
  const hash = createHash('md5');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

export interface DownloadImportInput {
  libraries: Libraries;
  provider: ProviderId;
  /** The model's name, for the progress stage. */
  name: string;
  plan: DownloadPlan;
  /** The job's temporary folder, existing and empty. */
  dir: string;
  /** Time allowed for the whole download. */
  timeoutMs: number;
  signal: AbortSignal;
  progress: ImportProgressReporter;
}

/**
 * Downloads what the plan names into `dir`, within {@link MAX_DOWNLOAD_BYTES} and `timeoutMs`,
 * reporting progress up to 60 %; the files of a glTF stay in their folder and match their md5.
 */
export async function downloadImport(input: DownloadImportInput): Promise<ImportSource> {
  const { libraries, provider, plan, dir, signal, progress } = input;
  const planned = planSize(plan);
  if (planned !== undefined && planned > MAX_DOWNLOAD_BYTES) throw new DownloadTooLargeError(MAX_DOWNLOAD_BYTES);
  const stage = `Downloading "${input.name}" from ${libraries.byId[provider].name}`;
  let done = 0;
  const onProgress = (received: number, total: number | null) => {
    const bytesTotal = planned ?? total;
    const bytesReceived = done + received;
    progress.report({
      bytesReceived,
      bytesTotal,
      progress: bytesTotal ? Math.min(60, 5 + Math.floor((55 * bytesReceived) / bytesTotal)) : 10,
      stage,
    });
  };
  const fetchTo = (url: string, file: string, budget: number) =>
    withTimeout(
      (deadline) =>
        libraries.http.download(provider, url, file, {
          signal: AbortSignal.any([deadline, signal]),
          maxBytes: budget,
          onProgress,
        }),
      input.timeoutMs,
      'the download took too long',
      signal,
    );
  if (plan.kind === 'archive' || plan.kind === 'glb') {
    const file = path.join(dir, plan.kind === 'archive' ? 'download.zip' : 'download.glb');
    done += await fetchTo(plan.url, file, MAX_DOWNLOAD_BYTES);
    progress.report({ bytesReceived: done, bytesTotal: planned ?? done }, true);
    return { kind: plan.kind, path: file };
  }
  const files: string[] = [];
  for (const part of [plan.main, ...plan.includes]) {
    const relative = safeRelative(part.path);
    const file = path.join(dir, 'files', relative);
    await mkdir(path.dirname(file), { recursive: true });
    done += await fetchTo(part.url, file, MAX_DOWNLOAD_BYTES - done);
    if (part.md5 && (await md5Of(file)) !== part.md5.toLowerCase())
      throw new ImportFailure('invalid_file', `The file "${relative}" does not match the checksum the library gave.`);
    files.push(relative);
  }
  progress.report({ bytesReceived: done, bytesTotal: planned ?? done }, true);
  return { kind: 'files', dir: path.join(dir, 'files'), files };
}
