import { isAxiosError } from 'axios';

/** The server's `{message}` when it sent one, else what the transport said. */
export function errorMessage(error: unknown): string {
  if (isAxiosError<{ message?: unknown }>(error) && typeof error.response?.data?.message === 'string') {
    return error.response.data.message;
  }
  return error instanceof Error ? error.message : String(error);
}
