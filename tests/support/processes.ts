import { readdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';

// /proc/<pid>/stat: "pid (comm) state ppid ..."; comm may hold spaces and parentheses.
function stat(pid: number): { state: string; ppid: number } | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [state = '', ppid = '0'] = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { state, ppid: Number(ppid) };
  } catch {
    return null;
  }
}

/** Every process below `pid`: children, their children, and so on. */
export function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    const child = Number(entry);
    const parent = Number.isInteger(child) ? stat(child)?.ppid : undefined;
    if (parent !== undefined) children.set(parent, [...(children.get(parent) ?? []), child]);
  }
  const found: number[] = [];
  const visit = (parent: number) => (children.get(parent) ?? []).forEach((child) => (found.push(child), visit(child)));
  visit(pid);
  return found;
}

/** Running: it exists and is not a zombie waiting for a parent to reap it. */
export function isRunning(pid: number): boolean {
  const info = stat(pid);
  return info !== null && info.state !== 'Z';
}

/** Whether something accepts TCP connections on 127.0.0.1:port. */
export function isListening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}
