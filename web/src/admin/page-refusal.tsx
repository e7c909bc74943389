import { ErrorNotice } from '../components/status.js';
import { statusOf } from '../error-message.js';

/** Whether a console page's first request was refused: the member may not use the page. */
export const isRefused = (error: unknown) => statusOf(error) === 403;

/** A console page the member may not use, opened by its URL: its title and the 403's reason, nothing else. */
export function PageRefusal({ title, error }: { title: string; error: unknown }) {
  return (
    <section>
      <div className="page-head">
        <h1>{title}</h1>
      </div>
      <ErrorNotice error={error} />
    </section>
  );
}
