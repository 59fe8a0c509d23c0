#!/usr/bin/env node
// The raw baseline of the sessions list: node:http + pg running the very SQL the service's
// repository sends (page with deferred join, then the exact count) and the same response mapping,
// with no framework, no auth, no rate limit and no count cache. What Node + PostgreSQL can do here.
// Usage: DATABASE_URL=… ORGANIZATION_ID=… PORT=3960 node bench/raw-sessions-server.js
'use strict';
const http = require('node:http');
const { Pool } = require('pg');
const { SessionsRepository } = require('../dist/src/modules/sessions/sessions.repository');
const { toSessionResponse } = require('../dist/src/modules/sessions/dto/session.response');

const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const repository = new SessionsRepository({ query: (sql, params) => pool.query(sql, params).then((r) => r.rows) });
const organizationId = process.env.ORGANIZATION_ID;

http
  .createServer(async (req, res) => {
    try {
      const url = new URL(req.url, 'http://raw');
      const query = { limit: Number(url.searchParams.get('limit') ?? 50), offset: Number(url.searchParams.get('offset') ?? 0) };
      const [rows, total] = await Promise.all([repository.listPage(organizationId, query), repository.count(organizationId, query)]);
      const body = JSON.stringify({ sessions: rows.map(toSessionResponse), pagination: { total, limit: query.limit, offset: query.offset } });
      res.writeHead(200, { 'content-type': 'application/json' }).end(body);
    } catch (error) {
      res.writeHead(500).end(String(error));
    }
  })
  .listen(Number(process.env.PORT || 3960), '127.0.0.1');
