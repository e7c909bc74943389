import { setImmediate as afterIo } from 'node:timers/promises';
import type { Logger } from 'pino';

/**
 * Work a handler hands off so its answer does not wait for it (and so the answer's timing tells
 * nothing about it). A task starts once the running handler has returned; its failure is logged,
 * never thrown at a caller. The server drains the tasks before it closes the database.
 */
export class BackgroundTasks {
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly logger: Logger) {}

  run(name: string, task: () => Promise<void>): void {
    const done: Promise<void> = afterIo()
      .then(task)
      .catch((error: unknown) => this.logger.error({ err: error, task: name }, 'background task failed'))
      .finally(() => this.running.delete(done));
    this.running.add(done);
  }

  async drain(): Promise<void> {
    while (this.running.size > 0) await Promise.all(this.running);
  }
}
