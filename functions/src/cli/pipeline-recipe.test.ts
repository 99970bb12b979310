// The pipeline recipe is runnable: the GitHub Actions workflow (docs/pipeline/github-actions.yml, parsed as
// YAML) and the README's recipe call only commands and flags the CLI has (each call is parsed by the CLI's
// own argument parser), run them after `npm ci` in the product's checkout, and give the API commands their
// address and a token from the secret store, never written inline.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { REPO_ROOT } from '../testing/cli-process';
import { COMMANDS } from './cli';
import { parseCommandArgs } from './command';

interface Step {
  run?: string;
  uses?: string;
  with?: Record<string, string>;
}
interface Job {
  steps: Step[];
  env?: Record<string, string>;
  defaults?: { run?: { 'working-directory'?: string } };
}
interface Workflow {
  on: Record<string, unknown>;
  env?: Record<string, string>;
  jobs: Record<string, Job>;
}

/** The arguments after `csp-generator` on each line that calls it (quotes removed, redirections dropped). */
function cliCalls(script: string): string[][] {
  const calls: string[][] = [];
  for (const line of script.split('\n')) {
    const at = line.indexOf('csp-generator ');
    if (at < 0 || line.trimStart().startsWith('#') || !/npx csp-generator /.test(line)) continue;
    const words = [...line.slice(at + 'csp-generator '.length).matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map(
      (m) => m[1] ?? m[2] ?? m[3]!,
    );
    const end = words.findIndex(
      (w) => w === '#' || w.startsWith('>') || w === '||' || w === '&&' || w === '|',
    );
    calls.push(end < 0 ? words : words.slice(0, end));
  }
  return calls;
}

async function expectValidCall(args: string[]) {
  const [name, ...rest] = args;
  expect(Object.keys(COMMANDS), `csp-generator ${args.join(' ')}`).toContain(name);
  const command = await COMMANDS[name!]!.load();
  expect(() => parseCommandArgs(command, rest), `csp-generator ${args.join(' ')}`).not.toThrow();
}

const workflowText = readFileSync(join(REPO_ROOT, 'docs/pipeline/github-actions.yml'), 'utf8');
const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
const recipe = readme.slice(readme.indexOf('### Pipeline recipe'));

describe('the GitHub Actions workflow', () => {
  const workflow = parse(workflowText) as Workflow;
  const steps = Object.values(workflow.jobs).flatMap((job) => job.steps.map((step) => ({ job, step })));
  const calls = steps.flatMap(({ step }) => cliCalls(step.run ?? ''));

  it('calls analyze and export before a release and check after a deploy, with flags that exist', async () => {
    expect(Object.keys(workflow.on)).toEqual(expect.arrayContaining(['push', 'deployment_status']));
    expect(calls.map((c) => c[0])).toEqual(['analyze', 'export', 'check']);
    for (const call of calls) await expectValidCall(call);
  });

  it('runs each call in the product checkout after npm ci, with the API address and a secret token', () => {
    for (const job of Object.values(workflow.jobs)) {
      const runs = job.steps.map((s) => s.run ?? '');
      const install = runs.findIndex((r) => r.trim() === 'npm ci');
      const firstCall = runs.findIndex((r) => r.includes('csp-generator '));
      expect(install).toBeGreaterThanOrEqual(0);
      expect(firstCall).toBeGreaterThan(install);
      const checkout = job.steps.find((s) => s.uses?.startsWith('actions/checkout'));
      expect(checkout?.with?.path).toBe(job.defaults?.run?.['working-directory']);
    }
    expect(workflow.env?.CSP_GENERATOR_URL).toMatch(/^\$\{\{ vars\.\w+ \}\}$/);
    expect(workflow.env?.CSP_GENERATOR_TOKEN).toMatch(/^\$\{\{ secrets\.\w+ \}\}$/);
    // Nothing from the event or the settings is spliced into a script (script injection): env only.
    for (const { step } of steps) expect(step.run ?? '').not.toContain('${{');
    expect(workflowText).not.toMatch(/cspg_/);
  });
});

describe("the README's recipe", () => {
  it('shows the workflow and a shell script whose calls exist', async () => {
    const blocks = [...recipe.matchAll(/```(sh|yaml)\n([\s\S]*?)```/g)];
    expect(blocks.map((b) => b[1])).toEqual(['yaml', 'sh']);
    const shell = cliCalls(blocks[1]![2]!);
    expect(shell.map((c) => c[0])).toEqual(['analyze', 'export', 'check']);
    for (const call of [...cliCalls(blocks[0]![2]!), ...shell]) await expectValidCall(call);
    expect(recipe).toContain('docs/pipeline/github-actions.yml');
  });
});
