import { describe, expect, it } from 'vitest';
import { ResourcePolicy, type RecordConditions } from '@gatehouse/engine';
import { defineModel, ModelDefinitionError, type ModelOptions } from '../../../server/index.js';
import { createModelRegistry } from '../../../server/models/model-registry.js';

const notes = (extra: Record<string, unknown> = {}) =>
  ({ slug: 'notes', tenantOwned: true, attributes: { organization_id: 'integer', title: 'string' }, fillable: ['title'], ...extra }) as ModelOptions;

describe('defineModel', () => {
  it('fills in every default once', () => {
    expect(defineModel(notes())).toMatchObject({
      slug: 'notes',
      table: 'notes',
      attributes: { id: 'integer', organization_id: 'integer', title: 'string' },
      hidden: [],
      filters: [],
      sorts: [],
      search: [],
      defaultSort: 'id',
      relations: {},
      scopes: {},
      perPage: 15,
      softDeletes: false,
      audit: false,
      computed: {},
      owner: undefined,
      validation: undefined,
    });
    expect(defineModel({ ...notes(), slug: 'sticky-notes' }).table).toBe('sticky_notes');
  });

  it.each([
    ['a misspelt option', notes({ filtres: ['title'] }), 'Model notes: unknown option filtres'],
    ['a misspelt nested option', notes({ relations: { tag: { kind: 'belongsTo', model: 'tags', foreignKey: 'tag_id', foreignkey: 'x' } } }), 'Model notes: unknown option relations.tag.foreignkey'],
    ['a bad attribute type', notes({ attributes: { title: 'text' } }), 'Model notes: attributes.title: Invalid option: expected one of'],
    ['a name that is not a plain identifier', notes({ fillable: ['title; drop table'] }), 'Model notes: fillable.0: "title; drop table" is not a plain identifier'],
    ['an undeclared column', notes({ sorts: ['created_at'] }), 'Model notes: sorts: "created_at" is not a registered attribute'],
    ['a per-page size out of range', notes({ perPage: 500 }), 'Model notes: perPage: must be 1..100'],
    ['soft deletes without deleted_at', notes({ softDeletes: true }), 'Model notes: soft deletes need a deleted_at attribute'],
    ['a sum without a column', notes({ computed: { total: { fn: 'sum' } } }), 'Model notes: computed.total: sum needs a column'],
    ['a bad slug', notes({ slug: 'Notes' }), 'Model Notes: slug: must be lower-case letters, digits, underscores and dashes'],
    ['a missing required option', { slug: 'notes', attributes: {}, fillable: [] } as unknown as ModelOptions, 'Model notes: tenantOwned is required'],
  ])('refuses %s with a ModelDefinitionError naming the option', (_case, options, message) => {
    expect(() => defineModel(options)).toThrow(ModelDefinitionError);
    expect(() => defineModel(options)).toThrow(message);
  });
});

describe('record conditions of a policy', () => {
  it.each<[string, RecordConditions[string], string]>([
    ['an unknown attribute', { writer_id: { context: 'user.id' } }, 'notes has no attribute or relation "writer_id"'],
    ['an unknown operator', { title: { like: 'a%' } }, 'unknown operator "like" on title'],
    ['an unknown context', { organization_id: { context: 'user.org' } }, 'unknown context "user.org"'],
  ])('refuse %s when the models are registered, naming the model and the condition', (_case, condition, reason) => {
    class NotePolicy extends ResourcePolicy {
      static override conditions = { mine: condition };
    }
    const registering = () => createModelRegistry([defineModel(notes())], { NotePolicy });
    expect(registering).toThrow(ModelDefinitionError);
    expect(registering).toThrow(`Model notes: condition "mine": ${reason}`);
  });
});
