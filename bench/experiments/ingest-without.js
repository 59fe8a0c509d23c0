// Preloaded into the API by `node bench/experiments/ingest-profile.js load --without …` (NODE_OPTIONS --require),
// never by the service itself: it turns parts of event ingestion into no-ops, so that a load run
// measures what the rest costs. INGEST_WITHOUT names what goes:
//   links    the merge into the link rows (and so the campaign rows their trigger keeps);
//   rollups  that, the distinct values and the session references: only the events are stored.
// Accepted and duplicate counts stay right (they come from the events' insert); rollups go stale.
'use strict';
const path = require('node:path');

const DIST = path.join(__dirname, '../..', 'dist/src');
const without = process.env.INGEST_WITHOUT;
if (!['links', 'rollups'].includes(without)) throw new Error(`INGEST_WITHOUT must be links or rollups, not ${without}`);

const { CustomLinksRepository } = require(path.join(DIST, 'modules/custom-links/custom-links.repository'));
CustomLinksRepository.prototype.mergeRollups = async () => new Map();
if (without === 'rollups') {
  const { EngagementRepository } = require(path.join(DIST, 'modules/engagement/engagement.repository'));
  EngagementRepository.prototype.insertDistinct = async () => new Map();
  EngagementRepository.prototype.mergeSessions = async () => undefined;
}
