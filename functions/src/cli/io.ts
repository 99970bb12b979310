// Where the CLI writes: results on stdout, progress and messages on stderr. Every write passes through
// redaction, so a secret the CLI holds (the API token) cannot reach a terminal or a CI log, whatever
// message carries it (an error from the network stack, a server's answer quoting a header).
import { Progress } from './progress';

export interface CliIo {
  env: NodeJS.ProcessEnv;
  /**
   * Where the user's relative paths start: the directory npx was run in. npm runs a bin from inside a
   * workspace folder in that workspace's root and says where it was called from in INIT_CWD.
   */
  cwd: string;
  out(text: string): void;
  err(text: string): void;
  progress(label: string): Progress;
  /** Hide this value in everything written from now on. */
  secret(value: string): void;
}

interface Stream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export function createIo(env: NodeJS.ProcessEnv, stdout: Stream, stderr: Stream): CliIo {
  const secrets: string[] = [];
  const redact = (text: string) =>
    secrets.reduce((t, s) => t.split(s).join(`${s.slice(0, 5)}…(hidden)`), text);
  const err = (text: string) => void stderr.write(redact(text));
  return {
    env,
    cwd: env.INIT_CWD || process.cwd(),
    out: (text) => void stdout.write(redact(text)),
    err,
    progress: (label) =>
      new Progress(label, { write: err, tty: Boolean(stderr.isTTY), columns: stderr.columns }),
    secret(value) {
      // Short values would redact ordinary words.
      if (value.length >= 8 && !secrets.includes(value)) secrets.push(value);
    },
  };
}
