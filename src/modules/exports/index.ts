export { ExportsHttpModule } from './exports-http.module';
export { ExportsJobsModule } from './exports-jobs.module';
export { ExportsModule } from './exports.module';
export { EXPORT_SOURCES, type ExportSource, type ExportPage } from './export-sources';
