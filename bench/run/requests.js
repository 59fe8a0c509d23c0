// Request bodies the scenarios send; used by the load generator and by the runner's preflight alike.
'use strict';
const { randomUUID } = require('node:crypto');

const EVENT_TYPES = [
  'page_view',
  'page_view',
  'page_view',
  'open',
  'session_started',
  'session_engaged',
  'session_ended',
  'lead_submitted',
  'meeting_clicked',
  'meeting_booked',
];

/** @template T @param {readonly T[]} items @returns {T} */
const pick = (items) => items[Math.floor(Math.random() * items.length)];

/**
 * @typedef {object} EventsSpec  What a scenario posts: batches of events over these links.
 * @property {string[]} linkIds
 * @property {string} tag  Event ids are `${tag}-${n}`: unique to the tag.
 * @property {number} batch  Events per request.
 */

/**
 * A function making request bodies of `batch` events over these links, event ids unique to `tag`.
 * @param {EventsSpec} spec
 * @returns {() => string}
 */
function eventBodies({ linkIds, tag, batch }) {
  let seq = 0;
  return () => {
    const now = Date.now();
    const events = [];
    for (let i = 0; i < batch; i++) {
      /** @type {{ eventId: string, type: string, customLinkId: string, occurredAt: string, pageViewId: string, visitorId?: string, sessionId?: string }} */
      const event = {
        eventId: `${tag}-${++seq}`,
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

module.exports = { pick, eventBodies };
