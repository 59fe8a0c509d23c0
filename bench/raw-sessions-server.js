#!/usr/bin/env node
// The raw baseline of the sessions list: node:http + pg running the very SQL the service's
// repository sends (SessionsRepository.list: page and exact total in one statement; with an email
// substring, searchPage and searchCount over session_emails) and the same response mapping, with no
// framework, no auth, no rate limit and no count cache. What Node + PostgreSQL can do here.
// Query parameters as the service's SessionListQuery reads them: limit, offset, email, and the
// comma lists qualification_status, buying_intent, booked_status (no validation: the bench sends
// valid values only).
// Usage: DATABASE_URL=… ORGANIZATION_ID=… PORT=3960 node bench/raw-sessions-server.js
'use strict';
const http = require('node:http');
const { Pool } = require('pg');
const { SessionsRepository } = require('../dist/src/modules/sessions/sessions.repository');
const { toSessionResponse } = require('../dist/src/modules/sessions/dto/session.response');

const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
// The DataSource the repository sees: plain queries, and the pool for its prepared statements.
const repository = new SessionsRepository({ query: (sql, params) => pool.query(sql, params).then((r) => r.rows), driver: { master: pool } });
const organizationId = process.env.ORGANIZATION_ID;

/** `high, medium,` → ['high', 'medium'], as the DTO's ToCommaList does. */
const commaList = (value) => (value === null ? undefined : value.split(',').map((item) => item.trim()).filter((item) => item.length > 0));

function listQuery(params) {
  return {
    limit: Number(params.get('limit') ?? 50),
    offset: Number(params.get('offset') ?? 0),
    qualification_status: commaList(params.get('qualification_status')),
    buying_intent: commaList(params.get('buying_intent')),
    booked_status: commaList(params.get('booked_status')),
    email: params.get('email') ?? undefined,
  };
}

http
  .createServer(async (req, res) => {
    try {
      const query = listQuery(new URL(req.url, 'http://raw').searchParams);
      // As the service reads an offset page: one row more than the page, which tells whether a next page exists.
      const window = { limit: query.limit + 1, skip: query.offset, after: null, offset: query.offset };
      const { rows, total } =
        query.email === undefined
          ? await repository.list(organizationId, query, window)
          : await Promise.all([repository.searchPage(organizationId, query, window), repository.searchCount(organizationId, query)]).then(([page, count]) => ({ rows: page, total: count }));
      const body = JSON.stringify({ sessions: rows.slice(0, query.limit).map(toSessionResponse), pagination: { total, limit: query.limit, offset: query.offset } });
      res.writeHead(200, { 'content-type': 'application/json' }).end(body);
    } catch (error) {
      res.writeHead(500).end(String(error));
    }
  })
  .listen(Number(process.env.PORT || 3960), '127.0.0.1');
