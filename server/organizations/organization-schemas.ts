import { z } from 'zod';
import { slugPattern, text } from '../http/fields.js';

export const createOrganizationSchema = z.object({
  name: text('name'),
  slug: text('slug', 63).regex(slugPattern, 'The slug may contain only lower-case letters, digits and single hyphens between them.'),
});
