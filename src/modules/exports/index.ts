export { ExportsHttpModule, ExportsWorkerModule, ExportsModule } from './exports.module';
export { EXPORT_SOURCES, type ExportSource, type ExportPage } from './export-sources';
export { cell, csvLine, CONTENT_TYPES } from './rules/export-format';
export { ExportErasure } from './export-erasure';
