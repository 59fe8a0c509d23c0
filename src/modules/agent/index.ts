export { AgentHttpModule } from './agent-http.module';
export { AgentJobsModule } from './agent-jobs.module';
export { AgentModule } from './agent.module';
export { AgentService } from './agent.service';
export { ConversationTestsRequest } from './dto/agent.request';
