export { agentLinks } from './agent-links';
export { AgentLinksResponse } from './dto/playbook.response';
export { CreateSuggestionsRequest, PutPlaybookRequest } from './dto/playbook.request';
export { PlaybookHttpModule, PlaybookModule } from './playbook.module';
export { PlaybookService, type AgentState } from './playbook.service';
export type { Section } from './rules/sections';
