import { takeContractViolations } from './openapi-contract';

// Every response of a test app is checked against openapi.json (openapi-contract.ts); a test whose
// requests got an answer the document does not describe fails here, with each distinct violation.
afterEach(() => {
  const violations = [...new Set(takeContractViolations())];
  if (violations.length > 0) throw new Error(`Responses that do not match openapi.json:\n${violations.join('\n')}`);
});
