import type * as Undici from 'undici';
import { loadOnce } from './load-once.js';

export interface LazyUndiciAgent {
  /** undici and the agent, loaded on the first call. */
  load(): Promise<{ undici: typeof Undici; agent: Undici.Agent }>;
  /** Closes the agent if it was ever made. */
  close(): Promise<void>;
}

/** undici takes ~80 ms to load: the first outbound request pays for it, not every process start. */
export function lazyUndiciAgent(options: Undici.Agent.Options): LazyUndiciAgent {
  let made: Undici.Agent | undefined;
  const load = loadOnce(async () => {
    const undici = await import('undici');
    made = new undici.Agent(options);
    return { undici, agent: made };
  });
  return { load, close: async () => made?.close() };
}
