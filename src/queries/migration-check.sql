-- Generated from src/database/migration-check.ts by `npm run sql:snapshot`; do not edit.

-- MigrationCheckSchemaBuilder.log
DROP TABLE IF EXISTS pg_temp.typeorm_metadata

-- recordGeneratedColumns
DROP TABLE IF EXISTS pg_temp.typeorm_metadata

-- recordGeneratedColumns (2)
CREATE TEMPORARY TABLE typeorm_metadata (
  type varchar NOT NULL, database varchar, schema varchar, "table" varchar, name varchar, value text)

-- recordGeneratedColumns (3)
SELECT n.nspname AS schema, c.relname AS table, a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type,
       pg_get_expr(d.adbin, d.adrelid) AS expression
  FROM pg_attribute a
  JOIN pg_class c ON c.oid = a.attrelid
  JOIN pg_namespace n ON n.oid = c.relnamespace
  JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
 WHERE a.attgenerated = 's' AND NOT a.attisdropped AND n.nspname = current_schema()

-- recordGeneratedColumns (4)
INSERT INTO pg_temp.typeorm_metadata (type, database, schema, "table", name, value)
VALUES ('GENERATED_COLUMN', current_database(), $1, $2, $3, $4)

-- parsedExpression
DROP TABLE IF EXISTS ${probe}

-- parsedExpression (2)
CREATE TABLE ${probe} (LIKE "${column.schema}"."${column.table}")

-- parsedExpression (3)
ALTER TABLE ${probe} ADD COLUMN typeorm_migration_check_probe ${column.type} GENERATED ALWAYS AS (${expression}) STORED

-- parsedExpression (4)
SELECT pg_get_expr(d.adbin, d.adrelid) AS expression FROM pg_attrdef d
 JOIN pg_attribute a ON a.attrelid = d.adrelid AND a.attnum = d.adnum
WHERE d.adrelid = '${probe}'::regclass AND a.attname = 'typeorm_migration_check_probe'

-- parsedExpression (5)
DROP TABLE IF EXISTS ${probe}

-- differencesTypeormIgnores
SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY 1

-- differencesTypeormIgnores (2)
SELECT tablename AS table, indexname AS name FROM pg_indexes WHERE schemaname = current_schema()

-- main
CREATE DATABASE ${database}

-- main (2)
DROP DATABASE IF EXISTS ${database} WITH (FORCE)
