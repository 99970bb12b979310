// When the page is at rest: no query or write in flight, no screen loading, no click or key press for a
// moment and no field being filled in, then an idle callback of the browser. Something that must not get
// in the way of the user (the achievement overlay) waits for it, so it never appears under a click that was
// on its way.
import { useIsFetching, useIsMutating } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useNavigation } from 'react-router-dom';

/** How long the page must stay still (nothing loading, no input) before it counts as at rest. */
export const QUIET_MS = 600;
/** The longest wait for the browser's idle callback once the page is still. */
const IDLE_TIMEOUT_MS = 1000;

const INPUT_EVENTS = ['pointerdown', 'keydown', 'wheel', 'touchstart'] as const;

function whenIdle(run: () => void): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const handle = window.requestIdleCallback(run, { timeout: IDLE_TIMEOUT_MS });
    return () => window.cancelIdleCallback(handle);
  }
  const timer = setTimeout(run, 0);
  return () => clearTimeout(timer);
}

/** Fields a user types or chooses in (a checkbox or a button having the focus is no such thing). */
const EDITING =
  'input:not([type=checkbox],[type=radio],[type=button],[type=submit],[type=reset]), textarea, select';

/**
 * The user in the middle of something: a dialog or menu open, or the focus in a field (filling in a form,
 * their pointer may be on its way to the form's button). Wait until they are done.
 */
function userIsBusy(): boolean {
  if (document.querySelector('dialog[open], :popover-open')) return true;
  const focused = document.activeElement;
  return focused instanceof HTMLElement && (focused.isContentEditable || focused.matches(EDITING));
}

/** True once the page has been at rest for `QUIET_MS` (while `wanted`); false again when it gets busy. */
export function useQuietMoment(wanted: boolean): boolean {
  const fetching = useIsFetching();
  const mutating = useIsMutating();
  const navigation = useNavigation().state;
  const busy = fetching + mutating > 0 || navigation !== 'idle';
  const [quiet, setQuiet] = useState(false);

  useEffect(() => {
    setQuiet(false);
    if (!wanted || busy) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let cancelIdle: (() => void) | undefined;
    const restart = () => {
      clearTimeout(timer);
      cancelIdle?.();
      setQuiet(false);
      timer = setTimeout(() => {
        cancelIdle = whenIdle(() => {
          if (userIsBusy()) restart();
          else setQuiet(true);
        });
      }, QUIET_MS);
    };
    restart();
    for (const type of INPUT_EVENTS) window.addEventListener(type, restart, { capture: true, passive: true });
    return () => {
      clearTimeout(timer);
      cancelIdle?.();
      for (const type of INPUT_EVENTS) window.removeEventListener(type, restart, { capture: true });
    };
  }, [wanted, busy]);

  return quiet;
}
