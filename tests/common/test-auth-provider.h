/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-auth-provider.h"

G_BEGIN_DECLS

/* An McpAuthProvider for the transports' tests: it gives @token as the
 * Authorization header (NULL: none) and, when challenged, keeps the status
 * and WWW-Authenticate header (@last_status, @challenge), counts it
 * (@challenges) and answers @answer, having "signed in" (@token becomes
 * "Bearer good") when @answer is TRUE. */

#define TEST_TYPE_AUTH_PROVIDER (test_auth_provider_get_type ())
G_DECLARE_FINAL_TYPE (TestAuthProvider, test_auth_provider, TEST, AUTH_PROVIDER, GObject)

struct _TestAuthProvider
{
  GObject   parent_instance;
  char     *token;
  char     *challenge;
  guint     challenges;
  guint     last_status;
  gboolean  answer;
  /* message_answered: every answer, the 401/403 among them, and the
   * challenges handled before their answer was told (must stay 0) */
  guint     answered;
  guint     answered_challenges;
  guint     unnoted_challenges;
};

TestAuthProvider *test_auth_provider_new (const char *token);

G_END_DECLS
