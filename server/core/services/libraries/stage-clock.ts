/** Milliseconds per stage of a run, for the completion log (where an import spends its time). */
export function stageClock() {
  let last = performance.now();
  const laps: Record<string, number> = {};
  return {
    laps,
    lap(name: string) {
      const now = performance.now();
      laps[name] = Math.round(now - last);
      last = now;
    },
  };
}
