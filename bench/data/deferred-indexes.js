// Indexes of the bulk-loaded tables built once after the load instead of row by row during it.
//
// An index fed row by row takes each row where it sorts: the link index of 5 M events (ordered by
// link, the rows arrive by time), a trigram GIN of a million addresses, the facets' keys in the
// order a hash aggregate emits them. Built afterwards, each is one sort. The build drops every
// index of these tables that no foreign key uses (plain indexes, and unique or primary keys no
// foreign key refers to), keeping each one's definition as PostgreSQL prints it, and creates them
// again after the load: the same names and definitions, and a unique key is checked as it is added.
'use strict';
const { shareWork } = require('./shared-work');

/** The tables the build fills in bulk (their indexes that foreign keys use stay). */
const BULK_LOADED = [
  'sessions',
  'session_emails',
  'people',
  'custom_links',
  'custom_link_search',
  'link_events',
  'link_event_ids',
  'link_event_hours',
  'link_distinct_values',
  'event_facet_hours',
  'event_facet_days',
];

/**
 * @typedef {{ table: string, name: string, drop: string, create: string }} DeferredIndex
 */

/**
 * The indexes to defer, with the statements that drop and recreate them.
 * @param {import('pg').Client} db
 * @returns {Promise<DeferredIndex[]>}
 */
async function deferrableIndexes(db) {
  const { rows } = await db.query(
    `SELECT t.relname AS table, ic.relname AS name,
            CASE WHEN c.oid IS NULL THEN format('DROP INDEX %I', ic.relname)
                 ELSE format('ALTER TABLE %I DROP CONSTRAINT %I', t.relname, c.conname) END AS drop,
            -- A partitioned table's index prints as ON ONLY (the parent alone); created ON it, every partition gets its own.
            CASE WHEN c.oid IS NULL THEN replace(pg_get_indexdef(i.indexrelid), ' ON ONLY ', ' ON ')
                 ELSE format('ALTER TABLE %I ADD CONSTRAINT %I %s', t.relname, c.conname, pg_get_constraintdef(c.oid)) END AS create
       FROM pg_index i
       JOIN pg_class t ON t.oid = i.indrelid
       JOIN pg_class ic ON ic.oid = i.indexrelid
       LEFT JOIN pg_constraint c ON c.conindid = i.indexrelid AND c.conrelid = i.indrelid AND c.contype IN ('p', 'u')
      WHERE t.relnamespace = 'public'::regnamespace AND t.relname = ANY($1::text[])
        AND NOT EXISTS (SELECT 1 FROM pg_constraint f WHERE f.contype = 'f' AND f.conindid = i.indexrelid)
        AND NOT EXISTS (SELECT 1 FROM pg_constraint x WHERE x.conindid = i.indexrelid AND x.conrelid = i.indrelid AND x.contype NOT IN ('p', 'u', 'f'))
      ORDER BY 1, 2`,
    [BULK_LOADED],
  );
  return rows;
}

/**
 * Before the load: drops the deferrable indexes; returns them, for restoreIndexes.
 * @param {import('pg').Client} db
 * @returns {Promise<DeferredIndex[]>}
 */
async function dropIndexes(db) {
  const deferred = await deferrableIndexes(db);
  for (const index of deferred) await db.query(index.drop);
  return deferred;
}

/**
 * After the load: creates them again, a table's indexes one after another on one connection (adding
 * a key locks its table against the other index builds), the largest tables first, on whichever
 * connection is free; then checks that every one is back.
 * @param {import('pg').Client[]} connections
 * @param {DeferredIndex[]} deferred
 */
async function restoreIndexes(connections, deferred) {
  const { rows: sizes } = await connections[0].query(
    `SELECT relname AS table, pg_total_relation_size(oid) AS bytes FROM pg_class WHERE relnamespace = 'public'::regnamespace`,
  );
  const bytes = new Map(sizes.map((row) => [row.table, Number(row.bytes)]));
  const tables = [...new Set(deferred.map((index) => index.table))].sort(
    (x, y) => (bytes.get(y) ?? 0) - (bytes.get(x) ?? 0),
  );
  await shareWork(
    connections,
    tables.map((table) => async (db) => {
      for (const index of deferred.filter((d) => d.table === table)) await db.query(index.create);
    }),
  );
  const back = new Set((await deferrableIndexes(connections[0])).map((index) => index.name));
  const missing = deferred.filter((index) => !back.has(index.name)).map((index) => index.name);
  if (missing.length > 0) throw new Error(`indexes not restored: ${missing.join(', ')}`);
}

module.exports = { dropIndexes, restoreIndexes };
