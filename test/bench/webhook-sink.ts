/**
 * The benchmark's webhook receiver, a process of its own: answers every POST 204 at once and notes how long after its
 * event's `createdAt` each delivery arrived (same machine, same clock). `GET /stats` reports, `POST /reset` clears.
 */
import { createServer } from 'node:http';

let count = 0;
let first = 0;
let last = 0;
let latencies: number[] = [];

const server = createServer((req, res) => {
  if (req.method === 'GET') {
    const sorted = [...latencies].sort((a, b) => a - b);
    const at = (p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] : 0);
    res.writeHead(200, { 'content-type': 'application/json' });
    return res.end(JSON.stringify({ count, first, last, p50: at(0.5), p95: at(0.95), samples: sorted.length }));
  }
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    if (req.url === '/reset') {
      count = 0;
      first = last = 0;
      latencies = [];
    } else {
      const now = Date.now();
      count++;
      first ||= now;
      last = now;
      if (req.headers['x-service-attempt'] === '1') {
        const createdAt = Date.parse(JSON.parse(Buffer.concat(chunks).toString()).createdAt);
        if (!Number.isNaN(createdAt)) latencies.push(now - createdAt);
      }
    }
    res.writeHead(204);
    res.end();
  });
});
server.keepAliveTimeout = 30_000;
server.listen(Number(process.env.SINK_PORT), '127.0.0.1');
