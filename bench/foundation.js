#!/usr/bin/env node
// Cost of the request pipeline: a public route (no guards) against an authenticated list route
// (key cache, request-rate check in Redis, scope, validation, one indexed query).
// Usage: npm run build && node bench/foundation.js   (needs PostgreSQL and Redis on localhost)
'use strict';
const { execFileSync, spawn } = require('node:child_process');
const autocannon = require('autocannon');
const { Client } = require('pg');

const PORT = 3901;
const DB = `engagement_bench_${Date.now()}`;
const ADMIN = process.env.BENCH_ADMIN_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const DATABASE_URL = ADMIN.replace(/\/[^/]*$/, `/${DB}`);
const env = {
  ...process.env,
  DATABASE_URL,
  REDIS_URL: 'redis://127.0.0.1:6379/14',
  CURSOR_SECRET: 'bench-cursor-secret-0123456789',
  PORT: String(PORT),
  APP_ROLE: 'api',
  NODE_ENV: 'production',
  LOG_LEVEL: 'warn',
  RATE_LIMIT_PER_MINUTE: '1000000',
};
const DURATION = Number(process.env.BENCH_SECONDS || 10);

const cli = (...args) => JSON.parse(execFileSync('node', ['dist/src/cli.js', ...args], { env, encoding: 'utf8' }));
const run = (opts) =>
  new Promise((resolve, reject) => autocannon(opts, (err, res) => (err ? reject(err) : resolve(res))));

async function main() {
  const admin = new Client({ connectionString: ADMIN });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${DB}`);
  try {
    execFileSync('node', ['node_modules/typeorm/cli.js', 'migration:run', '-d', 'dist/ormconfig.js', '-t', 'each'], {
      env,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const org = cli('org:create', '--name', 'Bench');
    const { key } = cli('key:create', '--org', org.id, '--scopes', 'custom_links:read');
    const server = spawn('node', ['dist/src/main.js'], { env, stdio: ['ignore', 'inherit', 'inherit'] });
    try {
      for (let i = 0; i < 100; i++) {
        const ok = await fetch(`http://127.0.0.1:${PORT}/healthz`).then(
          (r) => r.ok,
          () => false,
        );
        if (ok) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      const headers = { authorization: `Bearer ${key}` };
      await fetch(`http://127.0.0.1:${PORT}/api/v1/custom-link-campaigns`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: '{"name":"x"}',
      });
      const rows = [];
      for (const [name, path, h] of [
        ['GET /healthz (public)', '/healthz', {}],
        ['GET /api/v1/custom-link-campaigns (key, rate limit, scope)', '/api/v1/custom-link-campaigns', headers],
      ]) {
        await run({ url: `http://127.0.0.1:${PORT}${path}`, connections: 20, duration: 2, headers: h });
        const r = await run({
          url: `http://127.0.0.1:${PORT}${path}`,
          connections: 20,
          duration: DURATION,
          headers: h,
        });
        rows.push({
          name,
          rps: Math.round(r.requests.average),
          p50_ms: r.latency.p50,
          p99_ms: r.latency.p99,
          non2xx: r.non2xx,
        });
      }
      console.table(rows);
      console.log(JSON.stringify(rows));
    } finally {
      server.kill('SIGTERM');
    }
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
    await admin.end();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
