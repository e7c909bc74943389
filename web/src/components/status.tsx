import type { ReactNode } from 'react';
import { errorMessage } from '../error-message.js';

export function Loading({ what }: { what: string }) {
  return (
    <div className="status" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" /> Loading {what}…
    </div>
  );
}

export function ErrorNotice({ error, retry }: { error: unknown; retry?: () => void }) {
  return (
    <div className="notice notice-error" role="alert">
      <span>{errorMessage(error)}</span>
      {retry && (
        <button type="button" className="button button-small" onClick={retry}>
          Try again
        </button>
      )}
    </div>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <div className="empty">{children}</div>;
}
