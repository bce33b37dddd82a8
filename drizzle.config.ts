import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './server/core/db/schema/index.ts',
  out: './server/core/db/migrations',
  casing: 'snake_case',
});
