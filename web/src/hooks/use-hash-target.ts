// A link to a part of a screen (/domains/:id#scripts, an alert's link to the scripts) opens the screen
// there. The browser scrolls to the part only if it is in the page when the page loads, and so does the
// router's scroll restoration after a navigation; the domain screen's panels mount after its summary, so
// both found nothing and left the screen at its top. This waits for the part to appear, scrolls it into
// view, and keeps it there while what is above it settles (a panel's placeholder giving way to the taller
// panel), until the user scrolls, taps or types themselves, or HASH_TARGET_WAIT_MS have passed. Back and
// forward are left to the router's scroll restoration: they return to where the user was, not to the part.
import { useEffect, useRef } from 'react';
import { useLocation, useNavigationType } from 'react-router-dom';

/** How long a part of the screen is waited for, and kept in view, after the address names it. */
export const HASH_TARGET_WAIT_MS = 10_000;

/** What the user does to move the page themselves (a scroll event cannot tell theirs from ours). */
const USER_MOVES = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;

export function useHashTarget(): void {
  // Each navigation is a new location (following the same link again included).
  const location = useLocation();
  const navigationType = useNavigationType();
  // The address the page was opened with is a 'POP' too, and so is a return to it later (the same key): only
  // this very location object is the opening one.
  const opening = useRef(location);
  useEffect(() => {
    if (navigationType === 'POP' && location !== opening.current) return;
    let id: string;
    try {
      id = decodeURIComponent(location.hash.slice(1));
    } catch {
      return; // not an id of ours
    }
    if (!id) return;
    let top: number | null = null;
    const align = () => {
      const target = document.getElementById(id);
      if (!target) return;
      const now = target.getBoundingClientRect().top;
      if (top !== null && Math.abs(now - top) <= 1) return;
      target.scrollIntoView({ block: 'start' });
      top = target.getBoundingClientRect().top;
    };
    const observer = new MutationObserver(align);
    const stop = () => {
      observer.disconnect();
      clearTimeout(timer);
      for (const type of USER_MOVES) window.removeEventListener(type, stop, true);
    };
    const timer = setTimeout(stop, HASH_TARGET_WAIT_MS);
    for (const type of USER_MOVES) window.addEventListener(type, stop, { capture: true, passive: true });
    observer.observe(document.body, { childList: true, subtree: true });
    align();
    return stop;
  }, [location, navigationType]);
}
