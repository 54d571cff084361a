/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-dpop"

#include "config.h"

#include "mcp-dpop.h"

/* CONTRACT STUB: the jose-dpop part replaces this file. */

struct _McpDPoP
{
  GObject     parent_instance;
  McpJoseKey *key;
};

G_DEFINE_FINAL_TYPE (McpDPoP, mcp_dpop, G_TYPE_OBJECT)

static void
mcp_dpop_finalize (GObject *object)
{
  McpDPoP *self = MCP_DPOP (object);

  g_clear_pointer (&self->key, mcp_jose_key_unref);
  G_OBJECT_CLASS (mcp_dpop_parent_class)->finalize (object);
}

static void
mcp_dpop_class_init (McpDPoPClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = mcp_dpop_finalize;
}

static void
mcp_dpop_init (McpDPoP *self)
{
}

McpDPoP *
mcp_dpop_new (McpJoseKey *key)
{
  McpDPoP *self = g_object_new (MCP_TYPE_DPOP, NULL);

  self->key = mcp_jose_key_ref (key);
  return self;
}

McpJoseKey *
mcp_dpop_get_key (McpDPoP *self)
{
  return self->key;
}

const char *
mcp_dpop_get_thumbprint (McpDPoP *self)
{
  return NULL;
}

char *
mcp_dpop_make_proof (McpDPoP    *self,
                     const char *method,
                     const char *url,
                     const char *access_token)
{
  return NULL;
}

void
mcp_dpop_apply (McpDPoP     *self,
                SoupMessage *message,
                const char  *access_token)
{
}

const char *
mcp_dpop_get_nonce (McpDPoP    *self,
                    const char *url)
{
  return NULL;
}

void
mcp_dpop_set_nonce (McpDPoP    *self,
                    const char *url,
                    const char *nonce)
{
}

gboolean
mcp_dpop_note_response (McpDPoP     *self,
                        SoupMessage *message)
{
  return FALSE;
}

gboolean
mcp_dpop_is_nonce_error (SoupMessage *message,
                         GBytes      *body)
{
  return FALSE;
}
