import { Writable } from 'node:stream';

/** A pino destination that keeps every entry, parsed, for tests to look at. */
export function captureLogs(): { stream: Writable; entries: Array<Record<string, unknown>> } {
  const entries: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim() !== '') entries.push(JSON.parse(line));
      done();
    },
  });
  return { stream, entries };
}
