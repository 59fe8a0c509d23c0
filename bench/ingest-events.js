// The event batches the ingestion benchmarks post (bench/run.js "event ingestion", bench/ingest-profile.js).
'use strict';
const { randomUUID } = require('node:crypto');

const EVENT_BATCH = 500;
const EVENT_TYPES = ['page_view', 'page_view', 'page_view', 'open', 'session_started', 'session_engaged', 'session_ended', 'lead_submitted', 'meeting_clicked', 'meeting_booked'];

const pick = (items) => items[Math.floor(Math.random() * items.length)];

/**
 * A generator of request bodies of `size` events over `linkIds`, event ids unique to `runTag`: mixed
 * types, times over the last day, a new page view each, a visitor of 5,000 for 70 %, a new session for 50 %.
 */
function eventBatches(linkIds, runTag, size = EVENT_BATCH) {
  let seq = 0;
  return () => {
    const now = Date.now();
    const events = [];
    for (let i = 0; i < size; i++) {
      const event = {
        eventId: `${runTag}-${++seq}`,
        type: pick(EVENT_TYPES),
        customLinkId: pick(linkIds),
        occurredAt: new Date(now - Math.floor(Math.random() * 86_400_000)).toISOString(),
        pageViewId: randomUUID(),
      };
      if (Math.random() < 0.7) event.visitorId = `v${Math.floor(Math.random() * 5000)}`;
      if (Math.random() < 0.5) event.sessionId = randomUUID();
      events.push(event);
    }
    return JSON.stringify({ events });
  };
}

module.exports = { EVENT_BATCH, eventBatches };
