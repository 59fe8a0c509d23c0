export { AgentHttpModule } from './agent-http.module';
export { AgentWorkerModule } from './agent-worker.module';
export { AgentModule } from './agent.module';
export { AgentService } from './agent.service';
export { ConversationTestsRequest } from './dto/agent.request';
