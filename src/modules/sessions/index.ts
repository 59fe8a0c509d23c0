export { IngestSessionRequest } from './dto/ingest-session.request';
export { IngestionService } from './ingestion.service';
export { SessionsHttpModule } from './sessions-http.module';
export { SessionsModule } from './sessions.module';
export { TranscriptQuota } from './transcript-quota';
