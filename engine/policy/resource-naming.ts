/**
 * Laravel's naming convention, which existing Laravel-style clients already follow: model `BlogPost`,
 * resource slug `blog_posts`, policy `BlogPostPolicy`. Names are only ever pluralized, never
 * singularized, so the two directions cannot disagree; a noun with an irregular plural names
 * its slug explicitly.
 */

const POLICY_SUFFIX = 'Policy';

export function slugForModel(model: string): string {
  return pluralize(model.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase());
}

/** `CategoryPolicy` → `categories`; `undefined` for a name that does not end in `Policy`. */
export function slugForPolicyName(name: string): string | undefined {
  const model = name.slice(0, -POLICY_SUFFIX.length);
  return name.endsWith(POLICY_SUFFIX) && model !== '' ? slugForModel(model) : undefined;
}

function pluralize(word: string): string {
  if (/[^aeiou]y$/.test(word)) return `${word.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/.test(word)) return `${word}es`;
  return `${word}s`;
}
