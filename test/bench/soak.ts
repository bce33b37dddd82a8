import autocannon, { type Result } from 'autocannon';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { startSmtpCatcher } from '../helpers/smtp-catcher.js';
import { createStackShare, startProcessStack, type ProcessStack } from '../helpers/process-stack.js';
import { mailsByRequest, waitForMails, waitForStepsDone } from '../helpers/mails-by-request.js';
import { build } from './startup.js';
import { cpuMsOfPid } from './process-cpu.js';
import { acknowledgedIds, startSteadyLoad, type LoadSample } from '../helpers/steady-load.js';

/** A submission not answered in this long counts as unanswered (autocannon's default for the reads). */
const SUBMIT_TIMEOUT_MS = 10_000;

/**
 * `BENCH_ONLY=soak npm run bench` (issue 23): concurrent reads and submissions through the BFF for
 * SOAK_SECONDS; then every acknowledged submission must have been e-mailed exactly once.
 */
export interface SoakOptions {
  /** The bench's settings (database, Redis, prefix, storage, raised limits). */
  env: Record<string, string>;
  seconds: number;
  readConnections: number;
  submitsPerSecond: number;
}

interface RssSample {
  /** Seconds since the load started. */
  at: number;
  /** MiB, by process. */
  mib: Record<string, number>;
  /** CPU seconds (user + system) used so far, by process. */
  cpuSeconds: Record<string, number>;
  /** The machine's 1-minute load average (its cores are shared with other work). */
  load: number;
  /** Taken once the worker had drained, after the load. */
  drained?: boolean;
}

export interface SoakResult {
  options: Omit<SoakOptions, 'env'>;
  reads: Result;
  submits: LoadSample[];
  rss: RssSample[];
  acknowledged: number;
  /** Acknowledged submissions with 0, 1 and more e-mails after the drain. */
  mailed: { none: number; once: number; more: number };
  /** E-mails for requests whose acknowledgement the load never saw (answers cut off, say). */
  unacknowledgedMails: number;
  /** From the end of the load to the last step done, ms. */
  drainMs: number;
}

/** Resident memory of a process in MiB (Linux /proc; 0 elsewhere or once it is gone). */
function rssMib(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Math.round(Number(kb) / 1024) : 0;
  } catch {
    return 0;
  }
}

function sampleRss(stack: ProcessStack, at: number): RssSample {
  const mib: Record<string, number> = {};
  const cpuSeconds: Record<string, number> = {};
  for (const part of [stack.server, stack.worker, stack.bff]) {
    const pid = part.current()?.child.pid;
    mib[part.name] = rssMib(pid);
    cpuSeconds[part.name] = pid === undefined ? 0 : Math.round(cpuMsOfPid(pid) / 1000);
  }
  return { at, mib, cpuSeconds, load: loadavg()[0] };
}

export async function benchSoak(options: SoakOptions): Promise<SoakResult> {
  const { seconds, readConnections, submitsPerSecond } = options;
  await build();
  const smtp = await startSmtpCatcher();
  const env: Record<string, string> = { ...options.env, SMTP_URL: smtp.url, LOG_LEVEL: 'warn' };
  const stack = await startProcessStack({ env, runner: 'build' });
  try {
    const share = await createStackShare(stack, env);
    const readUrl = `${stack.bffUrl}${share.readPath}`;
    const first = await fetch(readUrl);
    if (first.status !== 200) throw new Error(`the first read answered ${first.status}: ${await first.text()}`);
    const etag = first.headers.get('etag') ?? '';

    const rss: RssSample[] = [];
    const startedAt = Date.now();
    const sampler = setInterval(() => rss.push(sampleRss(stack, Math.round((Date.now() - startedAt) / 1000))), 10_000);
    // Open loop, at a steady pace whatever the answers' latency, and every submission waited for to its end.
    const submitting = startSteadyLoad(
      [
        {
          name: 'submit',
          url: `${stack.bffUrl}${share.submitPath}`,
          perSecond: submitsPerSecond,
          init: () => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: share.submitBody }),
        },
      ],
      SUBMIT_TIMEOUT_MS,
    );
    const reads = await autocannon({
      url: readUrl,
      connections: readConnections,
      duration: seconds,
      // In a thread of its own: the submissions' pace and timings are kept on this one.
      workers: 1,
      // Each connection alternates a plain read (200) and a revalidation of what it holds (304).
      requests: [{ method: 'GET' }, { method: 'GET', headers: { 'if-none-match': etag } }],
    });
    await submitting.stop();
    clearInterval(sampler);
    if (rss.at(-1)?.at !== seconds) rss.push(sampleRss(stack, Math.round((Date.now() - startedAt) / 1000)));
    const submits = submitting.samples;

    const loadEnded = Date.now();
    const ids = acknowledgedIds(submits, 'submit');
    const acknowledged = new Set(ids);
    // Waits for the e-mails and then for every step, so that a second send of any of them is counted too.
    await waitForMails(smtp, ids, 600_000).catch(() => {});
    await waitForStepsDone(env.DATABASE_URL, 600_000).catch(() => {});
    const drainMs = Date.now() - loadEnded;
    rss.push({ ...sampleRss(stack, Math.round((Date.now() - startedAt) / 1000)), drained: true });
    const mails = mailsByRequest(smtp);
    const counts = ids.map((id) => mails.get(id) ?? 0);
    return {
      options: { seconds, readConnections, submitsPerSecond },
      reads,
      submits,
      rss,
      acknowledged: ids.length,
      mailed: {
        none: counts.filter((n) => n === 0).length,
        once: counts.filter((n) => n === 1).length,
        more: counts.filter((n) => n > 1).length,
      },
      unacknowledgedMails: [...mails.keys()].filter((id) => !acknowledged.has(id)).length,
      drainMs,
    };
  } finally {
    await stack.close();
    await smtp.close();
  }
}

const ALLOWED = new Set(['200', '304', '429']);

/** One line of the soak's table. */
interface LoadRow {
  requests: number;
  perSecond: number;
  statuses: Record<string, number>;
  /** Requests without an answer (errors and timeouts), and of those the timeouts. */
  unanswered: number;
  timeouts: number;
  p50: number;
  p99: number;
}

function readsRow(r: Result): LoadRow {
  return {
    requests: r.requests.total,
    perSecond: r.requests.average,
    statuses: Object.fromEntries(
      Object.entries(r.statusCodeStats ?? {}).map(([code, stats]) => [code, (stats as { count: number }).count]),
    ),
    // autocannon's errors count its timeouts too.
    unanswered: r.errors,
    timeouts: r.timeouts,
    p50: r.latency.p50,
    p99: r.latency.p99,
  };
}

function submitsRow(samples: LoadSample[], seconds: number): LoadRow {
  const statuses: Record<string, number> = {};
  for (const { outcome } of samples) if (typeof outcome === 'number') statuses[outcome] = (statuses[outcome] ?? 0) + 1;
  const ms = samples.map((s) => s.doneAt - s.sentAt).sort((a, b) => a - b);
  const percentile = (p: number) => ms[Math.min(ms.length - 1, Math.floor((p / 100) * ms.length))] ?? 0;
  return {
    requests: samples.length,
    perSecond: samples.length / seconds,
    statuses,
    unanswered: samples.filter((s) => typeof s.outcome !== 'number').length,
    timeouts: samples.filter((s) => s.outcome === 'timeout').length,
    p50: percentile(50),
    p99: percentile(99),
  };
}

/** Answers other than 200, 304 and 429, plus requests without an answer. */
const refused = (row: LoadRow) =>
  row.unanswered +
  Object.entries(row.statuses)
    .filter(([code]) => !ALLOWED.has(code))
    .reduce((n, [, count]) => n + count, 0);

/** Prints the soak's figures; false when an answer, an e-mail or a drain failed the soak. */
export function printSoak(result: SoakResult): boolean {
  const { seconds, readConnections, submitsPerSecond } = result.options;
  console.log(
    `\nsoak: ${readConnections} concurrent reads through the BFF (half If-None-Match) + ${submitsPerSecond} ` +
      `submissions/s through the BFF, ${seconds} s, server, worker and BFF from the build\n`,
  );
  console.log(
    '| load | requests | req/s | status counts | no answer (of which timeouts) | p50 ms | p99 ms | ' +
      'other than 200/304/429 |',
  );
  console.log('|---|---:|---:|---|---:|---:|---:|---:|');
  const rows = [
    ['reads (autocannon)', readsRow(result.reads)],
    ['submissions (open loop)', submitsRow(result.submits, seconds)],
  ] as const;
  for (const [name, row] of rows) {
    const statuses = Object.entries(row.statuses)
      .map(([code, count]) => `${code}: ${count}`)
      .join(', ');
    console.log(
      `| ${name} | ${row.requests} | ${Math.round(row.perSecond)} | ${statuses} | ${row.unanswered} ` +
        `(${row.timeouts}) | ${row.p50} | ${row.p99} | ${refused(row)} |`,
    );
  }
  const { none, once, more } = result.mailed;
  console.log(
    `\nacknowledged submissions: ${result.acknowledged}; e-mailed once: ${once}, never: ${none}, more than once: ` +
      `${more}; e-mails for requests not acknowledged in time: ${result.unacknowledgedMails}; drain after the ` +
      `load: ${(result.drainMs / 1000).toFixed(1)} s`,
  );
  // When in the run the submissions slowed or went unanswered: a stall shows here (a shared core, a pause).
  const windows = new Map<number, LoadSample[]>();
  const firstSent = Math.min(...result.submits.map((s) => s.sentAt));
  for (const sample of result.submits) {
    const window = Math.floor((sample.sentAt - firstSent) / 10_000);
    windows.set(window, [...(windows.get(window) ?? []), sample]);
  }
  console.log('\n| submissions sent in | sent | answered 200 | no answer | p99 ms |');
  console.log('|---|---:|---:|---:|---:|');
  for (const [window, samples] of [...windows].sort(([a], [b]) => a - b)) {
    const row = submitsRow(samples, 10);
    console.log(
      `| ${window * 10}-${window * 10 + 10} s | ${row.requests} | ${row.statuses[200] ?? 0} | ${row.unanswered} | ` +
        `${row.p99} |`,
    );
  }
  const column = (s: RssSample) => (s.drained ? `${s.at} s, drained` : `${s.at} s`);
  console.log('\n| RSS, MiB | ' + result.rss.map(column).join(' | ') + ' |');
  console.log('|---|' + result.rss.map(() => '---:').join('|') + '|');
  for (const name of ['server', 'worker', 'bff'])
    console.log(`| ${name} | ` + result.rss.map((s) => s.mib[name]).join(' | ') + ' |');
  console.log('\n| CPU s used so far | ' + result.rss.map(column).join(' | ') + ' |');
  console.log('|---|' + result.rss.map(() => '---:').join('|') + '|');
  for (const name of ['server', 'worker', 'bff'])
    console.log(`| ${name} | ` + result.rss.map((s) => s.cpuSeconds[name]).join(' | ') + ' |');
  console.log(
    '| machine load average (2 shared cores) | ' + result.rss.map((s) => s.load.toFixed(1)).join(' | ') + ' |',
  );
  return rows.every(([, row]) => refused(row) === 0) && none === 0 && more === 0;
}
