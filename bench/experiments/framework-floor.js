#!/usr/bin/env node
// The framework's floor: API CPU per request of the stack the service must run on (NestJS on
// express, through the service's own LeanExpressAdapter) against bare node:http, each answering one
// GET route with the same JSON body and nothing else: no guards, middleware, database or Redis.
// Whatever a Nest/express service does per request costs at least this much more than node:http,
// so it bounds the ratio any such service can reach against a raw node:http baseline.
//
// Usage (after `npm run build`):
//   node bench/experiments/framework-floor.js [--body FILE] [--rate 2000] [--seconds 15] [--rounds 2]
// --body: the JSON answered (default: a 3 KB object shaped like a session detail).
// Prints one JSON line per server and round, then the floor: the mean difference in µs per request.
'use strict';
const { spawn } = require('node:child_process');
const { readFileSync } = require('node:fs');
const path = require('node:path');
const { setTimeout: sleep } = require('node:timers/promises');
const autocannon = require('autocannon');
const { cpuSeconds, freePort } = require('../run/processes');

const ROUTE = '/api/v1/sessions/00000000-0000-4000-8000-000000000001';

function options(argv) {
  const given = {};
  for (let i = 0; i < argv.length; i += 2) given[argv[i].replace(/^--/, '')] = argv[i + 1];
  return {
    body: given.body ?? null,
    rate: Number(given.rate ?? 2000),
    seconds: Number(given.seconds ?? 15),
    rounds: Number(given.rounds ?? 2),
  };
}

/** A session-detail-sized answer when no --body is given. */
function defaultBody() {
  const words = (n) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');
  return {
    id: '00000000-0000-4000-8000-000000000001',
    status: 'analyzed',
    startedAt: '2026-11-20T10:00:00.000Z',
    analysis: {
      summary: words(120),
      buyingIntent: 'high',
      topics: Array.from({ length: 12 }, (_, i) => ({ name: `topic ${i}`, score: i / 12 })),
    },
    prospect: { email: 'someone@example.com', name: 'Some One', company: 'Example' },
    questions: Array.from({ length: 8 }, (_, i) => ({
      question: words(12),
      answeredAt: `2026-11-20T10:0${i}:00.000Z`,
    })),
  };
}

/** The child's own code: `kind` is `raw` or `nest`; the body comes in BODY_JSON. */
function serve() {
  const body = JSON.parse(process.env.BODY_JSON);
  const port = Number(process.env.PORT);
  if (process.env.FLOOR_SERVER === 'raw') {
    require('node:http')
      .createServer((req, res) => {
        if (req.method === 'GET' && req.url.startsWith('/api/v1/sessions/')) {
          res.setHeader('Content-Type', 'application/json; charset=utf-8');
          res.end(JSON.stringify(body));
        } else {
          res.statusCode = 404;
          res.end();
        }
      })
      .listen(port, '127.0.0.1');
    return;
  }
  require('reflect-metadata');
  const { Controller, Get, Module, Param } = require('@nestjs/common');
  const { NestFactory } = require('@nestjs/core');
  const { LeanExpressAdapter } = require(path.join(__dirname, '../..', 'dist/src/common/http/lean-express-adapter'));
  class SessionsController {
    detail(_id) {
      return body;
    }
  }
  Controller('api/v1/sessions')(SessionsController);
  Param('id')(SessionsController.prototype, 'detail', 0);
  Get(':id')(
    SessionsController.prototype,
    'detail',
    Object.getOwnPropertyDescriptor(SessionsController.prototype, 'detail'),
  );
  class FloorModule {}
  Module({ controllers: [SessionsController] })(FloorModule);
  void NestFactory.create(FloorModule, new LeanExpressAdapter(), { bodyParser: false, logger: false }).then((app) => {
    app.getHttpAdapter().getInstance().disable('x-powered-by');
    app.getHttpAdapter().getInstance().set('etag', false);
    return app.listen(port, '127.0.0.1');
  });
}

async function start(kind, body) {
  const port = await freePort();
  const child = spawn(process.execPath, ['--max-semi-space-size=32', __filename, '--serve'], {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: {
      ...process.env,
      FLOOR_SERVER: kind,
      PORT: String(port),
      BODY_JSON: JSON.stringify(body),
      NODE_ENV: 'production',
    },
  });
  const origin = `http://127.0.0.1:${port}`;
  for (let attempt = 0; ; attempt++) {
    const ok = await fetch(`${origin}${ROUTE}`).then(
      (res) => res.status === 200,
      () => false,
    );
    if (ok) break;
    if (attempt > 200) throw new Error(`${kind}: the server did not start`);
    await sleep(100);
  }
  return { kind, child, origin };
}

function load(origin, rate, seconds) {
  return new Promise((resolve, reject) =>
    autocannon({ url: `${origin}${ROUTE}`, connections: 10, overallRate: rate, duration: seconds }, (error, result) =>
      error ? reject(error) : resolve(result),
    ),
  );
}

async function measure(server, opts) {
  await load(server.origin, opts.rate, 3); // warm-up: JIT and connection setup
  const before = cpuSeconds([server.child.pid]);
  const result = await load(server.origin, opts.rate, opts.seconds);
  const seconds = cpuSeconds([server.child.pid]) - before;
  const requests = result.requests.total;
  return {
    server: server.kind,
    requests,
    non2xx: result.non2xx,
    cpu_us_per_request: Math.round((seconds * 1e6) / requests),
  };
}

async function main() {
  const opts = options(process.argv.slice(2));
  const body = opts.body ? JSON.parse(readFileSync(opts.body, 'utf8')) : defaultBody();
  const servers = [await start('raw', body), await start('nest', body)];
  const costs = { raw: [], nest: [] };
  try {
    for (let round = 1; round <= opts.rounds; round++) {
      // ABBA across rounds, so a drift of the machine weighs on both alike.
      for (const server of round % 2 === 1 ? servers : [...servers].reverse()) {
        const line = { round, ...(await measure(server, opts)) };
        console.log(JSON.stringify(line));
        if (line.non2xx > 0) throw new Error(`${server.kind}: ${line.non2xx} non-2xx answers`);
        costs[server.kind].push(line.cpu_us_per_request);
      }
    }
  } finally {
    for (const { child } of servers) child.kill('SIGTERM');
  }
  const mean = (values) => values.reduce((a, b) => a + b, 0) / values.length;
  const floor = {
    body_bytes: Buffer.byteLength(JSON.stringify(body)),
    raw_us: Math.round(mean(costs.raw)),
    nest_us: Math.round(mean(costs.nest)),
  };
  console.log(JSON.stringify({ ...floor, floor_us_per_request: floor.nest_us - floor.raw_us }));
}

if (process.argv[2] === '--serve') serve();
else
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
