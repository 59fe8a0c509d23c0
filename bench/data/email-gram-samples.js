// The email gram shares, as the workers' sweep leaves them (EmailGramSamples, compiled): every
// organization the sweep finds due, sampled by the service's own statements, once the dataset's
// sessions and their counts are in place.
'use strict';
const path = require('node:path');
const { DIST } = require('./constants');

/**
 * Runs the service's sweep until no organization is due; returns how many were sampled.
 * @param {import('pg').Client} db
 * @returns {Promise<number>}
 */
async function sampleEmailGrams(db) {
  require('reflect-metadata');
  const { SessionsRepository } = require(path.join(DIST, 'modules/sessions/sessions.repository'));
  const { EmailGramSamples } = require(path.join(DIST, 'modules/sessions/email-gram-samples'));
  const connection = {
    /** @param {string} text @param {unknown[]} values */
    query: async (text, values) => (await db.query(text, values)).rows,
  };
  const samples = new EmailGramSamples(new SessionsRepository(connection, undefined));
  let sampled = 0;
  for (let round = await samples.sweep(); round > 0; round = await samples.sweep()) sampled += round;
  return sampled;
}

module.exports = { sampleEmailGrams };
