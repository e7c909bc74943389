import { BadRequestError } from '../errors/bad-request-error.js';
import { MAX_FORM_DEPTH, MAX_FORM_FIELDS, MAX_QUERY_LIST } from '../models/request-limits.js';

/** The refusals of a form body past its limits, in the same words whichever encoding it came in. */
export const formTooManyFields = () => new BadRequestError(`Too many form fields: at most ${MAX_FORM_FIELDS}.`);
export const formNestedTooDeep = () => new BadRequestError(`Form fields nest at most ${MAX_FORM_DEPTH} levels.`);
export const formListTooLong = () => new BadRequestError(`Form lists hold at most ${MAX_QUERY_LIST} items.`);
