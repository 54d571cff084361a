/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-uri-template"

#include "config.h"

#include <string.h>

#include "mcp-uri-template.h"

/* RFC 6570, appendix A: what each operator puts first and between, whether
 * its values are named, and whether reserved characters pass unescaped. */
typedef struct
{
  char        op;
  const char *first;
  const char *sep;
  gboolean    named;
  const char *ifemp;
  gboolean    reserved;
} Operator;

static const Operator operators[] = {
  { '\0', "",  ",", FALSE, "",  FALSE },
  { '+',  "",  ",", FALSE, "",  TRUE },
  { '#',  "#", ",", FALSE, "",  TRUE },
  { '.',  ".", ".", FALSE, "",  FALSE },
  { '/',  "/", "/", FALSE, "",  FALSE },
  { ';',  ";", ";", TRUE,  "",  FALSE },
  { '?',  "?", "&", TRUE,  "=", FALSE },
  { '&',  "&", "&", TRUE,  "=", FALSE },
};

/* The longest prefix modifier RFC 6570 allows (`:9999`). */
#define MAX_PREFIX 9999

static const Operator *
find_operator (const char **expression)
{
  for (guint i = 1; i < G_N_ELEMENTS (operators); i++)
    if (**expression == operators[i].op)
      {
        (*expression)++;
        return &operators[i];
      }

  return &operators[0];
}

/* A varspec's name without its modifiers; @prefix: the :N length, or -1
 * when there is none or it is not a number from 1 to 9999. */
static char *
varspec_name (const char *varspec,
              int        *prefix)
{
  const char *colon = strchr (varspec, ':');
  gsize len = colon != NULL ? (gsize) (colon - varspec) : strlen (varspec);

  if (prefix != NULL)
    {
      guint64 n = 0;

      *prefix = -1;
      if (colon != NULL &&
          g_ascii_string_to_unsigned (colon + 1, 10, 1, MAX_PREFIX, &n, NULL))
        *prefix = (int) n;
    }
  if (len > 0 && varspec[len - 1] == '*')
    len--;

  return g_strndup (varspec, len);
}

/* Calls @func with each expression's body (between the braces) in turn,
 * and @literal with the text between them; stops when @func returns
 * FALSE. */
typedef gboolean (*ExpressionFunc) (const char *body,
                                    gpointer    user_data);
typedef void     (*LiteralFunc)    (const char *text,
                                    gsize       len,
                                    gpointer    user_data);

static void
scan (const char     *uri_template,
      ExpressionFunc  func,
      LiteralFunc     literal,
      gpointer        user_data)
{
  const char *p = uri_template;

  while (*p != '\0')
    {
      const char *open = strchr (p, '{');
      const char *close = open != NULL ? strchr (open, '}') : NULL;
      g_autofree char *body = NULL;

      /* an unterminated expression is literal text */
      if (close == NULL)
        {
          if (literal != NULL)
            literal (p, strlen (p), user_data);
          return;
        }

      /* "{{a}": the expression is the innermost one, the first "{" text */
      for (const char *inner = open + 1; inner < close; inner++)
        if (*inner == '{')
          open = inner;

      if (literal != NULL && open > p)
        literal (p, (gsize) (open - p), user_data);
      body = g_strndup (open + 1, (gsize) (close - open - 1));
      if (!func (body, user_data))
        return;
      p = close + 1;
    }
}

typedef struct
{
  GPtrArray  *names;
  GHashTable *seen;
} Variables;

static gboolean
add_variables (const char *body,
               gpointer    user_data)
{
  Variables *variables = user_data;
  g_auto(GStrv) varspecs = NULL;

  find_operator (&body);
  varspecs = g_strsplit (body, ",", -1);
  for (guint i = 0; varspecs[i] != NULL; i++)
    {
      char *name = varspec_name (varspecs[i], NULL);

      if (variables->names->len >= MCP_URI_TEMPLATE_MAX_VARIABLES)
        {
          g_free (name);
          return FALSE;
        }
      if (*name == '\0' || g_hash_table_contains (variables->seen, name))
        {
          g_free (name);
          continue;
        }
      g_hash_table_add (variables->seen, name);
      g_ptr_array_add (variables->names, g_strdup (name));
    }

  return TRUE;
}

GStrv
mcp_uri_template_dup_variables (const char *uri_template)
{
  Variables variables;

  g_return_val_if_fail (uri_template != NULL, NULL);

  variables.names = g_ptr_array_new ();
  variables.seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  scan (uri_template, add_variables, NULL, &variables);
  g_hash_table_unref (variables.seen);
  g_ptr_array_add (variables.names, NULL);

  return (GStrv) g_ptr_array_free (variables.names, FALSE);
}

typedef struct
{
  GString    *out;
  GHashTable *values;
} Expansion;

static void
append_literal (const char *text,
                gsize       len,
                gpointer    user_data)
{
  Expansion *expansion = user_data;

  g_string_append_len (expansion->out, text, (gssize) len);
}

static gboolean
append_expression (const char *body,
                   gpointer    user_data)
{
  Expansion *expansion = user_data;
  const Operator *op = find_operator (&body);
  g_auto(GStrv) varspecs = g_strsplit (body, ",", -1);
  gboolean first = TRUE;

  for (guint i = 0; varspecs[i] != NULL; i++)
    {
      int prefix;
      g_autofree char *name = varspec_name (varspecs[i], &prefix);
      const char *value = NULL;
      g_autofree char *cut = NULL;
      g_autofree char *escaped = NULL;

      if (*name != '\0' && expansion->values != NULL)
        value = g_hash_table_lookup (expansion->values, name);
      if (value == NULL || *value == '\0')
        continue;

      if (prefix > 0 && g_utf8_validate (value, -1, NULL) &&
          g_utf8_strlen (value, -1) > prefix)
        value = cut = g_utf8_substring (value, 0, prefix);
      escaped = g_uri_escape_string (value, op->reserved ? ":/?#[]@!$&'()*+,;=" : NULL, FALSE);

      g_string_append (expansion->out, first ? op->first : op->sep);
      first = FALSE;
      if (op->named)
        {
          g_string_append (expansion->out, name);
          g_string_append (expansion->out, *escaped == '\0' ? op->ifemp : "=");
        }
      g_string_append (expansion->out, escaped);
    }

  return TRUE;
}

char *
mcp_uri_template_expand (const char *uri_template,
                         GHashTable *values)
{
  Expansion expansion;

  g_return_val_if_fail (uri_template != NULL, NULL);

  expansion.out = g_string_new (NULL);
  expansion.values = values;
  scan (uri_template, append_expression, append_literal, &expansion);

  return g_string_free (expansion.out, FALSE);
}
