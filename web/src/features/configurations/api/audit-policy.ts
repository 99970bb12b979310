// A composed policy's audit, worked out off the page's main thread (workers/policy-audit.worker.ts). One
// worker per page, started with the first audit and kept for the next ones (each edit is audited again).
// Where no worker can run (one failed to start or load), the audit runs here, as before.
import type { ComposedPolicy, SiteFacts } from '@csp/shared/configurations/compose';
import type { PolicyAudit } from '@csp/shared/csp/policy-audit';
import PolicyAuditWorker from '../workers/policy-audit.worker?worker';
import type { AuditRequest, AuditResponse } from '../workers/policy-audit-messages';

interface Pending {
  resolve: (audit: PolicyAudit) => void;
  reject: (error: Error) => void;
  request: AuditRequest;
}

let worker: Worker | null | undefined;
let nextId = 0;
const pending = new Map<number, Pending>();

async function auditHere(composed: ComposedPolicy, facts: SiteFacts): Promise<PolicyAudit> {
  const { auditComposed } = await import('@csp/shared/configurations/audit-composed');
  return auditComposed(composed, facts);
}

/** Gives up on the worker: what it was asked is audited here. */
function withoutWorker() {
  worker?.terminate();
  worker = null;
  const waiting = [...pending.values()];
  pending.clear();
  for (const { request, resolve, reject } of waiting) {
    auditHere(request.composed, request.facts).then(resolve, reject);
  }
}

function startWorker(): Worker | null {
  try {
    const started = new PolicyAuditWorker({ name: 'policy-audit' });
    started.onmessage = (event: MessageEvent<AuditResponse>) => {
      const answer = event.data;
      const waiting = pending.get(answer.id);
      if (!waiting) return;
      pending.delete(answer.id);
      if ('audit' in answer) waiting.resolve(answer.audit);
      else waiting.reject(new Error(answer.error));
    };
    // The worker's module failed to load or threw at the top level.
    started.onerror = (event) => {
      event.preventDefault();
      withoutWorker();
    };
    return started;
  } catch {
    return null;
  }
}

export function auditOffMainThread(composed: ComposedPolicy, facts: SiteFacts = {}): Promise<PolicyAudit> {
  if (worker === undefined) worker = startWorker();
  if (!worker) return auditHere(composed, facts);
  const request: AuditRequest = { id: nextId++, composed, facts };
  const running = worker;
  return new Promise((resolve, reject) => {
    pending.set(request.id, { resolve, reject, request });
    running.postMessage(request);
  });
}
