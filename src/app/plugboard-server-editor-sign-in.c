/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-server-editor"

/* PlugboardServerEditor's Sign-In group: the sign-in method (the grant of
 * "oauth", README "Signing in without a browser"), the rows each method
 * needs, the members of "oauth" they make and are filled from, and what a
 * method needs before it can be saved. The secrets it takes are in
 * plugboard-server-editor-secrets.c. */

#include "config.h"

#include "plugboard-server-editor-private.h"

#include <string.h>

#include <glib/gi18n.h>

/* "grant" for each sign-in method, in the combo row's order */
static const char * const grants[] = {
  "authorization_code", "client_credentials", "jwt_bearer", "enterprise",
};

/* "tokenEndpointAuthMethod" for each client authentication item */
static const char * const auth_methods[] = {
  "client_secret_basic", "client_secret_post", "private_key_jwt", "none",
};

/* The ID token sources, in the combo row's order */
enum
{
  ID_TOKEN_COMMAND,
  ID_TOKEN_FILE,
  ID_TOKEN_ENV,
  ID_TOKEN_SIGN_IN,
};

/* The members only a grant other than the browser's has: they go when the
 * browser sign-in is chosen again. */
static const char * const grant_members[] = {
  "grant", "clientSecret", "tokenEndpointAuthMethod", "privateKey", "signingAlgorithm",
  "assertion", "idp", NULL,
};

guint
plugboard_server_editor_selected_sign_in (PlugboardServerEditor *self)
{
  guint selected = adw_combo_row_get_selected (self->oauth_method_row);

  return selected <= SIGN_IN_ENTERPRISE ? selected : SIGN_IN_BROWSER;
}

static guint
selected_auth (PlugboardServerEditor *self)
{
  guint selected = adw_combo_row_get_selected (self->oauth_auth_method_row);

  return selected <= CLIENT_AUTH_NONE ? selected : CLIENT_AUTH_SECRET_BASIC;
}

static gboolean
uses_client_secret (PlugboardServerEditor *self)
{
  guint method = plugboard_server_editor_selected_sign_in (self);
  guint auth = selected_auth (self);

  return method != SIGN_IN_BROWSER &&
         (auth == CLIENT_AUTH_SECRET_BASIC || auth == CLIENT_AUTH_SECRET_POST);
}

static gboolean
uses_private_key (PlugboardServerEditor *self)
{
  return plugboard_server_editor_selected_sign_in (self) != SIGN_IN_BROWSER &&
         selected_auth (self) == CLIENT_AUTH_PRIVATE_KEY_JWT;
}

static gboolean
has_stored (PlugboardEditorSecret *secret)
{
  return secret->stored != NULL && !secret->removed;
}

static void
update_secret_rows (PlugboardEditorSecret *secret,
                    gboolean               shown)
{
  const char *typed = gtk_editable_get_text (GTK_EDITABLE (secret->entry_row));

  /* a stored secret shows as such until the person replaces it */
  gtk_widget_set_visible (GTK_WIDGET (secret->stored_row),
                          shown && has_stored (secret) && typed[0] == '\0' && !secret->replacing);
  gtk_widget_set_visible (GTK_WIDGET (secret->entry_row),
                          shown && !gtk_widget_get_visible (GTK_WIDGET (secret->stored_row)));
}

static gboolean
is_secret_reference (const char *value)
{
  return value != NULL && g_str_has_prefix (value, "${secret:") && g_str_has_suffix (value, "}");
}

static void
update_key_row (PlugboardServerEditor *self)
{
  const char *subtitle;

  if (self->key_error != NULL)
    subtitle = self->key_error;
  else if (self->key_pem != NULL)
    subtitle = self->key_rsa ? _("New RSA key (RS256), stored in the keyring on Save")
                             : _("New EC P-256 key (ES256), stored in the keyring on Save");
  else if (self->key_stored != NULL && !self->key_removed)
    subtitle = is_secret_reference (self->key_stored) ? _("Stored in the keyring")
                                                      : _("Set in the settings file");
  else
    subtitle = _("Not set: paste a PEM private key or choose its file");

  adw_action_row_set_subtitle (self->oauth_key_row, subtitle);
  gtk_widget_set_visible (GTK_WIDGET (self->oauth_key_remove_button),
                          self->key_pem != NULL || (self->key_stored != NULL && !self->key_removed));
}

void
plugboard_server_editor_update_sign_in_rows (PlugboardServerEditor *self)
{
  guint method = plugboard_server_editor_selected_sign_in (self);
  gboolean browser = method == SIGN_IN_BROWSER;
  gboolean workload = method == SIGN_IN_WORKLOAD;
  gboolean enterprise = method == SIGN_IN_ENTERPRISE;
  gboolean remote = plugboard_server_editor_selected_transport (self) != TRANSPORT_STDIO;
  guint id_token = adw_combo_row_get_selected (self->oauth_id_token_source_row);
  const char *description;

  gtk_widget_set_visible (GTK_WIDGET (self->oauth_auth_method_row), !browser);
  update_secret_rows (&self->client_secret, uses_client_secret (self));
  gtk_widget_set_visible (GTK_WIDGET (self->oauth_key_row), uses_private_key (self));
  update_key_row (self);
  gtk_widget_set_visible (GTK_WIDGET (self->oauth_assertion_source_row), workload);
  gtk_widget_set_visible (GTK_WIDGET (self->oauth_assertion_row), workload);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->oauth_assertion_row),
                                 adw_combo_row_get_selected (self->oauth_assertion_source_row) == 1
                                 ? _("Environment _Variable") : _("Assertion _File"));
  gtk_widget_set_visible (GTK_WIDGET (self->oauth_id_token_source_row), enterprise);
  gtk_widget_set_visible (GTK_WIDGET (self->oauth_id_token_row), enterprise && id_token != ID_TOKEN_SIGN_IN);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->oauth_id_token_row),
                                 id_token == ID_TOKEN_FILE ? _("ID Token _File")
                                 : id_token == ID_TOKEN_ENV ? _("ID Token Environment _Variable")
                                 : _("ID Token Co_mmand"));
  gtk_widget_set_visible (GTK_WIDGET (self->oauth_port_row), browser);
  gtk_widget_set_visible (GTK_WIDGET (self->idp_group), remote && enterprise);
  update_secret_rows (&self->idp_secret, enterprise);

  switch (method)
    {
    case SIGN_IN_CLIENT_CREDENTIALS:
      description = _("Plugboard signs in as a service with its own client ID, without a browser.");
      break;
    case SIGN_IN_WORKLOAD:
      description = _("A token your platform issues (a file or a variable, read again whenever it is needed) is exchanged for access.");
      break;
    case SIGN_IN_ENTERPRISE:
      description = _("Your organization’s identity provider vouches for you; no sign-in at the server.");
      break;
    default:
      description = _("Only needed when the server does not let Plugboard register itself.");
      break;
    }
  adw_preferences_group_set_description (self->oauth_group, description);
}

static void
set_or_remove_string (JsonObject *object,
                      const char *member,
                      const char *value)
{
  if (value != NULL && value[0] != '\0')
    json_object_set_string_member (object, member, value);
  else if (json_object_has_member (object, member))
    json_object_remove_member (object, member);
}

static void
remove_member (JsonObject *object,
               const char *member)
{
  if (json_object_has_member (object, member))
    json_object_remove_member (object, member);
}

static JsonObject *
object_member (JsonObject *object,
               const char *member)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, member) : NULL;

  return node != NULL && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
}

/* The member a secret row makes: what was typed (as the reference it will
 * be stored under), the stored one, or none. */
static void
set_secret_member (JsonObject            *object,
                   const char            *member,
                   PlugboardEditorSecret *secret,
                   const char            *server,
                   const char            *id_name)
{
  const char *typed = gtk_editable_get_text (GTK_EDITABLE (secret->entry_row));

  if (typed[0] != '\0')
    {
      g_autofree char *id = plugboard_server_editor_dup_secret_id (server, id_name);
      g_autofree char *reference = g_strdup_printf ("${secret:%s}", id);

      json_object_set_string_member (object, member, reference);
    }
  else if (has_stored (secret))
    json_object_set_string_member (object, member, secret->stored);
  else
    remove_member (object, member);
}

/* {"file": …} / {"env": …} / {"command": [argv]} / {"signIn": true} */
static JsonObject *
source_object (const char *kind,
               const char *text)
{
  JsonObject *source = json_object_new ();

  if (g_str_equal (kind, "signIn"))
    {
      json_object_set_boolean_member (source, "signIn", TRUE);
    }
  else if (g_str_equal (kind, "command"))
    {
      g_auto(GStrv) argv = NULL;
      JsonArray *array = json_array_new ();

      /* quoted as a shell would, but run without one; text that does not
       * parse is one argument, so that the engine names what is wrong */
      if (!g_shell_parse_argv (text, NULL, &argv, NULL))
        json_array_add_string_element (array, text);
      else
        for (guint i = 0; argv[i] != NULL; i++)
          json_array_add_string_element (array, argv[i]);
      json_object_set_array_member (source, "command", array);
    }
  else
    {
      json_object_set_string_member (source, kind, text);
    }

  return source;
}

void
plugboard_server_editor_build_oauth (PlugboardServerEditor *self,
                                     const char            *name,
                                     JsonObject            *oauth)
{
  guint method = plugboard_server_editor_selected_sign_in (self);
  guint auth = selected_auth (self);
  guint dpop = adw_combo_row_get_selected (self->oauth_dpop_row);

  if (method == SIGN_IN_BROWSER)
    {
      for (guint i = 0; grant_members[i] != NULL; i++)
        remove_member (oauth, grant_members[i]);
    }
  else
    {
      json_object_set_string_member (oauth, "grant", grants[method]);
      json_object_set_string_member (oauth, "tokenEndpointAuthMethod", auth_methods[auth]);

      if (uses_client_secret (self))
        set_secret_member (oauth, "clientSecret", &self->client_secret, name, "clientSecret");
      else
        remove_member (oauth, "clientSecret");

      if (uses_private_key (self))
        {
          if (self->key_pem != NULL)
            {
              g_autofree char *id = plugboard_server_editor_dup_secret_id (name, "privateKey");
              g_autofree char *reference = g_strdup_printf ("${secret:%s}", id);

              json_object_set_string_member (oauth, "privateKey", reference);
              json_object_set_string_member (oauth, "signingAlgorithm", self->key_rsa ? "RS256" : "ES256");
            }
          else if (self->key_stored != NULL && !self->key_removed)
            {
              json_object_set_string_member (oauth, "privateKey", self->key_stored);
            }
          else
            {
              remove_member (oauth, "privateKey");
            }
        }
      else
        {
          remove_member (oauth, "privateKey");
          remove_member (oauth, "signingAlgorithm");
        }

      if (method == SIGN_IN_WORKLOAD)
        {
          g_autofree char *text = plugboard_server_editor_dup_stripped (GTK_EDITABLE (self->oauth_assertion_row));
          gboolean env = adw_combo_row_get_selected (self->oauth_assertion_source_row) == 1;

          /* none yet: said in the editor's own words (check_sign_in) */
          if (text[0] != '\0')
            json_object_set_object_member (oauth, "assertion", source_object (env ? "env" : "file", text));
          else
            remove_member (oauth, "assertion");
        }
      else
        {
          remove_member (oauth, "assertion");
        }

      if (method == SIGN_IN_ENTERPRISE)
        {
          static const char * const kinds[] = { "command", "file", "env", "signIn" };
          JsonObject *base_idp = object_member (oauth, "idp");
          g_autoptr(JsonObject) idp = NULL;
          g_autofree char *issuer = plugboard_server_editor_dup_stripped (GTK_EDITABLE (self->oauth_idp_issuer_row));
          g_autofree char *endpoint = plugboard_server_editor_dup_stripped (GTK_EDITABLE (self->oauth_idp_token_endpoint_row));
          g_autofree char *client_id = plugboard_server_editor_dup_stripped (GTK_EDITABLE (self->oauth_idp_client_id_row));
          g_autofree char *text = plugboard_server_editor_dup_stripped (GTK_EDITABLE (self->oauth_id_token_row));
          guint source = adw_combo_row_get_selected (self->oauth_id_token_source_row);

          /* the IdP's members the editor does not know are kept too */
          idp = base_idp != NULL ? json_object_ref (base_idp) : json_object_new ();
          set_or_remove_string (idp, "issuer", issuer);
          set_or_remove_string (idp, "tokenEndpoint", endpoint);
          set_or_remove_string (idp, "clientId", client_id);
          set_secret_member (idp, "clientSecret", &self->idp_secret, name, "idpClientSecret");
          if (text[0] != '\0' || source == ID_TOKEN_SIGN_IN)
            json_object_set_object_member (idp, "idToken",
                                           source_object (kinds[MIN (source, ID_TOKEN_SIGN_IN)], text));
          else
            remove_member (idp, "idToken");
          json_object_set_object_member (oauth, "idp", g_steal_pointer (&idp));
        }
      else
        {
          remove_member (oauth, "idp");
        }
    }

  if (dpop == 1 || dpop == 2)
    json_object_set_boolean_member (oauth, "dpop", dpop == 1);
  else
    remove_member (oauth, "dpop");
}

static guint
index_of (const char * const *strings,
          guint               n_strings,
          const char         *value,
          guint               fallback)
{
  for (guint i = 0; i < n_strings; i++)
    {
      if (g_strcmp0 (strings[i], value) == 0)
        return i;
    }

  return fallback;
}

static void
load_secret (PlugboardEditorSecret *secret,
             JsonObject            *object)
{
  const char *value = plugboard_server_editor_string_member (object, "clientSecret");

  g_clear_pointer (&secret->stored, g_free);
  secret->stored = value[0] != '\0' ? g_strdup (value) : NULL;
  secret->removed = FALSE;
  secret->replacing = FALSE;
  gtk_editable_set_text (GTK_EDITABLE (secret->entry_row), "");
  adw_action_row_set_subtitle (secret->stored_row, is_secret_reference (secret->stored)
                                                   ? _("Stored in the keyring")
                                                   : _("Set in the settings file"));
}

/* Which source @object names, and its text for the row */
static guint
load_source (JsonObject  *object,
             char       **text)
{
  JsonNode *node;

  if (object == NULL)
    {
      *text = g_strdup ("");
      return 0;
    }

  if ((node = json_object_get_member (object, "command")) != NULL && JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);
      g_autoptr(GString) line = g_string_new (NULL);

      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          const char *arg = json_array_get_string_element (array, i);
          g_autofree char *quoted = NULL;

          if (arg == NULL)
            continue;
          /* plain words stay as they are written */
          quoted = arg[0] != '\0' && strpbrk (arg, " \t\n'\"\\$`*?[]{}()<>|&;#~") == NULL
                   ? g_strdup (arg) : g_shell_quote (arg);
          if (line->len > 0)
            g_string_append_c (line, ' ');
          g_string_append (line, quoted);
        }
      *text = g_string_free (g_steal_pointer (&line), FALSE);
      return ID_TOKEN_COMMAND;
    }

  if (json_object_has_member (object, "file"))
    {
      *text = g_strdup (plugboard_server_editor_string_member (object, "file"));
      return ID_TOKEN_FILE;
    }

  if (json_object_has_member (object, "env"))
    {
      *text = g_strdup (plugboard_server_editor_string_member (object, "env"));
      return ID_TOKEN_ENV;
    }

  *text = g_strdup ("");
  if (json_object_has_member (object, "signIn"))
    return ID_TOKEN_SIGN_IN;
  return 0;
}

void
plugboard_server_editor_fill_sign_in (PlugboardServerEditor *self,
                                      JsonObject            *oauth)
{
  const char *grant = plugboard_server_editor_string_member (oauth, "grant");
  const char *auth = plugboard_server_editor_string_member (oauth, "tokenEndpointAuthMethod");
  const char *key = plugboard_server_editor_string_member (oauth, "privateKey");
  JsonObject *idp = object_member (oauth, "idp");
  JsonObject *id_token = object_member (idp, "idToken");
  JsonObject *assertion = object_member (oauth, "assertion");
  JsonNode *dpop = oauth != NULL ? json_object_get_member (oauth, "dpop") : NULL;
  guint method = index_of (grants, G_N_ELEMENTS (grants), grant, SIGN_IN_BROWSER);
  g_autofree char *assertion_text = NULL;
  g_autofree char *id_token_text = NULL;
  guint assertion_source;
  guint id_token_source;

  adw_combo_row_set_selected (self->oauth_method_row, method);
  /* the engine's default when none is named: a secret in the header,
   * none for a workload's assertion */
  adw_combo_row_set_selected (self->oauth_auth_method_row,
                              index_of (auth_methods, G_N_ELEMENTS (auth_methods),
                                        auth[0] != '\0' ? auth
                                        : key[0] != '\0' ? "private_key_jwt"
                                        : method == SIGN_IN_WORKLOAD ? "none" : "client_secret_basic",
                                        CLIENT_AUTH_SECRET_BASIC));

  load_secret (&self->client_secret, oauth);
  load_secret (&self->idp_secret, idp);

  g_clear_pointer (&self->key_stored, g_free);
  plugboard_server_editor_clear_secrets (self);
  self->key_stored = key[0] != '\0' ? g_strdup (key) : NULL;
  self->key_removed = FALSE;

  assertion_source = load_source (assertion, &assertion_text);
  adw_combo_row_set_selected (self->oauth_assertion_source_row, assertion_source == ID_TOKEN_ENV ? 1 : 0);
  gtk_editable_set_text (GTK_EDITABLE (self->oauth_assertion_row), assertion_text);

  id_token_source = load_source (id_token, &id_token_text);
  adw_combo_row_set_selected (self->oauth_id_token_source_row, id_token_source);
  gtk_editable_set_text (GTK_EDITABLE (self->oauth_id_token_row), id_token_text);

  gtk_editable_set_text (GTK_EDITABLE (self->oauth_idp_issuer_row),
                         plugboard_server_editor_string_member (idp, "issuer"));
  gtk_editable_set_text (GTK_EDITABLE (self->oauth_idp_token_endpoint_row),
                         plugboard_server_editor_string_member (idp, "tokenEndpoint"));
  gtk_editable_set_text (GTK_EDITABLE (self->oauth_idp_client_id_row),
                         plugboard_server_editor_string_member (idp, "clientId"));

  if (dpop != NULL && JSON_NODE_HOLDS_VALUE (dpop) && json_node_get_value_type (dpop) == G_TYPE_BOOLEAN)
    adw_combo_row_set_selected (self->oauth_dpop_row, json_node_get_boolean (dpop) ? 1 : 2);
  else
    adw_combo_row_set_selected (self->oauth_dpop_row, 0);

  plugboard_server_editor_update_sign_in_rows (self);
}

static gboolean
row_empty (AdwEntryRow *row)
{
  g_autofree char *text = plugboard_server_editor_dup_stripped (GTK_EDITABLE (row));

  return text[0] == '\0';
}

char *
plugboard_server_editor_check_sign_in (PlugboardServerEditor  *self,
                                       GtkWidget             **row)
{
  guint method = plugboard_server_editor_selected_sign_in (self);

  *row = NULL;
  if (plugboard_server_editor_selected_transport (self) == TRANSPORT_STDIO || method == SIGN_IN_BROWSER)
    return NULL;

  if (method == SIGN_IN_CLIENT_CREDENTIALS && row_empty (self->oauth_client_id_row))
    {
      *row = GTK_WIDGET (self->oauth_client_id_row);
      return g_strdup (_("Client credentials need the client ID the authorization server gave this client."));
    }

  if (uses_client_secret (self) && !has_stored (&self->client_secret) &&
      gtk_editable_get_text (GTK_EDITABLE (self->client_secret.entry_row))[0] == '\0')
    {
      *row = GTK_WIDGET (self->client_secret.entry_row);
      return g_strdup (_("Enter the client secret, or choose another client authentication."));
    }

  if (uses_private_key (self) && self->key_error != NULL)
    {
      *row = GTK_WIDGET (self->oauth_key_row);
      return g_strdup (self->key_error);
    }

  if (uses_private_key (self) && self->key_pem == NULL && (self->key_stored == NULL || self->key_removed))
    {
      *row = GTK_WIDGET (self->oauth_key_row);
      return g_strdup (_("Paste the client’s private key (PEM) or choose its file, or choose another client authentication."));
    }

  if (method == SIGN_IN_WORKLOAD && row_empty (self->oauth_assertion_row))
    {
      *row = GTK_WIDGET (self->oauth_assertion_row);
      return g_strdup (adw_combo_row_get_selected (self->oauth_assertion_source_row) == 1
                       ? _("Name the environment variable that holds the workload’s token.")
                       : _("Enter the file that holds the workload’s token."));
    }

  if (method == SIGN_IN_ENTERPRISE)
    {
      if (row_empty (self->oauth_idp_issuer_row))
        {
          *row = GTK_WIDGET (self->oauth_idp_issuer_row);
          return g_strdup (_("Enter the identity provider’s issuer (its https address)."));
        }
      if (row_empty (self->oauth_idp_client_id_row))
        {
          *row = GTK_WIDGET (self->oauth_idp_client_id_row);
          return g_strdup (_("Enter the client ID Plugboard has at the identity provider."));
        }
      if (adw_combo_row_get_selected (self->oauth_id_token_source_row) != ID_TOKEN_SIGN_IN &&
          row_empty (self->oauth_id_token_row))
        {
          *row = GTK_WIDGET (self->oauth_id_token_row);
          return g_strdup (_("Say where the ID token comes from: a command, a file or an environment variable."));
        }
    }

  return NULL;
}

static void
on_sign_in_changed_cb (PlugboardServerEditor *self)
{
  plugboard_server_editor_update_sign_in_rows (self);
  plugboard_server_editor_field_changed (self, NULL);
}

void
plugboard_server_editor_class_init_sign_in (GtkWidgetClass *widget_class)
{
  gtk_widget_class_bind_template_callback (widget_class, on_sign_in_changed_cb);
}
