import { z } from 'zod';
import { email, id, text } from '../models/fields.js';

export const invitationStatusSchema = z.object({
  status: z.enum(['pending', 'expired', 'accepted', 'cancelled'], { error: 'The status must be one of pending, expired, accepted, cancelled.' }).optional(),
});

export const createInvitationSchema = z.object({
  email: email(),
  role_id: id('role_id'),
  route_group: text('route_group', 100).optional(),
});

export const acceptInvitationSchema = z.object({ token: text('token', 200) });
