/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-doctor"

#include "config.h"

#include "mcp-doctor.h"
#include "mcp-doctor-private.h"
#include "mcp-secret-refs-private.h"

#include <signal.h>
#include <unistd.h>

#include <glib/gi18n.h>

#include "mcp-redact.h"
#include "mcp-server-connection-private.h"

/* McpDoctor: the object and the run. The steps of the server's transport
 * run one after another; each puts a running check into the model and
 * replaces it with its outcome; a failure skips the later steps. */

enum {
  PROP_0,
  PROP_RUNNING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (McpDoctor, mcp_doctor, G_TYPE_OBJECT)

static void
clear_step (McpDoctor *self)
{
  g_clear_handle_id (&self->step_timeout_id, g_source_remove);
  g_clear_object (&self->step_cancellable);
  self->step_timed_out = FALSE;
}

static void
reset_run (McpDoctor *self)
{
  clear_step (self);
  g_clear_pointer (&self->blocked_by, g_free);
  g_clear_pointer (&self->block_reason, g_free);
  g_clear_object (&self->expanded);
  g_clear_pointer (&self->secrets, g_strfreev);
  self->failed = FALSE;
  self->step = 0;
  mcp_doctor_stdio_reset (self);
  mcp_doctor_http_reset (self);
}

static void
mcp_doctor_dispose (GObject *object)
{
  McpDoctor *self = MCP_DOCTOR (object);

  reset_run (self);

  G_OBJECT_CLASS (mcp_doctor_parent_class)->dispose (object);
}

static void
mcp_doctor_finalize (GObject *object)
{
  McpDoctor *self = MCP_DOCTOR (object);

  g_clear_object (&self->config);
  g_clear_pointer (&self->environ, g_strfreev);
  g_clear_pointer (&self->authorization, g_free);
  g_clear_object (&self->auth);
  g_clear_object (&self->token_store);
  g_clear_object (&self->checks);

  G_OBJECT_CLASS (mcp_doctor_parent_class)->finalize (object);
}

static void
mcp_doctor_get_property (GObject    *object,
                         guint       prop_id,
                         GValue     *value,
                         GParamSpec *pspec)
{
  McpDoctor *self = MCP_DOCTOR (object);

  switch (prop_id)
    {
    case PROP_RUNNING:
      g_value_set_boolean (value, mcp_doctor_get_running (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mcp_doctor_class_init (McpDoctorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = mcp_doctor_dispose;
  object_class->finalize = mcp_doctor_finalize;
  object_class->get_property = mcp_doctor_get_property;

  properties[PROP_RUNNING] =
    g_param_spec_boolean ("running", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
mcp_doctor_init (McpDoctor *self)
{
  self->checks = g_list_store_new (MCP_TYPE_DOCTOR_CHECK);
  self->timeout = MCP_CLIENT_DEFAULT_CONNECT_TIMEOUT_MS;
}

McpDoctor *
mcp_doctor_new (McpServerConfig    *config,
                const char * const *environ)
{
  McpDoctor *self;

  g_return_val_if_fail (MCP_IS_SERVER_CONFIG (config), NULL);

  self = g_object_new (MCP_TYPE_DOCTOR, NULL);
  self->config = g_object_ref (config);
  self->environ = environ != NULL ? g_strdupv ((char **) environ) : g_get_environ ();
  return self;
}

McpDoctor *
mcp_doctor_new_for_connection (McpServerConnection *connection)
{
  McpDoctor *self;
  McpOAuthProvider *provider;

  g_return_val_if_fail (MCP_IS_SERVER_CONNECTION (connection), NULL);

  self = mcp_doctor_new (connection->config, (const char * const *) connection->environ);
  self->timeout = connection->connect_timeout;
  g_set_object (&self->token_store, connection->token_store);
  provider = mcp_server_connection_get_oauth_provider (connection);
  if (provider != NULL)
    self->authorization = mcp_auth_provider_get_authorization (MCP_AUTH_PROVIDER (provider));
  if (self->authorization != NULL)
    self->auth = mcp_doctor_auth_new (MCP_AUTH_PROVIDER (provider));
  return self;
}

void
mcp_doctor_set_timeout (McpDoctor *self,
                        guint      timeout_ms)
{
  g_return_if_fail (MCP_IS_DOCTOR (self));

  self->timeout = timeout_ms;
}

guint
mcp_doctor_get_timeout (McpDoctor *self)
{
  guint own;

  g_return_val_if_fail (MCP_IS_DOCTOR (self), 0);

  own = mcp_server_config_get_connect_timeout (self->config);
  if (own > 0)
    return own;
  /* 0 means no limit for a connection; a diagnosis must end. */
  return self->timeout > 0 ? self->timeout : MCP_CLIENT_DEFAULT_CONNECT_TIMEOUT_MS;
}

guint
mcp_doctor_timeout_seconds (McpDoctor *self)
{
  return MAX ((mcp_doctor_get_timeout (self) + 999) / 1000, 1);
}

const char *
mcp_doctor_get_server_name (McpDoctor *self)
{
  g_return_val_if_fail (MCP_IS_DOCTOR (self), NULL);

  return mcp_server_config_get_name (self->config);
}

GListModel *
mcp_doctor_get_checks (McpDoctor *self)
{
  g_return_val_if_fail (MCP_IS_DOCTOR (self), NULL);

  return G_LIST_MODEL (self->checks);
}

gboolean
mcp_doctor_get_running (McpDoctor *self)
{
  g_return_val_if_fail (MCP_IS_DOCTOR (self), FALSE);

  return self->task != NULL;
}

gboolean
mcp_doctor_has_failure (McpDoctor *self)
{
  g_return_val_if_fail (MCP_IS_DOCTOR (self), FALSE);

  return self->failed;
}

const char *
mcp_doctor_getenv (McpDoctor  *self,
                   const char *name)
{
  McpServerConfig *config = self->expanded != NULL ? self->expanded : self->config;
  const char * const *env = mcp_server_config_get_env (config);
  const char *value;

  value = g_environ_getenv ((char **) env, name);
  if (value != NULL)
    return value;
  return g_environ_getenv (self->environ, name);
}

char *
mcp_doctor_quote (const char *text)
{
  g_autofree char *valid = NULL;
  g_autofree char *cut = NULL;

  if (text == NULL)
    return g_strdup ("");

  valid = g_utf8_make_valid (text, -1);
  if (g_utf8_strlen (valid, -1) > MCP_DOCTOR_MAX_SHOWN)
    {
      g_autofree char *head = g_utf8_substring (valid, 0, MCP_DOCTOR_MAX_SHOWN);

      cut = g_strconcat (head, "…", NULL);
    }
  else
    cut = g_steal_pointer (&valid);

  return mcp_escape_controls (cut, MCP_ESCAPE_DEFAULT);
}

char *
mcp_doctor_format_lines (const char * const *lines)
{
  g_autoptr(GString) text = NULL;
  guint n;

  n = lines != NULL ? g_strv_length ((char **) lines) : 0;
  if (n == 0)
    return NULL;

  text = g_string_new (NULL);
  for (guint i = n > MCP_DOCTOR_STDERR_LINES ? n - MCP_DOCTOR_STDERR_LINES : 0; i < n; i++)
    {
      g_autofree char *line = mcp_doctor_quote (lines[i]);

      if (text->len > 0)
        g_string_append_c (text, '\n');
      g_string_append_printf (text, "  │ %s", line);
    }
  return g_string_free (g_steal_pointer (&text), FALSE);
}

/* ------------------------------------------------------------------------ */
/* The run                                                                  */

static void run_next (McpDoctor *self);

void
mcp_doctor_add_secret (McpDoctor  *self,
                       const char *secret)
{
  g_autoptr(GStrvBuilder) builder = NULL;

  if (secret == NULL)
    return;
  builder = g_strv_builder_new ();
  if (self->secrets != NULL)
    g_strv_builder_addv (builder, (const char **) self->secrets);
  g_strv_builder_add (builder, secret);
  /* The token alone too: a bound one goes out as "DPoP <token>". */
  if (g_str_has_prefix (secret, "Bearer ") && secret[7] != '\0')
    g_strv_builder_add (builder, secret + 7);
  g_strfreev (self->secrets);
  self->secrets = g_strv_builder_end (builder);
}

static void
finish_run (McpDoctor *self,
            GError    *error)
{
  g_autoptr(GTask) task = g_steal_pointer (&self->task);

  clear_step (self);
  mcp_doctor_stdio_reset (self);
  mcp_doctor_http_reset (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUNNING]);

  if (error != NULL)
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

gboolean
mcp_doctor_step_aborted (McpDoctor *self)
{
  GCancellable *cancellable;

  if (self->task == NULL)
    return TRUE;

  cancellable = g_task_get_cancellable (self->task);
  if (g_cancellable_is_cancelled (cancellable))
    {
      finish_run (self, g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                             _("The diagnosis was cancelled")));
      return TRUE;
    }
  return FALSE;
}

static gboolean
on_step_timeout_cb (gpointer user_data)
{
  McpDoctor *self = user_data;

  self->step_timeout_id = 0;
  self->step_timed_out = TRUE;
  g_cancellable_cancel (self->step_cancellable);
  return G_SOURCE_REMOVE;
}

static void
on_run_cancelled_cb (GCancellable *run,
                     GCancellable *step)
{
  g_cancellable_cancel (step);
}

GCancellable *
mcp_doctor_step_get_cancellable (McpDoctor *self)
{
  if (self->step_cancellable == NULL)
    {
      GCancellable *run = g_task_get_cancellable (self->task);

      self->step_cancellable = g_cancellable_new ();
      /* A second bound beside each check's own, so that no step can hang
       * the run: the timeout and a little more. */
      self->step_timeout_id = g_timeout_add (mcp_doctor_get_timeout (self) + 5000,
                                             on_step_timeout_cb, self);
      if (run != NULL)
        g_signal_connect_object (run, "cancelled", G_CALLBACK (on_run_cancelled_cb),
                                 self->step_cancellable, 0);
    }
  return self->step_cancellable;
}

void
mcp_doctor_block (McpDoctor  *self,
                  const char *reason)
{
  if (self->block_reason == NULL)
    self->block_reason = g_strdup (reason);
  if (self->blocked_by == NULL && self->step < self->n_steps)
    self->blocked_by = g_strdup (_(self->steps[self->step].title));
}

static McpDoctorCheck *
new_check (McpDoctor       *self,
           McpDoctorStatus  status,
           const char      *seen,
           const char      *fix,
           gint64           duration)
{
  const McpDoctorStep *step = &self->steps[self->step];
  g_autofree char *masked_seen = mcp_redact_text (seen, (const char * const *) self->secrets);
  g_autofree char *masked_fix = mcp_redact_text (fix, (const char * const *) self->secrets);

  return mcp_doctor_check_new (step->id, _(step->title), status,
                               masked_seen, masked_fix, duration);
}

void
mcp_doctor_step_done (McpDoctor       *self,
                      McpDoctorStatus  status,
                      char            *seen,
                      const char      *fix)
{
  g_autofree char *owned_seen = seen;
  g_autoptr(McpDoctorCheck) check = NULL;

  g_assert (self->task != NULL);
  g_assert (self->step < self->n_steps);

  check = new_check (self, status, owned_seen, fix,
                     g_get_monotonic_time () - self->step_start);
  g_list_store_splice (self->checks, self->step, 1, (gpointer *) &check, 1);

  if (status == MCP_DOCTOR_STATUS_FAIL)
    {
      self->failed = TRUE;
      mcp_doctor_block (self, NULL);
    }

  clear_step (self);
  self->step++;
  run_next (self);
}

static void
run_next (McpDoctor *self)
{
  while (self->step < self->n_steps)
    {
      const McpDoctorStep *step = &self->steps[self->step];
      g_autoptr(McpDoctorCheck) check = NULL;

      if (mcp_doctor_step_aborted (self))
        return;

      if (self->blocked_by != NULL && !step->always)
        {
          g_autofree char *seen = NULL;

          if (self->block_reason != NULL)
            seen = g_strdup (self->block_reason);
          else
            /* Translators: %s is the title of a check, e.g. “Command found” */
            seen = g_strdup_printf (_("Not checked: “%s” did not pass"), self->blocked_by);
          check = new_check (self, MCP_DOCTOR_STATUS_SKIPPED, seen, NULL, 0);
          g_list_store_append (self->checks, check);
          self->step++;
          continue;
        }

      self->step_start = g_get_monotonic_time ();
      check = new_check (self, MCP_DOCTOR_STATUS_RUNNING, NULL, NULL, 0);
      g_list_store_append (self->checks, check);
      step->func (self);
      return;
    }

  finish_run (self, NULL);
}

/* @environ: what ${VAR} and ${secret:ID} expand from; @secrets_error:
 * why a ${secret:ID} could not be looked up, or NULL */
static void
start_steps (McpDoctor          *self,
             const char * const *environ,
             const GError       *secrets_error)
{
  g_autoptr(GError) error = NULL;
  static const McpDoctorStep settings_step[] = {
    { "settings", N_("Settings"), NULL, FALSE },
  };

  if (secrets_error != NULL)
    error = g_error_copy (secrets_error);
  else
    self->expanded = mcp_server_config_expand (self->config, environ, &error);
  if (self->expanded == NULL)
    {
      g_autoptr(McpDoctorCheck) check = NULL;

      self->secrets = mcp_server_config_dup_secrets (self->config);
      self->steps = settings_step;
      self->n_steps = G_N_ELEMENTS (settings_step);
      check = new_check (self, MCP_DOCTOR_STATUS_FAIL, error->message,
                         secrets_error != NULL
                         ? _("Install the server again, or store the secret it names.")
                         : _("Set the variable in the environment Plugboard starts with, or give it a "
                             "default in the settings: ${NAME:-default}."), 0);
      g_list_store_append (self->checks, check);
      self->failed = TRUE;
      finish_run (self, NULL);
      return;
    }

  self->secrets = mcp_server_config_dup_secrets (self->expanded);
  mcp_doctor_add_secret (self, self->authorization);

  switch (mcp_server_config_get_transport (self->expanded))
    {
    case MCP_TRANSPORT_KIND_STDIO:
      self->steps = mcp_doctor_stdio_steps;
      self->n_steps = mcp_doctor_n_stdio_steps;
      break;
    case MCP_TRANSPORT_KIND_HTTP:
    case MCP_TRANSPORT_KIND_SSE:
    case MCP_TRANSPORT_KIND_WS:
      self->steps = mcp_doctor_http_steps;
      self->n_steps = mcp_doctor_n_http_steps;
      if (self->authorization == NULL && mcp_server_config_get_url (self->expanded) != NULL)
        {
          mcp_doctor_load_sign_in (self, run_next);
          return;
        }
      break;
    case MCP_TRANSPORT_KIND_SSE_IDE:
    case MCP_TRANSPORT_KIND_WS_IDE:
    default:
      {
        g_autoptr(McpDoctorCheck) check = NULL;

        self->steps = settings_step;
        self->n_steps = G_N_ELEMENTS (settings_step);
        check = new_check (self, MCP_DOCTOR_STATUS_SKIPPED,
                           _("An IDE server is found through its lock file while the IDE runs; "
                             "the doctor has no checks for it yet."),
                           NULL, 0);
        g_list_store_append (self->checks, check);
        finish_run (self, NULL);
        return;
      }
    }

  run_next (self);
}

static void
on_secrets_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(McpDoctor) self = user_data;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) environ = NULL;

  environ = mcp_secret_refs_resolve_finish (result, &error);
  if (mcp_doctor_step_aborted (self))
    return;
  start_steps (self, (const char * const *) environ, error);
}

void
mcp_doctor_run_async (McpDoctor           *self,
                      GCancellable        *cancellable,
                      GAsyncReadyCallback  callback,
                      gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (MCP_IS_DOCTOR (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_doctor_run_async);

  if (self->task != NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_PENDING,
                               _("The diagnosis of “%s” is already running"),
                               mcp_server_config_get_name (self->config));
      return;
    }

  reset_run (self);
  g_list_store_remove_all (self->checks);
  self->task = g_steal_pointer (&task);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUNNING]);
  /* Secrets come from the keyring, which takes a round trip. */
  if (mcp_secret_refs_used (self->config))
    {
      mcp_secret_refs_resolve_async (self->config, (const char * const *) self->environ,
                                     g_task_get_cancellable (self->task), on_secrets_cb,
                                     g_object_ref (self));
      return;
    }
  start_steps (self, (const char * const *) self->environ, NULL);
}

gboolean
mcp_doctor_run_finish (McpDoctor     *self,
                       GAsyncResult  *result,
                       GError       **error)
{
  g_return_val_if_fail (MCP_IS_DOCTOR (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

char *
mcp_doctor_dup_report (McpDoctor *self)
{
  g_autoptr(GString) report = NULL;
  guint n;

  g_return_val_if_fail (MCP_IS_DOCTOR (self), NULL);

  report = g_string_new (NULL);
  /* Translators: the first line of a doctor's report; %s is a server's name */
  g_string_append_printf (report, _("Diagnosis of “%s”"), mcp_server_config_get_name (self->config));
  g_string_append_c (report, '\n');

  n = g_list_model_get_n_items (G_LIST_MODEL (self->checks));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(McpDoctorCheck) check = g_list_model_get_item (G_LIST_MODEL (self->checks), i);
      const char *seen = mcp_doctor_check_get_seen (check);
      const char *fix = mcp_doctor_check_get_fix (check);

      g_string_append_printf (report, "[%s] %s\n",
                              mcp_doctor_status_to_string (mcp_doctor_check_get_status (check)),
                              mcp_doctor_check_get_title (check));
      if (seen != NULL && seen[0] != '\0')
        {
          g_auto(GStrv) lines = g_strsplit (seen, "\n", -1);

          for (guint j = 0; lines[j] != NULL; j++)
            g_string_append_printf (report, "    %s\n", lines[j]);
        }
      if (fix != NULL && fix[0] != '\0')
        /* Translators: before what to do about a failed check */
        g_string_append_printf (report, "    %s %s\n", _("Fix:"), fix);
    }

  return g_string_free (g_steal_pointer (&report), FALSE);
}

/* ------------------------------------------------------------------------ */
/* A helper command, bounded                                                */

typedef struct
{
  GSubprocess  *process;
  char         *buffer;
  gsize         length;
  guint         timeout_id;
  gboolean      timed_out;
} Command;

static void
command_free (Command *command)
{
  g_clear_handle_id (&command->timeout_id, g_source_remove);
  g_clear_object (&command->process);
  g_free (command->buffer);
  g_free (command);
}

static void
command_setup (gpointer user_data)
{
  /* No controlling terminal (a login shell must not stop to ask on it),
   * and a group of its own to kill at the timeout. */
  setsid ();
}

static gboolean
on_command_timeout_cb (gpointer user_data)
{
  Command *command = user_data;
  const char *id = g_subprocess_get_identifier (command->process);

  command->timeout_id = 0;
  command->timed_out = TRUE;
  if (id != NULL)
    kill (-(pid_t) g_ascii_strtoll (id, NULL, 10), SIGKILL);
  g_subprocess_force_exit (command->process);
  return G_SOURCE_REMOVE;
}

static void
on_command_waited_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Command *command = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  if (!g_subprocess_wait_finish (G_SUBPROCESS (object), result, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  g_clear_handle_id (&command->timeout_id, g_source_remove);
  if (command->timed_out)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
                               _("It did not finish within %u seconds"),
                               MCP_DOCTOR_COMMAND_TIMEOUT_MS / 1000);
      return;
    }
  g_task_return_pointer (task, g_strndup (command->buffer, command->length), g_free);
}

static void
on_command_read_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Command *command = g_task_get_task_data (task);

  /* An error reading is as good as the end of the output. */
  g_input_stream_read_all_finish (G_INPUT_STREAM (object), result, &command->length, NULL);
  if (command->length >= MCP_DOCTOR_MAX_OUTPUT)
    g_subprocess_force_exit (command->process);

  g_subprocess_wait_async (command->process, g_task_get_cancellable (task),
                           on_command_waited_cb, g_object_ref (task));
}

void
mcp_doctor_run_command_async (McpDoctor           *self,
                              const char * const  *argv,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GError) error = NULL;
  GCancellable *cancellable = mcp_doctor_step_get_cancellable (self);
  const char * const *env;
  Command *command;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_doctor_run_command_async);

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE |
                                        G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                        G_SUBPROCESS_FLAGS_STDERR_MERGE);
  g_subprocess_launcher_set_environ (launcher, self->environ);
  env = mcp_server_config_get_env (self->expanded);
  for (guint i = 0; env != NULL && env[i] != NULL; i++)
    {
      g_autofree char *name = g_strndup (env[i], strcspn (env[i], "="));
      const char *eq = strchr (env[i], '=');

      if (eq != NULL)
        g_subprocess_launcher_setenv (launcher, name, eq + 1, TRUE);
    }
  if (mcp_server_config_get_cwd (self->expanded) != NULL)
    g_subprocess_launcher_set_cwd (launcher, mcp_server_config_get_cwd (self->expanded));
  g_subprocess_launcher_set_child_setup (launcher, command_setup, NULL, NULL);

  command = g_new0 (Command, 1);
  g_task_set_task_data (task, command, (GDestroyNotify) command_free);
  command->process = g_subprocess_launcher_spawnv (launcher, argv, &error);
  if (command->process == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  g_output_stream_close (g_subprocess_get_stdin_pipe (command->process), NULL, NULL);

  command->buffer = g_malloc (MCP_DOCTOR_MAX_OUTPUT + 1);
  command->timeout_id = g_timeout_add (MIN (MCP_DOCTOR_COMMAND_TIMEOUT_MS, mcp_doctor_get_timeout (self)),
                                       on_command_timeout_cb, command);
  g_input_stream_read_all_async (g_subprocess_get_stdout_pipe (command->process),
                                 command->buffer, MCP_DOCTOR_MAX_OUTPUT, G_PRIORITY_DEFAULT,
                                 cancellable, on_command_read_cb, g_steal_pointer (&task));
}

char *
mcp_doctor_run_command_finish (McpDoctor     *self,
                               GAsyncResult  *result,
                               int           *wait_status,
                               GError       **error)
{
  Command *command = g_task_get_task_data (G_TASK (result));
  char *output = g_task_propagate_pointer (G_TASK (result), error);

  if (wait_status != NULL)
    *wait_status = output != NULL ? g_subprocess_get_status (command->process) : -1;
  return output;
}
