/**
 * Who may import whom (docs/architecture.md, "The shared core"), checked by `npm run check:boundaries`
 * and in CI. Type-only imports count too (tsPreCompilationDeps): a route that imports a
 * repository's row type is already coupled to it. Rules name resolved files: `#core/*` is server/core/.
 */

/** The API process's own parts: nothing another process or the shared layer may import. */
const API_ONLY = ['^server/routes/', '^server/plugins/', '^server/cli/', '^server/app\\.ts$'];
/** An npm package, wherever node_modules really lives (here it may be a symlink). */
const npm = (name) => `(^|/)node_modules/${name}/`;

/**
 * The rules of code that runs in browsers (`folder`): it may import itself, server/core/wire
 * (types and constants without Node) and browser packages, and no node: module.
 */
const browserCodeRules = (name, folder, who) => [
  {
    name: `${name}-only-wire`,
    comment: `${who} may import itself, server/core/wire (types and constants without Node) and browser packages.`,
    severity: 'error',
    from: { path: folder },
    to: { pathNot: [folder, '^server/core/wire/', '(^|/)node_modules/'] },
  },
  {
    name: `${name}-no-node-builtins`,
    comment: 'Browsers have no node: modules.',
    severity: 'error',
    from: { path: folder },
    to: { dependencyTypes: ['core'] },
  },
];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'core-not-to-processes',
      comment: 'server/core is the layer every process shares; it must not know any of them.',
      severity: 'error',
      from: { path: '^server/core/' },
      to: { path: [...API_ONLY, '^server/schemas/', '^server/main\\.ts$', '^worker/', '^bff/', '^scripts/'] },
    },
    {
      name: 'worker-not-to-api',
      comment: 'The worker uses server/core (services, jobs, platform), never the HTTP API or the BFF.',
      severity: 'error',
      from: { path: '^worker/' },
      to: { path: [...API_ONLY, '^server/schemas/', '^bff/'] },
    },
    {
      name: 'bff-not-to-api',
      comment:
        'The BFF is its own process: server/core (and the shared schemas) only, ' +
        "never the API's routes, plugins, app or CLIs, nor the worker.",
      severity: 'error',
      from: { path: '^bff/' },
      to: { path: [...API_ONLY, '^worker/'] },
    },
    {
      name: 'worker-bff-without-sql',
      comment:
        'The worker and the BFF call a service where it adds a transaction or an effect, and take plain reads, ' +
        'claims and single-statement writes from the repositories themselves (docs/architecture.md); no SQL here.',
      severity: 'error',
      from: { path: '^(worker|bff)/' },
      to: { path: [npm('drizzle-orm'), npm('pg')] },
    },
    {
      name: 'drizzle-in-data-layer',
      comment: 'All SQL lives in repositories, on the client of server/core/platform/db (tests may inspect rows).',
      severity: 'error',
      from: { pathNot: ['^server/core/repositories/', '^server/core/platform/db/', '^test/'] },
      to: { path: npm('drizzle-orm') },
    },
    {
      name: 'repositories-without-jobs',
      comment: 'Repositories store the job rows services build; they know no queue, job name or job id.',
      severity: 'error',
      from: { path: '^server/core/repositories/' },
      to: { path: '^server/core/jobs/' },
    },
    ...browserCodeRules('element', '^element/', 'The browser element'),
    ...browserCodeRules('console', '^demo/owner/', 'The owner console (demo/owner), browser code like the element,'),
    {
      name: 'wire-no-node',
      comment:
        'server/core/wire is what browser code imports: nothing but other wire files and typebox (its schemas are ' +
        'plain objects; the owner console imports them as types only).',
      severity: 'error',
      from: { path: '^server/core/wire/' },
      to: { pathNot: ['^server/core/wire/', npm('typebox')] },
    },
    {
      name: 'domain-pure',
      comment:
        'Product rules are pure: no database, repositories, services, jobs or HTTP, and no files, network, ' +
        'processes, threads or process-wide queues (their callers in services and platform hold those). ' +
        'Of platform, only the pure storage key rules.',
      severity: 'error',
      from: { path: '^server/core/domain/' },
      to: {
        path: [
          '^server/core/platform/',
          '^server/core/repositories/',
          '^server/core/services/',
          '^server/core/jobs/',
          '^server/core/http/',
          '^(node:)?(fs|fs/promises|child_process|net|http|https|http2|worker_threads|cluster|dgram|tls)$',
          npm('piscina'),
          npm('ioredis'),
          npm('undici'),
          npm('p-limit'),
        ],
        pathNot: ['^server/core/platform/storage/(storage-keys|driver)\\.ts$'],
      },
    },
    {
      name: 'repositories-below-services',
      comment: 'Repositories are SQL only: rows in, rows out; they know no use case and no HTTP.',
      severity: 'error',
      from: { path: '^server/core/repositories/' },
      to: {
        path: [
          '^server/core/services/',
          '^server/core/http/',
          npm('fastify'),
          npm('@fastify/[^/]+'),
          npm('fastify-plugin'),
        ],
      },
    },
    {
      name: 'services-without-http',
      comment: 'Services are the use cases the worker runs too, where there is no Fastify.',
      severity: 'error',
      from: { path: '^server/core/services/' },
      to: { path: ['^server/core/http/', npm('fastify'), npm('@fastify/[^/]+'), npm('fastify-plugin')] },
    },
    {
      name: 'routes-without-sql',
      comment: 'Routes parse, call a service and shape the reply; SQL lives in repositories.',
      severity: 'error',
      from: { path: '^server/routes/' },
      to: { path: ['^server/core/repositories/', npm('drizzle-orm'), npm('pg')] },
    },
    {
      name: 'no-circular',
      comment:
        'A cycle makes load order matter and layers meaningless; type-only imports count too (tsPreCompilationDeps): ' +
        'two modules that need each other are one concept split in two.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'not-to-dev-dep',
      comment:
        'Production code runs where only dependencies are installed. Tests, benchmarks and the tool configs ' +
        'may use devDependencies; type-only imports (of @types packages, say) are erased before anything runs. ' +
        "The pool's thread entry loads tsx only for a .ts task, which exists only when the sources run under tsx.",
      severity: 'error',
      from: { path: '^(server|worker|bff|element|scripts)/', pathNot: '^server/core/platform/cpu-pool-thread\\.mjs$' },
      to: { dependencyTypes: ['npm-dev'], dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'An import that cannot be resolved is one the rules above cannot judge.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    // The TypeScript sources import each other as `.js` (NodeNext); packages resolve through their `exports`.
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
      extensions: ['.ts', '.d.ts', '.js', '.cjs', '.mjs', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
