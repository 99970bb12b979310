// Asks before a screen with unsaved changes is left. A move inside the app is held by react-router's blocker
// and the screen asks with its own dialog (from the blocker this returns); a reload, a typed address or a
// closed tab gets the browser's own beforeunload prompt (browsers show their own words, never a page's).
import { useEffect, useRef } from 'react';
import { type Blocker, type Location, useBlocker } from 'react-router-dom';

/**
 * Navigation state of a move that knowingly drops what is unsaved, so nothing asks again: the user has
 * just confirmed deleting what they were editing, say. `navigate(to, { state: DISCARDS_UNSAVED })`.
 */
export const DISCARDS_UNSAVED = { discardsUnsaved: true } as const;

function passesFreely(next: Location): boolean {
  // Signing out has already ended the session when it navigates: holding it would leave a signed-out screen.
  if (next.pathname === '/auth') return true;
  const state: unknown = next.state;
  return typeof state === 'object' && state !== null && 'discardsUnsaved' in state;
}

export function useUnsavedChangesGuard(unsaved: boolean): Blocker {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      // Search and hash changes keep the screen (and the edits) in place.
      unsaved && currentLocation.pathname !== nextLocation.pathname && !passesFreely(nextLocation),
  );

  // Once the user has said "leave", the address changes before the screen goes (React renders the next
  // screen when it can): a reload or typed address in between must not ask a second time.
  // (A screen that stays mounted for the next address starts over once it has nothing unsaved.)
  const proceeding = useRef(false);

  useEffect(() => {
    if (!unsaved) {
      proceeding.current = false;
      return;
    }
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (proceeding.current) return;
      event.preventDefault();
      // Chromium before 119 and Safari still ask only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [unsaved]);

  if (blocker.state !== 'blocked') return blocker;
  return {
    ...blocker,
    proceed: () => {
      proceeding.current = true;
      blocker.proceed();
    },
  };
}
