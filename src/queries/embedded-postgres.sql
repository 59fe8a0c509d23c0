-- Generated from src/local-services/embedded-postgres.ts by `npm run sql:snapshot`; do not edit.

-- EmbeddedPostgres.ensureDatabase
SELECT 1 FROM pg_database WHERE datname = $1

-- EmbeddedPostgres.ensureDatabase (2)
CREATE DATABASE ${client.escapeIdentifier(name)}
