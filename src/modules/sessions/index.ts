export { IngestSessionRequest } from './dto/ingest-session.request';
export { IngestionService } from './ingestion.service';
export { SessionsModule } from './sessions.module';
