// What a CLI command is: its flags (node:util parseArgs, strict: an unknown flag is a usage error), its
// help text and the function that runs it with parsed arguments.
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { EXIT_CODES_HELP, type ExitCode, UsageError } from './exit-codes';
import type { CliIo } from './io';

export type FlagSpec = NonNullable<ParseArgsConfig['options']>;
export type FlagValues = Record<string, string | boolean | undefined>;

export interface ParsedCommand {
  values: FlagValues;
  positionals: string[];
}

export interface Command {
  name: string;
  /** One line for the overview. */
  summary: string;
  /** `csp-generator <name> …` */
  synopsis: string;
  /** The rest of --help: what it does, its flags, its environment. */
  details: string;
  flags: FlagSpec;
  /** How many positional arguments it takes. */
  positionals: { min: number; max: number };
  run(args: ParsedCommand, io: CliIo): Promise<ExitCode>;
}

/** Flags every command takes. */
export const COMMON_FLAGS: FlagSpec = {
  help: { type: 'boolean', short: 'h' },
  json: { type: 'boolean' },
};

export function helpText(command: Command): string {
  return `Usage: ${command.synopsis}\n\n${command.summary}\n\n${command.details.trim()}\n\n  --json            machine-readable result on stdout (progress stays on stderr)\n  -h, --help        this help\n\n${EXIT_CODES_HELP}\n`;
}

/** The command's arguments, or a UsageError naming what is wrong. */
export function parseCommandArgs(command: Command, argv: string[]): ParsedCommand {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: argv,
      options: { ...COMMON_FLAGS, ...command.flags },
      strict: true,
      allowPositionals: true,
    });
  } catch (err) {
    // node's messages name the flag ("Unknown option '--x'", "Option '--max-pages <value>' argument missing").
    const message = err instanceof Error ? err.message.split('. ')[0] : String(err);
    throw new UsageError(`${message}.`);
  }
  const values = parsed.values as FlagValues;
  if (values.help) return { values, positionals: parsed.positionals };
  const { min, max } = command.positionals;
  const count = parsed.positionals.length;
  if (count < min) throw new UsageError('Missing argument.');
  if (count > max) throw new UsageError(`Unexpected argument '${parsed.positionals[max]}'.`);
  return { values, positionals: parsed.positionals };
}

/** A flag's value from a closed list, or a UsageError listing the choices. */
export function oneOf<T extends string>(flag: string, value: string, choices: readonly T[]): T {
  if ((choices as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`--${flag} must be one of ${choices.join(', ')} (got '${value}').`);
}

/** A whole number flag within bounds, or a UsageError. */
export function intFlag(flag: string, value: string, min: number, max: number): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < min || n > max) {
    throw new UsageError(`--${flag} must be a whole number from ${min} to ${max} (got '${value}').`);
  }
  return n;
}
