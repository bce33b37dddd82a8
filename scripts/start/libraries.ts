import { startFixtureLibraries } from './fixture-libraries/server.js';

/**
 * `npm start`'s online libraries: the live ones when all can be reached at start, else the bundled
 * fixtures so the demo works offline. Libraries configured in the environment are used as given.
 */
const LIVE_PROBES = [
  ['library_a', 'https://api.polyhaven.com/types'],
  ['library_b', 'https://api.sketchfab.com/v3/search?type=models&count=1'],
  ['library_c', 'https://api.si.edu/openaccess/api/v1.0/terms/unit_code?api_key=DEMO_KEY'],
] as const;

const LIBRARY_SETTINGS = ['LIBRARY_A_API_URL', 'LIBRARY_B_API_URL', 'LIBRARY_C_API_URL'];

async function reachable(url: string, timeoutMs: number): Promise<boolean> {
  try {
    const response = await fetch(url, {
      signal: AbortSignal.timeout(timeoutMs),
      headers: { 'user-agent': 'config-share npm start (reachability check)' },
    });
    await response.body?.cancel();
    // Any HTTP answer (even a 403 for DEMO_KEY's rate) means the library is there.
    return response.status > 0;
  } catch {
    return false;
  }
}

export interface LibraryChoice {
  /** Settings to add to the children's environment. */
  settings: Record<string, string>;
  fact: string;
  close?: () => Promise<void>;
}

export async function chooseLibraries(
  isSet: (name: string) => boolean,
  say: (line: string) => void,
  timeoutMs = 4000,
): Promise<LibraryChoice> {
  if (LIBRARY_SETTINGS.some(isSet)) return { settings: {}, fact: 'the LIBRARY_* settings of the environment' };
  const answers = await Promise.all(
    LIVE_PROBES.map(async ([id, url]) => [id, await reachable(url, timeoutMs)] as const),
  );
  const down = answers.filter(([, ok]) => !ok).map(([id]) => id);
  if (down.length === 0) return { settings: {}, fact: 'live: Poly Haven, Sketchfab, Smithsonian Open Access' };
  say(`the online libraries cannot be reached (${down.join(', ')}): starting the bundled fixture libraries instead`);
  const fixtures = await startFixtureLibraries();
  return {
    settings: fixtures.env,
    fact: `bundled fixtures at ${fixtures.origin} (live libraries unreachable: ${down.join(', ')})`,
    close: fixtures.close,
  };
}
