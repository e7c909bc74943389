import { ABILITY_OPTIONS } from '@gatehouse/engine/wire';
import { SCOPE_ARGUMENTS } from './attribute-types.js';
import type { ModelDefinition } from './model-types.js';

/** The first name that must be a declared attribute and is not, or another inconsistency. */
export function inconsistency(definition: ModelDefinition): string | undefined {
  const { slug, attributes, relations, computed, computedAttributes, scopes } = definition;
  if (slug === ABILITY_OPTIONS.anySubjectType) return `"${slug}" is CASL's name for every resource, so no permission can name it`;
  const badScope = Object.entries(scopes).find(([, scope]) => scope.argument !== null && !SCOPE_ARGUMENTS.includes(scope.argument));
  if (badScope) return `scope "${badScope[0]}" has unknown argument type ${String(badScope[1].argument)}`;
  const shadowing = Object.keys(computedAttributes).find((name) => Object.hasOwn(attributes, name));
  if (shadowing !== undefined) return `computed attribute "${shadowing}" is also an attribute`;
  for (const [name, { uses }] of Object.entries(computedAttributes)) {
    const unknown = uses.find((use) => !Object.hasOwn(attributes, use));
    if (unknown !== undefined) return `computed attribute "${name}" use "${unknown}" is not a registered attribute`;
  }
  const lists: Record<string, readonly string[]> = {
    fillable: definition.fillable,
    hidden: definition.hidden,
    filters: definition.filters,
    sorts: definition.sorts,
    search: definition.search,
    defaultSort: [definition.defaultSort.replace(/^-/, '')],
    authorColumn: definition.authorColumn ? [definition.authorColumn] : [],
    'owner.foreignKey': definition.owner ? [definition.owner.foreignKey] : [],
    ...Object.fromEntries(Object.entries(relations).map(([name, relation]) => [`relations.${name}.foreignKey`, relation.kind === 'belongsTo' ? [relation.foreignKey] : []])),
    ...Object.fromEntries(Object.entries(computed).map(([name, aggregate]) => [`computed.${name}`, [...(aggregate.column ? [aggregate.column] : []), ...Object.keys(aggregate.where ?? {})]])),
  };
  for (const [option, names] of Object.entries(lists)) {
    const unknown = names.find((name) => !Object.hasOwn(attributes, name));
    if (unknown !== undefined) return `${option}: "${unknown}" is not a registered attribute`;
  }
  if (definition.softDeletes && !Object.hasOwn(attributes, 'deleted_at')) return 'soft deletes need a deleted_at attribute';
  const columnless = Object.entries(computed).find(([, aggregate]) => aggregate.fn !== 'count' && !aggregate.column);
  return columnless && `computed.${columnless[0]}: ${columnless[1].fn} needs a column`;
}
