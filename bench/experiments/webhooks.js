#!/usr/bin/env node
// Webhook delivery throughput: a worker process (the built service, APP_ROLE=worker) sends N
// recorded messages to a local receiver that answers 204; prints messages/s from the first
// dispatch to the last receipt. Each message goes through the whole path: outbox rows, the
// dispatcher, the Bull queue, signing and the HTTP POST, and the attempt recorded.
//
// Usage: npm run build && node bench/experiments/webhooks.js [--messages N (5000)]
// Environment: BENCH_ADMIN_DATABASE_URL [postgres://postgres@127.0.0.1:5432/postgres],
//              BENCH_REDIS_URL [redis://127.0.0.1:6379/14]. Uses a scratch database, dropped at the end.
const http = require('node:http');
const { Client } = require('pg');
const { DataSource } = require('typeorm');
const { dataSourceOptions } = require('../../dist/src/database/data-source-options');
const { loadConfig } = require('../../dist/src/config/environment');
const { createWorkerApp } = require('../../dist/src/worker');

const arg = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : Number(process.argv[at + 1]);
};
const MESSAGES = arg('messages', 5000);
const ADMIN = process.env.BENCH_ADMIN_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379/14';
const DB = 'engagement_bench_webhooks';

async function admin(sql) {
  const client = new Client({ connectionString: ADMIN });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

async function main() {
  await admin(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
  await admin(`CREATE DATABASE ${DB}`);
  const url = new URL(ADMIN);
  url.pathname = `/${DB}`;
  const db = new DataSource(dataSourceOptions(url.toString(), 4));
  await db.initialize();
  await db.runMigrations({ transaction: 'each' });

  let received = 0;
  let done;
  const finished = new Promise((resolve) => (done = resolve));
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(204).end();
      if (++received === MESSAGES) done(Date.now());
    });
  });
  await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));

  const [org] = await db.query(`INSERT INTO organizations (id, name) VALUES (gen_random_uuid(), 'bench') RETURNING id`);
  const [endpoint] = await db.query(
    `INSERT INTO webhook_endpoints (organization_id, id, url, event_types, secret) VALUES ($1, gen_random_uuid(), $2, ARRAY['custom_link.opened'], $3) RETURNING id`,
    [org.id, `http://127.0.0.1:${receiver.address().port}/hook`, `whsec_${Buffer.alloc(32, 7).toString('base64')}`],
  );
  // The outbox as producers leave it: a message and a due first attempt each (set-based, before the worker starts).
  await db.query(
    `WITH m AS (INSERT INTO webhook_messages (organization_id, id, event_type, body)
                SELECT $1, gen_random_uuid(), 'custom_link.opened', json_build_object('type', 'custom_link.opened', 'timestamp', now(), 'data', json_build_object('n', n))::text
                  FROM generate_series(1, $3) n RETURNING id)
     INSERT INTO webhook_deliveries (organization_id, id, endpoint_id, message_id, attempt, status, next_attempt_at)
     SELECT $1, gen_random_uuid(), $2, id, 1, 'pending', now() FROM m`,
    [org.id, endpoint.id, MESSAGES],
  );

  const config = loadConfig({
    ...process.env,
    APP_ROLE: 'worker',
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    DATABASE_URL: url.toString(),
    REDIS_URL: REDIS,
    QUEUE_PREFIX: `bench-webhooks-${Date.now()}`,
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    WEBHOOK_DISPATCH_INTERVAL_MS: '50',
  });
  const started = Date.now();
  const app = await createWorkerApp(config);
  await app.init();
  const ended = await finished;
  const seconds = (ended - started) / 1000;
  const [{ count }] = await db.query(`SELECT count(*) FROM webhook_deliveries WHERE status = 'succeeded'`);
  console.log(
    JSON.stringify({
      messages: MESSAGES,
      seconds: Number(seconds.toFixed(2)),
      messagesPerSecond: Math.round(MESSAGES / seconds),
      succeededRows: Number(count),
    }),
  );
  await app.close();
  receiver.close();
  await db.destroy();
  await admin(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
