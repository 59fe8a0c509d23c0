// The statements the compiled SessionsRepository sends for an email substring search, recorded:
// shared by the email search experiments (email-search-explain.js, email-search-grams.js).
'use strict';
const path = require('node:path');

const DIST = path.join(__dirname, '../..', 'dist', 'src');

/**
 * @typedef {{ text: string, values: unknown[] }} Statement
 */

/**
 * The statements the repository sends for the total of `email` and its first page (default limit),
 * run on `db` and recorded: the service's own choice of path, whatever the index it relies on.
 * `byGrams`: the page was read through the grams index (EMAIL_SEARCH in sessions.repository.ts).
 * @param {import('pg').Client} db
 * @param {string} organizationId
 * @param {string} email
 * @returns {Promise<{ total: number, byGrams: boolean, count: Statement[], page: Statement[] }>}
 */
async function searchStatements(db, organizationId, email) {
  require('reflect-metadata');
  const { SessionsRepository } = require(path.join(DIST, 'modules/sessions/sessions.repository'));
  /** @type {Statement[]} */
  const sent = [];
  const recording = {
    /** @param {string} text @param {unknown[]} values */
    query: async (text, values) => (sent.push({ text, values }), (await db.query(text, values)).rows),
  };
  const repository = new SessionsRepository(recording, undefined);
  const query = { email, limit: 50, offset: 0 };
  const limits = await repository.emailSearchLimits(organizationId, email);
  sent.splice(0);
  const total = await repository.searchCount(organizationId, query, limits);
  const count = sent.splice(0);
  await repository.searchPage(organizationId, query, { limit: 51, skip: 0, after: null, offset: 0 }, total, limits);
  return { total, byGrams: limits !== null && total <= limits.page, count, page: sent.splice(0) };
}

module.exports = { searchStatements };
