import type { StandardAction } from '@gatehouse/engine';
import { checkAction, type ServedBy } from './check-action.js';
import type { DataActionContext } from './data-action-context.js';

/** The actions about a model rather than one of its records, which a client shows or hides buttons for. */
export const MODEL_ACTIONS = ['index', 'store', 'trashed'] as const satisfies readonly StandardAction[];

export type ModelAbilities = Record<string, Record<(typeof MODEL_ACTIONS)[number], boolean>>;

/**
 * Each served model's model-level actions, through the same gates as their requests (policy
 * overrides included; a request another route serves, as it decides), so a client's New button
 * agrees with `POST {model}`.
 */
export async function modelAbilities(context: DataActionContext, served: readonly string[], servedBy?: ServedBy): Promise<ModelAbilities> {
  const abilities: ModelAbilities = {};
  for (const model of served) {
    const answers = await Promise.all(MODEL_ACTIONS.map(async (action) => [action, (await checkAction(context, { model, action }, servedBy)).allowed] as const));
    abilities[model] = Object.fromEntries(answers) as ModelAbilities[string];
  }
  return abilities;
}
