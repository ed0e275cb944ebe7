// `prisma generate`, offline. The Prisma CLI insists on a schema-engine binary even for
// generate (which never runs it) and would download one; pointing PRISMA_SCHEMA_ENGINE_BINARY
// at an empty placeholder keeps it from trying. The generated client is gitignored.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dir = join(tmpdir(), 'dominoes-prisma');
const placeholder = join(dir, 'schema-engine-placeholder');
if (!existsSync(placeholder)) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(placeholder, '#!/bin/sh\necho "placeholder: migrations run through the wasm engine (npm run db:migrate)" >&2\nexit 1\n');
  chmodSync(placeholder, 0o755);
}
const result = spawnSync(process.execPath, ['node_modules/prisma/build/index.js', 'generate'], {
  stdio: ['ignore', 'pipe', 'pipe'],
  env: {
    ...process.env,
    PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? placeholder,
    PRISMA_HIDE_UPDATE_MESSAGE: '1',
    CHECKPOINT_DISABLE: '1',
  },
});
if (result.status !== 0) process.stderr.write(`${result.stdout}${result.stderr}`);
process.exit(result.status ?? 1);
