import { STANDARD_ACTIONS, type StandardAction } from '@gatehouse/engine';
import { z } from 'zod';
import { RECORD_ID_TEXT } from '../data/find-record.js';
import { id } from '../models/fields.js';

const MAX_NAMES = 100;

/** Names given as a list or comma-separated, as `fields[...]` and `include=` read. */
const names = (field: string) =>
  z
    .union([z.array(z.string()), z.string()], { error: `The ${field} field must be a list of names or a comma-separated string.` })
    .transform((value) => (typeof value === 'string' ? value.split(',') : value).map((name) => name.trim()).filter((name) => name !== ''));

/** What a model's record is named by. */
export const ID_RULE = 'The id field must be a positive integer.';

/** What a model's request may do: its standard actions. */
export const ACTION_RULE = `The action field must be one of: ${STANDARD_ACTIONS.join(', ')}.`;

/** `POST {t}/explain`: the request to explain, as the member would send it. */
export const explainSchema = z.strictObject({
  user_id: id('user_id').optional(),
  model: z.string({ error: 'The model field is required.' }).min(1, 'The model field is required.'),
  // A model's standard action, or an action another service's resource registers (`explain-decision.ts`).
  action: z.string({ error: ACTION_RULE }).min(1, ACTION_RULE),
  // A path segment's digits, as the CLI's `--id` gives them, read as the data routes read them and
  // held to the same bounds as a number. Other text is an id only another service's resource can
  // have, as authorize takes it; a model's request refuses it (`isModelRequest`).
  id: z
    .preprocess((value) => (typeof value === 'string' && RECORD_ID_TEXT.test(value) ? Number(value) : value), z.union([id('id'), z.string().regex(/\D/, ID_RULE)], { error: ID_RULE }))
    .optional(),
  fields: names('fields').pipe(z.array(z.string()).max(MAX_NAMES, `The fields field must not hold more than ${MAX_NAMES} names.`)).optional(),
  // Held to the request's own include limits when it is explained (`explain-decision.ts`): the same 400.
  include: names('include').optional(),
});

export type ExplainInput = z.output<typeof explainSchema>;

/** A request for a model's data: one of the standard actions, on a record named by its integer id. */
export type ModelRequest = ExplainInput & { action: StandardAction; id?: number };

export const isModelRequest = (input: ExplainInput): input is ModelRequest => (STANDARD_ACTIONS as readonly string[]).includes(input.action) && typeof input.id !== 'string';
