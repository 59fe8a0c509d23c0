// e2e tests drive real workers and processes; `testTimeout` inside a jest project entry is ignored,
// so the per-test budget is set here (setupFilesAfterEnv).
jest.setTimeout(60_000);
