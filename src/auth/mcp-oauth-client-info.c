/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-oauth"

#include "config.h"

#include "mcp-oauth-client-info.h"

#include <glib/gi18n.h>

#include "mcp-error.h"
#include "mcp-json-private.h"
#include "mcp-oauth-private.h"
#include "mcp-url-policy.h"

void
mcp_oauth_client_info_free (McpOAuthClientInfo *self)
{
  if (self == NULL)
    return;

  g_free (self->issuer);
  g_free (self->client_id);
  mcp_oauth_free_secret (self->client_secret);
  g_free (self->token_endpoint_auth_method);
  g_free (self->redirect_uri);
  g_free (self);
}

McpOAuthClientInfo *
mcp_oauth_client_info_copy (const McpOAuthClientInfo *self)
{
  McpOAuthClientInfo *copy;

  g_return_val_if_fail (self != NULL, NULL);

  copy = g_new0 (McpOAuthClientInfo, 1);
  copy->kind = self->kind;
  copy->issuer = g_strdup (self->issuer);
  copy->client_id = g_strdup (self->client_id);
  copy->client_secret = g_strdup (self->client_secret);
  copy->token_endpoint_auth_method = g_strdup (self->token_endpoint_auth_method);
  copy->redirect_uri = g_strdup (self->redirect_uri);
  copy->client_secret_expires_at = self->client_secret_expires_at;

  return copy;
}

static const char *kind_names[] = {
  [MCP_OAUTH_CLIENT_PRE_REGISTERED] = "pre-registered",
  [MCP_OAUTH_CLIENT_METADATA_DOCUMENT] = "metadata-document",
  [MCP_OAUTH_CLIENT_DYNAMIC] = "dynamic",
};

JsonNode *
mcp_oauth_client_info_to_json (const McpOAuthClientInfo *self)
{
  g_autoptr(JsonBuilder) builder = NULL;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail ((guint) self->kind < G_N_ELEMENTS (kind_names), NULL);

  builder = json_builder_new ();
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "kind");
  json_builder_add_string_value (builder, kind_names[self->kind]);

#define STRING(field)                                          \
  if (self->field != NULL)                                     \
    {                                                          \
      json_builder_set_member_name (builder, #field);          \
      json_builder_add_string_value (builder, self->field);    \
    }

  STRING (issuer)
  STRING (client_id)
  STRING (client_secret)
  STRING (token_endpoint_auth_method)
  STRING (redirect_uri)
#undef STRING

  if (self->client_secret_expires_at != 0)
    {
      json_builder_set_member_name (builder, "client_secret_expires_at");
      json_builder_add_int_value (builder, self->client_secret_expires_at);
    }

  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

McpOAuthClientInfo *
mcp_oauth_client_info_from_json (JsonNode  *node,
                                 GError   **error)
{
  g_autoptr(McpOAuthClientInfo) self = NULL;
  JsonObject *object;
  const char *kind;
  const char *client_id;
  JsonNode *expires;
  guint i;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                           _("The stored OAuth client is not a JSON object"));
      return NULL;
    }

  object = json_node_get_object (node);
  kind = mcp_json_optional_string (object, "kind", "stored OAuth client", NULL);
  client_id = mcp_json_optional_string (object, "client_id", "stored OAuth client", NULL);

  for (i = 0; i < G_N_ELEMENTS (kind_names); i++)
    {
      if (g_strcmp0 (kind, kind_names[i]) == 0)
        break;
    }

  if (i == G_N_ELEMENTS (kind_names))
    {
      g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                           _("The stored OAuth client has no valid “kind”"));
      return NULL;
    }

  if (client_id == NULL || client_id[0] == '\0')
    {
      g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                           _("The stored OAuth client has no “client_id”"));
      return NULL;
    }

  self = g_new0 (McpOAuthClientInfo, 1);
  self->kind = (McpOAuthClientKind) i;
  self->client_id = g_strdup (client_id);
  self->issuer = g_strdup (mcp_json_optional_string (object, "issuer", "stored OAuth client", NULL));
  self->client_secret = g_strdup (mcp_json_optional_string (object, "client_secret", "stored OAuth client", NULL));
  self->token_endpoint_auth_method = g_strdup (mcp_json_optional_string (object, "token_endpoint_auth_method",
                                                                         "stored OAuth client", NULL));
  self->redirect_uri = g_strdup (mcp_json_optional_string (object, "redirect_uri", "stored OAuth client", NULL));

  expires = json_object_get_member (object, "client_secret_expires_at");
  if (expires != NULL && json_node_get_value_type (expires) == G_TYPE_INT64)
    self->client_secret_expires_at = json_node_get_int (expires);

  return g_steal_pointer (&self);
}

const char *
mcp_oauth_pick_token_endpoint_auth_method (const McpOAuthMetadata *metadata,
                                           gboolean                have_secret)
{
  char **supported = metadata != NULL ? metadata->token_endpoint_auth_methods_supported : NULL;

  if (!have_secret)
    return "none";

  /* RFC 8414 §2: an absent list means "client_secret_basic". */
  if (supported == NULL || mcp_oauth_strv_contains (supported, "client_secret_basic"))
    return "client_secret_basic";
  if (mcp_oauth_strv_contains (supported, "client_secret_post"))
    return "client_secret_post";

  return "none";
}

/* The token_endpoint_auth_method to ask for in a registration. Plugboard is
 * a native app and would rather be a public client:
 * - the AS lists "none": ask for "none";
 * - the list is absent: RFC 8414 §2 says the AS then supports only
 *   "client_secret_basic", so ask for that;
 * - else "client_secret_basic" when listed, else "client_secret_post". */
static const char *
registration_auth_method (const McpOAuthMetadata *metadata)
{
  char **supported = metadata->token_endpoint_auth_methods_supported;

  if (supported == NULL)
    return "client_secret_basic";
  if (mcp_oauth_strv_contains (supported, "none"))
    return "none";
  if (mcp_oauth_strv_contains (supported, "client_secret_basic"))
    return "client_secret_basic";

  return "client_secret_post";
}

typedef struct
{
  char        *issuer;
  char        *redirect_uri;
  char        *requested_method;
  SoupMessage *message;
} Register;

static void
register_free (Register *r)
{
  g_free (r->issuer);
  g_free (r->redirect_uri);
  g_free (r->requested_method);
  g_clear_object (&r->message);
  g_free (r);
}

/* Ends the registration with @error (taken), which the trace shows as
 * the failed step. */
static void
register_fail (GTask       *task,
               SoupSession *session,
               GError      *error)
{
  Register *r = g_task_get_task_data (task);

  if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    mcp_oauth_trace_step (session, r->message, "client-registration", MCP_TRACE_STEP_FAILED,
                          "%s", error->message);
  g_task_return_error (task, error);
}

static void
register_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Register *r = g_task_get_task_data (task);
  SoupSession *session = SOUP_SESSION (object);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) body = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(McpOAuthClientInfo) info = NULL;
  g_autofree char *url = mcp_oauth_message_url (r->message);
  g_autofree char *shown_id = NULL;
  g_autofree char *shown_method = NULL;
  JsonObject *answer;
  const char *client_id;
  const char *secret;
  const char *method;
  JsonNode *expires;
  guint status;

  body = mcp_oauth_send_finish (result, &error);
  if (body == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        /* Translators: %s is the authorization server's address */
        g_prefix_error (&error, _("Registering Plugboard with “%s” failed: "), r->issuer);
      register_fail (task, session, g_steal_pointer (&error));
      return;
    }

  status = soup_message_get_status (r->message);
  if (status != SOUP_STATUS_CREATED && status != SOUP_STATUS_OK)
    {
      g_autoptr(GError) answer_error = mcp_oauth_answer_error (_("Client registration"), r->message, body, NULL);

      /* Translators: %s is the authorization server's answer, already explained */
      register_fail (task, session, g_error_new (MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                               _("%s; configure a client ID for this server if it does not allow registration"),
                               answer_error->message));
      return;
    }

  node = mcp_oauth_parse_object (body, url, &error);
  if (node == NULL)
    {
      g_prefix_error (&error, _("Client registration failed: "));
      register_fail (task, session, g_steal_pointer (&error));
      return;
    }

  answer = json_node_get_object (node);
  client_id = mcp_json_optional_string (answer, "client_id", "client registration", url);
  if (client_id == NULL || client_id[0] == '\0')
    {
      register_fail (task, session, g_error_new (MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                               _("Client registration at “%s” answered without a “client_id”"), url));
      return;
    }

  secret = mcp_json_optional_string (answer, "client_secret", "client registration", url);
  method = mcp_json_optional_string (answer, "token_endpoint_auth_method", "client registration", url);

  info = g_new0 (McpOAuthClientInfo, 1);
  info->kind = MCP_OAUTH_CLIENT_DYNAMIC;
  info->issuer = g_strdup (r->issuer);
  info->client_id = g_strdup (client_id);
  info->client_secret = g_strdup (secret);
  info->token_endpoint_auth_method = g_strdup (method != NULL ? method : r->requested_method);
  info->redirect_uri = g_strdup (r->redirect_uri);

  expires = json_object_get_member (answer, "client_secret_expires_at");
  if (expires != NULL && json_node_get_value_type (expires) == G_TYPE_INT64)
    info->client_secret_expires_at = json_node_get_int (expires);

  shown_id = mcp_oauth_sanitize (info->client_id);
  shown_method = mcp_oauth_sanitize (info->token_endpoint_auth_method);
  /* Translators: the first %s is an address, %u an HTTP status, then the client ID Plugboard
   * got, how it authenticates at the token endpoint, and whether a secret came */
  mcp_oauth_trace_step (session, r->message, "client-registration", MCP_TRACE_STEP_OK,
                        _("Registered at “%s” (dynamic client registration): HTTP %u, client ID “%s”, "
                          "token endpoint authentication “%s”; %s"),
                        url, status, shown_id, shown_method,
                        secret != NULL ? _("a client secret was issued (not shown)") : _("no client secret"));
  g_task_return_pointer (task, g_steal_pointer (&info), (GDestroyNotify) mcp_oauth_client_info_free);
}

void
mcp_oauth_register_client_async (SoupSession            *session,
                                 const McpOAuthMetadata *metadata,
                                 const char             *redirect_uri,
                                 const char             *scope,
                                 GCancellable           *cancellable,
                                 GAsyncReadyCallback     callback,
                                 gpointer                user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(JsonBuilder) builder = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GString) json = g_string_new (NULL);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) policy_error = NULL;
  SoupMessageHeaders *headers;
  Register *r;

  g_return_if_fail (SOUP_IS_SESSION (session));
  g_return_if_fail (metadata != NULL);
  g_return_if_fail (redirect_uri != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_oauth_register_client_async);

  r = g_new0 (Register, 1);
  r->issuer = g_strdup (metadata->issuer);
  r->redirect_uri = g_strdup (redirect_uri);
  r->requested_method = g_strdup (registration_auth_method (metadata));
  g_task_set_task_data (task, r, (GDestroyNotify) register_free);

  if (metadata->registration_endpoint == NULL)
    {
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                               _("The authorization server “%s” does not offer client registration; "
                                 "configure a client ID for this server"),
                               metadata->issuer != NULL ? metadata->issuer : metadata->server_url);
      return;
    }

  if (!mcp_url_policy_check (metadata->registration_endpoint, MCP_URL_USE_FETCH, NULL, &policy_error))
    {
      /* Translators: %s says why the address is refused */
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                               _("Client registration refused: %s"), policy_error->message);
      return;
    }

  r->message = soup_message_new (SOUP_METHOD_POST, metadata->registration_endpoint);
  if (r->message == NULL)
    {
      g_autofree char *valid = mcp_oauth_sanitize (metadata->registration_endpoint);

      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                               _("The registration endpoint “%s” is not a valid URL"), valid);
      return;
    }

  builder = json_builder_new ();
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "client_name");
  json_builder_add_string_value (builder, "Plugboard");
  json_builder_set_member_name (builder, "redirect_uris");
  json_builder_begin_array (builder);
  json_builder_add_string_value (builder, redirect_uri);
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "grant_types");
  json_builder_begin_array (builder);
  json_builder_add_string_value (builder, "authorization_code");
  json_builder_add_string_value (builder, "refresh_token");
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "response_types");
  json_builder_begin_array (builder);
  json_builder_add_string_value (builder, "code");
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "token_endpoint_auth_method");
  json_builder_add_string_value (builder, r->requested_method);
  json_builder_set_member_name (builder, "application_type");
  json_builder_add_string_value (builder, "native");
  if (scope != NULL)
    {
      json_builder_set_member_name (builder, "scope");
      json_builder_add_string_value (builder, scope);
    }
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  mcp_json_append (json, root);
  bytes = g_bytes_new (json->str, json->len);

  headers = soup_message_get_request_headers (r->message);
  soup_message_headers_replace (headers, "Accept", "application/json");

  mcp_oauth_send_async (session, r->message, "application/json", bytes, cancellable,
                        register_cb, g_steal_pointer (&task));
}

McpOAuthClientInfo *
mcp_oauth_register_client_finish (GAsyncResult  *result,
                                  GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == mcp_oauth_register_client_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
