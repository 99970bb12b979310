// The CLI's commands and how a command line becomes one of them, its output and its exit code. Commands
// are loaded when asked for (the crawler's browser code is not read to print help or to call the API).
import { type Command, helpText, parseCommandArgs } from './command';
import { EXIT, EXIT_CODES_HELP, type ExitCode, FailureError, UsageError } from './exit-codes';
import type { CliIo } from './io';

export const COMMANDS: Record<string, { summary: string; load: () => Promise<Command> }> = {
  crawl: {
    summary: 'crawl a site locally, print its verified policy (no server, no account)',
    load: async () => (await import('./commands/crawl')).crawlCommand,
  },
  check: {
    summary: "compare a live site's served policy with a saved configuration or a file",
    load: async () => (await import('./commands/check')).checkCommand,
  },
  analyze: {
    summary: 'run an analysis of a domain through the API and follow it; fail on violations',
    load: async () => (await import('./commands/analyze')).analyzeCommand,
  },
  export: {
    summary: "write a saved configuration's export file (nginx, apache, iis, header) through the API",
    load: async () => (await import('./commands/export')).exportCommand,
  },
};

const OVERVIEW = `Usage: csp-generator <command> [options]

Commands:
${Object.entries(COMMANDS)
  .map(([name, c]) => `  ${name.padEnd(9)} ${c.summary}`)
  .join('\n')}

Run 'csp-generator <command> --help' for a command's options. Commands that use the API read
CSP_GENERATOR_URL (the product's address) and CSP_GENERATOR_TOKEN (an API token, Settings › API tokens).

${EXIT_CODES_HELP}
`;

export async function runCli(argv: string[], io: CliIo): Promise<ExitCode> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    io.err(OVERVIEW);
    return EXIT.usage;
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    io.out(OVERVIEW);
    return EXIT.ok;
  }
  const entry = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!entry) {
    io.err(`csp-generator: unknown command '${name}'. Commands: ${Object.keys(COMMANDS).join(', ')}.\n`);
    return EXIT.usage;
  }
  const command = await entry.load();
  try {
    const args = parseCommandArgs(command, rest);
    if (args.values.help) {
      io.out(helpText(command));
      return EXIT.ok;
    }
    return await command.run(args, io);
  } catch (err) {
    if (err instanceof UsageError) {
      io.err(`csp-generator ${name}: ${err.message}\nUsage: ${command.synopsis}\n`);
      return EXIT.usage;
    }
    const message = err instanceof Error ? err.message : String(err);
    io.err(`csp-generator ${name}: ${message}\n`);
    if (!(err instanceof FailureError) && err instanceof Error && io.env.CSP_GENERATOR_DEBUG) {
      io.err(`${err.stack}\n`);
    }
    return EXIT.failure;
  }
}
