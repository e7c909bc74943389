import { BadRequestError } from '../errors/bad-request-error.js';

/** The refusal of a request whose client left before its body was all read, whichever parser was reading it. */
export const requestAborted = () => new BadRequestError('The request was aborted.');
