/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-oauth"

#include "config.h"

#include "mcp-oauth-grant.h"

#include <string.h>

#include <glib/gi18n.h>

#include "mcp-error.h"
#include "mcp-json-private.h"
#include "mcp-oauth-client-info.h"
#include "mcp-oauth-grant-private.h"
#include "mcp-oauth-private.h"
#include "mcp-oauth-token-request-private.h"
#include "mcp-url-policy.h"

/* The grants without a browser: client_credentials (SEP-1046), the JWT
 * bearer grant with a workload's token (RFC 7523 §2.1, SEP-1933), and
 * enterprise-managed authorization (SEP-990): an ID token exchanged at
 * the IdP (RFC 8693) for an ID-JAG, which the JWT bearer grant takes.
 * Each ends at the first error: no retry, no other grant. */

typedef struct
{
  SoupSession         *session;
  McpOAuthGrantKind    kind;
  char                *client_id;
  char                *client_secret;        /* secret */
  char                *method;
  McpJoseKey          *key;
  McpOAuthSource       assertion;            /* borrowed from config */
  McpOAuthGrantConfig *config;               /* a copy */
  McpOAuthMetadata    *metadata;
  char                *scope;
  McpDPoP             *dpop;
  char                *id_token;             /* secret */
  char                *idp_token_endpoint;   /* discovered already */
} GrantRun;

static void
grant_run_free (GrantRun *run)
{
  g_clear_object (&run->session);
  g_free (run->client_id);
  mcp_oauth_free_secret (run->client_secret);
  g_free (run->method);
  g_clear_pointer (&run->key, mcp_jose_key_unref);
  g_clear_pointer (&run->config, mcp_oauth_grant_config_free);
  g_clear_pointer (&run->metadata, mcp_oauth_metadata_free);
  g_free (run->scope);
  g_clear_object (&run->dpop);
  mcp_oauth_free_secret (run->id_token);
  g_free (run->idp_token_endpoint);
  g_free (run);
}

static char **
strv_copy (char **strv)
{
  return strv != NULL ? g_strdupv (strv) : NULL;
}

static McpOAuthGrantConfig *
grant_config_copy (const McpOAuthGrantConfig *config)
{
  McpOAuthGrantConfig *copy = g_new0 (McpOAuthGrantConfig, 1);

  copy->kind = config->kind;
  copy->client_id = g_strdup (config->client_id);
  copy->client_secret = g_strdup (config->client_secret);
  copy->token_endpoint_auth_method = g_strdup (config->token_endpoint_auth_method);
  copy->private_key = g_strdup (config->private_key);
  copy->signing_alg = config->signing_alg;
  copy->assertion.kind = config->assertion.kind;
  copy->assertion.path = g_strdup (config->assertion.path);
  copy->assertion.variable = g_strdup (config->assertion.variable);
  copy->assertion.argv = strv_copy (config->assertion.argv);
  copy->idp_issuer = g_strdup (config->idp_issuer);
  copy->idp_token_endpoint = g_strdup (config->idp_token_endpoint);
  copy->idp_client_id = g_strdup (config->idp_client_id);
  copy->idp_client_secret = g_strdup (config->idp_client_secret);
  copy->id_token.kind = config->id_token.kind;
  copy->id_token.path = g_strdup (config->id_token.path);
  copy->id_token.variable = g_strdup (config->id_token.variable);
  copy->id_token.argv = strv_copy (config->id_token.argv);
  copy->dpop = config->dpop;
  return copy;
}

const char *
mcp_oauth_grant_pick_auth_method (const McpOAuthGrantConfig *config,
                                  const McpOAuthMetadata    *metadata)
{
  if (config->token_endpoint_auth_method != NULL)
    return config->token_endpoint_auth_method;
  if (config->private_key != NULL)
    return "private_key_jwt";
  return mcp_oauth_pick_token_endpoint_auth_method (metadata, config->client_secret != NULL);
}

static const char *
grant_what (McpOAuthGrantKind kind)
{
  switch (kind)
    {
    case MCP_OAUTH_GRANT_CLIENT_CREDENTIALS:
      return _("The client_credentials grant");
    case MCP_OAUTH_GRANT_JWT_BEARER:
    case MCP_OAUTH_GRANT_ENTERPRISE:
    default:
      return _("The JWT bearer grant");
    }
}

static void
grant_fail (GTask  *task,
            GError *error)
{
  GrantRun *run = g_task_get_task_data (task);

  if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    mcp_oauth_trace_step (run->session, NULL, "grant", MCP_TRACE_STEP_FAILED, "%s", error->message);
  g_task_return_error (task, error);
}

/* The last request: at the MCP server's authorization server */

static void
grant_answered_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GrantRun *run = g_task_get_task_data (task);
  McpOAuthTokens *tokens;
  GError *error = NULL;

  /* The token request traced its failure; it is not retried. */
  tokens = mcp_oauth_token_request_finish (result, NULL, &error);
  if (tokens == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  if (tokens->issuer == NULL)
    tokens->issuer = g_strdup (run->metadata->issuer);
  g_task_return_pointer (task, tokens, (GDestroyNotify) mcp_oauth_tokens_free);
}

/* Sends the grant's request with @form (taken) to the MCP server's AS. */
static void
grant_request (GTask      *task,
               GHashTable *form)
{
  GrantRun *run = g_task_get_task_data (task);
  McpOAuthClientAuth auth = { 0 };

  mcp_oauth_token_form_add (form, "scope", run->scope);
  mcp_oauth_token_form_add (form, "resource", run->metadata->resource);

  auth.client_id = run->client_id;
  auth.client_secret = run->client_secret;
  auth.method = run->method;
  auth.assertion_key = run->key;
  auth.assertion_audience = mcp_oauth_metadata_get_expected_issuer (run->metadata);

  mcp_oauth_token_request_async (run->session, MCP_OAUTH_TOKEN_REQUEST_ACCESS_TOKEN, "grant",
                                 grant_what (run->kind), run->metadata->issuer,
                                 run->metadata->token_endpoint, run->scope, NULL, &auth, form,
                                 run->dpop, g_task_get_cancellable (task), grant_answered_cb,
                                 g_object_ref (task));
}

static void
jwt_bearer_request (GTask      *task,
                    const char *assertion)
{
  GHashTable *form = mcp_oauth_token_form_new ();

  mcp_oauth_token_form_add (form, "grant_type", MCP_OAUTH_GRANT_TYPE_JWT_BEARER);
  mcp_oauth_token_form_add (form, "assertion", assertion);
  grant_request (task, form);
}

/* Enterprise: the ID-JAG from the IdP */

static void
id_jag_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(McpOAuthTokens) answer = NULL;
  GError *error = NULL;

  answer = mcp_oauth_token_request_finish (result, NULL, &error);
  if (answer == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  jwt_bearer_request (task, answer->access_token);
}

static void
token_exchange (GTask      *task,
                const char *idp_token_endpoint)
{
  GrantRun *run = g_task_get_task_data (task);
  const McpOAuthGrantConfig *config = run->config;
  GHashTable *form = mcp_oauth_token_form_new ();
  McpOAuthClientAuth auth = { 0 };

  mcp_oauth_token_form_add (form, "grant_type", MCP_OAUTH_GRANT_TYPE_TOKEN_EXCHANGE);
  mcp_oauth_token_form_add (form, "requested_token_type", MCP_OAUTH_TOKEN_TYPE_ID_JAG);
  mcp_oauth_token_form_add (form, "subject_token", run->id_token);
  mcp_oauth_token_form_add (form, "subject_token_type", MCP_OAUTH_TOKEN_TYPE_ID_TOKEN);
  mcp_oauth_token_form_add (form, "audience", mcp_oauth_metadata_get_expected_issuer (run->metadata));
  mcp_oauth_token_form_add (form, "resource", run->metadata->resource);
  mcp_oauth_token_form_add (form, "scope", run->scope);

  auth.client_id = config->idp_client_id;
  auth.client_secret = config->idp_client_secret;
  auth.method = config->idp_client_secret != NULL ? "client_secret_basic" : "none";

  mcp_oauth_token_request_async (run->session, MCP_OAUTH_TOKEN_REQUEST_ID_JAG, "idp-token-exchange",
                                 _("The token exchange at the identity provider"), config->idp_issuer,
                                 idp_token_endpoint, NULL, NULL, &auth, form, NULL,
                                 g_task_get_cancellable (task), id_jag_cb, g_object_ref (task));
}

static void
idp_discovered_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(McpOAuthIdpMetadata) idp = NULL;
  GError *error = NULL;

  idp = mcp_oauth_idp_discover_finish (result, &error);
  if (idp == NULL)
    {
      grant_fail (task, error);
      return;
    }
  token_exchange (task, idp->token_endpoint);
}

static void
enterprise_have_id_token (GTask *task)
{
  GrantRun *run = g_task_get_task_data (task);

  if (run->idp_token_endpoint != NULL)
    token_exchange (task, run->idp_token_endpoint);
  else if (run->config->idp_token_endpoint != NULL)
    token_exchange (task, run->config->idp_token_endpoint);
  else
    mcp_oauth_idp_discover_async (run->session, run->config->idp_issuer, g_task_get_cancellable (task),
                                  idp_discovered_cb, g_object_ref (task));
}

/* Assertions and ID tokens, read now */

static void
source_read_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GrantRun *run = g_task_get_task_data (task);
  GError *error = NULL;
  char *value;

  value = mcp_oauth_source_read_finish (result, &error);
  if (value == NULL)
    {
      grant_fail (task, error);
      return;
    }

  if (run->kind == MCP_OAUTH_GRANT_JWT_BEARER)
    {
      /* Translators: %s is a setting (“oauth.assertion”) */
      mcp_oauth_trace_step (run->session, NULL, "id-token", MCP_TRACE_STEP_OK,
                            _("Read the assertion (%s; not shown)"), "oauth.assertion");
      jwt_bearer_request (task, value);
      mcp_oauth_free_secret (value);
      return;
    }

  mcp_oauth_trace_step (run->session, NULL, "id-token", MCP_TRACE_STEP_OK,
                        _("Read the ID token (%s; not shown)"), "oauth.idp.idToken");
  run->id_token = value;
  enterprise_have_id_token (task);
}

static void
grant_start (GTask *task)
{
  GrantRun *run = g_task_get_task_data (task);
  const McpOAuthGrantConfig *config = run->config;
  GHashTable *form;

  /* Translators: the first %s is a grant (“client_credentials”), the second how the client
   * authenticates (“client_secret_basic”), the third says whether DPoP is used */
  mcp_oauth_trace_step (run->session, NULL, "grant", MCP_TRACE_STEP_INFO,
                        _("Grant “%s” at “%s”; client authentication “%s”%s"),
                        mcp_oauth_grant_kind_to_string (run->kind), run->metadata->token_endpoint,
                        run->method, run->dpop != NULL ? _("; tokens bound to a DPoP key") : "");

  switch (run->kind)
    {
    case MCP_OAUTH_GRANT_CLIENT_CREDENTIALS:
      form = mcp_oauth_token_form_new ();
      mcp_oauth_token_form_add (form, "grant_type", "client_credentials");
      grant_request (task, form);
      return;

    case MCP_OAUTH_GRANT_JWT_BEARER:
      mcp_oauth_source_read_async (&config->assertion, "oauth.assertion", g_task_get_cancellable (task),
                                   source_read_cb, g_object_ref (task));
      return;

    case MCP_OAUTH_GRANT_ENTERPRISE:
      if (run->id_token != NULL)
        enterprise_have_id_token (task);
      else if (config->id_token.kind == MCP_OAUTH_SOURCE_SIGN_IN)
        grant_fail (task, g_error_new_literal (MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                                               _("The ID token comes from a sign-in at the identity provider, "
                                                 "which needs a browser; sign in")));
      else
        mcp_oauth_source_read_async (&config->id_token, "oauth.idp.idToken", g_task_get_cancellable (task),
                                     source_read_cb, g_object_ref (task));
      return;

    case MCP_OAUTH_GRANT_AUTHORIZATION_CODE:
    default:
      grant_fail (task, g_error_new_literal (MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                                             _("The authorization code grant needs a sign-in in the browser")));
      return;
    }
}

void
mcp_oauth_grant_run_with_id_token_async (SoupSession               *session,
                                         const McpOAuthGrantConfig *config,
                                         const McpOAuthMetadata    *metadata,
                                         const char                *scope,
                                         McpDPoP                   *dpop,
                                         const char                *id_token,
                                         const char                *idp_token_endpoint,
                                         GCancellable              *cancellable,
                                         GAsyncReadyCallback        callback,
                                         gpointer                   user_data)
{
  g_autoptr(GTask) task = NULL;
  GrantRun *run;

  g_return_if_fail (SOUP_IS_SESSION (session));
  g_return_if_fail (config != NULL);
  g_return_if_fail (metadata != NULL);
  g_return_if_fail (dpop == NULL || MCP_IS_DPOP (dpop));

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_oauth_grant_run_async);
  run = g_new0 (GrantRun, 1);
  run->session = g_object_ref (session);
  run->kind = config->kind;
  run->config = grant_config_copy (config);
  run->metadata = mcp_oauth_metadata_copy (metadata);
  run->scope = g_strdup (scope);
  run->dpop = dpop != NULL ? g_object_ref (dpop) : NULL;
  run->id_token = g_strdup (id_token);
  run->idp_token_endpoint = g_strdup (idp_token_endpoint);
  run->client_id = g_strdup (config->client_id);
  run->client_secret = g_strdup (config->client_secret);
  run->method = g_strdup (mcp_oauth_grant_pick_auth_method (config, metadata));
  g_task_set_task_data (task, run, (GDestroyNotify) grant_run_free);

  if (run->metadata->token_endpoint == NULL)
    {
      grant_fail (task, g_error_new (MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                                     _("The authorization server “%s” names no token endpoint"),
                                     metadata->issuer != NULL ? metadata->issuer : "?"));
      return;
    }

  if (g_str_equal (run->method, "private_key_jwt"))
    {
      GError *error = NULL;

      if (config->private_key == NULL)
        {
          grant_fail (task, g_error_new_literal (MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                                                 _("oauth.privateKey: private_key_jwt needs a private key (PEM)")));
          return;
        }
      run->key = mcp_jose_key_new_from_pem (config->private_key, config->signing_alg, &error);
      if (run->key == NULL)
        {
          g_prefix_error (&error, "oauth.privateKey: ");
          grant_fail (task, error);
          return;
        }
    }

  grant_start (task);
}

void
mcp_oauth_grant_run_async (SoupSession               *session,
                           const McpOAuthGrantConfig *config,
                           const McpOAuthMetadata    *metadata,
                           const char                *scope,
                           McpDPoP                   *dpop,
                           GCancellable              *cancellable,
                           GAsyncReadyCallback        callback,
                           gpointer                   user_data)
{
  mcp_oauth_grant_run_with_id_token_async (session, config, metadata, scope, dpop, NULL, NULL,
                                           cancellable, callback, user_data);
}

McpOAuthTokens *
mcp_oauth_grant_run_finish (GAsyncResult  *result,
                            GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == mcp_oauth_grant_run_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* The enterprise IdP's discovery document */

void
mcp_oauth_idp_metadata_free (McpOAuthIdpMetadata *self)
{
  if (self == NULL)
    return;
  g_free (self->issuer);
  g_free (self->authorization_endpoint);
  g_free (self->token_endpoint);
  g_free (self);
}

typedef struct
{
  SoupSession *session;
  char        *issuer;
  SoupMessage *message;
  guint        attempt;   /* 0: openid-configuration, 1: oauth-authorization-server */
  GString     *tried;
} IdpDiscovery;

static void
idp_discovery_free (IdpDiscovery *d)
{
  g_clear_object (&d->session);
  g_free (d->issuer);
  g_clear_object (&d->message);
  g_string_free (d->tried, TRUE);
  g_free (d);
}

static void idp_fetch (GTask *task);

static gboolean
same_issuer (const char *a,
             const char *b)
{
  gsize la = strlen (a), lb = strlen (b);

  while (la > 0 && a[la - 1] == '/')
    la--;
  while (lb > 0 && b[lb - 1] == '/')
    lb--;
  return la == lb && strncmp (a, b, la) == 0;
}

static gboolean
idp_endpoint (JsonObject   *object,
              const char   *member,
              const char   *url,
              gboolean      required,
              char        **out,
              GError      **error)
{
  const char *value = mcp_json_optional_string (object, member, "identity provider metadata", url);
  g_autoptr(GError) policy_error = NULL;

  if (value == NULL)
    {
      if (required)
        /* Translators: the first %s is an address, the second a member name (“token_endpoint”) */
        g_set_error (error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                     _("The identity provider's metadata at “%s” has no “%s”"), url, member);
      return !required;
    }
  if (!mcp_url_policy_check (value, MCP_URL_USE_FETCH, NULL, &policy_error))
    {
      /* Translators: the first %s is a member name, the second an address, the last why it is refused */
      g_set_error (error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                   _("The identity provider's “%s” (metadata at “%s”) is refused: %s"),
                   member, url, policy_error->message);
      return FALSE;
    }
  *out = g_strdup (value);
  return TRUE;
}

static void
idp_fetched_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  IdpDiscovery *d = g_task_get_task_data (task);
  g_autoptr(McpOAuthIdpMetadata) idp = NULL;
  g_autofree char *url = mcp_oauth_message_url (d->message);
  g_autoptr(GBytes) body = NULL;
  g_autoptr(JsonNode) node = NULL;
  GError *error = NULL;
  const char *issuer;
  guint status;

  body = mcp_oauth_send_finish (result, &error);
  if (body == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  status = soup_message_get_status (d->message);
  if (status >= 400 && status < 500 && d->attempt == 0)
    {
      /* Translators: the first %s is an address, %u an HTTP status */
      g_string_append_printf (d->tried, _("“%s” answered HTTP %u"), url, status);
      d->attempt++;
      idp_fetch (g_steal_pointer (&task));
      return;
    }
  if (status != SOUP_STATUS_OK)
    {
      if (d->tried->len > 0)
        g_string_append (d->tried, "; ");
      g_string_append_printf (d->tried, _("“%s” answered HTTP %u"), url, status);
      /* Translators: the first %s is the identity provider's address, the second what its
       * well-known addresses answered */
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                               _("No metadata was found for the identity provider “%s” (%s); "
                                 "set “oauth.idp.tokenEndpoint”"), d->issuer, d->tried->str);
      return;
    }

  node = mcp_oauth_parse_object (body, url, &error);
  if (node == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  issuer = mcp_json_optional_string (json_node_get_object (node), "issuer", "identity provider metadata", url);
  if (issuer == NULL || !same_issuer (issuer, d->issuer))
    {
      g_autofree char *valid = mcp_oauth_sanitize (issuer);

      /* Translators: the first %s is an address, the second the issuer it names, the third the one configured */
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                               _("The identity provider's metadata at “%s” names the issuer “%s”, not “%s”"),
                               url, valid != NULL ? valid : "", d->issuer);
      return;
    }

  idp = g_new0 (McpOAuthIdpMetadata, 1);
  idp->issuer = g_strdup (issuer);
  if (!idp_endpoint (json_node_get_object (node), "token_endpoint", url, TRUE, &idp->token_endpoint, &error) ||
      !idp_endpoint (json_node_get_object (node), "authorization_endpoint", url, FALSE,
                     &idp->authorization_endpoint, &error))
    {
      g_task_return_error (task, error);
      return;
    }

  g_task_return_pointer (task, g_steal_pointer (&idp), (GDestroyNotify) mcp_oauth_idp_metadata_free);
}

static void
idp_fetch (GTask *task)
{
  IdpDiscovery *d = g_task_get_task_data (task);
  static const char * const paths[] = {
    "/.well-known/openid-configuration", "/.well-known/oauth-authorization-server",
  };
  g_autofree char *base = g_strdup (d->issuer);
  g_autofree char *url = NULL;
  gsize length = strlen (base);

  while (length > 0 && base[length - 1] == '/')
    base[--length] = '\0';
  url = g_strconcat (base, paths[d->attempt], NULL);

  g_clear_object (&d->message);
  d->message = soup_message_new (SOUP_METHOD_GET, url);
  if (d->message == NULL)
    {
      g_autofree char *valid = mcp_oauth_sanitize (d->issuer);

      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                               _("oauth.idp.issuer: “%s” is not a URL"), valid);
      g_object_unref (task);
      return;
    }
  soup_message_headers_replace (soup_message_get_request_headers (d->message), "Accept", "application/json");
  mcp_oauth_send_async (d->session, d->message, NULL, NULL, g_task_get_cancellable (task),
                        idp_fetched_cb, task);
}

void
mcp_oauth_idp_discover_async (SoupSession         *session,
                              const char          *issuer,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  GTask *task = g_task_new (NULL, cancellable, callback, user_data);
  IdpDiscovery *d = g_new0 (IdpDiscovery, 1);
  g_autoptr(GError) policy_error = NULL;

  g_task_set_source_tag (task, mcp_oauth_idp_discover_async);
  d->session = g_object_ref (session);
  d->issuer = g_strdup (issuer);
  d->tried = g_string_new (NULL);
  g_task_set_task_data (task, d, (GDestroyNotify) idp_discovery_free);

  if (issuer == NULL || !mcp_url_policy_check (issuer, MCP_URL_USE_FETCH, NULL, &policy_error))
    {
      /* Translators: %s says why */
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_INVALID_CONFIG, _("oauth.idp.issuer: %s"),
                               policy_error != NULL ? policy_error->message : _("not set"));
      g_object_unref (task);
      return;
    }

  idp_fetch (task);
}

McpOAuthIdpMetadata *
mcp_oauth_idp_discover_finish (GAsyncResult  *result,
                               GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
