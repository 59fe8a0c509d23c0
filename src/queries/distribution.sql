-- Generated from src/database/distribution.ts by `npm run sql:snapshot`; do not edit.

-- distribute
SELECT 1 FROM pg_extension WHERE extname = 'citus'

-- distribute (2)
SELECT c.relname AS name,
      EXISTS (SELECT 1 FROM pg_attribute a
               WHERE a.attrelid = c.oid AND a.attname = 'organization_id' AND NOT a.attisdropped) AS tenant
 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition

-- distribute (3)
SELECT conrelid::regclass::text AS "from", confrelid::regclass::text AS "to"
FROM pg_constraint WHERE contype = 'f' AND connamespace = 'public'::regnamespace

-- distribute (4)
SELECT logicalrelid::regclass::text AS name FROM pg_dist_partition

-- distribute (5)
-- not a literal: the SQL is what this expression returns at run time
${statementOf(step)}
