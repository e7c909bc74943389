/** The parsed body of an axios response. */
export const bodyOf = async <T>(request: Promise<{ data: T }>): Promise<T> => (await request).data;

/** For endpoints that answer 204 or a body nobody needs. */
export const settled = async (request: Promise<unknown>): Promise<void> => {
  await request;
};
