import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { createDb, applyMigrations } from '#core/platform/db/client.js';

/**
 * Migrates one template database per run; every test file then copies it (CREATE DATABASE ...
 * TEMPLATE), which takes milliseconds and gives each file a database of its own.
 */
const base = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export function databaseUrl(name: string): string {
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

export default async function setup(project: TestProject) {
  const template = `cs_tpl_${process.pid}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${template}`);
  await admin.query(`CREATE DATABASE ${template}`);
  const db = createDb(databaseUrl(template), 1);
  await applyMigrations(db);
  await db.$client.end();
  project.provide('templateDatabase', template);
  project.provide('baseDatabaseUrl', base);
  return async () => {
    // Leftover per-file databases of this run (a crashed file) go with the template.
    const { rows } = await admin.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE datname LIKE 'cs\\_t\\_${process.pid}\\_%'`,
    );
    for (const { datname } of rows)
      await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`).catch(() => {});
    await admin.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
    await admin.end();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    templateDatabase: string;
    baseDatabaseUrl: string;
  }
}
