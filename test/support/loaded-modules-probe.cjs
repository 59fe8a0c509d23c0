// Preloaded (NODE_OPTIONS=--require) into a spawned service: on exit, writes to LOADED_MODULES_FILE
// how many OpenTelemetry modules were loaded by then. @opentelemetry/api is left out: prom-client
// requires it itself (a no-op until an SDK registers), tracing or not.
const { writeFileSync } = require('node:fs');

process.on('exit', () => {
  const loaded = Object.keys(require.cache).filter(
    (path) => path.includes('/@opentelemetry/') && !path.includes('/@opentelemetry/api/'),
  );
  writeFileSync(process.env.LOADED_MODULES_FILE, JSON.stringify({ opentelemetry: loaded.length }));
});
