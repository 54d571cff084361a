/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-cli-oauth-grants"
#define _GNU_SOURCE /* memmem */

#include "config.h"

#include <string.h>
#include <sys/stat.h>

#include <glib/gstdio.h>
#include <gio/gio.h>

#include "mcp-jose.h"
#include "mcp-oauth-grant.h"
#include "mcp-oauth-fixture.h"
#include "test-cli-run.h"
#include "test-run.h"
#include "test-util.h"

/* Every grant without a browser (issue 27) through plugboard-cli login and
 * call, against the OAuth fixture (in this process) with a real
 * server-everything (Streamable HTTP) behind it: client_credentials by
 * client_secret_basic, client_secret_post and private_key_jwt; the JWT
 * bearer grant with an assertion from a file (replaced once expired) and
 * from the environment; enterprise-managed authorization with the ID
 * token from a command and from a file; DPoP required, with nonces. And
 * what must fail: a wrong secret, an expired assertion, an ID token command
 * that fails or hangs. After each: no client secret, PEM, assertion, ID
 * token or issued token in stdout, stderr, the trace, or any file under
 * the test's folders; the keyring holds them (run-with-keyring.sh). */

#define SERVER_NAME   "grants"
#define HANG_BOUND_S  120
#define WORKLOAD_ISS  "https://workload.example"

static const char *cli_path;
static char *node_path;
static char *everything_script;

typedef struct
{
  char            *root;
  char            *home;
  char            *config_dir;
  char            *project_dir;
  char            *inputs;      /* files the test hands in: assertions, ID tokens, a script */
  char            *trace_path;
  McpOAuthFixture *fixture;
  GSubprocess     *everything;
  GPtrArray       *secrets;     /* what must not appear anywhere */
  GPtrArray       *extra_env;   /* NAME, VALUE pairs for plugboard-cli */
} Env;

static void
env_add_secret (Env        *env,
                const char *secret)
{
  if (secret != NULL && *secret != '\0')
    g_ptr_array_add (env->secrets, g_strdup (secret));
}

static void
env_clear (Env *env)
{
  if (env->everything != NULL)
    {
      g_subprocess_force_exit (env->everything);
      g_subprocess_wait (env->everything, NULL, NULL);
    }
  g_clear_object (&env->everything);
  g_clear_pointer (&env->fixture, mcp_oauth_fixture_free);
  if (env->root != NULL)
    test_remove_tree (env->root);
  g_clear_pointer (&env->root, g_free);
  g_clear_pointer (&env->home, g_free);
  g_clear_pointer (&env->config_dir, g_free);
  g_clear_pointer (&env->project_dir, g_free);
  g_clear_pointer (&env->inputs, g_free);
  g_clear_pointer (&env->trace_path, g_free);
  g_clear_pointer (&env->secrets, g_ptr_array_unref);
  g_clear_pointer (&env->extra_env, g_ptr_array_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Env, env_clear)

static gboolean
have_tools (void)
{
  if (g_getenv ("PLUGBOARD_TEST_KEYRING_HOME") == NULL)
    {
      g_test_skip ("not under tests/auth/run-with-keyring.sh: no Secret Service of our own");
      return FALSE;
    }
  if (!test_have_program (cli_path, "MCP_TEST_PLUGBOARD_CLI") ||
      !test_have_node_script (node_path, everything_script))
    return FALSE;

  return TRUE;
}

static McpJoseKey *
generate_key (McpJoseAlg alg)
{
  g_autoptr(GError) error = NULL;
  McpJoseKey *key = mcp_jose_key_generate (alg, &error);

  g_assert_no_error (error);
  return key;
}

static void
start_everything (Env *env)
{
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *port_text = NULL;
  g_autofree char *upstream = NULL;
  guint16 port = test_pick_port ();

  port_text = g_strdup_printf ("%u", port);
  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE |
                                        G_SUBPROCESS_FLAGS_STDERR_SILENCE);
  g_subprocess_launcher_setenv (launcher, "PORT", port_text, TRUE);
  g_subprocess_launcher_set_child_setup (launcher, test_die_with_parent, NULL, NULL);
  env->everything = g_subprocess_launcher_spawn (launcher, &error, node_path, everything_script,
                                                 "streamableHttp", NULL);
  g_assert_no_error (error);
  test_wait_listening (port, 30, "server-everything streamableHttp");
  upstream = g_strdup_printf ("http://127.0.0.1:%u/mcp", port);
  mcp_oauth_fixture_set_upstream (env->fixture, upstream);
}

static void
env_init (Env                  *env,
          McpOAuthFixtureFlags  flags)
{
  g_autoptr(GError) error = NULL;

  env->secrets = g_ptr_array_new_with_free_func (g_free);
  env->extra_env = g_ptr_array_new_with_free_func (g_free);
  env->root = g_dir_make_tmp ("test-cli-oauth-grants-XXXXXX", &error);
  g_assert_no_error (error);
  env->home = g_build_filename (env->root, "home", NULL);
  env->config_dir = g_build_filename (env->root, "config", NULL);
  env->project_dir = g_build_filename (env->root, "project", NULL);
  env->inputs = g_build_filename (env->root, "inputs", NULL);
  env->trace_path = g_build_filename (env->root, "trace.jsonl", NULL);
  g_assert_cmpint (g_mkdir_with_parents (env->home, 0700), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (env->config_dir, 0700), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (env->project_dir, 0700), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (env->inputs, 0700), ==, 0);

  env->fixture = mcp_oauth_fixture_new (flags, &error);
  g_assert_no_error (error);
  env_add_secret (env, "service-secret");
  env_add_secret (env, "enterprise-secret");
  env_add_secret (env, "idp-secret");
  start_everything (env);
}

/* The settings: one http server at the fixture with @oauth (JSON text). */
static void
write_settings (Env        *env,
                const char *oauth)
{
  g_autofree char *path = g_build_filename (env->config_dir, "settings.json", NULL);
  g_autofree char *settings = NULL;

  settings = g_strdup_printf ("{\"mcpServers\": {\"" SERVER_NAME "\": {\"type\": \"http\", "
                              "\"url\": \"%s\", \"oauth\": %s}},\n"
                              " \"permissions\": {\"allow\": [\"mcp__" SERVER_NAME "\"]}}\n",
                              mcp_oauth_fixture_get_mcp_url (env->fixture), oauth);
  test_write_file (path, settings);
}

static void
run_cli (TestRun            *run,
         Env                *env,
         const char * const *args,
         const char         *input)
{
  g_autoptr(GPtrArray) env_pairs = g_ptr_array_new ();
  g_autoptr(GPtrArray) argv = NULL;
  g_autoptr(GPtrArray) full_args = g_ptr_array_new ();
  g_autofree char *trace_option = g_strconcat ("--trace=", env->trace_path, NULL);
  TestCli cli = { 0 };

  for (const char * const *pair = (const char * const []) {
         "DISPLAY", NULL, "WAYLAND_DISPLAY", NULL, "HOME", env->home, "BROWSER", "false", NULL };
       *pair != NULL; pair += 2)
    {
      g_ptr_array_add (env_pairs, (gpointer) pair[0]);
      g_ptr_array_add (env_pairs, (gpointer) pair[1]);
    }
  for (guint i = 0; i < env->extra_env->len; i++)
    g_ptr_array_add (env_pairs, env->extra_env->pdata[i]);
  g_ptr_array_add (env_pairs, NULL);

  g_ptr_array_add (full_args, trace_option);
  for (const char * const *arg = args; *arg != NULL; arg++)
    g_ptr_array_add (full_args, (gpointer) *arg);
  g_ptr_array_add (full_args, NULL);

  cli.path = cli_path;
  cli.config_dir = env->config_dir;
  cli.project_dir = env->project_dir;
  cli.xdg_root = env->root;
  cli.env = (const char * const *) env_pairs->pdata;
  argv = test_cli_argv (&cli, (const char * const *) full_args->pdata);
  test_run_piped (run, test_cli_launcher (&cli, G_SUBPROCESS_FLAGS_STDIN_PIPE |
                                                G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                                G_SUBPROCESS_FLAGS_STDERR_PIPE),
                  (const char * const *) argv->pdata, input, HANG_BOUND_S);
  g_test_message ("plugboard-cli %s %s: exit %d\nstdout:\n%s\nstderr:\n%s", args[0],
                  args[1] ? args[1] : "", run->exit_status, run->out, run->err);
}

static void
set_env (Env        *env,
         const char *name,
         const char *value)
{
  g_ptr_array_add (env->extra_env, g_strdup (name));
  g_ptr_array_add (env->extra_env, g_strdup (value));
}

/* plugboard-cli secret set ID, the value on stdin */
static void
store_secret (Env        *env,
              const char *id,
              const char *value)
{
  g_auto(TestRun) run = { 0 };

  run_cli (&run, env, TEST_CLI_ARGS ("secret", "set", id), value);
  g_assert_cmpint (run.exit_status, ==, 0);
  g_assert_nonnull (strstr (run.out, id));
}

static void
login_and_call (Env *env)
{
  g_auto(TestRun) login = { 0 };
  g_auto(TestRun) call = { 0 };

  run_cli (&login, env, TEST_CLI_ARGS ("login", SERVER_NAME), NULL);
  g_assert_cmpint (login.exit_status, ==, 0);
  g_assert_nonnull (strstr (login.out, "Signed in to “" SERVER_NAME "”."));
  /* No browser: no authorization URL shown */
  g_assert_null (strstr (login.out, "/authorize?"));

  run_cli (&call, env, TEST_CLI_ARGS ("call", SERVER_NAME, "echo", "--args", "{\"message\":\"hi\"}"), NULL);
  g_assert_cmpint (call.exit_status, ==, 0);
  g_assert_nonnull (strstr (call.out, "Echo: hi"));
  g_assert_cmpuint (mcp_oauth_fixture_count (env->fixture, "upstream"), >, 0);
}

static void
assert_not_in (const char *where,
               const char *text,
               gsize       length,
               const char *secret)
{
  if (memmem (text, length, secret, strlen (secret)) != NULL)
    g_error ("%s holds a secret (%zu bytes, starting %.6s…)", where, strlen (secret), secret);
}

/* Every file under @path but the test's inputs; the 0600 fallback file
 * may hold them (its mode is checked). */
static void
assert_not_in_files (Env        *env,
                     const char *path,
                     const char *secret)
{
  g_autoptr(GDir) dir = NULL;
  const char *name;

  if (g_str_equal (path, env->inputs))
    return;
  dir = g_dir_open (path, 0, NULL);
  if (dir == NULL)
    {
      g_autofree char *contents = NULL;
      gsize length = 0;

      if (g_str_has_suffix (path, "oauth-credentials.json"))
        {
          GStatBuf st;

          g_assert_cmpint (g_stat (path, &st), ==, 0);
          g_assert_cmpint (st.st_mode & 0777, ==, 0600);
          return;
        }
      if (g_file_get_contents (path, &contents, &length, NULL))
        assert_not_in (path, contents, length, secret);
      return;
    }
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (!g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        assert_not_in_files (env, child, secret);
    }
}

/* No secret the test gave or the fixture issued in @runs' output, the
 * trace, or a file. */
static void
assert_no_secret (Env            *env,
                  const TestRun **runs)
{
  g_auto(GStrv) issued = mcp_oauth_fixture_dup_issued (env->fixture);
  g_autoptr(GPtrArray) all = g_ptr_array_new ();
  g_autofree char *trace = NULL;
  gsize trace_length = 0;

  for (guint i = 0; i < env->secrets->len; i++)
    g_ptr_array_add (all, env->secrets->pdata[i]);
  for (guint i = 0; issued[i] != NULL; i++)
    g_ptr_array_add (all, issued[i]);
  g_file_get_contents (env->trace_path, &trace, &trace_length, NULL);

  for (guint i = 0; i < all->len; i++)
    {
      const char *secret = all->pdata[i];

      for (guint r = 0; runs != NULL && runs[r] != NULL; r++)
        {
          assert_not_in ("stdout", runs[r]->out, strlen (runs[r]->out), secret);
          assert_not_in ("stderr", runs[r]->err, strlen (runs[r]->err), secret);
        }
      if (trace != NULL)
        assert_not_in ("the trace", trace, trace_length, secret);
      assert_not_in_files (env, env->root, secret);
    }
}

/* A JWT bearer assertion of WORKLOAD_ISS for "workload-1" */
static char *
sign_assertion (McpJoseKey      *key,
                McpOAuthFixture *fixture,
                gint64           lifetime_s)
{
  g_autoptr(JsonObject) claims = json_object_new ();
  g_autoptr(JsonObject) header = json_object_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *jti = g_uuid_string_random ();
  gint64 now = g_get_real_time () / G_USEC_PER_SEC;
  char *jwt;

  json_object_set_string_member (header, "typ", "JWT");
  json_object_set_string_member (claims, "iss", WORKLOAD_ISS);
  json_object_set_string_member (claims, "sub", "workload-1");
  json_object_set_string_member (claims, "aud", mcp_oauth_fixture_get_issuer (fixture));
  json_object_set_int_member (claims, "iat", now);
  json_object_set_int_member (claims, "exp", now + lifetime_s);
  json_object_set_string_member (claims, "jti", jti);
  jwt = mcp_jose_sign (key, header, claims, &error);
  g_assert_no_error (error);
  return jwt;
}

/* Tests */

static void
check_client_credentials (const char *method)
{
  g_auto(Env) env = { 0 };
  g_autofree char *oauth = NULL;

  if (!have_tools ())
    return;
  env_init (&env, MCP_OAUTH_FIXTURE_NONE);
  store_secret (&env, "svc.secret", "service-secret");
  oauth = g_strdup_printf ("{\"grant\": \"client_credentials\", \"clientId\": \"service-client\", "
                           "\"clientSecret\": \"${secret:svc.secret}\", "
                           "\"tokenEndpointAuthMethod\": \"%s\"}", method);
  write_settings (&env, oauth);
  login_and_call (&env);
  g_assert_cmpuint (mcp_oauth_fixture_count (env.fixture, "token-client-credentials"), >=, 1);
  assert_no_secret (&env, NULL);
}

static void
test_client_secret_basic (void)
{
  check_client_credentials ("client_secret_basic");
}

static void
test_client_secret_post (void)
{
  check_client_credentials ("client_secret_post");
}

static void
test_private_key_jwt (void)
{
  g_auto(Env) env = { 0 };
  g_autoptr(McpJoseKey) key = NULL;
  g_autoptr(JsonObject) jwk = NULL;
  char *pem;

  if (!have_tools () || (key = generate_key (MCP_JOSE_ALG_ES256)) == NULL)
    return;
  env_init (&env, MCP_OAUTH_FIXTURE_NONE);
  jwk = mcp_jose_key_get_public_jwk (key);
  mcp_oauth_fixture_add_jwt_client (env.fixture, "jwt-client", jwk);
  pem = mcp_jose_key_to_pem (key);
  store_secret (&env, "jwt.key", pem);
  /* The body of the PEM must be nowhere (the header line is no secret). */
  {
    g_auto(GStrv) lines = g_strsplit (pem, "\n", -1);

    for (guint i = 0; lines[i] != NULL; i++)
      if (strlen (lines[i]) > 40 && !g_str_has_prefix (lines[i], "-----"))
        env_add_secret (&env, lines[i]);
  }
  mcp_jose_free_secret (pem);
  write_settings (&env, "{\"grant\": \"client_credentials\", \"clientId\": \"jwt-client\", "
                        "\"tokenEndpointAuthMethod\": \"private_key_jwt\", "
                        "\"privateKey\": \"${secret:jwt.key}\", \"signingAlgorithm\": \"ES256\"}");
  login_and_call (&env);
  assert_no_secret (&env, NULL);
}

static void
test_jwt_bearer_file (void)
{
  g_auto(Env) env = { 0 };
  g_auto(TestRun) call = { 0 };
  g_autoptr(McpJoseKey) key = NULL;
  g_autoptr(JsonObject) jwk = NULL;
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;
  g_autofree char *path = NULL;
  g_autofree char *oauth = NULL;
  guint grants;

  if (!have_tools () || (key = generate_key (MCP_JOSE_ALG_ES256)) == NULL)
    return;
  env_init (&env, MCP_OAUTH_FIXTURE_NONE);
  jwk = mcp_jose_key_get_public_jwk (key);
  mcp_oauth_fixture_trust_issuer (env.fixture, WORKLOAD_ISS, jwk);
  first = sign_assertion (key, env.fixture, 60);
  env_add_secret (&env, first);
  path = g_build_filename (env.inputs, "workload.jwt", NULL);
  test_write_file (path, first);
  oauth = g_strdup_printf ("{\"grant\": \"jwt_bearer\", \"assertion\": {\"file\": \"%s\"}}", path);
  write_settings (&env, oauth);
  login_and_call (&env);
  grants = mcp_oauth_fixture_count (env.fixture, "token-jwt-bearer");

  /* The workload's token rotated and the access token expired: the next
   * call reads the file again and uses the new assertion. */
  second = sign_assertion (key, env.fixture, 60);
  env_add_secret (&env, second);
  test_write_file (path, second);
  mcp_oauth_fixture_expire_access_tokens (env.fixture);
  run_cli (&call, &env, TEST_CLI_ARGS ("call", SERVER_NAME, "echo", "--args", "{\"message\":\"hi\"}"), NULL);
  g_assert_cmpint (call.exit_status, ==, 0);
  g_assert_nonnull (strstr (call.out, "Echo: hi"));
  g_assert_cmpuint (mcp_oauth_fixture_count (env.fixture, "token-jwt-bearer"), >, grants);
  assert_no_secret (&env, (const TestRun *[]) { &call, NULL });
}

static void
test_jwt_bearer_env (void)
{
  g_auto(Env) env = { 0 };
  g_autoptr(McpJoseKey) key = NULL;
  g_autoptr(JsonObject) jwk = NULL;
  g_autofree char *assertion = NULL;

  if (!have_tools () || (key = generate_key (MCP_JOSE_ALG_ES256)) == NULL)
    return;
  env_init (&env, MCP_OAUTH_FIXTURE_NONE);
  jwk = mcp_jose_key_get_public_jwk (key);
  mcp_oauth_fixture_trust_issuer (env.fixture, WORKLOAD_ISS, jwk);
  assertion = sign_assertion (key, env.fixture, 600);
  env_add_secret (&env, assertion);
  set_env (&env, "PLUGBOARD_TEST_WORKLOAD_TOKEN", assertion);
  write_settings (&env, "{\"grant\": \"jwt_bearer\", "
                        "\"assertion\": {\"env\": \"PLUGBOARD_TEST_WORKLOAD_TOKEN\"}}");
  login_and_call (&env);
  assert_no_secret (&env, NULL);
}

/* enterprise: the settings with the ID token from @id_token (JSON) */
static void
write_enterprise_settings (Env        *env,
                           const char *id_token)
{
  g_autofree char *oauth = NULL;

  oauth = g_strdup_printf ("{\"grant\": \"enterprise\", \"clientId\": \"enterprise-client\", "
                           "\"clientSecret\": \"${secret:ent.secret}\", "
                           "\"tokenEndpointAuthMethod\": \"client_secret_basic\", "
                           "\"idp\": {\"issuer\": \"%s\", \"clientId\": \"idp-client\", "
                           "\"clientSecret\": \"${secret:idp.secret}\", \"idToken\": %s}}",
                           mcp_oauth_fixture_get_idp_issuer (env->fixture), id_token);
  write_settings (env, oauth);
}

/* A script that prints @output (or sleeps, or fails) */
static char *
write_script (Env        *env,
              const char *name,
              const char *body)
{
  g_autofree char *text = g_strdup_printf ("#!/bin/sh\n%s\n", body);
  char *path = g_build_filename (env->inputs, name, NULL);

  test_write_file (path, text);
  g_assert_cmpint (g_chmod (path, 0700), ==, 0);
  return path;
}

static gboolean
enterprise_init (Env   *env,
                 char **id_token)
{
  if (!have_tools ())
    return FALSE;
  env_init (env, MCP_OAUTH_FIXTURE_NONE);
  *id_token = mcp_oauth_fixture_issue_id_token (env->fixture, "alice@example.com");
  if (*id_token == NULL)
    {
      g_test_skip ("no JOSE signing here: the IdP cannot sign");
      return FALSE;
    }
  env_add_secret (env, *id_token);
  store_secret (env, "ent.secret", "enterprise-secret");
  store_secret (env, "idp.secret", "idp-secret");
  return TRUE;
}

static void
test_enterprise_command (void)
{
  g_auto(Env) env = { 0 };
  g_autofree char *id_token = NULL;
  g_autofree char *token_path = NULL;
  g_autofree char *body = NULL;
  g_autofree char *script = NULL;
  g_autofree char *source = NULL;

  if (!enterprise_init (&env, &id_token))
    return;
  token_path = g_build_filename (env.inputs, "id-token", NULL);
  test_write_file (token_path, id_token);
  body = g_strdup_printf ("read -r token < '%s'\nprintf '%%s\\n' \"$token\"", token_path);
  script = write_script (&env, "get-id-token", body);
  source = g_strdup_printf ("{\"command\": [\"%s\"]}", script);
  write_enterprise_settings (&env, source);
  login_and_call (&env);
  g_assert_cmpuint (mcp_oauth_fixture_count (env.fixture, "idp-token-exchange"), >=, 1);
  g_assert_cmpuint (mcp_oauth_fixture_count (env.fixture, "token-jwt-bearer"), >=, 1);
  assert_no_secret (&env, NULL);
}

static void
test_enterprise_file (void)
{
  g_auto(Env) env = { 0 };
  g_autofree char *id_token = NULL;
  g_autofree char *token_path = NULL;
  g_autofree char *source = NULL;

  if (!enterprise_init (&env, &id_token))
    return;
  token_path = g_build_filename (env.inputs, "id-token", NULL);
  test_write_file (token_path, id_token);
  source = g_strdup_printf ("{\"file\": \"%s\"}", token_path);
  write_enterprise_settings (&env, source);
  login_and_call (&env);
  g_assert_cmpuint (mcp_oauth_fixture_count (env.fixture, "idp-token-exchange"), >=, 1);
  assert_no_secret (&env, NULL);
}

/* The check @id of `plugboard-cli doctor --json` output @json has @status. */
static void
assert_doctor_check (const char *json,
                     const char *id,
                     const char *status)
{
  g_autoptr(JsonNode) root = json_from_string (json, NULL);
  JsonArray *checks;

  g_assert_nonnull (root);
  checks = json_object_get_array_member (json_node_get_object (root), "checks");
  for (guint i = 0; i < json_array_get_length (checks); i++)
    {
      JsonObject *check = json_array_get_object_element (checks, i);

      if (g_strcmp0 (json_object_get_string_member (check, "id"), id) == 0)
        {
          if (g_strcmp0 (json_object_get_string_member (check, "status"), status) != 0)
            g_error ("the doctor's check “%s” is “%s”, not “%s”: %s", id,
                     json_object_get_string_member (check, "status"), status,
                     json_object_get_string_member (check, "seen"));
          return;
        }
    }
  g_error ("the doctor ran no check “%s”", id);
}

static void
check_dpop (McpOAuthFixtureFlags flags)
{
  g_auto(Env) env = { 0 };
  g_autoptr(McpJoseKey) key = NULL;
  g_auto(TestRun) doctor = { 0 };
  const TestRun *runs[] = { &doctor, NULL };

  if (!have_tools () || (key = generate_key (MCP_JOSE_ALG_ES256)) == NULL)
    return;
  env_init (&env, flags);
  store_secret (&env, "svc.secret", "service-secret");
  write_settings (&env, "{\"grant\": \"client_credentials\", \"clientId\": \"service-client\", "
                        "\"clientSecret\": \"${secret:svc.secret}\", \"dpop\": true}");
  login_and_call (&env);
  g_assert_cmpuint (mcp_oauth_fixture_count (env.fixture, "dpop-proof-ok"), >=, 2);
  g_assert_cmpuint (mcp_oauth_fixture_count (env.fixture, "dpop-proof-bad"), ==, 0);
  if (flags & MCP_OAUTH_FIXTURE_DPOP_NONCE)
    g_assert_cmpuint (mcp_oauth_fixture_count (env.fixture, "dpop-nonce-challenge"), >=, 1);

  /* The doctor presents the bound token as a connection does ("DPoP" and
   * a proof, not "Bearer"): the server answers its probes. */
  run_cli (&doctor, &env, TEST_CLI_ARGS ("doctor", SERVER_NAME, "--json"), NULL);
  assert_doctor_check (doctor.out, "http", "pass");
  assert_doctor_check (doctor.out, "era", "pass");
  g_assert_cmpint (doctor.exit_status, ==, 0);
  assert_no_secret (&env, runs);
}

static void
test_dpop_required (void)
{
  check_dpop (MCP_OAUTH_FIXTURE_DPOP_REQUIRED);
}

static void
test_dpop_nonce (void)
{
  check_dpop (MCP_OAUTH_FIXTURE_DPOP_REQUIRED | MCP_OAUTH_FIXTURE_DPOP_NONCE);
}

/* What must fail: exit non-zero, a one-line error naming the server, and
 * no secret anywhere. */
static void
assert_login_fails (Env        *env,
                    const char *needle)
{
  g_auto(TestRun) login = { 0 };

  run_cli (&login, env, TEST_CLI_ARGS ("login", SERVER_NAME), NULL);
  g_assert_cmpint (login.exit_status, !=, 0);
  g_assert_nonnull (strstr (login.err, SERVER_NAME));
  if (needle != NULL)
    g_assert_nonnull (strstr (login.err, needle));
  assert_no_secret (env, (const TestRun *[]) { &login, NULL });
}

static void
test_wrong_secret (void)
{
  g_auto(Env) env = { 0 };

  if (!have_tools ())
    return;
  env_init (&env, MCP_OAUTH_FIXTURE_NONE);
  store_secret (&env, "svc.secret", "not-the-service-secret");
  env_add_secret (&env, "not-the-service-secret");
  write_settings (&env, "{\"grant\": \"client_credentials\", \"clientId\": \"service-client\", "
                        "\"clientSecret\": \"${secret:svc.secret}\"}");
  assert_login_fails (&env, "invalid_client");
}

static void
test_expired_assertion (void)
{
  g_auto(Env) env = { 0 };
  g_autoptr(McpJoseKey) key = NULL;
  g_autoptr(JsonObject) jwk = NULL;
  g_autofree char *assertion = NULL;
  g_autofree char *path = NULL;
  g_autofree char *oauth = NULL;

  if (!have_tools () || (key = generate_key (MCP_JOSE_ALG_ES256)) == NULL)
    return;
  env_init (&env, MCP_OAUTH_FIXTURE_NONE);
  jwk = mcp_jose_key_get_public_jwk (key);
  mcp_oauth_fixture_trust_issuer (env.fixture, WORKLOAD_ISS, jwk);
  assertion = sign_assertion (key, env.fixture, -60);
  env_add_secret (&env, assertion);
  path = g_build_filename (env.inputs, "workload.jwt", NULL);
  test_write_file (path, assertion);
  oauth = g_strdup_printf ("{\"grant\": \"jwt_bearer\", \"assertion\": {\"file\": \"%s\"}}", path);
  write_settings (&env, oauth);
  assert_login_fails (&env, "invalid_grant");
}

static void
check_bad_command (const char *name,
                   const char *body)
{
  g_auto(Env) env = { 0 };
  g_autofree char *id_token = NULL;
  g_autofree char *script = NULL;
  g_autofree char *source = NULL;

  if (!enterprise_init (&env, &id_token))
    return;
  script = write_script (&env, name, body);
  source = g_strdup_printf ("{\"command\": [\"%s\"]}", script);
  write_enterprise_settings (&env, source);
  assert_login_fails (&env, NULL);
  g_assert_cmpuint (mcp_oauth_fixture_count (env.fixture, "idp-token-exchange"), ==, 0);
}

static void
test_command_fails (void)
{
  check_bad_command ("fails", "echo 'no session for you' >&2\nexit 3");
}

static void
test_command_hangs (void)
{
  /* past the 30 s limit of an ID token command */
  check_bad_command ("hangs", "exec sleep 100");
}

/* Two plugboard-cli at once storing secrets where no Secret Service
 * answers (the 0600 fallback file): each reads, changes and writes the
 * whole file, under its lock, so none loses the other's. */
#define CONCURRENT_SECRETS 12

static void
test_secret_file_two_writers (void)
{
  g_auto(Env) env = { 0 };
  g_autoptr(GPtrArray) argv = NULL;
  g_autoptr(GPtrArray) loops = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GError) error = NULL;
  g_autofree char *file = NULL;
  g_autofree char *contents = NULL;
  const char * const args[] = { "secret", "set", NULL };
  TestCli cli = { 0 };
  GStatBuf st;

  if (!have_tools ())
    return;
  env_init (&env, MCP_OAUTH_FIXTURE_NONE);
  cli.path = cli_path;
  cli.config_dir = env.config_dir;
  cli.project_dir = env.project_dir;
  cli.xdg_root = env.root;
  /* no Secret Service: the file */
  cli.env = (const char * const []) { "HOME", env.home, "DBUS_SESSION_BUS_ADDRESS",
                                      "unix:path=/nonexistent/plugboard-test-bus", NULL };
  argv = test_cli_argv (&cli, args);
  g_ptr_array_add (argv, NULL);

  for (guint w = 0; w < 2; w++)
    {
      g_autoptr(GSubprocessLauncher) launcher = test_cli_launcher (&cli, G_SUBPROCESS_FLAGS_STDERR_SILENCE);
      g_autoptr(GPtrArray) shell = g_ptr_array_new ();
      g_autofree char *script = g_strdup_printf ("i=0; while [ $i -lt %d ]; do "
                                                 "printf 'value-%u-%%s' $i | \"$@\" w%u-$i || exit 1; "
                                                 "i=$((i + 1)); done",
                                                 CONCURRENT_SECRETS, w, w);
      GSubprocess *loop;

      g_ptr_array_add (shell, (gpointer) "/bin/sh");
      g_ptr_array_add (shell, (gpointer) "-c");
      g_ptr_array_add (shell, script);
      g_ptr_array_add (shell, (gpointer) "sh");
      for (guint i = 0; g_ptr_array_index (argv, i) != NULL; i++)
        g_ptr_array_add (shell, g_ptr_array_index (argv, i));
      g_ptr_array_add (shell, NULL);
      loop = g_subprocess_launcher_spawnv (launcher, (const char * const *) shell->pdata, &error);
      g_assert_no_error (error);
      g_ptr_array_add (loops, loop);
    }
  for (guint w = 0; w < loops->len; w++)
    {
      g_assert_true (g_subprocess_wait (g_ptr_array_index (loops, w), NULL, &error));
      g_assert_no_error (error);
      g_assert_true (g_subprocess_get_successful (g_ptr_array_index (loops, w)));
    }

  file = g_build_filename (env.root, "xdg-data", "plugboard", "oauth-credentials.json", NULL);
  g_assert_cmpint (g_stat (file, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);
  g_assert_true (g_file_get_contents (file, &contents, NULL, NULL));
  for (guint w = 0; w < 2; w++)
    for (guint i = 0; i < CONCURRENT_SECRETS; i++)
      {
        g_autofree char *value = g_strdup_printf ("\"value-%u-%u\"", w, i);

        if (strstr (contents, value) == NULL)
          g_error ("the secret w%u-%u was lost by a concurrent writer", w, i);
      }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  cli_path = g_getenv ("MCP_TEST_PLUGBOARD_CLI");
  node_path = test_find_node ();
  everything_script = test_find_node_module (TEST_EVERYTHING_SCRIPT);

  g_test_add_func ("/cli-oauth-grants/client-credentials/basic", test_client_secret_basic);
  g_test_add_func ("/cli-oauth-grants/client-credentials/post", test_client_secret_post);
  g_test_add_func ("/cli-oauth-grants/client-credentials/private-key-jwt", test_private_key_jwt);
  g_test_add_func ("/cli-oauth-grants/jwt-bearer/file", test_jwt_bearer_file);
  g_test_add_func ("/cli-oauth-grants/jwt-bearer/env", test_jwt_bearer_env);
  g_test_add_func ("/cli-oauth-grants/enterprise/command", test_enterprise_command);
  g_test_add_func ("/cli-oauth-grants/enterprise/file", test_enterprise_file);
  g_test_add_func ("/cli-oauth-grants/dpop/required", test_dpop_required);
  g_test_add_func ("/cli-oauth-grants/dpop/nonce", test_dpop_nonce);
  g_test_add_func ("/cli-oauth-grants/hostile/wrong-secret", test_wrong_secret);
  g_test_add_func ("/cli-oauth-grants/hostile/expired-assertion", test_expired_assertion);
  g_test_add_func ("/cli-oauth-grants/hostile/command-fails", test_command_fails);
  g_test_add_func ("/cli-oauth-grants/hostile/command-hangs", test_command_hangs);
  g_test_add_func ("/cli-oauth-grants/secret/file-two-writers", test_secret_file_two_writers);

  return g_test_run ();
}
