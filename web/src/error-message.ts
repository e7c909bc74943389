import { refusalOf, refusalText } from '@gatehouse/client';
import { isAxiosError } from 'axios';

interface ErrorBody {
  message?: string;
  errors?: Record<string, string[]>;
}

/**
 * The server's `{message}` (at `error.response.data.message`) and, for a refusal, its reason
 * ("This action is unauthorized. You lack posts.destroy."), else what the transport said.
 */
export function errorMessage(error: unknown): string {
  const reason = refusalOf(error);
  if (reason && isAxiosError<ErrorBody>(error)) return `${error.response?.data?.message ?? 'Refused.'} ${refusalText(reason)}.`;
  if (isAxiosError<ErrorBody>(error)) return error.response?.data?.message ?? `The service did not answer (${error.message}).`;
  return error instanceof Error ? error.message : String(error);
}

/** A 422's per-field messages. */
export function fieldErrors(error: unknown): Record<string, string[]> {
  return (isAxiosError<ErrorBody>(error) && error.response?.status === 422 && error.response.data?.errors) || {};
}

export function statusOf(error: unknown): number | undefined {
  return isAxiosError(error) ? error.response?.status : undefined;
}
