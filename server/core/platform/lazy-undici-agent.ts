import type * as Undici from 'undici';

export interface LazyUndiciAgent {
  /** undici and the agent, loaded on the first call. */
  load(): Promise<{ undici: typeof Undici; agent: Undici.Agent }>;
  /** Closes the agent if it was ever made. */
  close(): Promise<void>;
}

/** undici takes ~80 ms to load: the first outbound request pays for it, not every process start. */
export function lazyUndiciAgent(options: Undici.Agent.Options): LazyUndiciAgent {
  let loaded: ReturnType<LazyUndiciAgent['load']> | undefined;
  return {
    // A failed load is not kept: the next request tries again.
    load: () =>
      (loaded ??= import('undici').then(
        (undici) => ({ undici, agent: new undici.Agent(options) }),
        (error: unknown) => {
          loaded = undefined;
          throw error;
        },
      )),
    close: async () => {
      if (loaded) await (await loaded).agent.close();
    },
  };
}
