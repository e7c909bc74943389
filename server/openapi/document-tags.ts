/** The document's tags besides one per model, in the order the reference shows them. */
export const TAGS: Record<string, string> = {
  service: 'The service itself: health, token key, this document.',
  auth: 'Sign in, sign out, register, passwords. `{authBase}/auth/*`: `/api`, or `/api/{group}` for a prefix group.',
  organizations: 'Organizations, their roles and the caller’s role (`{t}` is `/api/{organization}`), and the organizations model’s data endpoints.',
  invitations: 'Inviting members to an organization.',
  members: 'Members of an organization and its roles’ permissions, each operation behind its own permission.',
  nested: 'Several writes in one transaction.',
  decisions: 'Why a request is allowed or refused: explanations and the log of refusals.',
  services: 'Resources of other services, registered so their permissions are granted, checked and explained like a model’s.',
};
