// A nonce only protects when it is new for every response.
import { isNonce } from '../directives';
import { auditFinding, type PolicyCheck } from './check';

/**
 * medium: a nonce written into server configuration is the same for every response; an attacker reads it
 * from any page and puts it on their own script. Fires on `script-src 'nonce-abc…'` delivered statically.
 */
export const nonceDeliveryCheck: PolicyCheck = (policy, context) => {
  if (context.nonceDelivery !== 'static') return [];
  const directives = Object.entries(policy.rules)
    .filter(([, sources]) => sources.some(isNonce))
    .map(([d]) => d);
  if (directives.length === 0) return [];
  return [
    auditFinding({
      severity: 'medium',
      directive: directives.join(', '),
      code: 'static-nonce',
      description:
        'The nonce is written into the server configuration, so every response carries the same one: an attacker copies it from any page onto an injected script.',
      fix: 'Generate a fresh nonce per response in your application (or use the Nginx export, which uses $request_id) and put it on every <script> and <style> tag.',
    }),
  ];
};
