/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-doctor"

#include "config.h"

#include "mcp-doctor.h"
#include "mcp-doctor-private.h"

#include <glib/gi18n.h>

#include "mcp-auth-provider.h"
#include "mcp-oauth-metadata.h"
#include "mcp-oauth-provider.h"
#include "mcp-redact.h"

/* The first sign-in check of a server that answered 401 or 403: what its
 * challenge names and the OAuth metadata src/auth's discovery finds. One
 * check in a function of its own: the step-by-step sign-in debugger may
 * take its place. */

static char *
describe_challenge (McpDoctor  *self,
                    char      **resource_metadata)
{
  g_autoptr(GHashTable) params = NULL;
  g_autofree char *scheme = NULL;

  *resource_metadata = NULL;
  if (self->www_authenticate == NULL)
    /* Translators: %u is an HTTP status */
    return g_strdup_printf (_("HTTP %u without a WWW-Authenticate header."), self->auth_status);

  scheme = mcp_auth_parse_www_authenticate (self->www_authenticate, &params);
  if (scheme == NULL)
    return g_strdup_printf (_("HTTP %u with a WWW-Authenticate header that cannot be read."),
                            self->auth_status);

  *resource_metadata = g_strdup (g_hash_table_lookup (params, "resource_metadata"));
  if (*resource_metadata != NULL)
    {
      g_autofree char *shown = mcp_redact_url (*resource_metadata);

      /* Translators: %u is an HTTP status, the first %s an auth scheme, the second a URL */
      return g_strdup_printf (_("HTTP %u, WWW-Authenticate: %s, resource_metadata=%s."),
                              self->auth_status, scheme, shown);
    }

  /* Translators: %u is an HTTP status, %s an auth scheme such as Bearer */
  return g_strdup_printf (_("HTTP %u, WWW-Authenticate: %s, without resource_metadata."),
                          self->auth_status, scheme);
}

typedef struct
{
  McpDoctor *self;
  char      *challenge;
  char      *resource_metadata;
} SignIn;

static void
sign_in_free (SignIn *sign_in)
{
  g_clear_object (&sign_in->self);
  g_free (sign_in->challenge);
  g_free (sign_in->resource_metadata);
  g_free (sign_in);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SignIn, sign_in_free)

static void
on_discovered_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(SignIn) sign_in = user_data;
  McpDoctor *self = sign_in->self;
  g_autoptr(McpOAuthMetadata) metadata = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *fix = NULL;

  metadata = mcp_oauth_discover_finish (result, &error);
  if (mcp_doctor_step_aborted (self))
    return;

  if (metadata == NULL)
    {
      mcp_doctor_step_done (self, MCP_DOCTOR_STATUS_FAIL,
                            g_strdup_printf ("%s\n%s", sign_in->challenge, error->message),
                            _("The server's sign-in information is wrong or out of reach: tell its "
                              "operator what is shown here."));
      return;
    }

  if (metadata->resource_metadata_url == NULL && metadata->auth_server_metadata_url == NULL)
    {
      mcp_doctor_step_done (self, MCP_DOCTOR_STATUS_FAIL,
                            g_strdup_printf ("%s\n%s", sign_in->challenge,
                                             _("It publishes no OAuth metadata: neither protected-"
                                               "resource metadata (/.well-known/oauth-protected-"
                                               "resource) nor authorization server metadata "
                                               "(/.well-known/oauth-authorization-server) answered.")),
                            _("Plugboard cannot sign in to this server by itself. If it takes an API "
                              "key or a token, add it as a header in the server's settings (e.g. "
                              "“Authorization: Bearer ${TOKEN}”, with the token in an environment "
                              "variable), as its documentation says; otherwise ask its operator to "
                              "publish OAuth metadata."));
      return;
    }

  {
    g_autofree char *prm = mcp_redact_url (metadata->resource_metadata_url);
    g_autofree char *issuer = mcp_redact_url (metadata->issuer);
    g_autofree char *as = mcp_redact_url (metadata->auth_server_metadata_url);
    g_autoptr(GString) seen = g_string_new (sign_in->challenge);

    if (prm != NULL)
      g_string_append_printf (seen, "\n%s %s", _("Protected-resource metadata:"), prm);
    if (issuer != NULL)
      g_string_append_printf (seen, "\n%s %s", _("Authorization server:"), issuer);
    if (as != NULL)
      g_string_append_printf (seen, "\n%s %s", _("Its metadata:"), as);

    if (self->authorization != NULL)
      fix = g_strdup (_("The stored sign-in was refused: sign in again from the server's page "
                        "(or “plugboard-cli login NAME”)."));
    else
      fix = g_strdup (_("Sign in: the Sign In button on the server's page, or “plugboard-cli "
                        "login NAME”."));
    mcp_doctor_step_done (self, MCP_DOCTOR_STATUS_WARN,
                          g_string_free (g_steal_pointer (&seen), FALSE), fix);
  }
}

void
mcp_doctor_check_sign_in (McpDoctor *self)
{
  JsonObject *oauth = mcp_server_config_get_oauth (self->expanded);
  const char *as_url = NULL;
  SignIn *sign_in;

  if (oauth != NULL && json_object_has_member (oauth, "authServerMetadataUrl"))
    as_url = json_object_get_string_member_with_default (oauth, "authServerMetadataUrl", NULL);

  sign_in = g_new0 (SignIn, 1);
  sign_in->self = g_object_ref (self);
  sign_in->challenge = describe_challenge (self, &sign_in->resource_metadata);
  if (self->session == NULL)
    {
      self->session = soup_session_new ();
      g_object_set (self->session, "timeout", mcp_doctor_timeout_seconds (self), NULL);
    }
  mcp_oauth_discover_async (self->session, mcp_server_config_get_url (self->expanded),
                            sign_in->resource_metadata, as_url, mcp_doctor_step_get_cancellable (self),
                            on_discovered_cb, sign_in);
}

typedef struct
{
  McpDoctor         *self;
  McpDoctorStepFunc  then;
} Load;

static void
on_sign_in_loaded_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  Load *load = user_data;
  g_autoptr(McpDoctor) self = load->self;
  McpDoctorStepFunc then = load->then;
  McpOAuthProvider *provider = MCP_OAUTH_PROVIDER (object);
  g_autoptr(GError) error = NULL;

  g_free (load);
  /* No stored sign-in, or a store that cannot be read: the checks go on
   * without one, as a connection does. */
  mcp_oauth_provider_load_finish (provider, result, &error);
  if (mcp_doctor_step_aborted (self))
    {
      g_object_unref (provider);
      return;
    }
  if (error != NULL)
    g_debug ("“%s”: could not load stored sign-in: %s",
             mcp_server_config_get_name (self->config), error->message);

  self->authorization = mcp_auth_provider_get_authorization (MCP_AUTH_PROVIDER (provider));
  mcp_doctor_add_secret (self, self->authorization);
  if (self->authorization != NULL)
    {
      g_clear_object (&self->auth);
      self->auth = mcp_doctor_auth_new (MCP_AUTH_PROVIDER (provider));
    }
  g_object_unref (provider);
  then (self);
}

void
mcp_doctor_load_sign_in (McpDoctor         *self,
                         McpDoctorStepFunc  then)
{
  McpOAuthProvider *provider;
  Load *load = g_new0 (Load, 1);

  /* Never interactive: without an open-URL function it only reads. */
  provider = mcp_oauth_provider_new (mcp_server_config_get_name (self->expanded),
                                     mcp_server_config_get_url (self->expanded),
                                     mcp_server_config_get_oauth (self->expanded),
                                     self->token_store);
  load->self = g_object_ref (self);
  load->then = then;
  mcp_oauth_provider_load_async (provider, g_task_get_cancellable (self->task),
                                 on_sign_in_loaded_cb, load);
}
