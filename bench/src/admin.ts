/**
 * Operator console benchmark (`npm run bench:admin`): the admin API on PostgreSQL holding 100,000
 * users and 1,000,000 try-ons (a year of them, with their credit events), 50,000 purchases, 20,000
 * reports, 100,000 audit rows and 100,000 sessions, seeded with generate_series INSERTs in a few
 * seconds. Prints p50/p95 of each admin endpoint (RUNS requests each, after warm-up, through the
 * whole app: guard, queries, serialisation); the target is p95 < 300 ms. The first statistics request,
 * which computes and stores the closed days once, is timed on its own.
 *
 * PostgreSQL: BENCH_DATABASE_URL (an empty database), else a throwaway cluster started from
 * Debian's postgresql binaries (as the server tests do) and removed afterwards.
 *
 * Run: node --conditions=source --import tsx bench/src/admin.ts   (or `npm run bench:admin`)
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '@aidressup/server/app';
import { loadConfig } from '@aidressup/server/config';
import { memoryMailer, signInByEmail } from '@aidressup/server/testing/operator';
import { postgresBinDir, startPostgresCluster } from '@aidressup/server/testing/postgres-cluster';

const RUNS = Number(process.env.ADMIN_BENCH_RUNS ?? 40);
const USERS = Number(process.env.ADMIN_BENCH_USERS ?? 100_000);
const TRYONS = Number(process.env.ADMIN_BENCH_TRYONS ?? 1_000_000);
const TARGET_P95_MS = 300;
const OPERATOR = 'ops@bench.example';

function stats(values: number[]) {
  const s = [...values].sort((a, b) => a - b);
  const pct = (p: number) => s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
  return { p50: pct(50), p95: pct(95), max: s[s.length - 1]! };
}

function pgBinDir(): string {
  const bin = postgresBinDir();
  if (!bin) throw new Error('PostgreSQL binaries not found under /usr/lib/postgresql: set BENCH_DATABASE_URL');
  return bin;
}

/** The seed: ids are md5 prefixes of a counter, times spread over the last year, all as ISO-8601 text. */
function seedSql(): string {
  return `
-- Foreign keys hold by construction: skip their per-row checks (a superuser setting, fine on a throwaway cluster).
set session_replication_role = replica;
set maintenance_work_mem = '256MB';
create function pg_temp.iso(t timestamptz) returns text language sql immutable as
  $$ select to_char(t at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') $$;
create function pg_temp.uid(i bigint) returns text language sql immutable as $$ select substr(md5('u' || i), 1, 21) $$;

insert into users (id, device_id, device_info, free_trials_used, created_at, last_seen_at, email,
  subscription_id, subscription_status, subscription_plan_id, subscription_period_end)
select pg_temp.uid(i), 'dev-' || i, '{}', 2, pg_temp.iso(t), pg_temp.iso(t),
  case when i % 3 = 0 then 'user' || i || '@example.com' end,
  case when i % 20 = 0 then 'sub_' || i end, case when i % 20 = 0 then 'active' end,
  case when i % 20 = 0 then 'monthly' end, case when i % 20 = 0 then pg_temp.iso(now() + interval '10 days') end
from (select i, now() - (i % 365) * interval '1 day' - (i % 86400) * interval '1 second' as t
      from generate_series(1, ${USERS}::bigint) i) s;

insert into tryons (id, user_id, category, engine, status, charge, grant_id, result_name, error_code,
  created_at, finished_at, expires_at)
select substr(md5('t' || i), 1, 21), pg_temp.uid(1 + i % ${USERS}),
  (array['upper_body', 'lower_body', 'dresses'])[1 + i % 3],
  (array['local', 'nano-banana', 'fashn', 'fal'])[1 + i % 4],
  case when i % 100 < 87 then 'succeeded' else 'failed' end, 'credit', null,
  case when i % 100 < 87 then md5('r' || i) || '.jpg' end,
  case when i % 100 between 87 and 94 then 'PERSON_NOT_FOUND' when i % 100 >= 95 then 'ENGINE_TIMEOUT' end,
  pg_temp.iso(t), pg_temp.iso(t + (2000 + (i * 7919) % 25000) * interval '1 millisecond'),
  pg_temp.iso(t + interval '30 days')
from (select i, now() - (i % 365) * interval '1 day' - ((i * 37) % 86400) * interval '1 second' as t
      from generate_series(1, ${TRYONS}::bigint) i) s;

insert into credit_events (id, user_id, grant_id, tryon_id, type, amount, created_at, note)
select substr(md5('e' || id), 1, 21), user_id, null, id, 'spend', -1, created_at, null from tryons;

insert into credit_grants (id, user_id, source, plan_id, amount, remaining, expires_at, external_ref,
  created_at, amount_paid, currency)
select substr(md5('g' || i), 1, 21), pg_temp.uid(1 + (i * 7) % ${USERS}), 'paddle',
  (array['weekly', 'monthly', 'yearly', 'credits_200'])[1 + i % 4], 200, i % 150, null, 'txn_' || i,
  pg_temp.iso(now() - (i % 365) * interval '1 day'), (array['4.99', '9.99', '59.99', '19.99'])[1 + i % 4],
  (array['USD', 'EUR'])[1 + i % 2]
from generate_series(1, 50000::bigint) i;

insert into tryon_reports (id, tryon_id, user_id, reason, note, status, units, created_at, decided_at,
  decided_by, decision_note)
select substr(md5('rep' || i), 1, 21), substr(md5('t' || (i * 50)), 1, 21), pg_temp.uid(1 + (i * 50) % ${USERS}),
  (array['wrong_garment', 'body_or_face_changed', 'badly_placed', 'other'])[1 + i % 4], null,
  case when i % 10 = 0 then 'pending' when i % 10 = 1 then 'rejected' else 'refunded' end, '[]',
  pg_temp.iso(now() - (i % 365) * interval '1 day'),
  case when i % 10 = 0 then null else pg_temp.iso(now() - (i % 365) * interval '1 day') end, null, null
from generate_series(1, 20000::bigint) i;

insert into audit_log (id, created_at, actor_id, actor_email, action, target_type, target_id,
  target_user_id, reason, before, after)
select substr(md5('a' || i), 1, 21), pg_temp.iso(now() - (i % 365) * interval '1 day' - i * interval '1 second'),
  'bench-operator', '${OPERATOR}', 'credits.add', 'user', pg_temp.uid(1 + i % ${USERS}),
  pg_temp.uid(1 + i % ${USERS}), 'bench', '{"credits":0}', '{"credits":1}'
from generate_series(1, 100000::bigint) i;

insert into sessions (id, user_id, created_at, last_seen_at, expires_at)
select md5('s' || i), pg_temp.uid(i), pg_temp.iso(now()), pg_temp.iso(now()), pg_temp.iso(now() + interval '1 year')
from generate_series(1, ${USERS}::bigint) i;

analyze;
`;
}

async function measure(
  app: FastifyInstance,
  cookie: string,
  url: string,
  method: 'GET' | 'POST' = 'GET',
  payload?: object,
) {
  const times: number[] = [];
  for (let i = 0; i < RUNS + 3; i++) {
    const started = performance.now();
    const res = await app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
    const took = performance.now() - started;
    if (res.statusCode !== 200) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    if (i >= 3) times.push(took);
  }
  return stats(times);
}

export async function runAdminBench(): Promise<void> {
  const bin = process.env.BENCH_DATABASE_URL ? undefined : pgBinDir();
  const pg = bin ? await startPostgresCluster(bin) : undefined;
  const databaseUrl = process.env.BENCH_DATABASE_URL ?? pg!.url;
  const mailer = memoryMailer();
  const config = loadConfig({
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'aidressup-bench-admin-')),
    DATABASE_URL: databaseUrl,
    ADMIN_EMAILS: OPERATOR,
    RATE_LIMIT_GLOBAL_PER_MINUTE: '1000000',
  });
  const app = await buildApp({ config, background: false, mailer });
  try {
    await app.ready();
    const psql = path.join(bin ?? pgBinDir(), 'psql');
    const users = Number(execFileSync(psql, ['-At', databaseUrl, '-c', 'select count(*) from users']).toString());
    if (users >= USERS) {
      console.log(`BENCH_DATABASE_URL holds ${users.toLocaleString('en')} users already: not seeding again`);
    } else {
      console.log(`seeding ${USERS.toLocaleString('en')} users and ${TRYONS.toLocaleString('en')} try-ons…`);
      const seedStarted = performance.now();
      execFileSync(psql, ['-v', 'ON_ERROR_STOP=1', '-q', databaseUrl], {
        input: seedSql(),
        stdio: ['pipe', 'inherit', 'inherit'],
      });
      console.log(`seeded in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`);
    }

    const { cookie } = await signInByEmail(app, mailer, OPERATOR);
    const someId = execFileSync(psql, ['-At', databaseUrl, '-c', `select substr(md5('u' || 777), 1, 21)`])
      .toString()
      .trim();
    const cases: Array<[string, string, 'GET' | 'POST', object?]> = [
      ['search: part of an email', '/api/admin/users?query=user4242', 'GET'],
      ['search: a common part (example.com)', '/api/admin/users?query=example.com', 'GET'],
      ['search: id prefix (6 characters)', `/api/admin/users?query=${someId.slice(0, 6)}`, 'GET'],
      ['search: device id', '/api/admin/users?query=dev-31337', 'GET'],
      ['user page', `/api/admin/users/${someId}`, 'GET'],
      ['add a credit', `/api/admin/users/${someId}/credits`, 'POST', { amount: 1, reason: 'bench' }],
      ['reports: pending', '/api/admin/reports?status=pending', 'GET'],
      ['reports: refunded', '/api/admin/reports?status=refunded', 'GET'],
      ['stats: 7 days', '/api/admin/stats?days=7', 'GET'],
      ['stats: 30 days', '/api/admin/stats?days=30', 'GET'],
      ['stats: 90 days', '/api/admin/stats?days=90', 'GET'],
      ['audit: newest 50', '/api/admin/audit?limit=50', 'GET'],
    ];
    // The first statistics request computes and stores every closed day of the window (once).
    const coldStarted = performance.now();
    const cold = await app.inject({ method: 'GET', url: '/api/admin/stats?days=90', headers: { cookie } });
    if (cold.statusCode !== 200) throw new Error(`stats: ${cold.statusCode} ${cold.body}`);
    console.log(
      `stats: 90 days, first request (stores the closed days): ${(performance.now() - coldStarted).toFixed(0)} ms`,
    );
    console.log(`\n${'endpoint'.padEnd(40)} ${'p50'.padStart(9)} ${'p95'.padStart(9)} ${'max'.padStart(9)}`);
    let over = 0;
    for (const [name, url, method, payload] of cases) {
      const s = await measure(app, cookie, url, method, payload);
      if (s.p95 >= TARGET_P95_MS) over++;
      const flag = s.p95 < TARGET_P95_MS ? '' : `  over the ${TARGET_P95_MS} ms target`;
      console.log(
        `${name.padEnd(40)} ${`${s.p50.toFixed(1)} ms`.padStart(9)} ${`${s.p95.toFixed(1)} ms`.padStart(9)} ${`${s.max.toFixed(1)} ms`.padStart(9)}${flag}`,
      );
    }
    console.log(
      over === 0 ? `\nevery endpoint: p95 < ${TARGET_P95_MS} ms` : `\n${over} endpoint(s) over ${TARGET_P95_MS} ms`,
    );
    if (over > 0) process.exitCode = 1;
  } finally {
    await app.close();
    pg?.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await runAdminBench();
}
