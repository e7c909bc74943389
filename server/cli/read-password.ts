import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';

export interface PasswordEntry {
  password: string;
  /** As typed the second time; the same as `password` when it came from a pipe. */
  confirmation: string;
}

const NO_PASSWORD = 'No password given: pass --password, type it on a terminal, or pipe it in on standard input.';

/** The first line of a pipe or file (`echo "$PASSWORD" | gatehouse user create ...`). */
function firstLine(input: NodeJS.ReadStream): Promise<string> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input, terminal: false });
    let line: string | undefined;
    lines.once('line', (first) => {
      line = first;
      lines.close();
    });
    lines.once('close', () => {
      input.destroy();
      if (line === undefined) reject(new Error(NO_PASSWORD));
      else resolve(line);
    });
  });
}

/** Asks on the terminal without echoing what is typed; the prompt goes to stderr, away from output. */
function ask(input: NodeJS.ReadStream, prompt: string): Promise<string> {
  const muted = new Writable({ write: (_chunk, _encoding, done) => done() });
  process.stderr.write(prompt);
  return new Promise((resolve, reject) => {
    const terminal = createInterface({ input, output: muted, terminal: true });
    // Settled first, so the close that follows (Ctrl-D alone settles there) changes nothing.
    terminal.once('SIGINT', () => {
      reject(new Error('Cancelled.'));
      terminal.close();
    });
    terminal.once('line', (answer) => {
      resolve(answer);
      terminal.close();
    });
    terminal.once('close', () => {
      process.stderr.write('\n');
      reject(new Error(NO_PASSWORD));
    });
  });
}

/**
 * A new user's password when no `--password` was given: asked twice on a terminal, else read as
 * one line of standard input; nothing to read is an error.
 */
export async function readPassword(input: NodeJS.ReadStream = process.stdin): Promise<PasswordEntry> {
  if (!input.isTTY) {
    const password = await firstLine(input);
    return { password, confirmation: password };
  }
  const password = await ask(input, 'Password: ');
  return { password, confirmation: await ask(input, 'Password (again): ') };
}
