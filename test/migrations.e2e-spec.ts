import { execFile } from 'node:child_process';
import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { adminQuery, createTestDatabase, dropTestDatabase, withDatabase } from './setup/test-database.js';
import { spawnServer } from './support/server-process.js';

/**
 * Upgrading a deployed database (docs/operations.md, "Upgrading and rolling back"): what start-up
 * and `npm run db:migrate` refuse, what they warn about, and how `npm run db:resolve` settles a
 * migration that failed. Run as an operator runs them: the built scripts, in child processes.
 */
const serverUrl = () => process.env.TEST_PG_SERVER_URL!;

function script(name: string, env: Record<string, string>, ...args: string[]): Promise<{ code: number; out: string }> {
  const base = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !['DATABASE_URL', 'DATA_DIR', 'NODE_OPTIONS', 'PRISMA_DIR'].includes(k)),
  );
  return new Promise((resolve) => {
    execFile(process.execPath, [`dist/scripts/${name}.js`, ...args], { env: { ...base, ...env } }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, out: stdout + stderr }),
    );
  });
}

async function rows<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

const LAST = '20261203124518_pending_deal_chain';

describe('upgrading a database', () => {
  const databases: string[] = [];
  afterAll(async () => {
    for (const url of databases) await dropTestDatabase(serverUrl(), url);
  });

  it('refuses to apply the fair-deals migration to a database holding matches from before it, and changes nothing', async () => {
    const name = `dominoes_test_upgrade_${process.pid}_${Date.now()}`;
    await adminQuery(serverUrl(), `CREATE DATABASE "${name}" TEMPLATE template0`);
    const url = withDatabase(serverUrl(), name);
    databases.push(url);
    // The schema as the releases of 2026-11-29 and 30 left it: the migrations before fair deals.
    const old = await mkdtemp(join(tmpdir(), 'dominoes-old-prisma-'));
    try {
      await cp('prisma/schema.prisma', join(old, 'schema.prisma'));
      for (const dir of (await readdir('prisma/migrations')).filter((d) => d < '20261201012000' || d === 'migration_lock.toml'))
        await cp(join('prisma/migrations', dir), join(old, 'migrations', dir), { recursive: true });
      expect((await script('db-migrate', { DATABASE_URL: url, PRISMA_DIR: old })).code).toBe(0);
    } finally {
      await rm(old, { recursive: true, force: true });
    }
    const player = '00000000-0000-4000-8000-000000000001';
    await adminQuery(url, `INSERT INTO "Player"(id, name, "tokenHash") VALUES ('${player}', 'early', 'h')`);
    await adminQuery(
      url,
      `INSERT INTO "Match"(id, "seatCount", partnerships, rules, seed, "createdById", "updatedAt") VALUES ('00000000-0000-4000-8000-000000000002', 2, false, '{}', 1, '${player}', now())`,
    );

    const refused = await script('db-migrate', { DATABASE_URL: url });
    expect(refused.code).toBe(1);
    expect(refused.out).toMatch(
      /^cannot migrate: this database holds matches from before provably fair deals .*TRUNCATE "Match", "PlayerStats" CASCADE/m,
    );
    const server = spawnServer({ DATABASE_URL: url });
    expect(await server.exited).toBe(1);
    expect(server.output().trim()).toMatch(/^cannot start: this database holds matches from before provably fair deals/);
    expect(await rows(url, 'SELECT count(*)::int AS n FROM "Match"')).toEqual([{ n: 1 }]);
    expect(await rows(url, 'SELECT count(*)::int AS n FROM _prisma_migrations')).toEqual([{ n: 3 }]);

    // Its operator deletes them (players and tokens stay): the upgrade goes through.
    await adminQuery(url, 'TRUNCATE "Match", "PlayerStats" CASCADE');
    const applied = await script('db-migrate', { DATABASE_URL: url });
    expect(applied).toMatchObject({ code: 0 });
    expect(applied.out).toMatch(/^applied: 20261201012000_fair_deals, /);
    expect(await rows(url, 'SELECT name FROM "Player"')).toEqual([{ name: 'early' }]);
  });

  it('stops at a migration that failed, says what to do, and db:resolve settles it', async () => {
    const url = await createTestDatabase(serverUrl());
    databases.push(url);
    // As if the last migration had never been recorded: applying it again fails half-way.
    await adminQuery(url, `DELETE FROM _prisma_migrations WHERE migration_name = '${LAST}'`);
    const failed = await script('db-migrate', { DATABASE_URL: url });
    expect(failed.code).toBe(1);
    expect(failed.out.trim()).toMatch(/^cannot migrate: a migration failed: .*already exists; what it applied stays/);
    expect(failed.out).not.toMatch(/sql_schema_connector|\.rs:/); // the cause, not the engine's backtrace

    const again = await script('db-migrate', { DATABASE_URL: url });
    expect(again.out.trim()).toBe(
      `cannot migrate: migration ${LAST} failed earlier and may be partly applied: finish or undo it by hand, then mark it with npm run db:resolve (see docs/operations.md, "Upgrading and rolling back")`,
    );
    const server = spawnServer({ DATABASE_URL: url });
    expect(await server.exited).toBe(1);
    expect(server.output().trim()).toBe(again.out.trim().replace(/^cannot migrate/, 'cannot start'));

    // Undone by hand and marked rolled back: it runs again.
    await adminQuery(url, 'DROP TABLE "PendingDealChain"');
    expect(await script('db-resolve', { DATABASE_URL: url }, '--rolled-back', LAST)).toEqual({ code: 0, out: `${LAST} marked rolled-back\n` });
    expect(await script('db-migrate', { DATABASE_URL: url })).toEqual({ code: 0, out: `applied: ${LAST}\n` });
    expect((await script('db-resolve', { DATABASE_URL: url }, '--sideways', LAST)).code).toBe(2);
  });

  it('warns of migrations this version does not know, and of applied ones whose text changed', async () => {
    const url = await createTestDatabase(serverUrl());
    databases.push(url);
    await adminQuery(
      url,
      `INSERT INTO _prisma_migrations(id, checksum, migration_name, started_at, finished_at, applied_steps_count) VALUES ('future', '0', '29991231000000_from_a_newer_version', now(), now(), 1)`,
    );
    await adminQuery(url, `UPDATE _prisma_migrations SET checksum = '0' WHERE migration_name = '20261201030000_webhooks'`);
    const { code, out } = await script('db-migrate', { DATABASE_URL: url });
    expect(code).toBe(0);
    expect(out).toContain('database is up to date');
    expect(out).toContain(
      'warning: the database has migrations this version does not know (29991231000000_from_a_newer_version): a newer version migrated it',
    );
    expect(out).toContain('warning: the text of migrations 20261201030000_webhooks differs from what was applied to this database');
  });
});
