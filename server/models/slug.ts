/**
 * A slug: lower-case letters and digits, single hyphens between them (`acme`, `north-west-2`).
 * Organization slugs and route group names are slugs.
 */
export const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** The slug pattern without its anchors, to embed in a longer pattern (its first group is the whole slug). */
export const SLUG_BODY = SLUG.source.slice(1, -1);
