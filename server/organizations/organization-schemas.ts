import { z } from 'zod';
import { slug, text } from '../models/fields.js';

export const createOrganizationSchema = z.object({ name: text('name'), slug: slug() });
