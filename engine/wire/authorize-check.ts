/** One question for `POST {t}/authorize`: may the caller do `action` on `model` (its record `id`)? */
export interface AuthorizeCheck {
  model: string;
  action: string;
  id?: number | string;
  fields?: { read?: string[]; write?: string[] };
  include?: string[];
}

/** The answer to one check, in the order asked. */
export interface AuthorizeResult {
  allowed: boolean;
  /** What the request itself would answer, when refused. */
  message?: string;
  reason?: { gate: string; permission?: string; policy?: string; fields?: string[]; include?: string };
}
