import { createRequire } from 'node:module';
import type { FastifyServerOptions } from 'fastify';

type Compiled = (...args: unknown[]) => unknown;

/**
 * Stands in for the function `build` makes, building it on first use (a call or a property read) so a route's
 * schema costs nothing at start-up; the route's first request pays instead.
 */
function builtOnFirstUse(build: () => Compiled): Compiled {
  let built: Compiled | undefined;
  const target = () => (built ??= build());
  return new Proxy((() => {}) as Compiled, {
    apply: (_lazy, self, args) => Reflect.apply(target(), self, args),
    get: (_lazy, key) => Reflect.get(target(), key),
    set: (_lazy, key, value) => Reflect.set(target(), key, value),
    has: (_lazy, key) => Reflect.has(target(), key),
  });
}

/** Fastify's own dependencies, resolved from its folder: its default serializer compiler. */
const fromFastify = createRequire(createRequire(import.meta.url).resolve('fastify'));

type Options = Pick<FastifyServerOptions, 'schemaController' | 'ajv'>;
type BuildSerializer = NonNullable<NonNullable<Options['schemaController']>['compilersFactory']>['buildSerializer'];
type AjvPlugin = Extract<NonNullable<NonNullable<Options['ajv']>['plugins']>[number], (...args: never[]) => unknown>;
type Ajv = Parameters<AjvPlugin>[0];

/**
 * Fastify's default response serializers (fast-json-stringify), each compiled when its route
 * first answers: Fastify otherwise compiles every route's at start-up.
 */
const buildSerializer: NonNullable<BuildSerializer> = (externalSchemas, options) => {
  let compiler: ReturnType<NonNullable<BuildSerializer>> | undefined;
  return (route) =>
    builtOnFirstUse(() => {
      compiler ??= (fromFastify('@fastify/fast-json-stringify-compiler') as () => NonNullable<BuildSerializer>)()(
        externalSchemas,
        options,
      );
      return compiler(route) as Compiled;
    }) as ReturnType<ReturnType<NonNullable<BuildSerializer>>>;
};

/**
 * An Ajv plugin: Fastify's validators compiled on their first request. A schema with an `$id`
 * is compiled at once, since Ajv looks it up by that id when another route uses it.
 */
const compileOnFirstUse: AjvPlugin = (ajv: Ajv) => {
  const compile = ajv.compile.bind(ajv);
  ajv.compile = ((schema: { $id?: string }, meta?: boolean) =>
    schema.$id ? compile(schema, meta) : builtOnFirstUse(() => compile(schema, meta) as Compiled)) as Ajv['compile'];
  return ajv;
};

/** Server options that defer schema compilation to each route's first request. */
export function lazySchemaCompilers(ajv: { customOptions?: Record<string, unknown> } = {}) {
  return {
    schemaController: { compilersFactory: { buildSerializer } },
    ajv: { ...ajv, plugins: [compileOnFirstUse] },
  } satisfies Options;
}
