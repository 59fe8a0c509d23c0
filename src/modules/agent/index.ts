export { AgentHttpModule, AgentWorkerModule, AgentModule } from './agent.module';
export { AgentService } from './agent.service';
export { ConversationTestsRequest } from './dto/agent.request';
