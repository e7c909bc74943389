import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { REPOSITORY } from '../../harness/packed-packages.js';

export interface Tutorial {
  /** The files it has the reader write, by path, as printed. */
  files: Map<string, string>;
  /** Its shell blocks in order, each a list of commands (continued lines joined). */
  shell: string[][];
}

const FILE_NAME = /^`([^`]+)`:$/;
const FENCE = /^```(\w*)$/;

function commands(block: string[]): string[] {
  return block
    .join('\n')
    .replace(/\\\n\s*/g, '')
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#'));
}

/** The `## heading` section of a page, up to the next `## `. */
function section(text: string, heading: string, page: string): string {
  const start = text.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`${page} has no section "## ${heading}"`);
  const end = text.indexOf('\n## ', start + 1);
  return text.slice(start, end < 0 ? undefined : end);
}

/** A page of the docs (`docs/...md`), or one `## ` section of it, read as a reader follows it: files to write, commands to run. */
export async function readTutorial(page: string, heading?: string): Promise<Tutorial> {
  const text = await readFile(join(REPOSITORY, page), 'utf8');
  const lines = (heading === undefined ? text : section(text, heading, page)).split('\n');
  const tutorial: Tutorial = { files: new Map(), shell: [] };
  let fileName: string | undefined;
  for (let index = 0; index < lines.length; index++) {
    const named = FILE_NAME.exec(lines[index]!);
    if (named) fileName = named[1];
    const fence = FENCE.exec(lines[index]!);
    if (!fence || fence[1] === '') continue;
    const body: string[] = [];
    while (!/^```$/.test(lines[++index] ?? '```')) body.push(lines[index]!);
    if (fileName !== undefined) tutorial.files.set(fileName, `${body.join('\n')}\n`);
    else if (fence[1] === 'sh') tutorial.shell.push(commands(body));
    fileName = undefined;
  }
  return tutorial;
}
