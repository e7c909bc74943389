import type { DataActionContext } from '../data/data-action-context.js';
import type { TrashedMode } from '../listing/gated-query.js';
import type { ModelDefinition } from '../models/define-model.js';

/**
 * The records whose changes the caller may read in an audit trail, as far as the trash goes: a
 * trashed record's need the right to see trashed records; without it, live records only.
 */
export const auditedTrash = (context: DataActionContext, model: ModelDefinition): TrashedMode =>
  model.softDeletes && !context.policyFor(model).viewTrashed(context.user) ? 'without' : 'with';
