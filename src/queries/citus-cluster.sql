-- Generated from src/database/citus-cluster.ts by `npm run sql:snapshot`; do not edit.

-- run
-- not a literal: the SQL is what this expression returns at run time
${statement}

-- createCitusDatabase
SELECT 1 FROM pg_database WHERE datname = $1

-- createCitusDatabase (2)
CREATE DATABASE ${name}
