-- Generated from src/modules/sessions/sessions.repository.ts by `npm run sql:snapshot`; do not edit.

-- SessionsRepository.detailsOfEmail
SELECT ${DETAIL_COLUMNS}
 FROM sessions s ${PERSON_INTENT}
WHERE s.organization_id = $1 AND s.email_key = $2
ORDER BY s.start_time DESC, s.id DESC LIMIT $3

-- SessionsRepository.transcriptsOf
SELECT session_id, entries, total FROM session_transcripts WHERE organization_id = $1 AND session_id = ANY($2::uuid[])

-- SessionsRepository.findStored
SELECT organization_id FROM session_ids WHERE id = $1

-- SessionsRepository.findStored (2)
SELECT organization_id, fingerprint, email_key, person_id, analysis_status FROM sessions
WHERE organization_id = $1 AND id = $2

-- SessionsRepository.claimId
INSERT INTO session_ids (id, organization_id) VALUES ($1, $2)
ON CONFLICT (id) DO UPDATE SET organization_id = EXCLUDED.organization_id

-- SessionsRepository.upsert
SELECT ${SESSION_IMAGE} FROM sessions WHERE organization_id = $1 AND id = $2 FOR UPDATE

-- SessionsRepository.upsert (2)
INSERT INTO sessions (organization_id, id, fingerprint, person_id, ${RECORD_COLUMNS.map(([c]) => c).join(', ')})
VALUES ($1, $2, $3, NULL, ${RECORD_COLUMNS.map((_, i) => `$${i + 4}`).join(', ')})
ON CONFLICT (organization_id, id) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, person_id = NULL,
  ${RECORD_COLUMNS.map(([c]) => `${c} = EXCLUDED.${c}`).join(', ')}, updated_at = EXCLUDED.updated_at
RETURNING ${SESSION_IMAGE}

-- SessionsRepository.replaceTranscript
INSERT INTO session_transcripts (organization_id, session_id, entries, total) VALUES ($1, $2, $3, $4)
ON CONFLICT (organization_id, session_id) DO UPDATE SET entries = EXCLUDED.entries, total = EXCLUDED.total, updated_at = EXCLUDED.updated_at

-- SessionsRepository.readTranscript
WITH found AS (
  SELECT t.entries, t.total
    FROM session_transcripts t JOIN sessions s ON s.organization_id = t.organization_id AND s.id = t.session_id
   WHERE t.organization_id = $1 AND t.session_id = $2 AND ${VISIBLE}),
charged AS (
  INSERT INTO transcript_daily_reads AS r (organization_id, day, reads)
  SELECT $1, $3::date, 1 FROM found WHERE $4::int > 0
  ON CONFLICT (organization_id, day) DO UPDATE SET reads = r.reads + 1 WHERE r.reads < $4::int
  RETURNING r.reads)
SELECT found.entries, found.total, (SELECT reads FROM charged) AS reads
  FROM found CROSS JOIN (SELECT set_config('synchronous_commit', 'off', true)) async_commit

-- SessionsRepository.transcriptReadsOn
SELECT reads FROM transcript_daily_reads WHERE organization_id = $1 AND day = $2::date

-- SessionsRepository.factsOfPeople
SELECT id, email_key, start_time, end_time, name, phone, business, utm_source,
      tracking->>'geoCity' AS geo_city, tracking->>'geoRegion' AS geo_region, geo_country,
      qualification_status, qualification_rationale, qualification_source, qualification_assessed_at,
      qualification_rubric_version_id, buying_intent, booked_status, summary_markdown
 FROM sessions
WHERE organization_id = $1 AND email_key = ANY($2) AND ${visibleSession()}

-- SessionsRepository.assignPeople
SELECT ${SESSION_IMAGE}, a.assigned_person, a.assigned_qualification
 FROM sessions s JOIN jsonb_to_recordset($2::jsonb) AS a(key text, assigned_person uuid, assigned_qualification text)
   ON a.key = s.email_key
WHERE s.organization_id = $1 AND ${VISIBLE}
  AND (s.person_id IS DISTINCT FROM a.assigned_person OR s.effective_qualification_status IS DISTINCT FROM a.assigned_qualification)
ORDER BY s.id FOR UPDATE OF s

-- SessionsRepository.assignPeople (2)
UPDATE sessions s SET person_id = a.assigned_person, effective_qualification_status = a.assigned_qualification
  FROM unnest($2::uuid[], $3::uuid[], $4::text[]) AS a(session_id, assigned_person, assigned_qualification)
 WHERE s.organization_id = $1 AND s.id = a.session_id
RETURNING ${SESSION_IMAGE}

-- SessionsRepository.writeDerived
INSERT INTO session_count_deltas (organization_id, month, hour, ${FACETS}, sessions)
SELECT $1, date_trunc('month', d.hour), d.* FROM unnest($2::timestamp[], $3::text[], $4::text[], $5::text[], $6::bigint[])
                 AS d(hour, ${FACETS}, sessions)

-- SessionsRepository.writeDerived (2)
DELETE FROM session_emails WHERE organization_id = $1 AND id = ANY($2::uuid[])

-- SessionsRepository.writeDerived (3)
INSERT INTO session_emails (organization_id, id, start_time, email_key, ${FACETS})
SELECT $1, d.* FROM unnest($2::uuid[], $3::timestamptz[], $4::text[], $5::text[], $6::text[], $7::text[])
                 AS d(id, start_time, email_key, ${FACETS})
ON CONFLICT (organization_id, id) DO UPDATE SET start_time = EXCLUDED.start_time, email_key = EXCLUDED.email_key,
  effective_qualification_status = EXCLUDED.effective_qualification_status, buying_intent = EXCLUDED.buying_intent,
  booked_status = EXCLUDED.booked_status

-- SessionsRepository.findVisible
SELECT ${DETAIL_COLUMNS}
 FROM sessions s ${PERSON_INTENT}
WHERE s.organization_id = $1 AND s.id = $2 AND ${VISIBLE}

-- SessionsRepository.findVisible (2)
SELECT ${DETAIL_COLUMNS}
 FROM sessions s ${PERSON_INTENT}
WHERE s.organization_id = $1 AND s.id = $2 AND ${VISIBLE}

-- SessionsRepository.accountActivityPage
WITH page AS (
  SELECT s.*, p.person_id FROM person_accounts p
   CROSS JOIN LATERAL (
     SELECT s.organization_id, s.id, s.start_time, s.custom_link_id FROM sessions s
      WHERE s.organization_id = $1 AND s.email_key = p.email_key AND ${VISIBLE} ${after}
      ORDER BY ${BY_START.orderBy()} LIMIT $3) s
   WHERE p.organization_id = $1 AND p.account_domain = $2
   ORDER BY ${BY_START.orderBy()} LIMIT $3)
SELECT s.start_time AS occurred_at, s.id AS session_id, s.person_id, NULL AS event_id, NULL AS type,
       coalesce(s.custom_link_id, (SELECT o.custom_link_id FROM session_observations o
                                    WHERE o.organization_id = $1 AND o.session_id = s.id
                                    ORDER BY o.at, o.custom_link_id LIMIT 1)) AS custom_link_id,
       s.start_time::text AS at, (extract(epoch FROM s.start_time) * 1000000)::int8 AS micros, s.id::text AS key
  FROM page s ORDER BY ${BY_START.orderBy()}

-- SessionsRepository.heldAmong
SELECT id FROM sessions WHERE organization_id = $1 AND id = ANY($2::uuid[])

-- SessionsRepository.selectedPage
SELECT id FROM sessions
WHERE organization_id = $1 AND ($2::uuid IS NULL OR id > $2::uuid) AND ${selectionSql(selection, params)}
ORDER BY id LIMIT $3

-- SessionsRepository.emailKeysOf
SELECT DISTINCT email_key FROM sessions WHERE organization_id = $1 AND id = ANY($2::uuid[]) AND email_key IS NOT NULL

-- SessionsRepository.deleteSelected
DELETE FROM sessions s WHERE s.organization_id = $1 AND s.id = ANY($2::uuid[]) AND ${selectionSql(selection, params, 's')}
RETURNING ${SESSION_IMAGE}, EXISTS (
  SELECT 1 FROM session_transcripts t WHERE t.organization_id = $1 AND t.session_id = s.id) AS transcript

-- SessionsRepository.deleteSelected (2)
DELETE FROM session_ids WHERE id = ANY($2::uuid[]) AND organization_id = $1

-- SessionsRepository.deleteTranscriptsBefore
WITH expired AS (
  SELECT t.session_id FROM session_transcripts t
    JOIN sessions s ON s.organization_id = t.organization_id AND s.id = t.session_id
   WHERE t.organization_id = $1 AND s.start_time < $2 LIMIT $3)
DELETE FROM session_transcripts t USING expired e WHERE t.organization_id = $1 AND t.session_id = e.session_id

-- SessionsRepository.visibleAmong
SELECT s.id FROM sessions s WHERE s.organization_id = $1 AND s.id = ANY($2::uuid[]) AND ${VISIBLE}

-- SessionsRepository.list
${page}
SELECT t.total, ${LIST_COLUMNS}, ${key.select('s.')} FROM (SELECT ${total} AS total) t
  LEFT JOIN (page JOIN sessions s ON s.organization_id = $1 AND s.id = page.id ${PERSON_INTENT}) ON true
 ORDER BY ${key.orderBy('page.')}

-- SessionsRepository.searchPage
${this.pageSql(where, query, window, 'session_emails')}
SELECT ${LIST_COLUMNS}, ${BY_START.select('s.')} FROM page
  JOIN sessions s ON s.organization_id = $1 AND s.id = page.id ${PERSON_INTENT}
 ORDER BY ${BY_START.orderBy('page.')}

-- SessionsRepository.searchCount
SELECT count(*) AS total FROM (SELECT FROM session_emails s WHERE ${where.toSql()} LIMIT ${where.param(limits.count + 1)}) found

-- SessionsRepository.searchCount (2)
SELECT count(*) AS total FROM session_emails s WHERE ${where.toSql()}

-- SessionsRepository.emailSearchLimits
SELECT (SELECT coalesce(sum(c.sessions), 0) FROM ${bucketCounts('month', '$1')}) AS sessions,
EXISTS (SELECT FROM session_email_gram_samples WHERE organization_id = $1) AS sampled,
(SELECT json_agg(json_build_object('hash', g.hash::text, 'entries', coalesce(sh.entries, 0)) ORDER BY g.at)
   FROM unnest(session_email_grams($1, $2)) WITH ORDINALITY AS g(hash, at)
   LEFT JOIN session_email_gram_shares sh ON sh.organization_id = $1 AND sh.gram = g.hash) AS grams

-- SessionsRepository.sampleEmailGrams
WITH visible AS (SELECT coalesce(sum(c.sessions), 0)::bigint AS sessions FROM ${bucketCounts('month', '$1')}),
sampled AS (
  SELECT s.email_key FROM session_emails s CROSS JOIN visible
   WHERE s.organization_id = $1 AND hashtextextended(s.id::text, 0) % greatest(1, visible.sessions / $2::int) = 0),
shares AS (
  SELECT g.gram, count(*) AS entries
    FROM sampled CROSS JOIN LATERAL (SELECT DISTINCT unnest(session_email_grams($1, sampled.email_key))) AS g(gram)
   GROUP BY g.gram HAVING count(*) >= $3)
SELECT (SELECT sessions FROM visible) AS sessions,
       (SELECT count(*)::int FROM sampled) AS entries,
       (SELECT json_agg(json_build_object('gram', gram::text, 'entries', entries)) FROM shares) AS shares

-- SessionsRepository.saveEmailGramSample
INSERT INTO session_email_gram_shares (organization_id, gram, entries)
SELECT $1, s.gram, s.entries FROM unnest($2::bigint[], $3::int[]) AS s(gram, entries)
ON CONFLICT (organization_id, gram) DO UPDATE SET entries = EXCLUDED.entries

-- SessionsRepository.saveEmailGramSample (2)
DELETE FROM session_email_gram_shares WHERE organization_id = $1 AND gram <> ALL ($2::bigint[])

-- SessionsRepository.saveEmailGramSample (3)
INSERT INTO session_email_gram_samples (organization_id, sessions, entries, sampled_at) VALUES ($1, $2, $3, $4)
ON CONFLICT (organization_id) DO UPDATE
  SET sessions = EXCLUDED.sessions, entries = EXCLUDED.entries, sampled_at = EXCLUDED.sampled_at

-- SessionsRepository.emailGramSamplesDue
SELECT c.organization_id
 FROM (SELECT organization_id, sum(sessions) AS sessions FROM session_counts GROUP BY organization_id) c
 LEFT JOIN session_email_gram_samples s ON s.organization_id = c.organization_id
WHERE (s.organization_id IS NULL AND c.sessions >= $1) OR abs(c.sessions - s.sessions) * 4 > s.sessions
ORDER BY c.organization_id LIMIT $2

-- SessionsRepository.ofSubject
SELECT id, email, name, phone FROM sessions WHERE organization_id = $1 AND ${selectionSql({ subject }, params)}
