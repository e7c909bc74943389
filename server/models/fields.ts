import { z } from 'zod';
import { SLUG } from './slug.js';
import { MAX_INTEGER } from './integer-range.js';
import { fieldLabel as label } from './field-label.js';

// Field schemas with human messages.

const typed = (field: string, kind: string) => ({
  error: (issue: { input?: unknown }) =>
    issue.input === undefined || issue.input === null ? `The ${label(field)} field is required.` : `The ${label(field)} field must be ${kind}.`,
});

export function text(field: string, max = 200) {
  return z
    .string(typed(field, 'a string'))
    .trim()
    .min(1, `The ${label(field)} field is required.`)
    .max(max, `The ${label(field)} field must not be longer than ${max} characters.`);
}

export function email(field = 'email') {
  return z
    .string(typed(field, 'a string'))
    .trim()
    .min(1, `The ${label(field)} field is required.`)
    .max(320, `The ${label(field)} field must not be longer than 320 characters.`)
    .pipe(z.email(`The ${label(field)} field must be a valid email address.`));
}

/** argon2 hashes any length, but an unbounded password is a cheap way to burn CPU. */
export function newPassword(field = 'password') {
  return z
    .string(typed(field, 'a string'))
    .min(8, `The ${label(field)} field must be at least 8 characters.`)
    .max(200, `The ${label(field)} field must not be longer than 200 characters.`);
}

/** A key: a positive integer that its column can hold. */
export function id(field: string) {
  return z
    .number(typed(field, 'an integer'))
    .int(`The ${label(field)} field must be an integer.`)
    .positive(`The ${label(field)} field must be a positive integer.`)
    .max(MAX_INTEGER, `The ${label(field)} field must not be greater than ${MAX_INTEGER}.`);
}

/** Adds the confirmation rule to a schema with `password` and `password_confirmation`. */
export function confirmedPassword<Shape extends { password: string; password_confirmation: string }>(value: Shape, context: z.RefinementCtx) {
  if (value.password !== value.password_confirmation) {
    context.addIssue({ code: 'custom', path: ['password'], message: 'The password field confirmation does not match.' });
  }
}

export const slugPattern = SLUG;

/** A URL name: lower-case letters and digits, single hyphens between them. */
export function slug(field = 'slug') {
  return text(field, 63).regex(slugPattern, `The ${label(field)} may contain only lower-case letters, digits and single hyphens between them.`);
}

/** A password being checked, not chosen: any non-empty string up to the chosen maximum. */
export function password(field = 'password') {
  return z
    .string(typed(field, 'a string'))
    .min(1, `The ${label(field)} field is required.`)
    .max(200, `The ${label(field)} field must not be longer than 200 characters.`);
}
