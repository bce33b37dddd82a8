/**
 * Open-loop load for the fault tests: each stream fires requests at a fixed rate whether or not earlier ones were
 * answered, each with a deadline, and records every outcome, so a fault shows as statuses and as hangs.
 */
export interface LoadSample {
  stream: string;
  /** When the request left (ms since the epoch). */
  sentAt: number;
  /** When it was answered, or gave up. */
  doneAt: number;
  /** The HTTP status, `timeout` (no answer within the deadline) or `error` (the connection failed). */
  outcome: number | 'timeout' | 'error';
  /** The parsed JSON body, when the answer had one. */
  body?: Record<string, unknown>;
  retryAfter?: string | null;
}

export interface LoadStream {
  name: string;
  url: string;
  perSecond: number;
  init?: () => RequestInit;
}

export interface SteadyLoad {
  samples: LoadSample[];
  /** Stops firing and waits for the requests in flight. */
  stop(): Promise<void>;
}

export function startSteadyLoad(streams: LoadStream[], timeoutMs: number): SteadyLoad {
  const samples: LoadSample[] = [];
  const inFlight = new Set<Promise<void>>();

  async function fire(stream: LoadStream) {
    const sentAt = Date.now();
    const sample: LoadSample = { stream: stream.name, sentAt, doneAt: sentAt, outcome: 'error' };
    try {
      const res = await fetch(stream.url, { ...stream.init?.(), signal: AbortSignal.timeout(timeoutMs) });
      const text = await res.text();
      sample.outcome = res.status;
      sample.retryAfter = res.headers.get('retry-after');
      if (text.startsWith('{')) sample.body = JSON.parse(text) as Record<string, unknown>;
    } catch (error) {
      sample.outcome = (error as Error).name === 'TimeoutError' ? 'timeout' : 'error';
    }
    sample.doneAt = Date.now();
    samples.push(sample);
  }

  const startedAt = Date.now();
  // Each tick sends what is due since the start: a busy event loop delays requests, it does not drop them.
  const timers = streams.map((stream) => {
    let sent = 0;
    return setInterval(
      () => {
        const due = Math.floor(((Date.now() - startedAt) * stream.perSecond) / 1000);
        for (; sent < due; sent++) {
          const request = fire(stream);
          inFlight.add(request);
          void request.finally(() => inFlight.delete(request));
        }
      },
      Math.min(50, 1000 / stream.perSecond),
    );
  });

  return {
    samples,
    async stop() {
      timers.forEach(clearInterval);
      await Promise.all([...inFlight]);
    },
  };
}

/** Outcomes counted per stream, as `{ read: { 200: 40, 503: 3 }, ... }`, for logs and assertions. */
export function outcomeCounts(samples: LoadSample[]): Record<string, Record<string, number>> {
  const counts: Record<string, Record<string, number>> = {};
  for (const { stream, outcome } of samples) {
    const byOutcome = (counts[stream] ??= {});
    byOutcome[outcome] = (byOutcome[outcome] ?? 0) + 1;
  }
  return counts;
}

/** Samples of `stream` sent in [from, to). */
export function sentBetween(samples: LoadSample[], stream: string, from: number, to = Infinity): LoadSample[] {
  return samples.filter((s) => s.stream === stream && s.sentAt >= from && s.sentAt < to);
}

/** Milliseconds from `since` to the first 200 of `stream` sent after it, or null when none came. */
export function recoveryMs(samples: LoadSample[], stream: string, since: number): number | null {
  const firstOk = samples
    .filter((s) => s.stream === stream && s.sentAt >= since && s.outcome === 200)
    .sort((a, b) => a.doneAt - b.doneAt)[0];
  return firstOk ? firstOk.doneAt - since : null;
}

/** The request ids the server acknowledged (200 with a requestId). */
export function acknowledgedIds(samples: LoadSample[], stream: string): string[] {
  return samples
    .filter((s) => s.stream === stream && s.outcome === 200 && typeof s.body?.requestId === 'string')
    .map((s) => s.body!.requestId as string);
}

/** `stream outcome` for each sample whose outcome is not one of `allowed` (a timeout, a dropped connection, a 500). */
export function unexpectedOutcomes(samples: LoadSample[], allowed: number[]): string[] {
  return samples.filter((s) => !allowed.includes(s.outcome as number)).map((s) => `${s.stream} ${s.outcome}`);
}
