import { z } from 'zod';
import { slug, text } from '../models/fields.js';

/** A new role (`gatehouse role create`): roles are shared by every organization. */
export const newRoleSchema = z.object({ name: text('name'), slug: slug() });
