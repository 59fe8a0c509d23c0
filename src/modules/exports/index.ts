export { ExportsHttpModule } from './exports-http.module';
export { ExportsWorkerModule } from './exports-worker.module';
export { ExportsModule } from './exports.module';
export { EXPORT_SOURCES, type ExportSource, type ExportPage } from './export-sources';
