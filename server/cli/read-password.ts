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

/**
 * Asks twice on the terminal without echoing what is typed, through one reader so that lines
 * typed ahead are kept; the prompts go to stderr, away from the command's output.
 */
function askTwice(input: NodeJS.ReadStream): Promise<PasswordEntry> {
  const prompts = ['Password: ', 'Password (again): '];
  const muted = new Writable({ write: (_chunk, _encoding, done) => done() });
  return new Promise((resolve, reject) => {
    const answers: string[] = [];
    const terminal = createInterface({ input, output: muted, terminal: true });
    process.stderr.write(prompts[0]!);
    terminal.on('line', (answer) => {
      answers.push(answer);
      process.stderr.write('\n');
      if (answers.length < prompts.length) {
        process.stderr.write(prompts[answers.length]!);
        return;
      }
      // Settled before closing, so the close (which settles a Ctrl-D alone) changes nothing.
      resolve({ password: answers[0]!, confirmation: answers[1]! });
      terminal.close();
    });
    terminal.once('SIGINT', () => {
      reject(new Error('Cancelled.'));
      terminal.close();
    });
    terminal.once('close', () => reject(new Error(NO_PASSWORD)));
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
  return askTwice(input);
}
