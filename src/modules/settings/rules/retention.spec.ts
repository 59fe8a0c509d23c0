import { keepEverything, retentionCutoffs } from './retention';

/** docs/api.md §6.10: a period of N days deletes what is older than N whole days before the run. */
describe('retention cutoffs', () => {
  const now = new Date('2026-11-29T12:00:00.000Z');

  it('puts each cutoff its number of days before now', () => {
    expect(retentionCutoffs({ transcriptDays: 1, sessionDays: 30, eventDays: 3650 }, now)).toEqual({
      transcripts: new Date('2026-11-28T12:00:00.000Z'),
      sessions: new Date('2026-10-30T12:00:00.000Z'),
      events: new Date('2016-12-01T12:00:00.000Z'),
    });
  });

  it('keeps a kind whose period is null', () => {
    expect(retentionCutoffs(keepEverything(), now)).toEqual({ transcripts: null, sessions: null, events: null });
    expect(retentionCutoffs({ ...keepEverything(), sessionDays: 7 }, now)).toEqual({
      transcripts: null,
      sessions: new Date('2026-11-22T12:00:00.000Z'),
      events: null,
    });
  });
});
