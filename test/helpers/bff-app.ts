import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { loadBffConfig } from '../../bff/config.js';
import { buildBffApp, type BuildBffOptions } from '../../bff/app.js';
import { shareChangeSequenceKey } from '#core/platform/share-changes.js';

export interface TestBff {
  app: FastifyInstance;
  url: string;
  close(): Promise<void>;
}

/**
 * The BFF app on a real port, usually with a test server's env (sharing its Redis prefix), trusting the test client
 * as its proxy so X-Forwarded-For plays visitors, each with a read budget of its own.
 */
export async function startTestBff(env: Record<string, string>, options: BuildBffOptions = {}): Promise<TestBff> {
  const app = await buildBffApp(loadBffConfig({ TRUST_PROXY: '127.0.0.1', ...env }), { logger: false, ...options });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`, close: () => app.close() };
}

/**
 * Until the BFF has heard every share-change notice so far: a read sent right after a change may overtake its notice,
 * and the BFF then rightly keeps nothing, which a test of the cache must wait out.
 */
export async function noticesHeard(bff: TestBff, prefix: string): Promise<void> {
  for (let i = 0; ; i++) {
    const latest = Number((await bff.app.redis.get(shareChangeSequenceKey(prefix))) ?? 0);
    if (bff.app.readCache.heard >= latest) return;
    if (i > 200) throw new Error(`the BFF heard notices up to ${bff.app.readCache.heard}, not ${latest}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
