import { parseIncludeParam } from '@gatehouse/engine';
import { bounded, documented, type QueryParameter } from '../query-parameter.js';

/** `include=a,b.c`: related records to embed; the include gate checks every hop against the caller's permissions. */
export const include: QueryParameter = {
  name: 'include',
  keyed: 'never',
  read([entry]) {
    // Counted as written: repeated paths cost their parsing before they collapse.
    bounded(entry!.raw, entry!.value.split(','));
    return { includes: parseIncludeParam(entry!.value) };
  },
  document(model) {
    const relations = Object.keys(model.relations);
    return relations.length > 0 ? [documented('include', `Comma-separated relation paths (dot for nesting): ${relations.join(', ')}.`)] : [];
  },
};
