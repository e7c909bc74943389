import { describe, expect, it } from 'vitest';
import {
  assertWritableAttributes,
  ForbiddenFieldsError,
  gateReadableAttributes,
  gateReadableRecords,
  ResourcePolicy,
  type PolicyUser,
} from '@gatehouse/engine';
import { contextWith, EDITOR, errorThrownBy } from './support.js';

const POST = { id: 1, title: 'Hello', body: 'World', status: 'draft', internal_notes: 'secret', author_id: 7 };

function policyWith(lists: { show?: string[] | null; hidden?: string[] | null; create?: string[] | null; update?: string[] | null }) {
  class Policy extends ResourcePolicy {
    static override model = 'Post';
    override permittedAttributesForShow(): string[] | null {
      return lists.show ?? null;
    }
    override hiddenAttributesForShow(): string[] | null {
      return lists.hidden ?? null;
    }
    override permittedAttributesForCreate(): string[] | null {
      return lists.create ?? null;
    }
    override permittedAttributesForUpdate(user: PolicyUser | null): string[] | null {
      return lists.update === undefined ? super.permittedAttributesForUpdate(user) : lists.update;
    }
  }
  return new Policy(contextWith([]));
}

describe('gateReadableAttributes', () => {
  it('returns every field by default', () => {
    expect(gateReadableAttributes(new ResourcePolicy(contextWith([])), EDITOR, POST)).toEqual(POST);
  });

  it('keeps only the whitelist, and id', () => {
    expect(gateReadableAttributes(policyWith({ show: ['title', 'status'] }), EDITOR, POST)).toEqual({ id: 1, title: 'Hello', status: 'draft' });
  });

  it('strips the blacklist', () => {
    expect(gateReadableAttributes(policyWith({ hidden: ['internal_notes', 'author_id'] }), EDITOR, POST)).toEqual({
      id: 1,
      title: 'Hello',
      body: 'World',
      status: 'draft',
    });
  });

  it('narrows with the whitelist first, then strips with the blacklist', () => {
    const policy = policyWith({ show: ['title', 'body', 'internal_notes'], hidden: ['internal_notes', 'status'] });
    expect(gateReadableAttributes(policy, EDITOR, POST)).toEqual({ id: 1, title: 'Hello', body: 'World' });
  });

  it('keeps id even when the lists leave it out or hide it', () => {
    expect(gateReadableAttributes(policyWith({ show: [], hidden: ['id'] }), EDITOR, POST)).toEqual({ id: 1 });
  });

  it('gives unauthenticated callers what the policy decides for null', () => {
    class PostPolicy extends ResourcePolicy {
      static override model = 'Post';
      override hiddenAttributesForShow(user: PolicyUser | null): string[] | null {
        return user === null ? ['internal_notes', 'author_id'] : ['internal_notes'];
      }
    }
    const policy = new PostPolicy(contextWith([]));
    expect(Object.keys(gateReadableAttributes(policy, null, POST))).toEqual(['id', 'title', 'body', 'status']);
    expect(Object.keys(gateReadableAttributes(policy, EDITOR, POST))).toEqual(['id', 'title', 'body', 'status', 'author_id']);
  });

  it('leaves the record itself untouched', () => {
    const record = { ...POST };
    gateReadableAttributes(policyWith({ show: ['title'] }), EDITOR, record);
    expect(record).toEqual(POST);
  });

  it('gates every record of a list the same way', () => {
    const records = [POST, { ...POST, id: 2, title: 'Second' }];
    expect(gateReadableRecords(policyWith({ show: ['title'] }), EDITOR, records)).toEqual([
      { id: 1, title: 'Hello' },
      { id: 2, title: 'Second' },
    ]);
  });
});

describe('assertWritableAttributes', () => {
  it('allows every field by default', () => {
    expect(() => assertWritableAttributes(new ResourcePolicy(contextWith([])), EDITOR, POST, 'create')).not.toThrow();
  });

  it('allows a body inside the write list, and an empty body', () => {
    const policy = policyWith({ create: ['title', 'body', 'status'] });
    expect(() => assertWritableAttributes(policy, EDITOR, { title: 'a', status: 'draft' }, 'create')).not.toThrow();
    expect(() => assertWritableAttributes(policy, EDITOR, {}, 'create')).not.toThrow();
  });

  it('names every field outside the list, comma-joined in request order, with a 403', () => {
    const policy = policyWith({ create: ['title', 'body', 'status'] });
    const body = { internal_notes: 'x', title: 'a', author_id: 3, status: 'draft' };
    const error = errorThrownBy(() => assertWritableAttributes(policy, EDITOR, body, 'create'));
    expect(error).toBeInstanceOf(ForbiddenFieldsError);
    expect(error).toMatchObject({
      status: 403,
      message: 'You are not allowed to set the following field(s): internal_notes, author_id',
      fields: ['internal_notes', 'author_id'],
    });
  });

  it('uses the create list for updates unless the policy has an update list', () => {
    const sharing = policyWith({ create: ['title'] });
    expect(() => assertWritableAttributes(sharing, EDITOR, { body: 'b' }, 'update')).toThrow(
      'You are not allowed to set the following field(s): body',
    );
    const own = policyWith({ create: ['title'], update: ['body'] });
    expect(() => assertWritableAttributes(own, EDITOR, { body: 'b' }, 'update')).not.toThrow();
    expect(() => assertWritableAttributes(own, EDITOR, { title: 't' }, 'update')).toThrow(ForbiddenFieldsError);
    expect(() => assertWritableAttributes(own, EDITOR, { title: 't' }, 'create')).not.toThrow();
  });

  it('refuses every field when the list is empty', () => {
    expect(() => assertWritableAttributes(policyWith({ create: [] }), null, { title: 'a' }, 'create')).toThrow(
      'You are not allowed to set the following field(s): title',
    );
  });
});
