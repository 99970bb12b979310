// Whether the component's first view has been painted: false on mount, true (in a React transition) once
// the browser has painted the frame after the mount. For what may wait for the first view: panels below
// it, a request nothing on screen needs yet. Started in the same frame, they competed with the first view
// for the main thread and the network, and its first paint waited for them.
import { startTransition, useEffect, useState } from 'react';

export function useAfterPaint(): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    // The frame after this commit runs the animation-frame callback just before painting; a timer set
    // there fires after that paint.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => startTransition(() => setPainted(true)), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, []);
  return painted;
}
