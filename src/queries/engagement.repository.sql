-- Generated from src/modules/engagement/engagement.repository.ts by `npm run sql:snapshot`; do not edit.

-- EngagementRepository.eventCountsOfLinks
SELECT custom_link_id, type, count(*)::int AS events, count(*) FILTER (WHERE bot)::int AS bot,
      count(*) FILTER (WHERE internal_reason IS NOT NULL)::int AS internal
 FROM link_events WHERE organization_id = $1 AND custom_link_id = ANY($2::uuid[])
GROUP BY custom_link_id, type

-- EngagementRepository.appendEvents
WITH input AS (
  SELECT * FROM unnest($3::text[], $4::uuid[], $5::text[], $6::timestamptz[], $7::text[], $8::text[], $9::uuid[], $10::boolean[], $11::text[],
                       $12::text[], $13::text[], $14::text[], $15::text[], $16::text[], $17::text[], $18::text[], $19::text[], $20::text[],
                       $21::text[], $22::text[])
       WITH ORDINALITY AS e(event_id, link_id, type, occurred_at, page_view_id, visitor_id, session_id, bot, bot_reason,
                            country, device_type, browser, os, referrer_domain, utm_source, utm_medium, utm_campaign, utm_term,
                            utm_content, internal_reason, ord)),
fresh AS (
  INSERT INTO link_event_ids (organization_id, event_id, received_at)
  SELECT $1, event_id, now() FROM input ORDER BY ord
  ON CONFLICT (organization_id, event_id) DO NOTHING RETURNING event_id)
INSERT INTO link_events (organization_id, received_at, batch_id, event_id, custom_link_id, type, occurred_at, page_view_id, visitor_id,
                         session_id, bot, bot_reason, country, device_type, browser, os, referrer_domain, utm_source, utm_medium,
                         utm_campaign, utm_term, utm_content, internal_reason)
SELECT $1, now(), $2, e.event_id, e.link_id, e.type, e.occurred_at, e.page_view_id, e.visitor_id, e.session_id, e.bot, e.bot_reason,
       e.country, e.device_type, e.browser, e.os, e.referrer_domain, e.utm_source, e.utm_medium, e.utm_campaign, e.utm_term,
       e.utm_content, e.internal_reason
  FROM input e JOIN fresh f ON f.event_id = e.event_id
RETURNING event_id

-- EngagementRepository.appendEvents (2)
INSERT INTO link_event_batches (organization_id, batch_id, received_at, event_count) VALUES ($1, $2, now(), $3)

-- EngagementRepository.ensureLogPartitions
SELECT 'link_events_' || to_char(m, 'YYYYMM') AS name, (m AT TIME ZONE 'UTC')::text AS start,
      ((m + interval '1 month') AT TIME ZONE 'UTC')::text AS end
 FROM generate_series(date_trunc('month', now() AT TIME ZONE 'UTC'),
                      date_trunc('month', now() AT TIME ZONE 'UTC') + make_interval(months => $1), interval '1 month') AS m
WHERE to_regclass('link_events_' || to_char(m, 'YYYYMM')) IS NULL

-- EngagementRepository.ensureLogPartitions (2)
CREATE TABLE IF NOT EXISTS ${month.name} PARTITION OF link_events FOR VALUES FROM ('${month.start}') TO ('${month.end}')

-- EngagementRepository.organizationsToFold
SELECT organization_id, min(received_at) AS oldest FROM link_event_batches GROUP BY organization_id ORDER BY 2

-- EngagementRepository.lockFold
SELECT 1 FROM engagement_folds WHERE organization_id = $1 FOR UPDATE SKIP LOCKED

-- EngagementRepository.awaitFoldLock
SELECT 1 FROM engagement_folds WHERE organization_id = $1 FOR UPDATE

-- EngagementRepository.ensureFoldRow
INSERT INTO engagement_folds (organization_id) VALUES ($1) ON CONFLICT (organization_id) DO NOTHING

-- EngagementRepository.queueRefold
DELETE FROM ${table} WHERE organization_id = $1

-- EngagementRepository.queueRefold (2)
WITH queued AS (
  INSERT INTO link_event_batches (organization_id, batch_id, received_at, event_count, replay)
  SELECT organization_id, batch_id, min(received_at), count(*), true FROM link_events WHERE organization_id = $1
   GROUP BY organization_id, batch_id RETURNING event_count)
SELECT coalesce(sum(event_count), 0)::int AS events FROM queued

-- EngagementRepository.deleteEventsBefore
DELETE FROM link_events WHERE organization_id = $1 AND occurred_at < $2

-- EngagementRepository.deleteSessionReferences
DELETE FROM link_sessions WHERE organization_id = $1 AND session_id = ANY($2::uuid[])

-- EngagementRepository.deleteOrganizationRows
WITH events AS (DELETE FROM link_events WHERE organization_id = $1),
     distinct_values AS (DELETE FROM link_distinct_values WHERE organization_id = $1),
     sessions AS (DELETE FROM link_sessions WHERE organization_id = $1),
     event_ids AS (DELETE FROM link_event_ids WHERE organization_id = $1),
     batches AS (DELETE FROM link_event_batches WHERE organization_id = $1),
     folds AS (DELETE FROM engagement_folds WHERE organization_id = $1),
     hours AS (DELETE FROM link_event_hours WHERE organization_id = $1),
     facet_hours AS (DELETE FROM event_facet_hours WHERE organization_id = $1),
     facet_days AS (DELETE FROM event_facet_days WHERE organization_id = $1),
     facet_versions AS (DELETE FROM event_facet_versions WHERE organization_id = $1)
SELECT 1

-- EngagementRepository.sessionsReferencedBefore
SELECT DISTINCT session_id FROM link_sessions
WHERE organization_id = $1 AND first_seen_at < $2 AND ($3::uuid IS NULL OR session_id > $3::uuid)
ORDER BY session_id LIMIT $4

-- EngagementRepository.partitionsEndingBy
SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
WHERE i.inhparent = 'link_events'::regclass AND c.relname ~ '^link_events_[0-9]{6}$'
  AND to_date(substr(c.relname, 13), 'YYYYMM') + interval '1 month'
      <= least($1::timestamptz AT TIME ZONE 'UTC', date_trunc('month', now() AT TIME ZONE 'UTC'))
ORDER BY c.relname

-- EngagementRepository.dropPartitionIfEmpty
LOCK TABLE ${name} IN ACCESS EXCLUSIVE MODE

-- EngagementRepository.dropPartitionIfEmpty (2)
SELECT NOT EXISTS (SELECT 1 FROM ${name}) AS empty

-- EngagementRepository.dropPartitionIfEmpty (3)
DROP TABLE ${name}

-- EngagementRepository.pendingBatches
SELECT batch_id, received_at, event_count, replay FROM link_event_batches
WHERE organization_id = $1 ORDER BY received_at, batch_id LIMIT $2

-- EngagementRepository.eventsOfBatches
SELECT batch_id, custom_link_id, ${LOGGED_COLUMNS} FROM link_events
WHERE organization_id = $1 AND batch_id = ANY($2::uuid[])
  AND received_at >= (SELECT min(received_at) FROM link_event_batches WHERE organization_id = $1 AND batch_id = ANY($2::uuid[]))
ORDER BY received_at, batch_id, occurred_at, event_id

-- EngagementRepository.completeFold
DELETE FROM link_event_batches WHERE organization_id = $1 AND batch_id = ANY($2::uuid[])

-- EngagementRepository.completeFold (2)
UPDATE engagement_folds SET folded_events = folded_events + $2, folded_at = now() WHERE organization_id = $1

-- EngagementRepository.addHours
INSERT INTO link_event_hours AS h (${HOUR_KEY}, events)
SELECT $1, ${columns.map((c) => `v.${c}`).join(', ')}, v.events
  FROM unnest($2::uuid[], $3::timestamptz[], $4::text[], $5::boolean[], $6::boolean[], $7::text[], $8::text[], $9::text[],
              $10::text[], $11::text[], $12::text[], $13::text[], $14::text[], $15::int[])
       WITH ORDINALITY AS v(${columns.join(', ')}, events, ord)
 ORDER BY v.ord
ON CONFLICT ON CONSTRAINT link_event_hours_key DO UPDATE SET events = h.events + EXCLUDED.events

-- EngagementRepository.filingOf
SELECT link_id, campaign_id, account_domain FROM link_rollups WHERE organization_id = $1 AND link_id = ANY($2::uuid[])

-- EngagementRepository.addFacets
-- not a literal: the SQL is what this expression returns at run time
${addFacetsSql(`facets AS (
SELECT * FROM unnest($2::text[], $3::timestamptz[], $4::text[], $5::text[], $6::boolean[], $7::boolean[], $8::int[])
           AS f(facet, hour, value, type, bot, internal, events))`)}

-- EngagementRepository.lockCampaignFigures
SELECT 1 FROM campaign_engagement WHERE organization_id = $1 AND campaign_id = ANY($2::uuid[])
ORDER BY campaign_id FOR UPDATE

-- EngagementRepository.addCampaignFigures
INSERT INTO campaign_engagement AS ce (organization_id, campaign_id, ${columns.join(', ')})
SELECT $1, d.* FROM unnest($2::uuid[], ${types.map((type, i) => `$${i + 3}::${type}[]`).join(', ')})
                 AS d(campaign_id, ${columns.join(', ')})
 ORDER BY d.campaign_id
ON CONFLICT (organization_id, campaign_id) DO UPDATE SET
  ${FIGURE_COUNTERS.map((c) => `${c} = ce.${c} + EXCLUDED.${c}`).join(', ')},
  ${CAMPAIGN_TIME_COLUMNS.map((c) => `${c} = ${CAMPAIGN_TIMES[c] === 'earliest' ? 'LEAST' : 'GREATEST'}(ce.${c}, EXCLUDED.${c})`).join(', ')}

-- EngagementRepository.recountCampaignTimes
UPDATE campaign_engagement ce SET ${CAMPAIGN_TIME_COLUMNS.map((c) => `${c} = t.${c}`).join(', ')}
 FROM (SELECT r.campaign_id, ${CAMPAIGN_TIME_COLUMNS.map((c) => `${CAMPAIGN_TIMES[c] === 'earliest' ? 'min' : 'max'}(l.${c}) AS ${c}`).join(', ')}
         FROM unnest($2::uuid[]) AS r(campaign_id)
         LEFT JOIN link_rollups l ON l.organization_id = $1 AND l.campaign_id = r.campaign_id
        GROUP BY r.campaign_id) t
WHERE ce.organization_id = $1 AND ce.campaign_id = t.campaign_id

-- EngagementRepository.refileLinks
-- not a literal: the SQL is what this expression returns at run time
${addFacetsSql(`m AS (SELECT * FROM unnest($2::uuid[], $3::text[], $4::text[]) AS m(link_id, campaign, account)),
facets AS (
  SELECT c.facet, h.hour, c.value, h.type, h.bot, h.internal, sum(c.sign * h.events)::int AS events
    FROM m
    JOIN link_rollups d ON d.organization_id = $1 AND d.link_id = m.link_id
    JOIN link_event_hours h ON h.organization_id = $1 AND h.custom_link_id = m.link_id
   CROSS JOIN LATERAL (VALUES ('campaign', m.campaign, -1), ('campaign', d.campaign_id::text, 1),
                              ('account_domain', m.account, -1), ('account_domain', d.account_domain, 1)) AS c(facet, value, sign)
   WHERE CASE c.facet WHEN 'campaign' THEN m.campaign IS DISTINCT FROM d.campaign_id::text
                      ELSE m.account IS DISTINCT FROM d.account_domain END
   GROUP BY 1, 2, 3, 4, 5, 6 HAVING sum(c.sign * h.events) <> 0)`)}

-- EngagementRepository.unfileCampaign
-- not a literal: the SQL is what this expression returns at run time
${addFacetsSql(`facets AS (
SELECT 'campaign' AS facet, hour, c.value, type, bot, internal, c.sign * events AS events
  FROM event_facet_hours CROSS JOIN (VALUES ($2::text, -1), (NULL, 1)) AS c(value, sign)
 WHERE organization_id = $1 AND facet = 'campaign' AND event_facet_hours.value = $2::text AND events <> 0)`)}

-- EngagementRepository.foldedAsOf
SELECT ${FOLDED_AS_OF} AS as_of

-- EngagementRepository.foldState
SELECT ${FOLDED_AS_OF} AS as_of,
coalesce((SELECT version FROM event_facet_versions WHERE organization_id = $1), 0)::text AS version

-- EngagementRepository.countAggregatesWrite
INSERT INTO event_facet_versions AS v (organization_id, version) VALUES ($1, 1)
ON CONFLICT (organization_id) DO UPDATE SET version = v.version + 1

-- EngagementRepository.insertDistinct
INSERT INTO link_distinct_values (organization_id, custom_link_id, kind, value)
SELECT $1, v.link_id, v.kind, v.value FROM unnest($2::uuid[], $3::text[], $4::text[]) WITH ORDINALITY AS v(link_id, kind, value, ord) ORDER BY v.ord
ON CONFLICT DO NOTHING RETURNING custom_link_id, kind

-- EngagementRepository.mergeSessions
INSERT INTO link_sessions (organization_id, custom_link_id, session_id, opened_at, started_at, engaged_at, ended_at, first_seen_at)
SELECT $1, s.link_id, s.session_id, s.opened_at, s.started_at, s.engaged_at, s.ended_at, s.first_seen_at
  FROM unnest($2::uuid[], $3::uuid[], $4::timestamptz[], $5::timestamptz[], $6::timestamptz[], $7::timestamptz[], $8::timestamptz[])
       WITH ORDINALITY AS s(link_id, session_id, opened_at, started_at, engaged_at, ended_at, first_seen_at, ord)
 ORDER BY s.ord
ON CONFLICT (organization_id, custom_link_id, session_id) DO UPDATE SET
  opened_at = LEAST(link_sessions.opened_at, EXCLUDED.opened_at), started_at = LEAST(link_sessions.started_at, EXCLUDED.started_at),
  engaged_at = LEAST(link_sessions.engaged_at, EXCLUDED.engaged_at), ended_at = LEAST(link_sessions.ended_at, EXCLUDED.ended_at),
  first_seen_at = LEAST(link_sessions.first_seen_at, EXCLUDED.first_seen_at)

-- EngagementRepository.campaignEngagement
SELECT ${CAMPAIGN_COUNTERS.map(([field, column]) => `coalesce(ce.${column}, 0)::int AS ${field}`).join(', ')},
      ce.first_opened_at, ce.last_opened_at, ce.last_activity_at
 FROM campaign_ids c
 LEFT JOIN campaign_engagement ce ON ce.organization_id = c.organization_id AND ce.campaign_id = c.campaign_id
WHERE c.organization_id = $1 AND c.campaign_id = $2

-- EngagementRepository.funnel
WITH links AS (
  SELECT * FROM link_rollups
   WHERE organization_id = $1 AND ($2::timestamptz IS NULL OR created_at >= $2::timestamptz)
     AND ($3::timestamptz IS NULL OR created_at <= $3::timestamptz) AND ($4::uuid IS NULL OR campaign_id = $4::uuid)),
tied AS (SELECT ls.session_id FROM link_sessions ls WHERE ls.organization_id = $1 AND ls.custom_link_id IN (SELECT link_id FROM links)),
linked AS (
  SELECT count(*)::int AS sessions,
         count(*) FILTER (WHERE s.effective_qualification_status = 'qualified')::int AS qualified,
         count(*) FILTER (WHERE s.booked_status = 'booked')::int AS booked,
         count(*) FILTER (WHERE pi.overall_intent = 'high')::int AS high_intent
    FROM visible_sessions s
    LEFT JOIN person_intents pi ON pi.organization_id = s.organization_id AND pi.person_id = s.person_id
   WHERE s.organization_id = $1
     AND (s.custom_link_id IN (SELECT link_id FROM links) OR s.session_id IN (SELECT session_id FROM tied)))
SELECT count(*)::int AS generated,
       count(*) FILTER (WHERE active)::int AS active,
       count(*) FILTER (WHERE stage <> 'not_opened')::int AS opened,
       count(*) FILTER (WHERE stage IN ('started', 'engaged'))::int AS started,
       count(*) FILTER (WHERE stage = 'engaged')::int AS engaged,
       count(*) FILTER (WHERE first_lead_submitted_at IS NOT NULL)::int AS lead_submitted,
       count(*) FILTER (WHERE first_meeting_clicked_at IS NOT NULL)::int AS meeting_clicked,
       count(*) FILTER (WHERE first_meeting_booked_at IS NOT NULL)::int AS meeting_booked,
       count(*) FILTER (WHERE bot_open_count > 0 AND NOT open_observed)::int AS bot_scanned_only,
       (SELECT sessions FROM linked), (SELECT qualified FROM linked),
       (SELECT booked FROM linked), (SELECT high_intent FROM linked)
  FROM links

-- EngagementRepository.sessionsOfLink
SELECT ls.session_id, ls.opened_at, ls.started_at, ls.engaged_at, ls.ended_at
 FROM link_sessions ls WHERE ls.organization_id = $1 AND ls.custom_link_id = $2
ORDER BY ls.first_seen_at DESC, ls.session_id DESC LIMIT $3 OFFSET $4

-- EngagementRepository.sessionsOfLink (2)
SELECT count(*) AS total FROM link_sessions WHERE organization_id = $1 AND custom_link_id = $2

-- EngagementRepository.eventsOfLink
SELECT ${LOGGED_COLUMNS}, ${EVENTS_NEWEST_FIRST.select()}
 FROM link_events WHERE ${where} ${after}
ORDER BY ${EVENTS_NEWEST_FIRST.orderBy()} LIMIT $6 OFFSET $7

-- EngagementRepository.eventsOfLink (2)
SELECT count(*) AS total FROM link_events WHERE ${where}

-- EngagementRepository.accountActivityPage
WITH page AS (
  SELECT e.* FROM link_rollups l
   CROSS JOIN LATERAL (
     SELECT organization_id, event_id, type, occurred_at, session_id, custom_link_id FROM link_events
      WHERE organization_id = $1 AND custom_link_id = l.link_id AND NOT bot AND internal_reason IS NULL
        ${after}
      ORDER BY ${EVENTS_NEWEST_FIRST.orderBy()} LIMIT $3) e
   WHERE l.organization_id = $1 AND l.account_domain = $2
   ORDER BY ${EVENTS_NEWEST_FIRST.orderBy('e.')} LIMIT $3)
SELECT page.occurred_at, page.session_id, vs.person_id, page.custom_link_id, page.event_id, page.type,
       page.occurred_at::text AS at, (extract(epoch FROM page.occurred_at) * 1000000)::int8 AS micros, page.event_id AS key
  FROM page LEFT JOIN visible_sessions vs ON vs.organization_id = page.organization_id AND vs.session_id = page.session_id
 ORDER BY ${EVENTS_NEWEST_FIRST.orderBy('page.')}

-- EngagementRepository.forgetVisitors
UPDATE link_events SET visitor_id = NULL, session_id = NULL
WHERE organization_id = $1 AND (custom_link_id = ANY($2::uuid[]) OR session_id = ANY($3::uuid[]))
  AND (visitor_id IS NOT NULL OR session_id IS NOT NULL)

-- EngagementRepository.forgetVisitors (2)
DELETE FROM link_distinct_values
WHERE organization_id = $1 AND kind = ANY($4::text[])
  AND (custom_link_id = ANY($2::uuid[])
       OR (kind <> 'visitor' AND value = ANY($3::text[]) AND custom_link_id IN (
             SELECT custom_link_id FROM link_sessions WHERE organization_id = $1 AND session_id = ANY($3::uuid[]))))
