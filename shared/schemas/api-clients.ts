// CONTRACT §21 "API clients": what the admin sends and what the API answers about keys.
import { z } from 'zod';
import { API_SCOPES, type ApiScope } from '../enums';
import { API_CLIENT_NAME_MAX } from '../constants';
import { API_CLIENT_ERR } from '../labels/api-clients';
import { cleanText } from '../text';

export const createApiClientSchema = z.object({
  name: z
    .string({ error: API_CLIENT_ERR.nameRequired })
    .overwrite(cleanText)
    .min(1, API_CLIENT_ERR.nameRequired)
    .max(API_CLIENT_NAME_MAX, API_CLIENT_ERR.nameTooLong(API_CLIENT_NAME_MAX)),
  scopes: z
    .array(z.enum(API_SCOPES, { error: API_CLIENT_ERR.scopeInvalid }), {
      error: API_CLIENT_ERR.scopesRequired,
    })
    .min(1, API_CLIENT_ERR.scopesRequired)
    .transform((scopes) => API_SCOPES.filter((s) => scopes.includes(s))),
});
export type CreateApiClientInput = z.input<typeof createApiClientSchema>;

/** `GET /admin/api-clients`: one client, never its key. */
export interface ApiClient {
  id: string;
  name: string;
  /** The key's first characters, to tell keys apart (`trc_` and 8 more). */
  key_prefix: string;
  scopes: ApiScope[];
  created_by_name: string;
  created_at: string;
  /** Written at most once a minute; null until the key is first used. */
  last_used_at: string | null;
}

/** `POST /admin/api-clients` → 201: the key, shown this once. */
export interface ApiClientCreated {
  id: string;
  name: string;
  scopes: ApiScope[];
  key: string;
  created_at: string;
}
