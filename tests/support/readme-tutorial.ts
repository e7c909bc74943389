import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { REPOSITORY } from '../../harness/packed-packages.js';

export interface Tutorial {
  /** The files it has the reader write, by path, as printed. */
  files: Map<string, string>;
  /** Its shell blocks in order, each a list of commands (continued lines joined). */
  shell: string[][];
}

/** A fenced block of a page, as printed. */
export interface CodeBlock {
  /** The fence's language: `ts`, `sh`, `json`, ... */
  language: string;
  /** The block's lines, each ending with a newline. */
  text: string;
  /** The `## ` section it stands in. */
  section: string;
  /** The `` `path`: `` line above it: a file the reader writes. */
  fileName?: string;
  /**
   * Why a test does not run it, from an `<!-- not run: why -->` line above it: a fragment
   * whose claim the page's test checks another way.
   */
  notRun?: string;
}

const FILE_NAME = /^`([^`]+)`:$/;
const FENCE = /^```(\w*)$/;
const NOT_RUN = /^<!-- not run: (.+) -->$/;
const SECTION = /^## (.+)$/;

function commands(block: string): string[] {
  return block
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

/** The fenced blocks (with a language) of a page's markdown, in order. */
export function parseBlocks(text: string): CodeBlock[] {
  const lines = text.split('\n');
  const blocks: CodeBlock[] = [];
  let heading = '';
  // A file name or a not-run note holds for the next block, however far below it.
  let fileName: string | undefined;
  let notRun: string | undefined;
  for (let index = 0; index < lines.length; index++) {
    heading = SECTION.exec(lines[index]!)?.[1] ?? heading;
    fileName = FILE_NAME.exec(lines[index]!)?.[1] ?? fileName;
    notRun = NOT_RUN.exec(lines[index]!)?.[1] ?? notRun;
    const fence = FENCE.exec(lines[index]!);
    if (!fence || fence[1] === '') continue;
    const body: string[] = [];
    while (!/^```$/.test(lines[++index] ?? '```')) body.push(lines[index]!);
    blocks.push({ language: fence[1]!, text: `${body.join('\n')}\n`, section: heading, fileName, notRun });
    [fileName, notRun] = [undefined, undefined];
  }
  return blocks;
}

/** One `## heading` section of a docs page (`docs/...md`), as printed: its prose and tables. */
export async function readSection(page: string, heading: string): Promise<string> {
  return section(await readFile(join(REPOSITORY, page), 'utf8'), heading, page);
}

/** Every fenced block of a docs page (`docs/...md`), as printed, for a test that runs the page's examples. */
export async function readCodeBlocks(page: string): Promise<CodeBlock[]> {
  return parseBlocks(await readFile(join(REPOSITORY, page), 'utf8'));
}

/** A page of the docs (`docs/...md`), or one `## ` section of it, read as a reader follows it: files to write, commands to run. */
export async function readTutorial(page: string, heading?: string): Promise<Tutorial> {
  const text = await readFile(join(REPOSITORY, page), 'utf8');
  const tutorial: Tutorial = { files: new Map(), shell: [] };
  for (const block of parseBlocks(heading === undefined ? text : section(text, heading, page))) {
    if (block.fileName !== undefined) tutorial.files.set(block.fileName, block.text);
    else if (block.language === 'sh') tutorial.shell.push(commands(block.text));
  }
  return tutorial;
}

/** The words of one shell command, single-quoted words unquoted: `gatehouse role create 'a, b'` → `['gatehouse', 'role', 'create', 'a, b']`. */
export const commandWords = (command: string): string[] => (command.match(/'[^']*'|\S+/g) ?? []).map((word) => word.replace(/^'|'$/g, ''));
