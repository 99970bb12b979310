import { describe, expect, it } from 'vitest';
import { createIo } from './io';

describe('createIo', () => {
  it('hides a secret in everything written, on stdout, stderr and progress lines alike', () => {
    const out: string[] = [];
    const err: string[] = [];
    const io = createIo({}, { write: (t: string) => out.push(t) }, { write: (t: string) => err.push(t) });
    const token = 'cspg_0123456789abcdefghij';
    io.out(`before ${token}\n`);
    io.secret(token);
    io.out(`{"token":"${token}"}\n`);
    io.err(`GET /x failed: Bearer ${token}${token}\n`);
    io.progress('analyze').done(`at ${token}`);
    expect(out).toEqual([`before ${token}\n`, '{"token":"cspg_…(hidden)"}\n']);
    expect(err).toEqual([
      'GET /x failed: Bearer cspg_…(hidden)cspg_…(hidden)\n',
      'analyze: at cspg_…(hidden)\n',
    ]);
  });
});
