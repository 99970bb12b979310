// `npm start` runs the schedule dispatcher in-process, as EventBridge Scheduler runs its Lambda in AWS: every
// minute by default, on a clock that tests replace (a schedule fires without anyone waiting for its hour).
import { errorFields, type Logger } from '../logger';

export interface ScheduleTimer {
  stop(): Promise<void>;
}

export function startScheduleTimer(opts: {
  dispatch: (now: number) => Promise<unknown>;
  everyMs: number;
  clock: () => number;
  logger: Logger;
}): ScheduleTimer {
  let running: Promise<void> | null = null;
  const tick = () => {
    // A dispatch that outlasts the interval is not overlapped by the next (the claim would keep it safe
    // anyway; this keeps the local table quiet).
    if (running) return;
    running = opts
      .dispatch(opts.clock())
      .then(() => undefined)
      .catch((err) => opts.logger.error('schedule dispatch failed', errorFields(err)))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, opts.everyMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
