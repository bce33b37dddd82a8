/**
 * The page's one visitor-event queue (element/README.md, Decisions), shared by every element
 * of the page. It lives in the loader, so it stays small: the server checks every event anyway.
 */

/** A sender: where its events go, with the share password, and whom to tell when they are refused for good. */
export interface EventSink {
  url: string;
  password?: string;
  refused: (status: number) => void;
}

interface Queued {
  sink: EventSink;
  event: { type: string; at: string; data: Record<string, unknown> };
}

const MAX_WAITING = 100;
const BATCH_EVENTS = 20;
const BATCH_BYTES = 16 * 1024;
const BATCH_DELAY_MS = 2000;

/** 128 random bits per page load, in memory only, shared by the page's elements. */
export const sessionId = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))))
  .replace(/\+/g, '-')
  .replace(/\//g, '_')
  .replace(/=+$/, '');

let waiting: Queued[] = [];
let timer: ReturnType<typeof setTimeout> | undefined;
/** Endpoints that answered 401, 402, 403 or 404: nothing more goes there until a reload. */
const stopped = new Set<string>();
/** Endpoint → when a 429's Retry-After ends (ms). */
const pausedUntil = new Map<string, number>();
let listening = false;

const size = (items: Queued[]) => JSON.stringify({ sessionId, events: items.map((item) => item.event) }).length;

/** Adds an event; `price.calculated` replaces the one still waiting for the same sink (the latest counts). */
export function queueVisitorEvent(sink: EventSink, type: string, data: Record<string, unknown> = {}) {
  if (stopped.has(sink.url)) return;
  if (type === 'price.calculated')
    waiting = waiting.filter((item) => item.sink.url !== sink.url || item.event.type !== type);
  waiting.push({ sink, event: { type, at: new Date().toISOString(), data } });
  waiting = waiting.slice(-MAX_WAITING);
  if (!listening) {
    listening = true;
    document.addEventListener('visibilitychange', () => document.visibilityState === 'hidden' && flushVisitorEvents());
    addEventListener('pagehide', () => flushVisitorEvents(true));
  }
  if (waiting.length >= BATCH_EVENTS || size(waiting) >= BATCH_BYTES) flushVisitorEvents();
  else timer ??= setTimeout(flushVisitorEvents, BATCH_DELAY_MS);
}

/** Drops what one sink has waiting (its element switched events off). */
export function dropVisitorEvents(sink: EventSink) {
  waiting = waiting.filter((item) => item.sink !== sink);
}

/** Sends everything that may go now, cut in batches of at most 20 events and 16 KB per endpoint. */
export function flushVisitorEvents(leaving = false) {
  clearTimeout(timer);
  timer = undefined;
  const now = Date.now();
  const held = waiting.filter((item) => (pausedUntil.get(item.sink.url) ?? 0) > now);
  let ready = waiting.filter((item) => !held.includes(item));
  waiting = held;
  while (ready.length > 0) {
    const { sink } = ready[0];
    const batch: Queued[] = [];
    for (const item of ready.filter((candidate) => candidate.sink.url === sink.url)) {
      if (batch.length === BATCH_EVENTS || (batch.length > 0 && size([...batch, item]) > BATCH_BYTES)) break;
      batch.push(item);
    }
    ready = ready.filter((item) => !batch.includes(item));
    send(sink, JSON.stringify({ sessionId, events: batch.map((item) => item.event) }), leaving);
  }
  if (held.length > 0) {
    const wake = Math.min(...held.map((item) => pausedUntil.get(item.sink.url) ?? now));
    timer = setTimeout(flushVisitorEvents, wake - now);
  }
}

function send(sink: EventSink, body: string, leaving: boolean) {
  // sendBeacon cannot carry the password header; a string body is text/plain, which needs no preflight.
  if (leaving && !sink.password && navigator.sendBeacon?.(sink.url, body)) return;
  const headers: Record<string, string> = sink.password ? { 'x-share-password': sink.password } : {};
  fetch(sink.url, { method: 'POST', body, keepalive: true, headers }).then(
    (res) => {
      if (res.status === 429)
        pausedUntil.set(sink.url, Date.now() + (Number(res.headers.get('retry-after')) || 1) * 1e3);
      else if ([401, 402, 403, 404].includes(res.status)) {
        stopped.add(sink.url);
        waiting = waiting.filter((item) => item.sink.url !== sink.url);
        sink.refused(res.status);
      }
    },
    // A failed batch is dropped, never retried.
    () => undefined,
  );
}
