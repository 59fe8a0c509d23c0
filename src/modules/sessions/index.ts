export { IngestSessionRequest } from './dto/ingest-session.request';
export { IngestionService } from './ingestion.service';
export { SessionsHttpModule, SessionsModule } from './sessions.module';
export { TranscriptQuota } from './transcript-quota';
export { SessionRetention, type ExpiredSessions } from './session-retention';
export { SessionErasure } from './session-erasure';
export type { DeletedSessions } from './session-deletion';
