-- Generated from src/database/distribution.ts by `npm run sql:snapshot`; do not edit.

-- distribute
SELECT 1 FROM pg_extension WHERE extname = 'citus'

-- distribute (2)
SELECT c.relname AS name,
      a.attnum IS NOT NULL AND NOT EXISTS (
        SELECT 1 FROM pg_constraint k WHERE k.conrelid = c.oid AND k.contype = 'p' AND NOT a.attnum = ANY (k.conkey)
      ) AS tenant,
      (SELECT CASE WHEN count(*) = 1 AND bool_and(i.indnatts = 1) THEN min(k.attname::text) END
         FROM pg_index i LEFT JOIN pg_attribute k ON k.attrelid = i.indrelid AND k.attnum = i.indkey[0]
        WHERE i.indrelid = c.oid AND i.indisunique) AS "soleKey"
 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
 LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'organization_id' AND NOT a.attisdropped
WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition

-- distribute (3)
SELECT conrelid::regclass::text AS "from", confrelid::regclass::text AS "to"
FROM pg_constraint WHERE contype = 'f' AND connamespace = 'public'::regnamespace

-- distribute (4)
SELECT logicalrelid::regclass::text AS name FROM pg_dist_partition

-- distribute (5)
-- not a literal: the SQL is what this expression returns at run time
${statementOf(step)}
