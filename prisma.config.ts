// Prisma CLI configuration (Prisma 7 reads the connection URL from here, not from schema.prisma).
// On a machine that can download Prisma's engines, `npx prisma migrate deploy` works as usual;
// this repo itself migrates offline through the WebAssembly engine (scripts/db/migrate.ts).
import { defineConfig } from 'prisma/config';

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/dominoes' },
});
