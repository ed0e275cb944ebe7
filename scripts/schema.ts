/**
 * Prints the GraphQL schema the code defines, sorted, to schema.gql (`npm run schema:write`), or
 * fails when the committed schema.gql differs from it (`npm run schema:check`). No database is
 * contacted: Prisma connects lazily and nothing here runs a query.
 */
import 'reflect-metadata';
import { readFile, writeFile } from 'node:fs/promises';
import { NestFactory } from '@nestjs/core';
import { GraphQLSchemaHost } from '@nestjs/graphql';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { lexicographicSortSchema, printSchema } from 'graphql';
import { AppModule } from '../src/app.module.js';
import { loadConfig } from '../src/config/config.js';

// The public schema: bench-only parts stay out whatever the environment says.
const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent', BENCH_FLOOR: 'false' });
const app = await NestFactory.create(AppModule.forRoot(config, 'postgresql://unused@127.0.0.1:1/unused'), new FastifyAdapter(), { logger: false });
await app.init();
const sdl = printSchema(lexicographicSortSchema(app.get(GraphQLSchemaHost).schema)) + '\n';
await app.close();

if (process.argv.includes('--check')) {
  const committed = await readFile('schema.gql', 'utf8').catch(() => '');
  if (committed !== sdl) {
    console.error('schema.gql is out of date: run `npm run schema:write` and commit it');
    process.exit(1);
  }
  console.log('schema.gql matches the code');
} else {
  await writeFile('schema.gql', sdl);
  console.log('wrote schema.gql');
}
