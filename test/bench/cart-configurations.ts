/**
 * Cart configurations (docs/cart.md) created through the BFF at 50 connections, distinct ones and repeats, next to
 * the submit route through the same BFF in the same run (alternating rounds). Goal: at least the submit's rate
 * without a picture; the row with one (as the element sends) shows what storing it costs.
 */
import autocannon, { type Result } from 'autocannon';
import sharp from 'sharp';
import { STOOL_SCENE } from '../helpers/stool-scene.js';
import { benchOwnerCall } from './bench-owner-call.js';

const CONNECTIONS = 50;

interface CartBenchOptions {
  api: string;
  bffUrl: string;
  ownerHeaders: Record<string, string>;
  duration: number;
  rounds: number;
}

interface CartBenchRow {
  name: string;
  result: Result;
}

/** Answers with the other creation status: a repeat answered 201 (beyond the first), a new one answered 200. */
function wrongCreation({ name, result }: CartBenchRow): number {
  const count = (code: string) => (result.statusCodeStats as Record<string, { count: number }>)[code]?.count ?? 0;
  if (name.endsWith('(200)')) return Math.max(count('201') - 1, 0);
  if (name.endsWith('(201)')) return count('200');
  return 0;
}

const failures = (result: Result) =>
  Object.entries(result.statusCodeStats ?? {})
    .filter(([code]) => !/^2/.test(code))
    .reduce((n, [, stats]) => n + (stats as { count: number }).count, 0) +
  result.errors +
  result.timeouts;

export async function benchCartConfigurations(options: CartBenchOptions): Promise<CartBenchRow[][]> {
  const ownerCall = benchOwnerCall(options.api, options.ownerHeaders);
  const sceneData = {
    ...STOOL_SCENE,
    formFields: [{ id: 'email', label: 'E-mail', type: 'email', required: true }],
    projectSettings: { ...STOOL_SCENE.projectSettings, cart: { enabled: true, skuBase: 'STOOL' } },
  };
  const newShare = async () => {
    const { project } = await ownerCall('POST', '/projects', {
      name: 'Cart bench',
      type: 'configurator',
      data: { models: [], sceneData },
    });
    const { settings } = await ownerCall('POST', `/projects/${project.id}/share/enable`);
    return `${options.bffUrl}/share/${project.id}/${settings.shareToken}`;
  };
  const share = await newShare();
  const json = { 'content-type': 'application/json' };
  const measure = (opts: autocannon.Options) =>
    autocannon({ connections: CONNECTIONS, duration: options.duration, ...opts });
  // What a click in the element sends: a screenshot. Noise, so it is as large as a detailed 640 × 400 WebP gets.
  const picture = await sharp({
    create: {
      width: 640,
      height: 400,
      channels: 3,
      background: '#ccc',
      noise: { type: 'gaussian', mean: 128, sigma: 20 },
    },
  })
    .webp({ quality: 80 })
    .toBuffer();
  const screenshot = `data:image/webp;base64,${picture.toString('base64')}`;
  let distinct = 0;
  // Every request another quantity or choice on a project of the round's own (40,000 of them): all new.
  const distinctBody = (extra: object) => (request: autocannon.Request) => {
    const n = distinct++;
    const combination = Math.floor(n / 10_000) % 4;
    const options = { seat: combination & 1 ? 'walnut' : 'oak', legs: combination & 2 ? 'brass' : 'steel' };
    return { ...request, body: JSON.stringify({ options, quantity: (n % 10_000) + 1, ...extra }) };
  };
  const scenarios = (fresh: string, pictured: string): Array<[string, autocannon.Options]> => [
    [
      'submit through the BFF',
      {
        url: `${share}/submit`,
        method: 'POST',
        headers: json,
        body: JSON.stringify({ formData: { email: 'shopper@example.com' }, selectedOptions: {}, screenshots: [] }),
      },
    ],
    [
      'configurations, repeats (200)',
      { url: `${share}/configurations`, method: 'POST', headers: json, body: JSON.stringify({ options: {} }) },
    ],
    [
      'configurations, distinct (201)',
      {
        url: `${fresh}/configurations`,
        method: 'POST',
        headers: json,
        requests: [{ setupRequest: distinctBody({}) }],
      },
    ],
    [
      `configurations, distinct, ${Math.round(picture.length / 1000)} KB picture (201)`,
      {
        url: `${pictured}/configurations`,
        method: 'POST',
        headers: json,
        requests: [{ setupRequest: distinctBody({ screenshot }) }],
      },
    ],
  ];
  const rounds: CartBenchRow[][] = [];
  for (let round = 0; round < options.rounds; round++) {
    const rows: CartBenchRow[] = [];
    const [fresh, pictured] = [await newShare(), await newShare()];
    for (const [name, opts] of scenarios(fresh, pictured)) {
      distinct = 0;
      rows.push({ name, result: await measure(opts) });
    }
    rounds.push(rows);
  }
  return rounds;
}

/** The round with the median ratio of distinct configurations to submits; false when any answer failed. */
export function printCartConfigurations(rounds: CartBenchRow[][]): boolean {
  const ratio = (rows: CartBenchRow[]) =>
    rows[2].result.requests.average / Math.max(rows[0].result.requests.average, 1);
  const median = [...rounds].sort((a, b) => ratio(a) - ratio(b))[Math.floor(rounds.length / 2)];
  const submit = median[0].result.requests.average;
  console.log(`\nCart configurations through the BFF, ${CONNECTIONS} connections (median of ${rounds.length} rounds)`);
  console.log('| scenario | req/s | p50 ms | p99 ms | failed | / submit |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const { name, result } of median) {
    const share = (result.requests.average / Math.max(submit, 1)).toFixed(2);
    console.log(
      `| ${name} | ${Math.round(result.requests.average)} | ${result.latency.p50} | ${result.latency.p99} | ` +
        `${failures(result)} | ${share}x |`,
    );
  }
  const wrong = rounds.flat().reduce((n, row) => n + wrongCreation(row), 0);
  if (wrong > 0) console.log(`${wrong} answers with the wrong creation status (201 for a repeat, 200 for a new one)`);
  return wrong === 0 && rounds.flat().every(({ result }) => failures(result) === 0);
}
