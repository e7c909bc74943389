import { readFile } from 'node:fs/promises';
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node } from 'yaml';
import { policyTestFileSchema, type PolicyTestFile } from './policy-test-schema.js';
import { PolicyTestFileError } from './policy-test-file-error.js';

export type KeyPath = readonly (string | number)[];

export interface LoadedPolicyTestFile {
  readonly file: string;
  readonly content: PolicyTestFile;
  /** The line that holds `path`, or its nearest parent. */
  lineAt(path: KeyPath): number;
  /** The error for a problem at `path`, located on the line that holds it. */
  problemAt(path: KeyPath, problem: string): PolicyTestFileError;
}

/** `tests[2].actions.update`: the key as its author finds it in the file. */
export const keyName = (path: KeyPath) => path.reduce<string>((name, key) => (typeof key === 'number' ? `${name}[${key}]` : name === '' ? key : `${name}.${key}`), '');

/** The line of the deepest node of `path` the document has: the key itself where it exists, else its nearest parent. */
function lineOf(document: Document, lines: LineCounter, path: KeyPath): number {
  let node: unknown = document.contents;
  let offset = (document.contents as Node | null)?.range?.[0] ?? 0;
  for (const key of path) {
    if (isMap(node)) {
      const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === String(key));
      if (!pair) break;
      offset = (pair.key as Node).range?.[0] ?? offset;
      node = pair.value;
    } else if (isSeq(node) && typeof key === 'number' && node.items[key] !== undefined) {
      node = node.items[key];
      offset = (node as Node).range?.[0] ?? offset;
    } else break;
  }
  return lines.linePos(offset).line;
}

/**
 * Reads one `*.policy.yaml` file: YAML first (a syntax error names its line), then the file's
 * schema (each problem names the line and the key). Throws PolicyTestFileError.
 */
export async function readPolicyTestFile(file: string): Promise<LoadedPolicyTestFile> {
  const lines = new LineCounter();
  const document = parseDocument(await readFile(file, 'utf8'), { lineCounter: lines, prettyErrors: false });
  const syntax = document.errors[0];
  if (syntax) throw new PolicyTestFileError(file, syntax.linePos?.[0].line ?? 1, '', syntax.message.split('\n')[0]!);
  const lineAt = (path: KeyPath) => lineOf(document, lines, path);
  const problemAt = (path: KeyPath, problem: string) => new PolicyTestFileError(file, lineAt(path), keyName(path), problem);
  const parsed = policyTestFileSchema.safeParse(document.toJS());
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    if (issue.code === 'unrecognized_keys') throw problemAt([...(issue.path as KeyPath), issue.keys[0]!], 'is not a key of this file format');
    if (issue.path.length === 0) throw problemAt([], 'a policy test file is a mapping of principals, resources and tests');
    const missing = issue.code === 'invalid_type' && issue.message.includes('received undefined');
    throw problemAt(issue.path as KeyPath, missing ? 'is required' : issue.message);
  }
  return { file, content: parsed.data, lineAt, problemAt };
}
