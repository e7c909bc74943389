import { BadRequestError } from '../errors/bad-request-error.js';

/** The key an assignment reads as the prototype, which no field of a body may be named. */
export const PROTO_KEY = '__proto__';

/** The refusal of a body holding `__proto__` as a key, in the same words whichever encoding it came in. */
export const protoKeyRefused = () => new BadRequestError(`The request body must not hold a ${PROTO_KEY} key.`);
