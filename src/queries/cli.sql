-- Generated from src/cli.ts by `npm run sql:snapshot`; do not edit.

-- migrations
SELECT name FROM typeorm_migrations ORDER BY timestamp DESC LIMIT 1
