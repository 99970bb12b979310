// A browser process can die while it starts, before it writes a line, killed by a signal (puppeteer then
// says "Code: null" with an empty stderr). It was seen about once in ten full test runs on a loaded 2-core
// machine, each time in a different test, and a second launch works. A crawl should not fail for it, so a
// launch that died that way is tried once more; any other failure (a missing binary, a bad flag, a timeout)
// is reported as it is.

/** Whether `error` is puppeteer's report of a browser process that exited on a signal while starting. */
export function diedWhileStarting(error: unknown): boolean {
  return (
    error instanceof Error && /^Failed to launch the browser process:\s+Code: null\b/.test(error.message)
  );
}

/** Runs `launch`, and once more if the first process died while starting. */
export async function launchWithRetry<T>(launch: () => Promise<T>): Promise<T> {
  try {
    return await launch();
  } catch (error) {
    if (!diedWhileStarting(error)) throw error;
    return launch();
  }
}
