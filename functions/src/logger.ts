// JSON-lines logger with a request id. Never pass it passwords, tokens, cookies or session ids.
type Level = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<Level | 'silent', number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export interface Logger {
  debug(msg: string, data?: Record<string, unknown>): void;
  info(msg: string, data?: Record<string, unknown>): void;
  warn(msg: string, data?: Record<string, unknown>): void;
  error(msg: string, data?: Record<string, unknown>): void;
  child(fields: Record<string, unknown>): Logger;
}

export function createLogger(level: Level | 'silent' = 'info', fields: Record<string, unknown> = {}): Logger {
  const write = (l: Level, msg: string, data?: Record<string, unknown>) => {
    if (ORDER[l] < ORDER[level]) return;
    const line = JSON.stringify({ level: l, time: new Date().toISOString(), msg, ...fields, ...data });
    (l === 'error' || l === 'warn' ? process.stderr : process.stdout).write(`${line}\n`);
  };
  return {
    debug: (m, d) => write('debug', m, d),
    info: (m, d) => write('info', m, d),
    warn: (m, d) => write('warn', m, d),
    error: (m, d) => write('error', m, d),
    child: (f) => createLogger(level, { ...fields, ...f }),
  };
}

/** Error details fit for a log line: message and stack, nothing from the request. */
export const errorFields = (err: unknown) =>
  err instanceof Error ? { error: err.message, stack: err.stack } : { error: String(err) };
