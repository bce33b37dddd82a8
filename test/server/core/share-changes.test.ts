import { afterEach, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { createRedis } from '#core/platform/redis.js';
import {
  createShareChangeFeed,
  createShareChangePublisher,
  shareChangeChannel,
  type ShareChangeNotice,
} from '#core/platform/share-changes.js';

/** The share-change channel on a real Redis, with a key prefix of its own per test. */
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const open: Array<{ close(): Promise<void> } | { disconnect(): void }> = [];

afterEach(async () => {
  for (const thing of open.splice(0)) await ('close' in thing ? thing.close() : thing.disconnect());
});

async function setup(lostAfterMs = 2000) {
  const prefix = `cs-t-${randomBytes(4).toString('hex')}`;
  const redis = createRedis(REDIS_URL, 'request');
  open.push(redis);
  const heard: ShareChangeNotice[] = [];
  let resets = 0;
  const feed = createShareChangeFeed({
    subscriber: createRedis(REDIS_URL, 'worker'),
    redis,
    prefix,
    lostAfterMs,
    handlers: { onNotice: (notice) => heard.push(notice), onReset: () => resets++ },
  });
  open.push(feed);
  await feed.ready();
  const until = async (condition: () => boolean) => {
    for (let i = 0; i < 100 && !condition(); i++) await new Promise((r) => setTimeout(r, 20));
    expect(condition()).toBe(true);
  };
  return {
    prefix,
    redis,
    feed,
    heard,
    resets: () => resets,
    until,
    publisher: createShareChangePublisher(redis, prefix),
  };
}

describe('share-change notices', () => {
  it('delivers each committed change, numbered, and vouches for memory once it has heard them all', async () => {
    const { feed, heard, publisher, until } = await setup();
    expect(await feed.isCurrent()).toBe(true);
    const seq = await publisher.publish({ reason: 'share', projectId: 'p1', workspaceId: 'w1' });
    await publisher.publish({ reason: 'billing', workspaceId: 'w1' });
    await until(() => heard.length === 2);
    expect(heard).toEqual([
      { seq, change: { reason: 'share', projectId: 'p1', workspaceId: 'w1' } },
      { seq: seq + 1, change: { reason: 'billing', workspaceId: 'w1' } },
    ]);
    expect(await feed.isCurrent()).toBe(true);
  });

  it('does not vouch for memory while a notice is on its way, and starts over when one was lost', async () => {
    const { prefix, redis, feed, resets, until } = await setup(100);
    const before = resets();
    // A change numbered but never heard: as if its message was lost on a reconnect.
    await redis.incr(`${prefix}:share-changes:seq`);
    expect(await feed.isCurrent()).toBe(false);
    // Past lostAfterMs the feed gives the missing notice up and starts over.
    await expect
      .poll(async () => {
        await feed.isCurrent();
        return resets();
      })
      .toBeGreaterThan(before);
    await until(() => feed.heard >= 1);
    expect(await feed.isCurrent()).toBe(true);
  });

  it('forgets everything when the numbers show a gap', async () => {
    const { prefix, redis, heard, resets, until, publisher } = await setup();
    await publisher.publish({ reason: 'project', projectId: 'p1', workspaceId: 'w1' });
    await until(() => heard.length === 1);
    const before = resets();
    await redis.publish(
      shareChangeChannel(prefix),
      `${heard[0].seq + 2} ${JSON.stringify({ reason: 'share', projectId: 'p2', workspaceId: 'w1' })}`,
    );
    await until(() => resets() > before);
  });

  it('ignores messages that are not notices', async () => {
    const { prefix, redis, heard, publisher, until } = await setup();
    await redis.publish(shareChangeChannel(prefix), 'not a notice');
    await redis.publish(shareChangeChannel(prefix), '7 {broken json');
    await publisher.publish({ reason: 'share', projectId: 'p1', workspaceId: 'w1' });
    await until(() => heard.length === 1);
    expect(heard[0].change.projectId).toBe('p1');
  });
});
