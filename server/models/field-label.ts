/** How a column is named in the messages a caller reads: `post_id` is "post id". */
export const fieldLabel = (field: string): string => field.replaceAll('_', ' ');
