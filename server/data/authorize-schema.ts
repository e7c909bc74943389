import { z } from 'zod';
import { MAX_AUTHORIZE_CHECKS } from '../models/request-limits.js';

const names = (what: string) => z.array(z.string({ error: `Each ${what} must be a string.` }).min(1), { error: `The ${what} list must be an array of strings.` });

const checkSchema = z.strictObject({
  model: z.string({ error: 'The model field is required.' }).min(1, 'The model field is required.'),
  action: z.string({ error: 'The action field is required.' }).min(1, 'The action field is required.'),
  id: z.union([z.number().int().positive(), z.string().min(1)], { error: 'The id field must be a positive integer.' }).optional(),
  fields: z.strictObject({ read: names('field').optional(), write: names('field').optional() }).optional(),
  include: names('include').optional(),
});

const planSchema = checkSchema.pick({ model: true, action: true });

/** The body of `POST {t}/authorize`: checks, and plans ("which records may I?"), each answered in order; one of the two lists at least. */
export const authorizeSchema = z
  .strictObject({
    checks: z.array(checkSchema, { error: 'The checks field must be an array.' }).max(MAX_AUTHORIZE_CHECKS, `At most ${MAX_AUTHORIZE_CHECKS} checks may be asked at once.`).optional(),
    plans: z.array(planSchema, { error: 'The plans field must be an array.' }).max(MAX_AUTHORIZE_CHECKS, `At most ${MAX_AUTHORIZE_CHECKS} plans may be asked at once.`).optional(),
  })
  .refine((body) => body.checks !== undefined || body.plans !== undefined, { message: 'The checks field must be an array.', path: ['checks'] });
