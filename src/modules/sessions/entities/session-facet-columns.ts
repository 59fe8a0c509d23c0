import { Column, PrimaryColumn } from 'typeorm';

/**
 * The three list facets of a visible session, copied by triggers into the tables that serve the
 * session list: session_emails (the email search) and the per-month counts.
 */
export abstract class SessionFacetColumns {
  @Column('varchar', { name: 'effective_qualification_status', length: 16, nullable: true })
  effectiveQualificationStatus: string | null;

  @Column('varchar', { name: 'buying_intent', length: 16, nullable: true })
  buyingIntent: string | null;

  @Column('varchar', { name: 'booked_status', length: 16, nullable: true })
  bookedStatus: string | null;
}

/** The columns session_counts and session_count_deltas share: one count per month and facet values. */
export abstract class SessionCountColumns extends SessionFacetColumns {
  /** date_trunc('month', start_time AT TIME ZONE 'UTC'). */
  @PrimaryColumn('timestamp')
  month: Date;

  /** bigint: read as a string. */
  @Column('bigint')
  sessions: string;
}
