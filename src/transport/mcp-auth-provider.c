/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-auth-provider"

#include "config.h"

#include "mcp-auth-provider.h"

#include <string.h>

G_DEFINE_INTERFACE (McpAuthProvider, mcp_auth_provider, G_TYPE_OBJECT)

static void
mcp_auth_provider_default_init (McpAuthProviderInterface *iface)
{
}

char *
mcp_auth_provider_get_authorization (McpAuthProvider *self)
{
  McpAuthProviderInterface *iface;

  g_return_val_if_fail (MCP_IS_AUTH_PROVIDER (self), NULL);

  iface = MCP_AUTH_PROVIDER_GET_IFACE (self);
  if (iface->get_authorization == NULL)
    return NULL;

  return iface->get_authorization (self);
}

void
mcp_auth_provider_authorize_message (McpAuthProvider *self,
                                     SoupMessage     *message)
{
  McpAuthProviderInterface *iface;
  g_autofree char *authorization = NULL;

  g_return_if_fail (MCP_IS_AUTH_PROVIDER (self));
  g_return_if_fail (SOUP_IS_MESSAGE (message));

  iface = MCP_AUTH_PROVIDER_GET_IFACE (self);
  if (iface->authorize_message != NULL)
    {
      iface->authorize_message (self, message);
      return;
    }

  authorization = mcp_auth_provider_get_authorization (self);
  if (authorization != NULL && strpbrk (authorization, "\r\n") == NULL)
    soup_message_headers_replace (soup_message_get_request_headers (message),
                                  "Authorization", authorization);
  if (authorization != NULL)
    explicit_bzero (authorization, strlen (authorization));
}

void
mcp_auth_provider_message_answered (McpAuthProvider *self,
                                    SoupMessage     *message)
{
  McpAuthProviderInterface *iface;

  g_return_if_fail (MCP_IS_AUTH_PROVIDER (self));
  g_return_if_fail (SOUP_IS_MESSAGE (message));

  iface = MCP_AUTH_PROVIDER_GET_IFACE (self);
  if (iface->message_answered != NULL)
    iface->message_answered (self, message);
}

void
mcp_auth_provider_handle_challenge_async (McpAuthProvider     *self,
                                          guint                status,
                                          const char          *www_authenticate,
                                          GCancellable        *cancellable,
                                          GAsyncReadyCallback  callback,
                                          gpointer             user_data)
{
  McpAuthProviderInterface *iface;

  g_return_if_fail (MCP_IS_AUTH_PROVIDER (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  iface = MCP_AUTH_PROVIDER_GET_IFACE (self);
  if (iface->handle_challenge_async == NULL)
    {
      g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);

      g_task_set_source_tag (task, mcp_auth_provider_handle_challenge_async);
      g_task_return_boolean (task, FALSE);
      return;
    }

  iface->handle_challenge_async (self, status, www_authenticate, cancellable, callback, user_data);
}

gboolean
mcp_auth_provider_handle_challenge_finish (McpAuthProvider  *self,
                                           GAsyncResult     *result,
                                           GError          **error)
{
  McpAuthProviderInterface *iface;

  g_return_val_if_fail (MCP_IS_AUTH_PROVIDER (self), FALSE);
  g_return_val_if_fail (G_IS_ASYNC_RESULT (result), FALSE);

  if (g_async_result_is_tagged (result, mcp_auth_provider_handle_challenge_async))
    return g_task_propagate_boolean (G_TASK (result), error);

  iface = MCP_AUTH_PROVIDER_GET_IFACE (self);
  return iface->handle_challenge_finish (self, result, error);
}

/* RFC 9110 §11.6.1 / §5.6.2: a token is one or more tchar. */
static gboolean
is_tchar (char c)
{
  return g_ascii_isalnum (c) || (c != '\0' && strchr ("!#$%&'*+-.^_`|~", c) != NULL);
}

static void
skip_ows (const char **p)
{
  while (**p == ' ' || **p == '\t')
    (*p)++;
}

static char *
read_token (const char **p)
{
  const char *start = *p;

  while (is_tchar (**p))
    (*p)++;

  if (*p == start)
    return NULL;

  return g_strndup (start, (gsize) (*p - start));
}

/* token68 may end in '=' padding. */
static char *
read_token68 (const char **p)
{
  const char *start = *p;

  while (g_ascii_isalnum (**p) || (**p != '\0' && strchr ("-._~+/", **p) != NULL))
    (*p)++;
  if (*p == start)
    return NULL;
  while (**p == '=')
    (*p)++;

  return g_strndup (start, (gsize) (*p - start));
}

static char *
read_quoted (const char **p)
{
  GString *value = g_string_new (NULL);

  g_assert (**p == '"');
  (*p)++;

  for (;;)
    {
      char c = **p;

      if (c == '\0')
        {
          g_string_free (value, TRUE);
          return NULL;
        }
      (*p)++;
      if (c == '"')
        break;
      if (c == '\\')
        {
          if (**p == '\0')
            {
              g_string_free (value, TRUE);
              return NULL;
            }
          c = **p;
          (*p)++;
        }
      g_string_append_c (value, c);
    }

  return g_string_free (value, FALSE);
}

char *
mcp_auth_parse_www_authenticate (const char  *header,
                                 GHashTable **params)
{
  g_autoptr(GHashTable) table = NULL;
  g_autofree char *scheme = NULL;
  const char *p = header;

  if (params != NULL)
    *params = NULL;

  if (header == NULL)
    return NULL;

  table = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  skip_ows (&p);
  /* An empty list element before the challenge is allowed. */
  while (*p == ',' || *p == ' ' || *p == '\t')
    p++;

  scheme = read_token (&p);
  if (scheme == NULL)
    return NULL;

  if (*p != '\0' && *p != ' ' && *p != '\t' && *p != ',')
    return NULL;

  skip_ows (&p);

  for (;;)
    {
      const char *before = p;
      g_autofree char *name = NULL;
      g_autofree char *value = NULL;

      while (*p == ',' || *p == ' ' || *p == '\t')
        p++;
      if (*p == '\0')
        break;

      name = read_token (&p);
      /* Neither a parameter nor the next challenge's scheme. */
      if (name == NULL)
        return NULL;

      skip_ows (&p);
      if (*p != '=')
        {
          /* A bare token: either the next challenge's scheme or a token68
           * (only as the sole thing after the scheme). Both end the
           * first challenge's parameters. */
          break;
        }
      p++;
      skip_ows (&p);

      if (*p == '"')
        {
          value = read_quoted (&p);
          if (value == NULL)
            return NULL;
        }
      else
        {
          value = read_token (&p);
          if (value == NULL)
            {
              /* "realm=" with nothing, or token68 padding like "abc=="
               * right after the scheme. */
              if (g_hash_table_size (table) == 0)
                {
                  const char *q = before;
                  g_autofree char *t68 = NULL;

                  while (*q == ' ' || *q == '\t')
                    q++;
                  t68 = read_token68 (&q);
                  skip_ows (&q);
                  if (t68 != NULL && (*q == '\0' || *q == ','))
                    {
                      p = q;
                      break;
                    }
                }
              return NULL;
            }
        }

      skip_ows (&p);
      if (*p != '\0' && *p != ',')
        return NULL;

      g_hash_table_replace (table, g_ascii_strdown (name, -1), g_steal_pointer (&value));
    }

  if (params != NULL)
    *params = g_steal_pointer (&table);

  return g_steal_pointer (&scheme);
}
