import { parentPort } from 'node:worker_threads';
import { drawCard } from './share-card.renderer';

/**
 * The entry point of a card-drawing thread (WorkerPool, CardRenderer): draws each card it is sent
 * and answers with the PNG, so resvg's CPU time never blocks the worker's event loop.
 */
export interface CardTask {
  name: string;
  company: string | null;
  logo: { bytes: Uint8Array; mimeType: string } | null;
}

/** A thread's answer (a Buffer arrives as a Uint8Array). */
export type CardAnswer = { ok: true; png: Uint8Array; logo: 'drawn' | 'none' | 'unusable' } | { ok: false };

parentPort?.on('message', ({ id, task }: { id: number; task: CardTask }) => {
  const logo =
    task.logo === null
      ? null
      : {
          bytes: Buffer.from(task.logo.bytes.buffer, task.logo.bytes.byteOffset, task.logo.bytes.byteLength),
          mimeType: task.logo.mimeType,
        };
  const result: CardAnswer = drawCard({ name: task.name, company: task.company, logo });
  parentPort?.postMessage({ id, result });
});
