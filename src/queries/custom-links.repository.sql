-- Generated from src/modules/custom-links/custom-links.repository.ts by `npm run sql:snapshot`; do not edit.

-- CustomLinksRepository.findByEmailKey
SELECT * FROM custom_links WHERE organization_id = $1 AND lower(email) = $2 ORDER BY created_at DESC, id DESC LIMIT $3

-- CustomLinksRepository.insertIfAbsent
WITH l AS (
  INSERT INTO custom_links (organization_id, id, ${names.join(', ')})
  VALUES ($1, $2, ${names.map((_, i) => `$${i + 3}`).join(', ')})
  ON CONFLICT (organization_id, id) DO NOTHING RETURNING *),
s AS (
  INSERT INTO custom_link_search (organization_id, custom_link_id, search_text, company_key)
  SELECT l.organization_id, l.id, l.search_text, lower(l.company) FROM l WHERE l.organization_id = $1)
SELECT slug, ${FIGURES} FROM l

-- CustomLinksRepository.insertIfAbsent (2)
INSERT INTO custom_link_slugs (slug, custom_link_id, organization_id) VALUES ($1, $2, $3)

-- CustomLinksRepository.findById
SELECT * FROM custom_links WHERE organization_id = $1 AND id = $2

-- CustomLinksRepository.lock
SELECT * FROM custom_links WHERE organization_id = $1 AND id = $2 FOR UPDATE

-- CustomLinksRepository.isActive
SELECT active FROM custom_links WHERE organization_id = $1 AND id = $2

-- CustomLinksRepository.findBySlug
SELECT organization_id, custom_link_id FROM custom_link_slugs WHERE slug = $1

-- CustomLinksRepository.findBySlug (2)
SELECT organization_id, id, active, expires_at, max_human_opens, human_opens, expired_redirect_url
FROM custom_links WHERE organization_id = $1 AND id = $2

-- CustomLinksRepository.reserveHumanOpen
UPDATE custom_links SET human_opens = human_opens + 1,
      access_closed_at = CASE WHEN human_opens + 1 >= max_human_opens THEN $3 ELSE access_closed_at END
WHERE organization_id = $1 AND id = $2 AND active AND human_opens < max_human_opens
  AND (expires_at IS NULL OR expires_at > $3)
RETURNING *

-- CustomLinksRepository.dueForClosing
SELECT organization_id AS "organizationId", id FROM custom_links
WHERE access_closed_at IS NULL AND (expires_at IS NOT NULL OR max_human_opens IS NOT NULL) AND active
  AND (expires_at <= $1 OR human_opens >= max_human_opens)
ORDER BY expires_at LIMIT $2

-- CustomLinksRepository.closeDue
UPDATE custom_links SET access_closed_at = $3
WHERE organization_id = $1 AND id = ANY($2::uuid[]) AND access_closed_at IS NULL AND active
  AND (expires_at <= $3 OR human_opens >= max_human_opens)
RETURNING *

-- CustomLinksRepository.applyAccess
UPDATE custom_links SET expires_at = ${expires}, max_human_opens = ${cap}, expired_redirect_url = ${redirect},
      access_closed_at = CASE WHEN (${expires} <= $3 OR human_opens >= ${cap}) THEN access_closed_at END,
      updated_at = now()
WHERE organization_id = $1 AND id = ANY($2::uuid[]) RETURNING id

-- CustomLinksRepository.organizationOf
SELECT organization_id FROM custom_link_slugs WHERE custom_link_id = $1

-- CustomLinksRepository.lockAll
SELECT ${FIGURES}, account_domain FROM custom_links WHERE organization_id = $1 AND id = ANY($2::uuid[])
ORDER BY id FOR UPDATE

-- CustomLinksRepository.unfileCampaign
UPDATE custom_links SET campaign_id = NULL
 WHERE organization_id = $1 AND id IN (
   SELECT id FROM custom_links WHERE organization_id = $1 AND campaign_id = $2 ORDER BY id FOR UPDATE)
RETURNING ${FIGURES}

-- CustomLinksRepository.update
WITH l AS (
  UPDATE custom_links SET ${[...sets, 'updated_at = now()'].join(', ')} WHERE organization_id = $1 AND id = $2 RETURNING *),
${SEARCH_COPY_UPDATE}
SELECT * FROM l

-- CustomLinksRepository.markRenderProcessing
WITH marked AS (
  UPDATE custom_links SET thumbnail_status = 'processing', updated_at = now()
   WHERE organization_id = $1 AND id = $2 AND thumbnail_render_id = $3 RETURNING *)
SELECT marked.* FROM marked ${COMMIT_WITHOUT_FLUSH}

-- CustomLinksRepository.recordRenderOutcome
UPDATE custom_links SET thumbnail_status = $4, share_thumbnail_url = coalesce($5, share_thumbnail_url), thumbnail_attempts = thumbnail_attempts + 1,
      thumbnail_error_code = $6, thumbnail_error_message = $7, updated_at = now()
WHERE organization_id = $1 AND id = $2 AND thumbnail_render_id = $3 RETURNING thumbnail_attempts

-- CustomLinksRepository.applyToMany
UPDATE custom_links SET ${[...names.map((name, i) => `${name} = $${i + 3}`), 'updated_at = now()'].join(', ')}
WHERE organization_id = $1 AND id = ANY($2::uuid[]) RETURNING ${FIGURES}

-- CustomLinksRepository.listPage
WITH page AS (
  SELECT id, created_at, last_activity_at, updated_at FROM custom_links WHERE ${where.toSql()} ${after}
   ORDER BY ${key.orderBy()} LIMIT ${limit} OFFSET ${offset})
SELECT l.*, ${key.select('l.')} FROM page JOIN custom_links l ON l.organization_id = $1 AND l.id = page.id
 ORDER BY ${key.orderBy('page.')}

-- CustomLinksRepository.count
SELECT count(*) AS total FROM custom_links WHERE ${where.toSql()}

-- CustomLinksRepository.countsByCampaign
SELECT campaign_id, count(*) AS total, count(*) FILTER (WHERE active) AS active
FROM custom_links WHERE organization_id = $1 AND campaign_id = ANY($2::uuid[]) GROUP BY campaign_id

-- CustomLinksRepository.figuresByAccount
SELECT account_domain, count(*)::int AS links, count(*) FILTER (WHERE stage <> 'not_opened')::int AS opened,
     count(*) FILTER (WHERE stage = 'engaged')::int AS engaged,
     count(*) FILTER (WHERE first_lead_submitted_at IS NOT NULL)::int AS lead_submitted,
     count(*) FILTER (WHERE first_meeting_booked_at IS NOT NULL)::int AS meeting_booked,
     sum(persistent_visitor_count + ephemeral_page_view_count) AS unique_visitors, sum(session_count) AS sessions,
     max(last_activity_at) AS last_activity_at
FROM custom_links WHERE organization_id = $1 AND account_domain = ANY($2::text[]) GROUP BY account_domain

-- CustomLinksRepository.resolveForEvents
SELECT id, slug FROM custom_links WHERE organization_id = $1 AND (id = ANY($2::uuid[]) OR slug = ANY($3::text[]))

-- CustomLinksRepository.resetRollups
SELECT ${FIGURES} FROM custom_links WHERE organization_id = $1 AND ${WITH_ROLLUP} ORDER BY id FOR NO KEY UPDATE

-- CustomLinksRepository.resetRollups (2)
UPDATE custom_links l SET ${[...MERGED, 'stage'].map((c) => `${c} = DEFAULT`).join(', ')}
 WHERE l.organization_id = $1 AND l.id = ANY($2::uuid[]) ${RETURNING_FIGURES('l')}

-- CustomLinksRepository.lockForMerge
SELECT ${FIGURES}, bot_opens, first_started_at, first_engaged_at FROM custom_links
WHERE organization_id = $1 AND id = ANY($2::uuid[]) ORDER BY id FOR NO KEY UPDATE

-- CustomLinksRepository.mergeRollups
UPDATE custom_links l SET ${[...MERGED, 'stage'].map((c) => `${c} = m.${c}`).join(', ')},
       updated_at = greatest($${DELTA.length + 2}::timestamptz, l.updated_at)
FROM (
  SELECT cur.id, t.*, CASE WHEN t.first_engaged_at IS NOT NULL THEN 'engaged' WHEN t.first_started_at IS NOT NULL THEN 'started'
                           WHEN t.first_opened_at IS NOT NULL THEN 'opened' ELSE 'not_opened' END AS stage
    FROM unnest(${DELTA.map(([, type], i) => `$${i + 2}::${type}[]`).join(', ')}) AS d(${DELTA.map(([c]) => c).join(', ')})
    JOIN custom_links cur ON cur.organization_id = $1 AND cur.id = d.link_id
   CROSS JOIN LATERAL (SELECT d.last_activity_at IS NOT NULL AND (cur.last_activity_at IS NULL OR d.last_activity_at > cur.last_activity_at
           OR (d.last_activity_at = cur.last_activity_at AND d.last_activity_event_id COLLATE "C" > cur.last_activity_event_id COLLATE "C")) AS newer) n
   CROSS JOIN LATERAL (SELECT
     cur.open_observed OR d.open_observed AS open_observed,
     cur.bot_open_count + d.bot_open_count AS bot_open_count,
     d.bot_opens,
     cur.internal_open_count + d.internal_open_count AS internal_open_count,
     cur.load_count + d.load_count AS load_count,
     ${COUNT_COLUMNS.map(([, c]) => `cur.${c} + d.${c} AS ${c}`).join(', ')},
     ${TIME_COLUMNS.map(([, c, merge]) => `${merge}(cur.${c}, d.${c}) AS ${c}`).join(', ')},
     CASE WHEN n.newer THEN d.last_activity_at ELSE cur.last_activity_at END AS last_activity_at,
     CASE WHEN n.newer THEN d.last_activity_type ELSE cur.last_activity_type END AS last_activity_type,
     CASE WHEN n.newer THEN d.last_activity_event_id ELSE cur.last_activity_event_id END AS last_activity_event_id) t
) m
WHERE l.organization_id = $1 AND l.id = m.id
  AND (${MERGED.map((c) => `m.${c}`).join(', ')}) IS DISTINCT FROM (${MERGED.map((c) => `l.${c}`).join(', ')})
${RETURNING_FIGURES('l')}

-- CustomLinksRepository.lockOfSubject
SELECT * FROM custom_links WHERE organization_id = $1 AND ${SUBJECT} ORDER BY id FOR UPDATE

-- CustomLinksRepository.ofSubject
SELECT id, email, first_name, last_name, phone FROM custom_links WHERE organization_id = $1 AND ${SUBJECT}

-- CustomLinksRepository.findByIds
SELECT * FROM custom_links WHERE organization_id = $1 AND id = ANY($2::uuid[])
