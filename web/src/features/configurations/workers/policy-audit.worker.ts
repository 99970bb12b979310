// The policy audit (our checks and csp_evaluator's), run in a worker: on a phone it is some 100 ms of work,
// which on the page's main thread was one task during which a tap went unanswered. Messages: { id, composed,
// facts } in, { id, audit } or { id, error } out.
import '@/lib/zod-jitless';
import { auditComposed } from '@csp/shared/configurations/audit-composed';
import type { AuditRequest, AuditResponse } from './policy-audit-messages';

self.onmessage = (event: MessageEvent<AuditRequest>) => {
  const { id, composed, facts } = event.data;
  let response: AuditResponse;
  try {
    response = { id, audit: auditComposed(composed, facts) };
  } catch (error) {
    response = { id, error: error instanceof Error ? error.message : String(error) };
  }
  self.postMessage(response);
};
