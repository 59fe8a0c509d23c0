export const PRIVACY_QUEUE = 'privacy';
export const RUN_ERASURE = 'run-erasure';

export interface RunErasurePayload {
  organizationId: string;
  erasureId: string;
}
