// Whether the component's first view has been painted: false on mount, true (in a React transition) once
// the browser has painted the frame after the mount. For what may wait for the first view: panels below
// it, a request nothing on screen needs yet. Started in the same frame, they competed with the first view
// for the main thread and the network, and its first paint waited for them.
import { startTransition, useEffect, useState } from 'react';

/**
 * The longest wait for that frame. A browser makes no frames for a tab in the background, and one whose
 * compositor is starved (a loaded machine, software rendering) can go tens of seconds without one: waiting
 * for a paint there left the domain screen without its panels for 30 s. Past this, what waited mounts anyway.
 */
export const PAINT_WAIT_MS = 250;

export function useAfterPaint(): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    let done = false;
    const mount = () => {
      if (done) return;
      done = true;
      startTransition(() => setPainted(true));
    };
    // The frame after this commit runs the animation-frame callback just before painting; a timer set
    // there fires after that paint.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(mount, 0);
    });
    const fallback = setTimeout(mount, PAINT_WAIT_MS);
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
      clearTimeout(fallback);
    };
  }, []);
  return painted;
}
