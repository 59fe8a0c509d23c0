-- Generated from src/modules/health/readiness.ts by `npm run sql:snapshot`; do not edit.

-- ReadinessService.check
SELECT 1
