// Work spread over the build's connections: each takes the next task as soon as it is free.
'use strict';

/** @typedef {(db: import('pg').Client) => Promise<unknown>} Task */

/**
 * Takes tasks off `tasks` (in their order, the longest first where known) for whichever connection
 * is free, until none is left; resolves when every connection is done. Calls given the same list
 * share it: a connection can join work already under way.
 * @param {import('pg').Client[]} connections
 * @param {Task[]} tasks  Emptied as they are taken.
 */
async function shareWork(connections, tasks) {
  await Promise.all(
    connections.map(async (db) => {
      for (let task = tasks.shift(); task; task = tasks.shift()) await task(db);
    }),
  );
}

module.exports = { shareWork };
