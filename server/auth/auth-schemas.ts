import { z } from 'zod';
import { confirmedPassword, email, newPassword, password, text } from '../models/fields.js';

export const loginSchema = z.object({ email: email(), password: password() });

const newUser = { name: text('name'), email: email(), password: newPassword(), password_confirmation: password('password_confirmation') };

export const registerSchema = z.object({ token: text('token', 200), ...newUser }).superRefine(confirmedPassword);

/** `gatehouse user create`: what registration asks of a user, without an invitation. */
export const newUserSchema = z.object(newUser).superRefine(confirmedPassword);

export const passwordRecoverSchema = z.object({ email: email() });

export const passwordResetSchema = z
  .object({
    token: text('token', 200),
    email: email(),
    password: newPassword(),
    password_confirmation: password('password_confirmation'),
  })
  .superRefine(confirmedPassword);
