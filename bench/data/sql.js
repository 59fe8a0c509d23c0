// SQL helpers: statement parameters (named word lists become array parameters, constants, so picks
// stay cheap), uuid v7, millisecond precision, normal variates, and the service's visibility and
// non-empty rules.
'use strict';
const path = require('node:path');
const { DIST } = require('./constants');
const { VOCAB } = require('./vocabulary');

/** @typedef {keyof typeof VOCAB} VocabularyList */
// The service's own definition (compiled): the generated rows and checks agree with it by construction.
/** @type {typeof import('../../src/modules/sessions/visible-session')} */
const { visibleSession } = require(path.join(DIST, 'modules/sessions/visible-session'));

/** Collects the parameters of one statement; `v` adds a value, `pick` a random (weighted) choice from a list. */
class Params {
  constructor() {
    /** @type {unknown[]} */
    this.values = [];
    /** @type {Map<VocabularyList, string>} */
    this.lists = new Map();
  }
  /**
   * @param {unknown} value
   * @param {string} type  Its SQL type (the placeholder is cast to it).
   * @returns {string} The placeholder.
   */
  v(value, type) {
    this.values.push(value);
    return `$${this.values.length}::${type}`;
  }
  /**
   * The placeholder of word list `name` (one parameter per list and statement).
   * @param {VocabularyList} name
   * @returns {string}
   */
  list(name) {
    let placeholder = this.lists.get(name);
    if (placeholder === undefined) {
      placeholder = this.v(VOCAB[name], 'text[]');
      this.lists.set(name, placeholder);
    }
    return placeholder;
  }
  /**
   * One element of list `name` chosen by `rnd` in [0, 1) (a random() column).
   * @param {VocabularyList} name
   * @param {string} rnd
   */
  pick(name, rnd) {
    return `(${this.list(name)})[1 + floor((${rnd}) * ${VOCAB[name].length})::int]`;
  }
  /**
   * Element `index` (1-based SQL expression) of list `name`.
   * @param {VocabularyList} name
   * @param {string | number} index
   */
  at(name, index) {
    return `(${this.list(name)})[${index}]`;
  }
}

/**
 * SQL of a uuid v7 (millisecond time prefix, random rest) for a timestamptz expression.
 * @param {string} ts
 */
const uuid7 = (ts) =>
  `(lpad(to_hex((extract(epoch FROM ${ts}) * 1000)::bigint), 12, '0') || '7' || substr(md5(random()::text), 1, 3) || ` +
  `to_hex(8 + floor(random() * 4)::int) || substr(md5(random()::text), 1, 15))::uuid`;

/**
 * Millisecond precision, as every timestamp the service writes (JavaScript Dates).
 * @param {string} ts
 */
const ms = (ts) => `date_trunc('milliseconds', ${ts})`;

/**
 * A normal-ish variate (sum of four uniforms, mean 0, sd 1) from four random() columns.
 * @param {string} a
 * @param {string} b
 * @param {string} c
 * @param {string} d
 */
const normal = (a, b, c, d) => `((${a} + ${b} + ${c} + ${d} - 2) * 1.732)`;

/** A session the service shows. */
const VISIBLE = visibleSession();
/**
 * VISIBLE on a table alias.
 * @param {string} alias
 */
const visibleOf = (alias) => visibleSession(alias);
/**
 * A value of a field that is non-empty (person-rollup.ts nonEmpty).
 * @param {string} column
 */
const nonEmpty = (column) => `${column} IS NOT NULL AND btrim(${column}) <> ''`;

/**
 * ANALYZE of `tables`, one at a time across the build's connections: two ANALYZEs of one table at
 * once may fail ("tuple concurrently updated").
 * @param {import('pg').Client} db
 * @param {string} tables
 */
async function analyze(db, tables) {
  await db.query('BEGIN');
  try {
    await db.query(`SELECT pg_advisory_xact_lock(hashtext('bench analyze'))`);
    await db.query(`ANALYZE ${tables}`);
    await db.query('COMMIT');
  } catch (error) {
    await db.query('ROLLBACK');
    throw error;
  }
}

module.exports = { Params, uuid7, ms, normal, VISIBLE, visibleOf, nonEmpty, analyze };
