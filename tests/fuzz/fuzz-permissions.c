/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fuzz-permissions"

#include "config.h"

#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

#include "mcp-permissions.h"

/* Permission rules from settings files (McpPermissions): the input is
 * lines "allow:RULE", "deny:RULE", "ask:RULE", "server:NAME" (a configured
 * server) and "check:SERVER<tab>TOOL<tab>HINTS" (HINTS 0 to 3:
 * destructive 1, open-world 2). Each check is decided by the evaluator of
 * the rules and servers, and again by the same rules without the allow
 * list. Checks what the header promises:
 * - a rule that decides is one of the rules, of its own list, and names
 *   the tool's server as a whole name: "mcp__SERVER" or "mcp__SERVER__…"
 *   (characters outside [A-Za-z0-9_-] read as "_", white space around
 *   the rule ignored), so that "mcp__a"
 *   never reaches a server "a__evil";
 * - deny > ask > allow: taking the allow list away changes nothing a deny
 *   or ask rule decided, and leaves no rule deciding what allow decided;
 * - without a rule, a tool with no hint is the person's consent and any
 *   other asks; the command-line evaluator allows everything;
 * - a decision is the same twice, and its descriptions are UTF-8.
 * Warnings and criticals are fatal. */

static void
fail (const char *what)
{
  g_printerr ("fuzz-permissions: %s\n", what);
  abort ();
}

static char *
normalize (const char *name)
{
  char *copy = g_strdup (name);

  for (char *p = copy; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p) && *p != '_' && *p != '-')
      *p = '_';
  return copy;
}

/* The rule names @server as a whole name. Characters outside ASCII are
 * one "_" per character, not per byte: compare with the rule as the
 * evaluator read it only when both are ASCII. */
static gboolean
rule_names_server (const char *rule,
                   const char *server)
{
  g_autofree char *norm_rule = NULL;
  g_autofree char *norm_server = NULL;
  g_autofree char *whole = NULL;
  g_autofree char *prefix = NULL;

  if (!g_str_is_ascii (rule) || !g_str_is_ascii (server))
    return TRUE;

  /* the evaluator reads a rule without its surrounding white space */
  {
    g_autofree char *trimmed = g_strstrip (g_strdup (rule));

    norm_rule = normalize (trimmed);
  }
  norm_server = normalize (server);
  whole = g_strconcat ("mcp__", norm_server, NULL);
  prefix = g_strconcat (whole, "__", NULL);
  return strcmp (norm_rule, whole) == 0 || g_str_has_prefix (norm_rule, prefix);
}

static void
check_decision (const McpPermissionDecision *decision,
                GPtrArray                   *lists[3],
                const char                  *server,
                McpPermissionHints           hints)
{
  if (decision->reason == MCP_PERMISSION_REASON_RULE)
    {
      GPtrArray *list;

      if (decision->rule == NULL)
        fail ("a rule decision without its rule");
      list = lists[decision->permission];
      if (!g_ptr_array_find_with_equal_func (list, decision->rule, g_str_equal, NULL))
        fail ("a rule that decided is not in its list");
      if (!rule_names_server (decision->rule, server))
        {
          g_printerr ("rule “%s”, server “%s”\n", decision->rule, server);
          fail ("a rule decided for a server it does not name");
        }
      return;
    }

  if (decision->rule != NULL)
    fail ("a rule named for a decision no rule made");
  if (decision->reason == MCP_PERMISSION_REASON_DEFAULT_CONSENT)
    {
      if (hints != MCP_PERMISSION_HINT_NONE || decision->permission != MCP_PERMISSION_ALLOW)
        fail ("consent for a tool with a hint, or consent that does not allow");
    }
  else if (decision->reason == MCP_PERMISSION_REASON_DEFAULT_ASK)
    {
      if (hints == MCP_PERMISSION_HINT_NONE || decision->permission != MCP_PERMISSION_ASK)
        fail ("asking for a tool without a hint, or a default ask that does not ask");
    }
  else
    fail ("a reason that is none of the settings'");
}

/* A NULL-terminated copy of @array's pointers (the strings borrowed). */
static gboolean
always_changed (const char *server,
                const char *tool,
                gpointer    user_data)
{
  return TRUE;
}

static const char **
strv_of (GPtrArray *array)
{
  const char **strv = g_new0 (const char *, array->len + 1);

  for (guint i = 0; i < array->len; i++)
    strv[i] = g_ptr_array_index (array, i);
  return strv;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GPtrArray) allow = g_ptr_array_new ();
  g_autoptr(GPtrArray) deny = g_ptr_array_new ();
  g_autoptr(GPtrArray) ask = g_ptr_array_new ();
  g_autoptr(GPtrArray) servers = g_ptr_array_new ();
  g_autoptr(GPtrArray) checks = g_ptr_array_new ();
  g_autoptr(McpPermissions) permissions = NULL;
  g_autoptr(McpPermissions) without_allow = NULL;
  g_autoptr(McpPermissions) command_line = NULL;
  g_autoptr(McpPermissions) suspended = NULL;
  GPtrArray *lists[3];

  fuzz_abort_on_warnings ();

  /* Rules and names come from JSON strings: UTF-8 without a nul. */
  if (memchr (data, '\0', size) != NULL || !g_utf8_validate ((const char *) data, (gssize) size, NULL))
    return 0;

  text = g_strndup ((const char *) data, size);
  lines = g_strsplit (text, "\n", 200);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *line = lines[i];

      if (g_str_has_prefix (line, "allow:"))
        g_ptr_array_add (allow, line + 6);
      else if (g_str_has_prefix (line, "deny:"))
        g_ptr_array_add (deny, line + 5);
      else if (g_str_has_prefix (line, "ask:"))
        g_ptr_array_add (ask, line + 4);
      else if (g_str_has_prefix (line, "server:"))
        g_ptr_array_add (servers, line + 7);
      else if (g_str_has_prefix (line, "check:"))
        g_ptr_array_add (checks, line + 6);
    }
  lists[MCP_PERMISSION_ASK] = ask;
  lists[MCP_PERMISSION_ALLOW] = allow;
  lists[MCP_PERMISSION_DENY] = deny;
  {
    g_autofree const char **allow_v = strv_of (allow);
    g_autofree const char **deny_v = strv_of (deny);
    g_autofree const char **ask_v = strv_of (ask);
    g_autofree const char **servers_v = strv_of (servers);
    const char *none[] = { NULL };
    const char * const *notes;

    permissions = mcp_permissions_new_for_servers (allow_v, deny_v, ask_v, servers_v);
    without_allow = mcp_permissions_new_for_servers (none, deny_v, ask_v, servers_v);
    command_line = mcp_permissions_new_command_line ();
    /* the same rules, every tool changed since it was allowed */
    suspended = mcp_permissions_new_for_servers (allow_v, deny_v, ask_v, servers_v);
    mcp_permissions_set_changed_func (suspended, always_changed, NULL, NULL);

    /* what the permissions window refuses to write: a refusal says why,
     * in UTF-8 when the rule was */
    for (guint l = 0; l < G_N_ELEMENTS (lists); l++)
      for (guint i = 0; lists[l] != NULL && i < lists[l]->len; i++)
        {
          const char *rule = g_ptr_array_index (lists[l], i);
          g_autoptr(GError) error = NULL;

          if (mcp_permissions_check_rule (rule, &error))
            continue;
          if (error == NULL || error->message == NULL)
            fail ("a rule refused without a message");
          if (g_utf8_validate (rule, -1, NULL) && !g_utf8_validate (error->message, -1, NULL))
            fail ("a rule refused with a message that is not UTF-8");
        }

    notes = mcp_permissions_get_notes (permissions);
    for (guint i = 0; notes != NULL && notes[i] != NULL; i++)
      if (!g_utf8_validate (notes[i], -1, NULL))
        fail ("a note that is not UTF-8");
  }

  for (guint i = 0; i < checks->len; i++)
    {
      g_auto(GStrv) fields = g_strsplit (g_ptr_array_index (checks, i), "\t", 3);
      McpPermissionDecision decision = { 0 };
      McpPermissionDecision again = { 0 };
      McpPermissionDecision other = { 0 };
      McpPermissionDecision anything = { 0 };
      McpPermissionHints hints;

      if (g_strv_length (fields) < 2 || fields[0][0] == '\0' || fields[1][0] == '\0')
        continue;
      hints = fields[2] != NULL ? (McpPermissionHints) (g_ascii_strtoull (fields[2], NULL, 10) & 3) : 0;

      mcp_permissions_decide (permissions, fields[0], fields[1], hints, &decision);
      check_decision (&decision, lists, fields[0], hints);
      {
        g_autofree char *sentence = mcp_permission_decision_describe (&decision);

        if (sentence == NULL || !g_utf8_validate (sentence, -1, NULL))
          fail ("a description that is not UTF-8");
      }

      mcp_permissions_decide (permissions, fields[0], fields[1], hints, &again);
      if (again.permission != decision.permission || again.reason != decision.reason ||
          g_strcmp0 (again.rule, decision.rule) != 0)
        fail ("a decision that is not the same twice");

      mcp_permissions_decide (without_allow, fields[0], fields[1], hints, &other);
      if (decision.reason == MCP_PERMISSION_REASON_RULE && decision.permission != MCP_PERMISSION_ALLOW)
        {
          if (other.reason != MCP_PERMISSION_REASON_RULE || other.permission != decision.permission)
            fail ("the allow list changed what a deny or ask rule decided");
        }
      else if (other.reason == MCP_PERMISSION_REASON_RULE)
        fail ("an allow rule, or no rule, won over a deny or ask rule");

      /* a change suspends an allow rule, and nothing else */
      mcp_permissions_decide (suspended, fields[0], fields[1], hints, &other);
      if (decision.reason == MCP_PERMISSION_REASON_RULE && decision.permission == MCP_PERMISSION_ALLOW)
        {
          if (other.permission != MCP_PERMISSION_ASK ||
              other.reason != MCP_PERMISSION_REASON_CHANGED_SINCE_ALLOWED ||
              g_strcmp0 (other.rule, decision.rule) != 0)
            fail ("a changed tool's allow rule was not suspended");
        }
      else if (other.permission != decision.permission || other.reason != decision.reason)
        fail ("a change of the tool changed what no allow rule decided");

      mcp_permissions_decide (command_line, fields[0], fields[1], hints, &anything);
      if (anything.permission != MCP_PERMISSION_ALLOW ||
          anything.reason != MCP_PERMISSION_REASON_COMMAND_LINE)
        fail ("the command line does not allow");
    }

  return 0;
}
