// Whether the user was just signed out on purpose (Logout, or a 401 the query client already announced):
// the protected screens then go to /auth without the 'Unauthorized' toast, so one event makes one message.
let signedOutAt = 0;
const QUIET_MS = 5000;

export function markSignedOut(now = Date.now()): void {
  signedOutAt = now;
}

export function wasSignedOutOnPurpose(now = Date.now()): boolean {
  return now - signedOutAt < QUIET_MS;
}
