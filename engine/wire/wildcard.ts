/** Stands for every action in `{slug}.*`, and for every slug and action in `*`. */
export const WILDCARD = '*';
