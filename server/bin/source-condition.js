// A module resolution hook: workspace packages resolve to their sources (`gatehouse-source` in
// their exports), as `node --conditions=gatehouse-source` would do.
export function resolve(specifier, context, nextResolve) {
  return nextResolve(specifier, { ...context, conditions: [...context.conditions, 'gatehouse-source'] });
}
