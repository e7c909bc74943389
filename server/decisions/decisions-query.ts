import { DECISION_GATES } from '@gatehouse/engine';
import { z } from 'zod';
import { DECISION_SOURCES } from './decision-event.js';
import type { DecisionLogFilters, DecisionLogPage } from '../db/repositories/decision-logs.js';
import { positiveQueryInteger, readQueryWith } from '../http/query-string.js';
import type { GatehouseContext } from '../http/state.js';
import { pagingQuery } from '../listing/parameters/page.js';
import { MAX_INTEGER } from '../models/integer-range.js';

const DECISIONS_QUERY = z.object({
  ...pagingQuery,
  user_id: positiveQueryInteger(MAX_INTEGER).optional(),
  gate: z.enum(DECISION_GATES).optional(),
  permission: z.string().max(200).optional(),
  source: z.enum(DECISION_SOURCES).optional(),
  model: z.string().max(64).optional(),
  since: z.iso.datetime({ offset: true }).or(z.iso.date()).transform((value) => new Date(value)).optional(),
});

const PARAMETERS = Object.keys(DECISIONS_QUERY.shape) as (keyof typeof DECISIONS_QUERY.shape)[];

/** `GET {t}/decisions`'s query string; a malformed value is a 400 naming its parameter (or, for `page` and `per_page`, its bounds). */
export function readDecisionsQuery(ctx: GatehouseContext): { filters: DecisionLogFilters; page: DecisionLogPage } {
  const { page, per_page: perPage, user_id: userId, gate, permission, source, model, since } = readQueryWith(ctx, DECISIONS_QUERY);
  return { filters: { userId, gate, permission, source, model, since }, page: { page, perPage } };
}

/** The query parameters, for the API reference. */
export const decisionsQuerySchema = z.object(Object.fromEntries(PARAMETERS.map((name) => [name, z.string().optional()])));
