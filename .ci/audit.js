// Dependency audit for CI: `npm audit --omit=dev` where the registry has the audit endpoint, else the
// offline list in .ci/advisories.json checked against package-lock.json. Fails on any advisory that
// affects a production package and is not accepted there (each acceptance carries its reason).
'use strict';
const { spawnSync } = require('node:child_process');
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const semver = require('semver');

const ROOT = join(__dirname, '..');
const { known, accepted, updated } = JSON.parse(readFileSync(join(__dirname, 'advisories.json'), 'utf8'));
const isAccepted = (id, path) => accepted.some((a) => a.id === id && a.path === path);

/** Findings of `npm audit`, or null when the registry offers no audit endpoint. */
function onlineFindings() {
  const run = spawnSync('npm', ['audit', '--omit=dev', '--json'], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  let report;
  try {
    report = JSON.parse(run.stdout);
  } catch {
    return null;
  }
  if (!report.vulnerabilities) return null;
  return Object.values(report.vulnerabilities).flatMap((v) =>
    v.via
      .filter((via) => typeof via === 'object')
      .flatMap((via) =>
        v.nodes.map((path) => ({
          id: via.url?.split('/').pop() ?? via.source,
          path,
          title: via.title,
          severity: via.severity,
        })),
      ),
  );
}

/** Findings of the offline list over the production packages of the lockfile. */
function offlineFindings() {
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8'));
  return Object.entries(lock.packages)
    .filter(([path, pkg]) => path !== '' && !pkg.dev)
    .flatMap(([path, pkg]) =>
      known
        .filter((a) => path.split('node_modules/').pop() === a.package && semver.satisfies(pkg.version, a.vulnerable))
        .map((a) => ({ id: a.id, path, title: `${a.title} (${a.package} ${pkg.version})`, severity: a.severity })),
    );
}

const online = onlineFindings();
const findings = online ?? offlineFindings();
console.log(
  online
    ? 'audit: npm audit --omit=dev'
    : `audit: the registry has no audit endpoint; offline list of ${known.length} advisories (updated ${updated})`,
);
let failed = 0;
for (const f of findings) {
  const ok = isAccepted(f.id, f.path);
  if (!ok) failed += 1;
  console.log(`  ${ok ? 'accepted' : 'FAIL'} ${f.id} ${f.severity} ${f.path}: ${f.title}`);
}
console.log(`audit: ${findings.length} finding(s), ${findings.length - failed} accepted, ${failed} not accepted`);
process.exit(failed > 0 ? 1 : 0);
