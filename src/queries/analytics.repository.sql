-- Generated from src/modules/engagement/analytics.repository.ts by `npm run sql:snapshot`; do not edit.

-- AnalyticsRepository.buckets
SELECT s AS start, extract(epoch FROM (s AT TIME ZONE $1::text) - (s AT TIME ZONE 'UTC'))::int AS offset_seconds
FROM (${series}) AS b WHERE s < $3::timestamptz ORDER BY s

-- AnalyticsRepository.timezoneNames
SELECT name FROM pg_timezone_names

-- AnalyticsRepository.rows
SELECT ${keySql} AS key, ${body} GROUP BY 1 ORDER BY 1

-- AnalyticsRepository.rows (2)
SELECT ${keySql} AS key, ${body} GROUP BY 1 HAVING ${nonZero.join(' OR ')}
ORDER BY "${statement.metrics[0]}" DESC, (${keySql}) COLLATE "C" ASC NULLS LAST LIMIT ${where.param(limit)}::int

-- AnalyticsRepository.totals
SELECT NULL AS key, ${this.body(where, organizationId, statement, groupBy)}
