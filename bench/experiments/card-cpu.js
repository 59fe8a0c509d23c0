#!/usr/bin/env node
// CPU time per share card, drawn the way the worker draws them: on a worker thread running the built
// render-worker script, one card after another, with the bench job's inputs (names `Prospect<i>
// Bench`, 50 companies, no logo). The figure is the drawing thread's own CPU time (user + system)
// per card, which a busy machine inflates far less than wall time. Compares builds side by side.
//
// Usage (after `npm run build` in each tree):
//   node bench/experiments/card-cpu.js [--trees DIR[,DIR...]] [--cards 500] [--rounds 3]
// Prints one JSON line per tree and round: cpu_ms_per_card (thread), wall_ms_per_card, png_bytes.
'use strict';
const path = require('node:path');
const { Worker } = require('node:worker_threads');

function options(argv) {
  const given = {};
  for (let i = 0; i < argv.length; i += 2) given[argv[i].replace(/^--/, '')] = argv[i + 1];
  return {
    trees: (given.trees ?? path.join(__dirname, '../..')).split(',').map((tree) => path.resolve(tree)),
    cards: Number(given.cards ?? 500),
    rounds: Number(given.rounds ?? 3),
  };
}

// Runs inside the thread: loads the tree's render worker module, then draws `cards` cards and reports.
const PROBE = `
const { parentPort, workerData } = require('node:worker_threads');
const { drawCard } = require(workerData.renderer);
const cpu = () => { const u = process.threadCpuUsage(); return (u.user + u.system) / 1000; };
drawCard({ name: 'Warm Up', company: 'Warm-up Ltd', logo: null });
const [cpu0, wall0] = [cpu(), performance.now()];
let bytes = 0;
for (let i = 0; i < workerData.cards; i++) {
  const card = drawCard({ name: 'Prospect' + i + ' Bench', company: 'Company ' + (i % 50), logo: null });
  if (!card.ok) throw new Error('card ' + i + ' failed');
  bytes += card.png.length;
}
parentPort.postMessage({ cpu: cpu() - cpu0, wall: performance.now() - wall0, bytes });
`;

function round(tree, cards) {
  const renderer = path.join(tree, 'dist/src/modules/thumbnails/rendering/share-card.renderer.js');
  return new Promise((resolve, reject) => {
    const worker = new Worker(PROBE, { eval: true, workerData: { renderer, cards } });
    worker.once('message', resolve);
    worker.once('error', reject);
  });
}

async function main() {
  const opts = options(process.argv.slice(2));
  for (let r = 1; r <= opts.rounds; r++) {
    for (const tree of opts.trees) {
      const { cpu, wall, bytes } = await round(tree, opts.cards);
      const per = (total) => Math.round((total / opts.cards) * 100) / 100;
      console.log(
        JSON.stringify({
          tree,
          round: r,
          cards: opts.cards,
          cpu_ms_per_card: per(cpu),
          wall_ms_per_card: per(wall),
          png_bytes: Math.round(bytes / opts.cards),
        }),
      );
    }
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
