// The like-for-like check of a single-row read: the service and its raw baseline answer with the same
// header names (values differ: request ids, dates, limits). A name on one side only is a failure of
// the run: the baseline would be skipping (or adding) work the ratio should include.
'use strict';

/**
 * The header names of one answer, lower case and sorted.
 * @param {string} url
 * @param {Record<string, string>} headers
 */
async function headerNames(url, headers) {
  const res = await fetch(url, { headers, redirect: 'manual' });
  await res.arrayBuffer();
  return { status: res.status, names: [...res.headers.keys()].map((name) => name.toLowerCase()).sort() };
}

/**
 * The same request to the service and to its raw baseline: the names each side alone sent.
 * @param {string} serviceOrigin
 * @param {string} rawOrigin
 * @param {string} requestPath
 * @param {Record<string, string>} headers
 * @returns {Promise<{ path: string, status: [number, number], only_service: string[], only_raw: string[] }>}
 */
async function compareHeaderNames(serviceOrigin, rawOrigin, requestPath, headers) {
  const service = await headerNames(serviceOrigin + requestPath, headers);
  const raw = await headerNames(rawOrigin + requestPath, headers);
  return {
    path: requestPath,
    status: [service.status, raw.status],
    only_service: service.names.filter((name) => !raw.names.includes(name)),
    only_raw: raw.names.filter((name) => !service.names.includes(name)),
  };
}

/**
 * The failure a comparison shows, or null when both sides sent the same names with the same status.
 * @param {Awaited<ReturnType<typeof compareHeaderNames>>} compared
 */
function headerMismatch(compared) {
  const { status, only_service: onlyService, only_raw: onlyRaw } = compared;
  const problems = [
    ...(status[0] === status[1] ? [] : [`status ${status[0]} (service) against ${status[1]} (raw)`]),
    ...(onlyService.length > 0 ? [`only the service sent ${onlyService.join(', ')}`] : []),
    ...(onlyRaw.length > 0 ? [`only the raw baseline sent ${onlyRaw.join(', ')}`] : []),
  ];
  return problems.length > 0 ? `header names differ on ${compared.path}: ${problems.join('; ')}` : null;
}

module.exports = { compareHeaderNames, headerMismatch };
