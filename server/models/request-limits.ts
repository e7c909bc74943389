/**
 * The bounds on what one request may ask of the service, each written here once: the parsers
 * enforce them before any SQL runs, and `POST {t}/explain`, `POST {t}/authorize` and the OpenAPI
 * document read them from here, so none of them calls allowed what a request is refused for.
 * docs/reference/limits.md lists them with their errors.
 */

/**
 * The most items one list of the query string may hold (sort keys, filter values, include paths,
 * fields, scopes), and the most bracketed names one parameter may repeat (`filter[...]`): each
 * item costs work and SQL, and no client needs more. A form's lists (`tags[]=a`, a repeated name,
 * in a URL-encoded body also `tags[3]=a`) hold as many.
 */
export const MAX_QUERY_LIST = 20;

/**
 * The most parts of one query string (`a=1&b=2` has two; empty ones count), checked before it is
 * parsed: Koa's parser looks up every value of each name it meets, so its work grows with the
 * square of the parts, and the 16 KiB of a request line took a second of the event loop (every
 * tenant's) to read. A thousand parse in a few milliseconds and are more than any route takes.
 */
export const MAX_QUERY_PARAMETERS = 1_000;

/**
 * The most fields of one form body, URL-encoded (`a=1&b=2` has two, and so has `a=1&&b=2`) or
 * multipart (each part is one). Its parser would drop the rest without a word; no form has nearly as many.
 */
export const MAX_FORM_FIELDS = 1_000;

/**
 * The most levels a URL-encoded form field's name may nest (`a[b][c]` or `a.b.c` is 2). Its
 * parser would keep the deeper brackets as one literal key instead.
 */
export const MAX_FORM_DEPTH = 5;

/** The most characters of one value of the query string (`search=...`, `filter[status]=...`), but a cursor's. */
export const MAX_QUERY_VALUE_LENGTH = 4_000;

/** Rows per page (`per_page`, a model's `perPage`). */
export const MAX_PER_PAGE = 100;

/** The highest page number (`page`). */
export const MAX_PAGE = 1_000_000_000;

/** The most characters of a keyset cursor (`cursor`). */
export const MAX_CURSOR_LENGTH = 4_096;

/**
 * The most relations one include path may walk (`comments.post.comments` is 3). Each hop can
 * multiply what the answer embeds; real screens need two or three.
 */
export const MAX_INCLUDE_DEPTH = 5;

/**
 * The most related rows one hop of an include may read, over every parent row of the page: past
 * it, the request is a 422 before those rows are read.
 */
export const MAX_INCLUDE_ROWS_PER_HOP = 1_000;

/**
 * The most records one answer may embed through its includes, counting every copy: a record
 * reached from several parents is written out once under each.
 */
export const MAX_INCLUDED_RECORDS = 5_000;

/** Operations in one `POST {base}/nested`. */
export const MAX_NESTED_OPERATIONS = 50;

/** Checks in one `POST {t}/authorize`: a page of buttons, not a bulk export. */
export const MAX_AUTHORIZE_CHECKS = 100;

/**
 * The most requests one caller (a user, or a guest's address) may have waiting for a fair share
 * of the pool at once; past it, a request that finds a share full is refused without waiting.
 * Each one waiting is an open request, and each finished request of its organization or user
 * looks at it (FairShares): without the cap, one client's flood past its share would grow both
 * without bound. Above what one client sends at once in earnest: a user's flood of 120
 * organization creations all wait their turn and meet the creation limit's own 429.
 */
export const MAX_WAITING_PER_CALLER = 200;
