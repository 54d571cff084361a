/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fuzz-skill"

#include "config.h"

#include "fuzz.h"

#include <string.h>

#include <json-glib/json-glib.h>

#include "mcp-skill.h"
#include "mcp-skill-private.h"

/* Skills over MCP (SEP-2640): a server's Skill entry and a SKILL.md.
 *
 * The input is an entry (JSON), a line "---8<---", then the SKILL.md's
 * bytes (without the line: the whole input is a SKILL.md). The entry is
 * read (mcp_skill_new_from_json(): accepted or refused with an error, no
 * crash); the SKILL.md's frontmatter is parsed (bounded); an accepted
 * entry's checks run on the bytes with its SKILL.md's digest and size, and
 * then with the bytes' own, so that the frontmatter comparison is reached:
 * a pass must mean the frontmatter is equal field by field. Warnings and
 * criticals are fatal. */

#define CUT "\n---8<---\n"

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  const char *text = (const char *) data;
  const char *cut = g_strstr_len (text, size, CUT);
  const char *skill_md = cut != NULL ? cut + strlen (CUT) : text;
  gsize skill_md_size = size - (skill_md - text);
  g_autoptr(GBytes) bytes = g_bytes_new (skill_md, skill_md_size);
  g_autoptr(JsonObject) parsed = NULL;
  g_autoptr(McpSkill) skill = NULL;
  g_autoptr(GError) error = NULL;

  fuzz_abort_on_warnings ();

  parsed = mcp_skill_parse_frontmatter (skill_md, skill_md_size, &error);
  g_assert_true ((parsed == NULL) != (error == NULL));
  g_clear_error (&error);

  if (cut != NULL)
    {
      g_autoptr(JsonParser) parser = json_parser_new ();

      if (json_parser_load_from_data (parser, text, cut - text, NULL)
          && JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
        {
          skill = mcp_skill_new_from_json (json_node_get_object (json_parser_get_root (parser)), &error);
          g_assert_true ((skill == NULL) != (error == NULL));
          g_clear_error (&error);
        }
    }

  if (skill != NULL && !mcp_skill_is_dynamic (skill))
    {
      g_autofree char *hex = g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) skill_md, skill_md_size);
      g_autofree char *own = g_strconcat ("sha256:", hex, NULL);
      const char *digest = NULL;
      gint64 listed = 0;
      gboolean ok;

      g_assert_true (mcp_skill_get_file_info (skill, mcp_skill_get_uri (skill), &digest, &listed));
      mcp_skill_verify_bytes (mcp_skill_get_uri (skill), bytes, digest, listed,
                              mcp_skill_get_frontmatter (skill), NULL);

      ok = mcp_skill_verify_bytes (mcp_skill_get_uri (skill), bytes, own, skill_md_size,
                                   mcp_skill_get_frontmatter (skill), &error);
      g_assert_true (ok == (error == NULL));
      if (ok)
        {
          g_autofree char *differences = NULL;

          g_assert_nonnull (parsed);
          differences = mcp_skill_compare_frontmatter (mcp_skill_get_frontmatter (skill), parsed);
          g_assert_null (differences);
        }
    }

  return 0;
}
