import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { cliReference } from '../../scripts/cli-reference.js';
import { createProgram } from '../../server/cli/program.js';

describe('the CLI reference page', () => {
  it('is what the program defines today (run `npm run docs:cli` after changing a command)', async () => {
    const page = await readFile(new URL('../../docs/reference/cli.md', import.meta.url), 'utf8');
    expect(page).toBe(cliReference(createProgram()));
  });

  it('names every command and option of the program', () => {
    const page = cliReference(createProgram());
    for (const command of createProgram().commands.flatMap((command) => [command, ...command.commands])) {
      expect(page).toContain(command.name());
      for (const option of command.options) expect(page).toContain(`\`${option.flags}\``);
    }
  });
});
