// Verification: expected column values (from the service's rules) against a stored row.
'use strict';

const same = (a, b) => (a instanceof Date || b instanceof Date ? a?.getTime?.() === b?.getTime?.() : a === b);
const show = (value) => (value instanceof Date ? value.toISOString() : JSON.stringify(value));

/** Compares expected column values with a stored row; records every difference. */
function compareColumns(failures, what, expected, row) {
  for (const [column, value] of Object.entries(expected)) {
    const stored = row[column] instanceof Date || row[column] === null || typeof value !== 'number' ? row[column] : Number(row[column]);
    if (!same(value, stored)) failures.push(`${what}: ${column} stored ${show(stored)}, rules give ${show(value)}`);
  }
}

module.exports = { compareColumns };
