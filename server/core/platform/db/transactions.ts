import type { Db, Tx } from './client.js';

/**
 * The one way a use case writes: a transaction whose declared effects run only after commit. Effects cannot
 * undo a committed change, so their failures are logged and never fail the use case.
 */
export type AfterCommitEffect = () => unknown;

export interface UnitOfWork {
  tx: Tx;
  /** Runs `effect` after the commit, in the order declared; the caller's answer waits for it. */
  afterCommit(effect: AfterCommitEffect): void;
}

/** The logger method effects report failures with (pino's). */
export interface EffectLog {
  warn(details: object, message: string): void;
}

export interface TransactionRunner {
  <T>(work: (unit: UnitOfWork) => Promise<T>): Promise<T>;
  /**
   * A single-statement write on the pool with the same after-commit effects, saving the BEGIN and COMMIT
   * round trips (the public submit's hot path).
   */
  statement<T>(work: (unit: Pick<UnitOfWork, 'afterCommit'>) => Promise<T>): Promise<T>;
}

export function createTransactionRunner(db: Db, log: EffectLog): TransactionRunner {
  async function runEffects(effects: AfterCommitEffect[]) {
    for (const effect of effects) {
      try {
        await effect();
      } catch (error) {
        log.warn({ err: error }, 'an after-commit effect failed; the change itself is committed');
      }
    }
  }

  async function inTransaction<T>(work: (unit: UnitOfWork) => Promise<T>): Promise<T> {
    const effects: AfterCommitEffect[] = [];
    const result = await db.transaction((tx) => work({ tx, afterCommit: (effect) => void effects.push(effect) }));
    await runEffects(effects);
    return result;
  }

  inTransaction.statement = async <T>(work: (unit: Pick<UnitOfWork, 'afterCommit'>) => Promise<T>): Promise<T> => {
    const effects: AfterCommitEffect[] = [];
    const result = await work({ afterCommit: (effect) => void effects.push(effect) });
    await runEffects(effects);
    return result;
  };
  return inTransaction;
}
