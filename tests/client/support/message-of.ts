import { isAxiosError } from 'axios';

/**
 * The server's `{message}` of a failed request, where the contract puts it
 * (`error.response.data.message`); any other error as it is, so a failed assertion shows it.
 */
export const messageOf = (error: unknown) => (isAxiosError<{ message?: string }>(error) ? error.response?.data.message : error);
