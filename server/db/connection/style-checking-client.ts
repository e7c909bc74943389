import type pg from 'pg';
import { answerConnect } from './connect-answer.js';
import { unreadableStyles, type SessionStyles } from './session-styles.js';
import { UnreadableStylesError } from './unreadable-styles-error.js';

const STYLES: Readonly<Record<string, keyof SessionStyles>> = { DateStyle: 'dateStyle', IntervalStyle: 'intervalStyle' };

/**
 * A pool client class that refuses a connection whose session writes dates or intervals in a
 * style the service cannot read, as the server reports them on connecting. The start-up check
 * (`service-login-check.ts`) sees the styles of its time only: a default changed while the service
 * runs reaches the connections opened after it, whose timestamps would otherwise read as null.
 */
export function styleCheckingClient(Base: typeof pg.Client): typeof pg.Client {
  return class StyleCheckingClient extends Base {
    // What PostgreSQL writes when nothing changed them; it reports both on connecting all the same.
    readonly #styles: SessionStyles = { dateStyle: 'ISO, MDY', intervalStyle: 'postgres' };

    constructor(config?: string | pg.ClientConfig) {
      super(config);
      this.connection.on('parameterStatus', ({ parameterName, parameterValue }: { parameterName: string; parameterValue: string }) => {
        const style = STYLES[parameterName];
        if (style) this.#styles[style] = parameterValue;
      });
    }

    // pg's overloads (callback or promise) cannot be restated one by one.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    override connect(callback?: any): any {
      return answerConnect(this, this.#connect(), callback);
    }

    async #connect(): Promise<void> {
      await super.connect();
      const refusal = unreadableStyles(this.user ?? '', this.#styles);
      if (refusal === null) return;
      await this.end().catch(() => {});
      throw new UnreadableStylesError(refusal);
    }
  };
}
