/** The types a registered attribute may have. */
export const ATTRIBUTE_TYPES = ['integer', 'number', 'string', 'boolean', 'timestamp', 'string[]'] as const;
export type AttributeType = (typeof ATTRIBUTE_TYPES)[number];

/** The types a named scope's argument may have: an attribute type of one value. */
export const SCOPE_ARGUMENTS = ['integer', 'number', 'string', 'boolean', 'timestamp'] as const;
