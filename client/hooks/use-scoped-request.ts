import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AxiosInstance } from 'axios';
import type { ReadClient } from '../http/cancellable-reads.js';
import { readInSession } from '../cache/read-in-session.js';
import { requireBase } from '../urls/organization-required.js';
import { scopedKey } from '../cache/cache-keys.js';
import { retryTransient } from '../cache/retry.js';
import type { RequestScope } from './use-data-scope.js';

/** Sends one write under a URL prefix that is known to be complete. */
export type Send<Variables, Result> = (http: AxiosInstance, base: string, variables: Variables) => Promise<Result>;

/** A query under a URL prefix; held back while the prefix lacks its organization. */
export function useScopedQuery<T>(
  { http, base }: RequestScope,
  resource: string,
  keyParts: unknown[],
  request: (http: ReadClient, base: string) => Promise<T>,
  enabled = true,
) {
  return useQuery({
    queryKey: scopedKey(base, resource, ...keyParts),
    queryFn: ({ signal }) => readInSession(http, signal, (reads) => request(reads, requireBase(base))),
    enabled: enabled && base !== null,
    retry: retryTransient,
  });
}

/** Picks, by its key, a cached query of what a write removed. */
export type GoneQuery = (queryKey: readonly unknown[]) => boolean;

/**
 * A mutation under a URL prefix that, once the server agrees, refetches every cached query of the
 * resources it touched and resolves after that refetch. The queries `gone` picks (a deleted
 * record's own) are only marked stale: refetched now they would answer 404 to the page that
 * deleted the record, before it moves on. Without its organization it rejects with
 * OrganizationRequiredError and sends nothing.
 */
export function useScopedMutation<Variables, Result>(
  { http, base }: RequestScope,
  touchedResources: (variables: Variables) => string[],
  send: Send<Variables, Result>,
  gone: (variables: Variables) => GoneQuery = () => () => false,
) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (variables: Variables) => send(http, requireBase(base), variables),
    onSuccess: (_result, variables) => {
      const isGone = gone(variables);
      return Promise.all(
        [...new Set(touchedResources(variables))].flatMap((resource) => [
          client.invalidateQueries({ queryKey: scopedKey(base, resource), predicate: (query) => !isGone(query.queryKey) }),
          client.invalidateQueries({ queryKey: scopedKey(base, resource), predicate: (query) => isGone(query.queryKey), refetchType: 'none' }),
        ]),
      );
    },
  });
}
