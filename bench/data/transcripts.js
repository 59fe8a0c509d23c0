// Generation: session transcripts.
'use strict';
const { VOCAB } = require('./vocabulary');
const { Params, visibleOf } = require('./sql');

/** @typedef {import('pg').Client} Client */

/** Transcripts for a share of one organization's visible sessions: 20–60 alternating turns through the session (SessionsRepository.replaceTranscript shape). */
/**
 * @param {Client} db
 * @param {import('./organizations').OrganizationSpec} spec
 */
async function insertTranscripts(db, spec) {
  if (spec.transcripts === 0) return;
  const p = new Params();
  const NA = VOCAB.agent_lines.length;
  const NP = VOCAB.prospect_lines.length;
  /**
   * @param {import('./sql').VocabularyList} list
   * @param {number} n  Its length.
   */
  const line = (
    list,
    n,
  ) => `replace(replace(replace(replace(${p.at(list, `1 + least(${n - 1}, ((i - 1) / 2) * ${n} / greatest(1, t.turns / 2) + floor(random() * 2)::int)`)},
      '{first}', coalesce(split_part(t.name, ' ', 1), 'there')), '{company}', coalesce(t.business, 'your team')),
      '{feature}', coalesce(t.details->'topics'->0->>'topic', 'Custom Links')), '{competitor}', ${p.pick('competitors', 't.r_comp')})`;
  await db.query(
    `INSERT INTO session_transcripts (organization_id, session_id, entries, total, updated_at)
     WITH picked AS MATERIALIZED (
       SELECT s.organization_id, s.id, s.start_time, s.end_time, s.created_at, s.name, s.business, s.details
         FROM bench_gen.sessions_stage s WHERE s.organization_id = ${p.v(spec.id, 'uuid')} AND ${visibleOf('s')}
        ORDER BY random() LIMIT ${p.v(spec.transcripts, 'int')}),
     -- Random columns apart from the ORDER BY random() above: the planner would reuse its sort key for them.
     t AS MATERIALIZED (SELECT picked.*, 20 + floor(random() * 41)::int AS turns, random() AS r_comp FROM picked)
     SELECT t.organization_id, t.id, e.entries, t.turns, t.created_at
       FROM t
      CROSS JOIN LATERAL (
        SELECT jsonb_agg(jsonb_build_object(
                 'speaker', CASE WHEN i % 2 = 1 THEN 'agent' ELSE 'prospect' END,
                 'text', CASE WHEN i = 1 THEN ${line('agent_lines', 1)} WHEN i % 2 = 1 THEN ${line('agent_lines', NA)} ELSE ${line('prospect_lines', NP)} END,
                 'timestamp', to_char(t.start_time + (i - 1) * coalesce(t.end_time - t.start_time, interval '10 minutes') / t.turns
                                      + floor(random() * 4000) * interval '1 millisecond', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                 'sequenceNumber', i) ORDER BY i) AS entries
          FROM generate_series(1, t.turns) AS i OFFSET 0) e`,
    p.values,
  );
}

module.exports = { insertTranscripts };
