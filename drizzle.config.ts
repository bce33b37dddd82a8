import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './server/core/platform/db/schema/index.ts',
  out: './server/core/platform/db/migrations',
  casing: 'snake_case',
});
