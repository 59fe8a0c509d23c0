export { IngestSessionRequest } from './dto/ingest-session.request';
export { IngestionService } from './ingestion.service';
export { SessionsHttpModule, SessionsModule } from './sessions.module';
export { TranscriptQuota } from './transcript-quota';
export { SessionRetention, type ExpiredSessions } from './session-retention';
export { SessionsOfSubject, type SubjectSessions } from './sessions-of-subject';
export { SessionDetailResponse } from './dto/session.response';
export { TranscriptResponse } from './dto/transcript.response';
